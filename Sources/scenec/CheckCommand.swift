import ArgumentParser
import SceneCommandLine
import SceneDiagnostics
import ScenePipeline
import SceneTesting

/// `scenec check`: loads scenes as `run` would and prints every diagnostic.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Check scene files and report every problem, clang-style.",
    discussion: """
      Loads each scene exactly as run and test do (.yaml/.yml, or .scene for the DSL):
      reads it, resolves every name and expression, compiles its expect: lines (handle
      names, members, event subjects, moments) and reads and validates every trace its
      gesture replays. Reports every independent error with file:line:col and a caret
      under the problem, with suggestions, and ends with a one-line summary. A folder is
      searched for scenes, as scenec test does; a missing file is reported and the others
      are still checked. Only what needs running (expect: outcomes) is left to test.

      Exit status: 0 when every scene is clean, 65 when any has errors, 66 when a file
      cannot be read and no scene has errors.

      Example:
        scenec check Scenes
        scenec check Scenes/wave.yaml Scenes/wave.scene
      """
  )

  @Argument(help: "Scene files or folders to check.")
  var paths: [String]

  @Option(help: "A folder traces may be read from besides each scene's own (repeatable).")
  var traceFolder: [String] = []

  func validate() throws {
    if paths.isEmpty { throw ValidationError("give at least one scene file or folder") }
    if let problem = TraceFolders.problems(traceFolder).first {
      throw ValidationError(problem)
    }
  }

  func run() throws {
    var problems: [String] = []
    let files = SceneTest.discover(paths, problems: &problems)
    var errorCount = 0
    var failedFiles = 0
    // A folder that cannot be searched is unreadable input, never "no errors".
    for problem in problems { printError("error: \(problem)") }
    var unreadable = problems.count
    for path in files {
      let loaded: ScenePipeline.Loaded
      do {
        loaded = try ScenePipeline.load(
          path: path, options: ScenePipeline.Options(traceFolders: traceFolder))
      } catch {
        printError("error: \(error.description)")
        unreadable += 1
        continue
      }
      if !loaded.diagnostics.isEmpty { printError(loaded.rendered(), terminator: "") }
      let errors = loaded.diagnostics.filter { $0.severity == .error }.count
      errorCount += errors
      if errors > 0 { failedFiles += 1 }
    }
    let scenes = files.count == 1 ? "1 scene" : "\(files.count) scenes"
    if errorCount == 0 && unreadable == 0 {
      try StandardOutput.write("\(scenes) checked: no errors")
      return
    }
    var parts: [String] = []
    if errorCount > 0 {
      parts.append(
        "\(errorCount) error\(errorCount == 1 ? "" : "s") in \(failedFiles) of \(scenes)")
    }
    if unreadable > 0 { parts.append("\(unreadable) unreadable") }
    printError(parts.joined(separator: ", "))
    throw unreadable > 0 && errorCount == 0 ? Sysexits.noInput : Sysexits.dataError
  }
}
