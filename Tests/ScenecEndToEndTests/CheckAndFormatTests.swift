import Foundation
import Testing

@Suite struct CheckAndFormatTests {
  /// A fresh directory for files a test writes.
  func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  let scene = """
    # A ball.
    handles:
      ball: { position: [10, 20], r: 5, draggable: true }
    gesture:
      - press: ball
      - release
    """

  @Test func checkPassesACleanScene() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("ball.yaml")
    try scene.write(to: file, atomically: true, encoding: .utf8)
    let result = try ScenecProcess.run(["check", file.path])
    #expect(result.status == 0)
    #expect(result.stdout == "1 scene checked: no errors\n")
    #expect(result.stderr == "")
  }

  @Test func checkReportsEveryErrorWithCaretsAndExits65() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("bad.yaml")
    try "handles:\n  ball: { positon: [1, 2], r: big }\n".write(to: file, atomically: true, encoding: .utf8)
    let result = try ScenecProcess.run(["check", file.path])
    #expect(result.status == 65)
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        \(file.path):2:11: error: unknown key 'positon' in handle 'ball'; did you mean 'position'?
              ball: { positon: [1, 2], r: big }
                      ^~~~~~~
        \(file.path):2:31: error: expected a number for 'r', found 'big'
              ball: { positon: [1, 2], r: big }
                                          ^~~
        2 errors in 1 of 1 scene

        """)
  }

  @Test func checkOfAMissingFileExits66() throws {
    let result = try ScenecProcess.run(["check", "/nonexistent/scene.yaml"])
    #expect(result.status == 66)
    #expect(result.stderr == "error: cannot read '/nonexistent/scene.yaml': no such file\n1 unreadable\n")
  }

  @Test func fmtConvertsToTheDSLAndBack() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("ball.yaml")
    try scene.write(to: file, atomically: true, encoding: .utf8)
    let dsl = try ScenecProcess.run(["fmt", file.path, "--to", "dsl"])
    #expect(dsl.status == 0)
    #expect(
      dsl.stdout == """
        # A ball.

        handle ball position=(10, 20) r=5 draggable

        gesture
          press ball
          release

        """)
    let twin = dir.appendingPathComponent("ball.scene")
    try dsl.stdout.write(to: twin, atomically: true, encoding: .utf8)
    let back = try ScenecProcess.run(["fmt", twin.path, "--to", "yaml"])
    let canonical = try ScenecProcess.run(["fmt", file.path])
    #expect(back.status == 0)
    #expect(back.stdout == canonical.stdout)
  }

  @Test func fmtWriteReplacesTheFileOrWritesTheTwin() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("ball.yaml")
    try scene.write(to: file, atomically: true, encoding: .utf8)
    #expect(try ScenecProcess.run(["fmt", file.path, "-w"]).status == 0)
    let formatted = try String(contentsOf: file, encoding: .utf8)
    #expect(formatted.hasPrefix("# A ball.\n\nhandles:\n"))
    #expect(try ScenecProcess.run(["fmt", file.path, "--to", "dsl", "-w"]).status == 0)
    let twin = try String(contentsOf: dir.appendingPathComponent("ball.scene"), encoding: .utf8)
    #expect(twin.contains("handle ball position=(10, 20) r=5 draggable"))
    // Nothing else was left behind: no temporary files.
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(names == ["ball.scene", "ball.yaml"])
  }

  @Test func fmtOfABadSceneChangesNothing() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("bad.scene")
    let text = "handle ball position=(1, 2\n"
    try text.write(to: file, atomically: true, encoding: .utf8)
    let result = try ScenecProcess.run(["fmt", file.path, "-w"])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("\(file.path):1:22: error: unclosed '('\n"))
    #expect(try String(contentsOf: file, encoding: .utf8) == text)
  }

  @Test func anUnknownExtensionIsExplained() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("ball.txt")
    try scene.write(to: file, atomically: true, encoding: .utf8)
    let result = try ScenecProcess.run(["check", file.path])
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix(
        "error: cannot tell the syntax of '\(file.path)': use a .yaml, .yml or .scene file name\n"))
  }
}
