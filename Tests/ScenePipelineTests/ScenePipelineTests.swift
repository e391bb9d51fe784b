import Foundation
import SceneDiagnostics
import SceneGraph
import ScenePipeline
import SceneRuntime
import Testing

/// The one entry point reports everything a scene gets wrong before it runs: syntax,
/// names, expectations and traces, each at its place.
@Suite struct ScenePipelineTests {
  /// A fresh folder holding `files` (name → text), removed by the caller.
  static func folder(_ files: [String: String]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-pipeline-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (name, text) in files {
      let file = url.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    return url
  }

  static let ball = """
    handles:
      ball: { position: [100, 100], shape: circle, r: 10, draggable: true }
    """

  func rendered(_ files: [String: String], scene: String = "s.yaml") throws -> String {
    let dir = try Self.folder(files)
    defer { try? FileManager.default.removeItem(at: dir) }
    let loaded = try ScenePipeline.load(path: dir.appendingPathComponent(scene).path)
    #expect(loaded.graph == nil)
    return loaded.rendered().replacingOccurrences(of: dir.path + "/", with: "")
  }

  @Test func badExpectationNamesAreLocatedWithSuggestions() throws {
    let text = Self.ball + "\nexpect:\n  - \"at end: bal.x < 3\"\n  - \"no event grab of balll\"\n"
    #expect(
      try rendered(["s.yaml": text]) == """
        s.yaml:4:14: error: unknown name 'bal'; did you mean 'ball'?
              - "at end: bal.x < 3"
                         ^~~
        s.yaml:5:23: error: unknown handle 'balll' in 'grab of balll'; did you mean 'ball'?
              - "no event grab of balll"
                                  ^~~~~

        """)
  }

  @Test func animatedPropertiesAreCheckedWithTheirPlaces() throws {
    let text = """
      springs:
        snappy: { dampingRatio: 0.7, duration: 0.3s }
      handles:
        a: { position: [10, 10], r: 5, scale: { to: 2, spring: snapy } }
        b: { position: [10, 10], r: 5, scale: { to: 2 } }
        c: { position: [10, 10], r: 5, rotation: { spring: snappy } }
        d: { position: [10, 10], r: 5, opacity: "(1, 2)" }
        e: { position: [10, 10], r: 5, rotaton: 5deg }

      """
    #expect(
      try rendered(["s.yaml": text]) == """
        s.yaml:4:58: error: unknown spring 'snapy'; did you mean 'snappy'?
              a: { position: [10, 10], r: 5, scale: { to: 2, spring: snapy } }
                                                                     ^~~~~
        s.yaml:5:41: error: 'scale' needs 'spring' (the name of a spring) or 'duration' (a tween) to follow 'to'
              b: { position: [10, 10], r: 5, scale: { to: 2 } }
                                                    ^
        s.yaml:6:44: error: 'rotation' needs 'to', the value the spring or tween follows
              c: { position: [10, 10], r: 5, rotation: { spring: snappy } }
                                                       ^
        s.yaml:7:44: error: the opacity of handle 'd' must be a number, found a point
              d: { position: [10, 10], r: 5, opacity: "(1, 2)" }
                                                       ^~~~~~
        s.yaml:8:34: error: unknown key 'rotaton' in handle 'e'; did you mean 'rotation'?
              e: { position: [10, 10], r: 5, rotaton: 5deg }
                                             ^~~~~~~

        """)
  }

  @Test func fingerIndicesAndPinchMembersAreCheckedWithTheirPlaces() throws {
    let text = """
      handles:
        a: { position: "(pointers[x].x, 0)" }
        b: { position: "(pointers[1.5].x, 0)" }
        c: { position: "(pointers[1.x, 0)" }
        d: { position: "(pointers[12].x, 0)" }
        e: { position: "(pinch.centre.x, 0)" }

      """
    #expect(
      try rendered(["s.yaml": text]) == """
        s.yaml:2:29: error: expected a whole number from 0 in '[ ]', found 'x'
              a: { position: "(pointers[x].x, 0)" }
                                        ^
        s.yaml:3:29: error: expected a whole number from 0 in '[ ]', found '1.5'
              b: { position: "(pointers[1.5].x, 0)" }
                                        ^~~
        s.yaml:4:30: error: expected ']' to close '[', found '.'
              c: { position: "(pointers[1.x, 0)" }
                                         ^
        s.yaml:5:20: error: 'pointers' has no [12]; its indices are 0 to 9
              d: { position: "(pointers[12].x, 0)" }
                               ^~~~~~~~~~~~
        s.yaml:6:20: error: 'pinch' has no member 'centre'; expected active, center, rotation, scale or start
              e: { position: "(pinch.centre.x, 0)" }
                               ^~~~~~~~~~~~

        """)
  }

  @Test func twoFingerStepsAreCheckedWithTheirPlaces() throws {
    let text = """
      gesture:
        0:
          - pinch: { scale: 2, center: [200, 200] }
          - pinch: { center: [200, 200] }
          - rotate: { by: 1, centre: [1, 1] }
          - pinch: { scale: "(1, 2)", center: [200, 200] }
        1:
          - wait: 1s

      """
    #expect(
      try rendered(["s.yaml": text]) == """
        s.yaml:3:7: error: a 'pinch' of finger 0 moves fingers 0 and 1, but finger 1 has its own steps
                - pinch: { scale: 2, center: [200, 200] }
                  ^~~~~
        s.yaml:4:7: error: 'pinch' needs 'scale', what the distance between the fingers is multiplied by
                - pinch: { center: [200, 200] }
                  ^~~~~
        s.yaml:5:24: error: unknown key 'centre' in 'rotate'; did you mean 'center'?
                - rotate: { by: 1, centre: [1, 1] }
                                   ^~~~~~
        s.yaml:6:7: error: a 'pinch' of finger 0 moves fingers 0 and 1, but finger 1 has its own steps
                - pinch: { scale: "(1, 2)", center: [200, 200] }
                  ^~~~~
        s.yaml:6:24: error: the scale of a pinch must be a number, found a point
                - pinch: { scale: "(1, 2)", center: [200, 200] }
                                   ^~~~~~

        """)
  }

  @Test func animatedColorsAreCheckedWithTheirPlaces() throws {
    let text = """
      springs:
        snappy: { dampingRatio: 0.7, duration: 0.3s }
      handles:
        a: { position: [10, 10], r: 5, fill: "mux(#fff, #000, 1)" }
        b: { position: [10, 10], r: 5, fill: "mix(#ffg, #000, 1)" }
        c: { position: [10, 10], r: 5, fill: "mix(#fff, #000)" }
        d: { position: [10, 10], r: 5, stroke: "mix(#fff, #000, pointr.down)" }
        e: { position: [10, 10], r: 5, fill: { to: "mix(#fff, #000, 1)" } }

      """
    #expect(
      try rendered(["s.yaml": text]) == """
        s.yaml:4:41: error: expected a color for 'fill' (#rgb, #rrggbb, #rrggbbaa or a name such as white), found 'mux(#fff, #000, 1)'
              a: { position: [10, 10], r: 5, fill: "mux(#fff, #000, 1)" }
                                                    ^~~~~~~~~~~~~~~~~~
        s.yaml:5:41: error: expected a color (#rgb, #rrggbb, #rrggbbaa or a name such as white) in 'fill', found '#ffg'
              b: { position: [10, 10], r: 5, fill: "mix(#ffg, #000, 1)" }
                                                    ^~~~~~~~~~~~~~~~~~
        s.yaml:6:41: error: expected mix(FROM, TO, FRACTION) for 'fill', as mix(#0a84ff, #0060df, pressed), found 'mix(#fff, #000)'
              c: { position: [10, 10], r: 5, fill: "mix(#fff, #000)" }
                                                    ^~~~~~~~~~~~~~~
        s.yaml:7:59: error: unknown name 'pointr'; did you mean 'pointer'?
              d: { position: [10, 10], r: 5, stroke: "mix(#fff, #000, pointr.down)" }
                                                                      ^~~~~~
        s.yaml:8:40: error: 'fill' needs 'spring' (the name of a spring) or 'duration' (a tween) to follow 'to'
              e: { position: [10, 10], r: 5, fill: { to: "mix(#fff, #000, 1)" } }
                                                   ^

        """)
  }

  @Test func trimsAreCheckedWithTheirPlaces() throws {
    let text = """
      paths:
        a: { d: "M0 0 L10 0", trim: {} }
        b: { d: "M0 0 L10 0", trim: { end: "(1, 2)" } }
        c: { d: "M0 0 L10 0", trim: { ende: 1 } }

      """
    #expect(
      try rendered(["s.yaml": text]) == """
        s.yaml:2:31: error: 'trim' needs 'start', 'end' or both (fractions of the path's length)
              a: { d: "M0 0 L10 0", trim: {} }
                                          ^
        s.yaml:3:39: error: the end of the trim of path 'b' must be a number, found a point
              b: { d: "M0 0 L10 0", trim: { end: "(1, 2)" } }
                                                  ^~~~~~
        s.yaml:4:33: error: unknown key 'ende' in 'trim'; did you mean 'end'?
              c: { d: "M0 0 L10 0", trim: { ende: 1 } }
                                            ^~~~

        """)
  }

  @Test func expectationsMayReadStateRadiusAndVelocity() throws {
    let text =
      Self.ball
      + "\nexpect:\n  - \"at end: ball.state == idle\"\n  - \"at 0s: ball.r + ball.speed + ball.vx + ball.vy == 10\"\n"
    let dir = try Self.folder(["s.yaml": text])
    defer { try? FileManager.default.removeItem(at: dir) }
    let loaded = try ScenePipeline.load(path: dir.appendingPathComponent("s.yaml").path)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.rendered())")
    #expect(loaded.graph?.expectations.count == 2)
  }

  @Test func aMissingTraceIsReportedAtItsReplay() throws {
    let text = Self.ball + "\ngesture:\n  - replay: gone.csv\n"
    let out = try rendered(["s.yaml": text])
    #expect(out.hasPrefix("s.yaml:4:13: error: cannot read the trace 'gone.csv' (looked for "))
  }

  @Test func aMalformedTraceIsReportedAtItsOwnLine() throws {
    let text = Self.ball + "\ngesture:\n  - replay: t.csv\n"
    let trace = "t,x,y,phase\n0,1,2,down\n0.1,1,2,sideways\n"
    #expect(
      try rendered(["s.yaml": text, "t.csv": trace]) == """
        t.csv:3:9: error: unknown phase 'sideways'; expected down, move or up
            0.1,1,2,sideways
                    ^~~~~~~~

        """)
  }

  @Test func tracesOutsideTheScenesFolderAreRefusedWithoutReadingThem() throws {
    let dir = try Self.folder([
      "scenes/s.yaml": Self.ball
        + "\ngesture:\n  - replay: ../secret.txt\n  - replay: /etc/hostname\n",
      "secret.txt": "the first line is private\n",
    ])
    defer { try? FileManager.default.removeItem(at: dir) }
    let loaded = try ScenePipeline.load(path: dir.appendingPathComponent("scenes/s.yaml").path)
    let messages = loaded.diagnostics.map(\.message)
    #expect(
      messages == [
        "the trace '../secret.txt' is outside the scene's folder; a scene may replay only traces beside it (allow a folder with --trace-folder)",
        "the trace '/etc/hostname' is outside the scene's folder; a scene may replay only traces beside it (allow a folder with --trace-folder)",
      ])
    #expect(!loaded.rendered().contains("private"))
    // A symbolic link beside the scene that points out of it is outside too.
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("scenes/link.trace").path,
      withDestinationPath: dir.appendingPathComponent("secret.txt").path)
    try Data((Self.ball + "\ngesture:\n  - replay: link.trace\n").utf8).write(
      to: dir.appendingPathComponent("scenes/l.yaml"))
    let linked = try ScenePipeline.load(path: dir.appendingPathComponent("scenes/l.yaml").path)
    #expect(
      linked.diagnostics.map(\.message) == [
        messages[0].replacingOccurrences(of: "../secret.txt", with: "link.trace")
      ])
    // Allowed on request.
    let allowed = try ScenePipeline.load(
      path: dir.appendingPathComponent("scenes/l.yaml").path,
      options: .init(traceFolders: [dir.path]))
    #expect(allowed.diagnostics.count == 1 && allowed.diagnostics[0].message.contains("phase"))
    #expect(!allowed.rendered().contains("private"))
  }
}
