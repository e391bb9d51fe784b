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
    try "handles:\n  ball: { positon: [1, 2], hitRadius: big }\n".write(
      to: file, atomically: true, encoding: .utf8)
    let result = try ScenecProcess.run(["check", file.path])
    #expect(result.status == 65)
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        \(file.path):2:11: error: unknown key 'positon' in handle 'ball'; did you mean 'position'?
              ball: { positon: [1, 2], hitRadius: big }
                      ^~~~~~~
        \(file.path):2:39: error: expected a number for 'hitRadius', found 'big'
              ball: { positon: [1, 2], hitRadius: big }
                                                  ^~~
        2 errors in 1 of 1 scene

        """)
  }

  @Test func expectationsThatCanNeverMeanWhatTheySayAreRefused() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("w.yaml")
    let head = "scene: { duration: 1s, fps: 10 }\nhandles:\n  h: { position: [10, 0] }\nexpect:\n"
    try (head + "  - always h.x == 10 during 0s...1s\n").write(
      to: file, atomically: true, encoding: .utf8)
    let dots = try ScenecProcess.run(["check", file.path])
    #expect(dots.status == 65)
    #expect(
      dots.stderr == """
        \(file.path):5:31: error: a window has two dots between its times (such as 0.5s..1s), found 3
              - always h.x == 10 during 0s...1s
                                          ^~~
        1 error in 1 of 1 scene

        """)
    try (head + "  - at 0s: h.x ≈ 10 ± -1\n  - max 1/0 during 0s..1s < 5\n  - at 0s: h.x < 0/0\n")
      .write(to: file, atomically: true, encoding: .utf8)
    let values = try ScenecProcess.run(["check", file.path])
    #expect(values.status == 65)
    #expect(
      values.stderr == """
        \(file.path):5:23: error: a tolerance must not be negative, found -1
              - at 0s: h.x ≈ 10 ± -1
                                  ^~
        \(file.path):6:9: error: this is always inf, not a finite number; an expectation compares finite numbers
              - max 1/0 during 0s..1s < 5
                    ^~~
        \(file.path):7:18: error: this is always nan, not a finite number; an expectation compares finite numbers
              - at 0s: h.x < 0/0
                             ^~~
        3 errors in 1 of 1 scene

        """)
  }

  @Test func aBareTimeThatLooksLikeMillisecondsIsWarnedAbout() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("t.yaml")
    let scene = """
      springs:
        s: { duration: 400, dampingRatio: 1 }
        t: { duration: 400ms, dampingRatio: 1 }
      handles:
        h: { position: [1, 2], draggable: true }
      gesture:
        - press: h
        - drag: { by: [1, 1], over: 100 }
        - drag: { by: [1, 1], over: 100s }
        - wait: 0.5
        - release

      """
    try scene.write(to: file, atomically: true, encoding: .utf8)
    let result = try ScenecProcess.run(["check", file.path])
    #expect(result.status == 0)
    #expect(result.stdout == "1 scene checked: no errors\n")
    #expect(
      result.stderr == """
        \(file.path):2:18: warning: 'duration' is 400 seconds, as a bare number is seconds; write 400ms for milliseconds, or 400s to keep seconds without this warning
              s: { duration: 400, dampingRatio: 1 }
                             ^~~
        \(file.path):8:31: warning: 'over' is 100 seconds, as a bare number is seconds; write 100ms for milliseconds, or 100s to keep seconds without this warning
              - drag: { by: [1, 1], over: 100 }
                                          ^~~

        """)
  }

  /// Name errors come in the same run as the others, and a reference to a definition
  /// that failed is not reported again.
  @Test func checkReportsNameErrorsWithTheOthersInOneRun() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("p.yaml")
    try """
    springs:
      s: { duration: 0.5s, dampingRatio: oops }
    handles:
      ball: { position: [1, 2], r: 5, draggable: true }
      dot: { position: [5, 5], r: -5 }
    constraints:
      - elastic: { handle: ball, return: s }
      - elastic: { handle: dott, return: s }
    expect:
      - at 0s: ball.z > 1

    """.write(to: file, atomically: true, encoding: .utf8)
    let result = try ScenecProcess.run(["check", file.path])
    #expect(result.status == 65)
    #expect(
      result.stderr == """
        \(file.path):2:38: error: expected a number for 'dampingRatio', found 'oops'
              s: { duration: 0.5s, dampingRatio: oops }
                                                 ^~~~
        \(file.path):5:31: error: handle 'dot': radius must not be negative, found -5
              dot: { position: [5, 5], r: -5 }
                                          ^~
        \(file.path):8:24: error: unknown handle 'dott'; did you mean 'dot'?
              - elastic: { handle: dott, return: s }
                                   ^~~~
        \(file.path):10:12: error: 'ball' has no member 'z'; expected x, y, angle, cornerRadius, height, opacity, r, rotation, scale, scaleX, scaleY, speed, state, strokeWidth, vx, vy or width
              - at 0s: ball.z > 1
                       ^~~~~~
        4 errors in 1 of 1 scene

        """)
  }

  @Test func checkOfAMissingFileExits66() throws {
    let result = try ScenecProcess.run(["check", "/nonexistent/scene.yaml"])
    #expect(result.status == 66)
    #expect(
      result.stderr == "error: cannot read '/nonexistent/scene.yaml': no such file\n1 unreadable\n")
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

  /// `hold` and `wait` are one step; each is written back as it was written.
  @Test func fmtKeepsHoldAndWaitAsWritten() throws {
    let dir = try scratch()
    let file = dir.appendingPathComponent("held.yaml")
    try """
    handles:
      ball: { position: [10, 20], r: 5, draggable: true }
    gesture:
      - press: ball
      - hold: 0.2s
      - release
      - wait: 1s

    """.write(to: file, atomically: true, encoding: .utf8)
    let yaml = try ScenecProcess.run(["fmt", file.path])
    #expect(yaml.stdout.contains("  - hold: 0.2s\n  - release\n  - wait: 1s\n"), "\(yaml.stdout)")
    let dsl = try ScenecProcess.run(["fmt", file.path, "--to", "dsl"])
    #expect(dsl.stdout.contains("  hold 0.2s\n  release\n  wait 1s\n"), "\(dsl.stdout)")
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

  /// fmt writes back what the user wrote: path data as written (arcs and relative
  /// commands were once turned into 17-digit cubics), shorthand as shorthand.
  @Test func formattingKeepsPathDataAndShorthandAsWritten() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("s.yaml")
    try Data(
      """
      paths:
        arc: { d: "M10 10 a 40 25 30 1 1 80 50 h-20 z" }
      handles:
        dot: { position: [10, 10], draggable: true }
      constraints:
        - elastic: { handle: dot, resistance: rubberband }

      """.utf8
    ).write(to: file)
    let yaml = try ScenecProcess.run(["fmt", file.path])
    #expect(yaml.status == 0, "\(yaml.stderr)")
    #expect(yaml.stdout.contains(#"d: "M10 10 a 40 25 30 1 1 80 50 h-20 z""#))
    #expect(yaml.stdout.contains("resistance: rubberband"))
    let dsl = try ScenecProcess.run(["fmt", file.path, "--to", "dsl"])
    #expect(dsl.stdout.contains(#"path arc d="M10 10 a 40 25 30 1 1 80 50 h-20 z""#))
    #expect(dsl.stdout.contains("elastic dot resistance=rubberband"))
  }

  /// `check` takes folders, and a missing file among the paths still lets every other be
  /// checked, with the summary line.
  @Test func checkSearchesFoldersAndReportsEveryFile() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data("handles:\n  ball: { position: [1, 2] }\n".utf8).write(
      to: dir.appendingPathComponent("good.yaml"))
    try Data("handles:\n  ball: { position: [1, 2] }\nexpect:\n  - \"at end: bal.x < 3\"\n".utf8)
      .write(
        to: dir.appendingPathComponent("bad.yaml"))
    let missing = dir.appendingPathComponent("missing.yaml").path
    let result = try ScenecProcess.run(["check", dir.path, missing])
    #expect(result.status == 65)
    let bad = dir.appendingPathComponent("bad.yaml").path
    #expect(
      result.stderr == """
        \(bad):4:14: error: unknown name 'bal'; did you mean 'ball'?
              - "at end: bal.x < 3"
                         ^~~
        error: cannot read '\(missing)': no such file
        1 error in 1 of 3 scenes, 1 unreadable

        """)
  }

  /// Recording a scene whose own expectations fail is a test failure (exit 1) that says
  /// nothing was recorded, not an invalid scene (65).
  @Test func recordingAFailingSceneIsATestFailure() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = dir.appendingPathComponent("s.yaml")
    try Data("handles:\n  ball: { position: [1, 2] }\nexpect:\n  - \"at end: ball.x > 3\"\n".utf8)
      .write(to: scene)
    let result = try ScenecProcess.run(["test", scene.path, "--record"])
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        FAIL \(scene.path): not recorded, because its own expectations fail
        \(scene.path):4:6: error: expectation failed: at end: ball.x > 3: was 1 at t = 0
              - "at end: ball.x > 3"
                 ^~~~~~~~~~~~~~~~~~
        0 passed, 1 failed

        """)
    #expect(
      !FileManager.default.fileExists(atPath: dir.appendingPathComponent("__snapshots__").path))
  }

  /// Comments written on lines of their own before an item survive fmt, in both syntaxes
  /// and back; a comment before a section goes with its first item.
  @Test func commentsBeforeItemsSurviveFormattingBothWays() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let yaml = dir.appendingPathComponent("c.yaml")
    try Data(
      """
      # The header.

      handles:
        # the ball
        ball: { position: [60, 200], r: 18, draggable: true }
      gesture:
        - press: ball
        # pull down slowly
        - drag: { by: [0, 100], over: 0.5s }
      # it comes back
      expect:
        - "at end: all at rest"

      """.utf8
    ).write(to: yaml)
    let dsl = try ScenecProcess.run(["fmt", yaml.path, "--to", "dsl"])
    #expect(
      dsl.stdout == """
        # The header.

        # the ball
        handle ball position=(60, 200) r=18 draggable

        gesture
          press ball
          # pull down slowly
          drag by=(0, 100) over=0.5s

        # it comes back
        expect at end: all at rest

        """)
    let scene = dir.appendingPathComponent("c.scene")
    try Data(dsl.stdout.utf8).write(to: scene)
    let back = try ScenecProcess.run(["fmt", scene.path, "--to", "yaml"])
    #expect(back.stdout.contains("handles:\n  # the ball\n  ball:"))
    #expect(back.stdout.contains("  - press: ball\n  # pull down slowly\n  - drag:"))
    #expect(back.stdout.contains("expect:\n  # it comes back\n  - \"at end: all at rest\""))
  }
}

/// `scenec fmt --check`: for CI, names what is not canonical and writes nothing.
@Suite struct FormatCheckTests {
  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-fmt-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Every scene in `Scenes/` is kept in canonical form.
  @Test func theScenesAreCanonical() throws {
    let run = try ScenecProcess.run(
      ["fmt", "--check", RunCommandTests.root.appendingPathComponent("Scenes").path])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout == "")
  }

  @Test func aSceneNotInCanonicalFormIsNamedAndLeftAlone() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let messy = folder.appendingPathComponent("messy.yaml")
    let text = "handles:\n  ball:   { position: [1,2], r: 3 }\n"
    try text.write(to: messy, atomically: true, encoding: .utf8)
    let tidy = folder.appendingPathComponent("tidy.scene")
    try "handle ball position=(1, 2) r=3\n".write(to: tidy, atomically: true, encoding: .utf8)
    let run = try ScenecProcess.run(["fmt", "--check", folder.path])
    #expect(run.status == 1)
    #expect(run.stdout == messy.path + "\n")
    #expect(
      run.stderr
        == "1 of 2 scenes are not in canonical form; scenec fmt FILE -w rewrites one\n")
    #expect(try String(contentsOf: messy, encoding: .utf8) == text)
    // Rewritten, it passes.
    #expect(try ScenecProcess.run(["fmt", messy.path, "-w"]).status == 0)
    #expect(try ScenecProcess.run(["fmt", "--check", folder.path]).status == 0)
  }

  @Test func aSceneWithErrorsOrMissingIsNotCanonicalOrNot() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("bad.yaml")
    try "scene: { fps: fast }\n".write(to: bad, atomically: true, encoding: .utf8)
    let run = try ScenecProcess.run(["fmt", "--check", bad.path])
    #expect(run.status == 65)
    #expect(run.stderr.contains("bad.yaml:1:15: error: expected a number for 'fps', found 'fast'"))
    let missing = try ScenecProcess.run([
      "fmt", "--check", folder.appendingPathComponent("no.yaml").path,
    ])
    #expect(missing.status == 66)
  }

  @Test func checkWritesNothingSoItTakesNoWritingOptions() throws {
    let run = try ScenecProcess.run(["fmt", "--check", "-w", "Scenes/wave.yaml"])
    #expect(run.status == 64)
    #expect(
      run.stderr.contains("--check writes nothing and keeps each file's syntax; give it alone"))
    let two = try ScenecProcess.run(["fmt", "a.yaml", "b.yaml"])
    #expect(two.status == 64)
    #expect(two.stderr.contains("give one scene file, or --check to check several"))
  }
}
