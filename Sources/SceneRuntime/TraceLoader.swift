import Foundation
import SceneDiagnostics
import SceneGraph
import SceneSyntax

/// Reads the trace files a scene's gesture replays, relative to the scene file.
public enum TraceLoader {
  /// The traces of every `replay` step, keyed by the file name as the scene wrote it,
  /// with the source files read (for rendering their errors).
  ///
  /// Every unreadable or malformed trace is reported: a missing file at the `replay`
  /// step, a malformed one at its own line and column.
  public static func load(for graph: SceneGraph, sceneFile: String) -> (
    traces: [String: TraceFile], files: [SourceFile], diagnostics: [Diagnostic]
  ) {
    let directory = URL(fileURLWithPath: sceneFile).deletingLastPathComponent()
    var traces: [String: TraceFile] = [:]
    var files: [SourceFile] = []
    var diagnostics: [Diagnostic] = []
    for track in graph.gesture {
      for step in track.steps {
        guard case .replay(let name) = step.kind, traces[name.value] == nil else { continue }
        let url =
          name.value.hasPrefix("/") ? URL(fileURLWithPath: name.value) : directory.appendingPathComponent(name.value)
        guard let data = try? Data(contentsOf: url), data.count <= 64 << 20,
          let text = String(data: data, encoding: .utf8)
        else {
          diagnostics.append(
            .error("cannot read the trace '\(name.value)' (looked for \(url.path))", at: name.source.span))
          continue
        }
        files.append(SourceFile(name: url.path, text: text))
        do {
          traces[name.value] = try TraceFile.parse(text, name: url.path)
        } catch {
          diagnostics.append(error.diagnostic)
        }
      }
    }
    return (traces, files, diagnostics)
  }
}
