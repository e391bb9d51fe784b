import Foundation
import Testing

@testable import SceneOutputs

/// The player's own JavaScript, run in node (when the machine has it; the test says it
/// skipped otherwise): the pointer trail is one stroke per touch.
@Suite struct HTMLPlayerScriptTests {
  /// node, if installed.
  static let node: String? = ["/usr/bin/node", "/usr/local/bin/node"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// The text of `function NAME(` … its closing brace at the same indentation.
  static func function(_ name: String, in page: String) throws -> String {
    let start = try #require(page.range(of: "\n  function \(name)("))
    let end = try #require(page.range(of: "\n  }\n", range: start.upperBound..<page.endIndex))
    return String(page[start.lowerBound..<end.upperBound])
  }

  /// What `script` writes to standard output when node runs it with `input` on its
  /// standard input; it must exit 0.
  static func run(_ script: String, input: Data = Data()) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(node))
    process.arguments = ["-e", script]
    let out = Pipe()
    let into = Pipe()
    process.standardOutput = out
    process.standardInput = into
    try process.run()
    // Written from another thread: node may fill its output pipe before reading all input.
    let writer = Thread {
      into.fileHandleForWriting.write(input)
      try? into.fileHandleForWriting.close()
    }
    writer.start()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return data
  }

  @Test(.enabled(if: node != nil, "node is not installed: the player's script cannot be run here"))
  func theTrailIsBrokenWhereTheFingerLifted() throws {
    let (page, _) = try HTMLOutputTests.render()
    let source = try Self.function("trailStrokes", in: page)
    // Finger 0: down at frames 0–2, up at 3, gone at 4, down again at 5–6; finger 1 down
    // throughout from frame 2.
    let script =
      source + """
        var frames = [
          { ptr: [[0, 0, 0, 1]] }, { ptr: [[0, 1, 0, 1]] }, { ptr: [[0, 2, 0, 1], [1, 9, 9, 1]] },
          { ptr: [[0, 3, 0, 0], [1, 9, 8, 1]] }, { ptr: [[1, 9, 7, 1]] },
          { ptr: [[0, 5, 0, 1], [1, 9, 6, 1]] }, { ptr: [[0, 6, 0, 1], [1, 9, 5, 1]] }
        ];
        var t = trailStrokes(frames, 6, 30);
        process.stdout.write(JSON.stringify(t.ids.map(function (id) {
          return t.strokes[id].map(function (s) { return s.map(function (q) { return q[1]; }); });
        })));
        """
    let text = String(decoding: try Self.run(script), as: UTF8.self)
    // Finger 0: two strokes, x 0…2 and 5…6; finger 1: one stroke.
    #expect(text == "[[[0,1,2],[5,6]],[[9,9,9,9,9]]]")
  }

  /// The view takes in handles outside the canvas (the car of car-along-path.yaml, the
  /// wave's edge control points), and stays the canvas when everything is inside.
  @Test(.enabled(if: node != nil, "node is not installed: the player's script cannot be run here"))
  func theViewIsEnlargedToShowContentOutsideTheCanvas() throws {
    let (page, _) = try HTMLOutputTests.render()
    let source = try Self.function("viewBounds", in: page)
    let script =
      source + """
        var scene = { width: 200, height: 100, handles: [
          { shape: "rect", w: 28, h: 14 }, { shape: "none", name: "l3" }, { shape: "circle" } ] };
        var outside = [{ h: [[10, 20, 0, 0, "animating"], [-0.14, 50, 0, 0, "idle"], [100, 50, 0, 10, "idle"]], ptr: [] }];
        var inside = [{ h: [[100, 50, 0, 0, "idle"], [50, 50, 0, 0, "idle"], [100, 50, 0, 10, "idle"]], ptr: [] }];
        var label = [{ h: [[100, 50, 0, 0, "idle"], [199, 50, 0, 0, "idle"], [100, 50, 0, 10, "idle"]], ptr: [] }];
        process.stdout.write(JSON.stringify([viewBounds(scene, outside), viewBounds(scene, inside), viewBounds(scene, label)]));
        """
    let data = try Self.run(script)
    let views = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    // The car's corner reaches x = 10 − 15.65 − 2; the control point at x = −0.14 needs 8
    // more room, and that is the further.
    let x = try #require(views[0]["x"] as? Double)
    #expect(abs(x - (-0.14 - 8)) < 1e-9)
    let y = try #require(views[0]["y"] as? Double)
    #expect(y == 0)  // The car's top is at 20 − 17.65: still inside.
    #expect(views[0]["enlarged"] as? Bool == true)
    #expect(
      views[1]["x"] as? Double == 0 && views[1]["width"] as? Double == 200
        && views[1]["enlarged"] as? Bool == false)
    // A control point's label, written to its right, is kept in view too: 199 + 6 + 2 × 7 + 2.
    let width = try #require(views[2]["width"] as? Double)
    #expect(abs(width - (199 + 6 + 14 + 2)) < 1e-9)
  }

  /// A group's children are kept in view: the corners of each child's box, turned and
  /// stretched with the handle (a text about 0.6 of its size wide a character).
  @Test(.enabled(if: node != nil, "node is not installed: the player's script cannot be run here"))
  func theViewTakesInAGroupsChildren() throws {
    let (page, _) = try HTMLOutputTests.render()
    let source = try Self.function("viewBounds", in: page)
    let script =
      source + """
        var scene = { width: 200, height: 100, handles: [
          { shape: "circle", children: [
            { shape: "text", text: "1234567890", fontSize: 10, align: "left", x: 20, y: 0,
              rotation: 0, scale: 1, scaleX: 1, scaleY: 1 },
            { shape: "rect", w: 10, h: 10, x: 0, y: 0, rotation: 0, scale: 1, scaleX: 1, scaleY: 1 } ] } ] };
        // At (150, 50), r 5, turned a quarter turn and stretched twice along its own x.
        var frames = [{ h: [[150, 50, 0, 5, "idle", Math.PI / 2, 1, 1, null, null, null, null,
          null, null, 2, null]], ptr: [] }];
        var plain = [{ h: [[150, 50, 0, 5, "idle"]], ptr: [] }];
        process.stdout.write(JSON.stringify([viewBounds(scene, frames), viewBounds(scene, plain)]));
        """
    let data = try Self.run(script)
    let views = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    // Turned, the text runs down from y = 50 + 2 × 20 to 50 + 2 × (20 + 60), plus 2.
    let height = try #require(views[0]["height"] as? Double)
    #expect(abs(height - (50 + 2 * 80 + 2)) < 1e-9, "\(views[0])")
    #expect(views[0]["width"] as? Double == 200)
    // Unturned, it runs right to x = 150 + 20 + 60 + 2.
    let width = try #require(views[1]["width"] as? Double)
    #expect(abs(width - (150 + 80 + 2)) < 1e-9, "\(views[1])")
  }
}

/// The player's scripts are files of their own (the renderer it shares with the live
/// preview, and the player), embedded as they are, and valid JavaScript.
@Suite struct HTMLPlayerResourceTests {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/SceneOutputs/Resources")
  static let files = ["renderer.js", "player.js"].map { folder.appendingPathComponent($0) }

  @Test func theEmbeddedScriptsAreTheResourceFiles() throws {
    let texts = try Self.files.map { try String(contentsOf: $0, encoding: .utf8) }
    #expect(HTMLPlayer.script == texts.joined())
    #expect(SceneRendererScript.source == texts[0])
    let page = try HTMLOutputTests.render().page
    for text in texts { #expect(page.contains(text)) }
  }

  @Test(
    .enabled(
      if: HTMLPlayerScriptTests.node != nil,
      "node is not installed: the player's scripts cannot be checked here"))
  func theScriptsParse() throws {
    for file in Self.files {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: try #require(HTMLPlayerScriptTests.node))
      process.arguments = ["--check", file.path]
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(file.lastPathComponent)")
    }
  }
}
