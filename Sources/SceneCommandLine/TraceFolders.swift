import SceneDiagnostics
import SceneFiles

/// `--trace-folder`, checked the same way by every command that takes it.
public enum TraceFolders {
  /// Why each of `folders` cannot be a trace folder (missing, or not a folder), one
  /// message each; empty when all can.
  ///
  /// A folder that is not there allows nothing, and used to be accepted silently.
  public static func problems(_ folders: [String]) -> [String] {
    folders.compactMap { folder in
      let shown = "'" + TerminalText.escaped(folder) + "'"
      switch InputFile.kind(atPath: folder) {
      case .directory: return nil
      case nil: return "--trace-folder \(shown): no such folder"
      case .regularFile, .other: return "--trace-folder \(shown): not a folder"
      }
    }
  }
}
