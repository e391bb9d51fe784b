import ArgumentParser
import SceneDiagnostics
import SceneGraph
import SceneSyntax

/// `scenec check`: parses scenes and prints every diagnostic.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Parse scene files and report every problem, clang-style.",
    discussion: """
      Reads and resolves each scene (.yaml/.yml, or .scene for the DSL), reports every
      independent error with file:line:col and a caret under the problem (unknown keys
      and names with suggestions, values out of range, clashes), and ends with a one-line
      summary. Exit status: 0 when every scene is clean, 65 when any has errors, 66 when
      a file cannot be read.

      Example:
        scenec check Scenes/wave.yaml Scenes/wave.scene
      """
  )

  @Argument(help: "Scene files to check.")
  var files: [String]

  func validate() throws {
    if files.isEmpty { throw ValidationError("give at least one scene file") }
  }

  func run() throws {
    var renderer = DiagnosticRenderer()
    var errorCount = 0
    var failedFiles = 0
    var unreadable = 0
    for path in files {
      let result: SceneLoader.Result
      do {
        result = try SceneLoader.load(path: path)
      } catch {
        printError("error: \(error.description)")
        unreadable += 1
        continue
      }
      if let file = result.file { renderer.add(file) }
      var diagnostics = result.diagnostics
      // A scene that parsed is also resolved: dangling names, ranges, clashes.
      if let spec = result.spec { diagnostics += SceneResolver.resolve(spec).errors.map(\.diagnostic) }
      if !diagnostics.isEmpty { printError(renderer.render(diagnostics), terminator: "") }
      let errors = diagnostics.filter { $0.severity == .error }.count
      errorCount += errors
      if errors > 0 { failedFiles += 1 }
    }
    let scenes = files.count == 1 ? "1 scene" : "\(files.count) scenes"
    if errorCount == 0 && unreadable == 0 {
      print("\(scenes) checked: no errors")
      return
    }
    var parts: [String] = []
    if errorCount > 0 {
      parts.append("\(errorCount) error\(errorCount == 1 ? "" : "s") in \(failedFiles) of \(scenes)")
    }
    if unreadable > 0 { parts.append("\(unreadable) unreadable") }
    printError(parts.joined(separator: ", "))
    throw unreadable > 0 && errorCount == 0 ? Sysexits.noInput : Sysexits.dataError
  }
}
