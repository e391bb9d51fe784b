import Foundation
import SceneTestSupport
import Testing

/// `scenec run --input NAME=VALUE`: a scene's input starts at another value, checked as
/// the scene declares it; a bad one is a usage error that says what is wrong.
@Suite struct InputOptionTests {
  static let pullToRefresh = RunCommandTests.root.appendingPathComponent(
    "Scenes/pull-to-refresh.yaml"
  ).path

  /// A scene whose dot sits at `100 × level` and is lit (`y` 50) while `lit`.
  static let scene = """
    scene: { size: 200x100, duration: 0.1s }
    inputs:
      level: { value: 0.5, min: 0, max: 1 }
      lit: false
    handles:
      dot: { position: "(100 * level, lit ? 50 : 0)", r: 4 }
    """

  @Test func anInputGivenOnTheCommandLineStartsAtThatValue() throws {
    let folder = try makeScratchFolder("scenec-input")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("dot.yaml").path
    try Self.scene.write(toFile: file, atomically: true, encoding: .utf8)
    func dot(_ arguments: [String]) throws -> (Double, Double) {
      let run = try ScenecProcess.run(["run", file, "--frame", "0"] + arguments)
      #expect(run.status == 0, "\(run.stderr)")
      let frame = try #require(
        try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
      let dot = try #require((frame["handles"] as? [String: Any])?["dot"] as? [String: Any])
      return (try #require(dot["x"] as? Double), try #require(dot["y"] as? Double))
    }
    #expect(try dot([]) == (50, 0))
    #expect(try dot(["--input", "level=0.8", "--input", "lit=true"]) == (80, 50))
    let outside = try ScenecProcess.run(["run", file, "--input", "level=2"])
    #expect(outside.status == 64)
    #expect(
      outside.stderr == "error: --input level=2: input 'level' must be between 0 and 1, found 2\n")
  }

  @Test(arguments: [
    (
      "loadin=true", "error: --input loadin=true: unknown input 'loadin'; did you mean 'loading'?\n"
    ),
    (
      "loading=maybe",
      "error: --input loading=maybe: input 'loading' is true or false, found 'maybe'\n"
    ),
  ])
  func aBadInputIsAUsageErrorWordForWord(argument: String, message: String) throws {
    let run = try ScenecProcess.run(["run", Self.pullToRefresh, "--input", argument])
    #expect(run.status == 64)
    #expect(run.stderr == message)
    #expect(run.stdout == "")
  }

  @Test func anInputWithoutAValueIsRefusedBeforeLoading() throws {
    let run = try ScenecProcess.run(["run", Self.pullToRefresh, "--input", "loading"])
    #expect(run.status == 64)
    #expect(
      run.stderr.hasPrefix(
        "Error: --input takes NAME=VALUE, such as --input loading=true; found 'loading'\n"))
  }
}
