import Foundation
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneSyntax
import Testing

@testable import SceneOutputs

@Suite struct HTMLOutputTests {
  /// Every kind of thing the player draws: circles, a rect on a path, a control point,
  /// a path, a gooey bridge, a pointer with events; and a scene name that tries to close
  /// the script block.
  static let scene = """
    scene:
      name: "Player </script><script>alert(1)</script> <!-- & \\"quotes\\""
      size: 200x100
      fps: 30
      duration: 0.5s
      background: "#ffffff"
    handles:
      ball: { position: [50, 50], shape: circle, r: 10, draggable: true, fill: orange }
      anchor: { position: [150, 50], shape: circle, r: 10 }
      drop: { position: [150, 50], shape: circle, r: 10, draggable: true, fill: "#ff000080" }
      car: { position: [0, 0], shape: rect, width: 20, height: 10 }
      tip: { position: [100, 20] }
    paths:
      road: { d: "M0 90 Q 100 0 200 90", stroke: "#888888", strokeWidth: 2 }
    constraints:
      - animate: { handle: car, path: road, duration: 0.4s, orient: true }
      - gooey: { anchor: anchor, ball: drop, maxDistance: 100, name: link }
    gesture:
      - press: ball
      - drag: { by: [40, 0], over: 0.2s }
      - release
    """

  static let handleNames = ["ball", "anchor", "drop", "car", "tip"]

  static func render(precision: Int = 3) throws -> (page: String, frames: [Frame]) {
    let source = SourceFile(name: "player.yaml", text: scene)
    let loaded = SceneLoader.load(source, syntax: .yaml)
    let renderer = DiagnosticRenderer(files: [source])
    let spec = try #require(loaded.spec, "did not load:\n\(renderer.render(loaded.diagnostics))")
    let resolved = SceneResolver.resolve(spec)
    let graph = try #require(
      resolved.graph, "did not resolve:\n\(renderer.render(resolved.errors.map(\.diagnostic)))")
    let frames = try SceneRunner.frames(of: graph)
    let context = OutputContext(graph: graph, precision: precision, fps: graph.fps)
    let output = FrameOutput.html
    let page =
      output.text(of: frames, context: context)
    return (page, frames)
  }

  /// The text between `<script type="application/json" id="scene">` and its `</script>`.
  static func embeddedJSON(_ page: String) throws -> String {
    let open = try #require(page.range(of: "<script type=\"application/json\" id=\"scene\">"))
    let close = try #require(page.range(of: "</script>", range: open.upperBound..<page.endIndex))
    return String(page[open.upperBound..<close.lowerBound])
  }

  /// A frame as the live preview sends it (with its `h`), parsed.
  static func previewEntry(_ frame: Frame, precision: Int = 3) throws -> [String: Any] {
    let source = SourceFile(name: "player.yaml", text: scene)
    let spec = try #require(SceneLoader.load(source, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    var text = TextBytes()
    SceneJSON.appendFrame(
      frame, context: OutputContext(graph: graph, precision: precision, fps: graph.fps),
      to: &text)
    return try #require(
      try JSONSerialization.jsonObject(with: Data(text.bytes)) as? [String: Any])
  }

  static func parsedScene(_ page: String) throws -> [String: Any] {
    let data = Data(try embeddedJSON(page).utf8)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func theFormatIsRegisteredAsAValueWithItsExtensions() {
    #expect(FrameOutput.html.name == "html")
    #expect(FrameOutput.html.fileExtensions == ["html", "htm"])
    #expect(!FrameOutput.html.isStill)
  }

  @Test func theEmbeddedJSONHasTheFrameCountAndEveryHandleName() throws {
    let (page, frames) = try Self.render()
    #expect(frames.count == 16)  // 0.5 s at 30 fps: frames 0 through 15.
    let json = try Self.embeddedJSON(page)
    #expect(json.contains("\"frameCount\":\(frames.count)"))
    for name in Self.handleNames {
      #expect(json.contains("\"name\":\"\(name)\""), "no handle \(name)")
    }
  }

  @Test func theEmbeddedJSONParsesAndHoldsEveryFrame() throws {
    let (page, frames) = try Self.render()
    let scene = try Self.parsedScene(page)
    #expect(scene["frameCount"] as? Int == frames.count)
    #expect(scene["width"] as? Double == 200)
    #expect(scene["height"] as? Double == 100)
    #expect(scene["fps"] as? Double == 30)
    #expect(scene["background"] as? String == "#ffffff")
    // The escaped name comes back whole.
    #expect(
      scene["name"] as? String == "Player </script><script>alert(1)</script> <!-- & \"quotes\"")

    let handles = try #require(scene["handles"] as? [[String: Any]])
    #expect(handles.compactMap { $0["name"] as? String } == Self.handleNames)
    let car = try #require(handles.first { $0["name"] as? String == "car" })
    #expect(car["shape"] as? String == "rect")
    #expect(car["w"] as? Double == 20)
    #expect(car["h"] as? Double == 10)
    let ball = try #require(handles.first { $0["name"] as? String == "ball" })
    #expect(ball["shape"] as? String == "circle")
    #expect(ball["fill"] as? String == "#ffa500")
    #expect(ball["opacity"] as? Double == 1)
    let drop = try #require(handles.first { $0["name"] as? String == "drop" })
    #expect(drop["fill"] as? String == "#ff000080")
    let tip = try #require(handles.first { $0["name"] as? String == "tip" })
    #expect(tip["shape"] as? String == "none")

    // The scene's path, then the gooey bridge under its constraint's name.
    let paths = try #require(scene["paths"] as? [[String: Any]])
    #expect(paths.compactMap { $0["name"] as? String } == ["road", "link"])
    #expect(paths.first?["stroke"] as? String == "#888888")
    #expect(paths.first?["strokeWidth"] as? Double == 2)

    let embedded = try #require(scene["frames"] as? [[String: Any]])
    #expect(embedded.count == frames.count)
    for (frame, object) in zip(frames, embedded) {
      #expect(object["i"] as? Int == frame.index)
      let time = try #require(object["t"] as? Double)
      #expect(abs(time - frame.time) < 1e-6)
      // The handles are packed apart (HandleFrameStreamTests decodes them).
      #expect(object["h"] == nil)
      let p = try #require(object["p"] as? [Any])
      #expect(p.count == 2)
      #expect((p[0] as? String)?.hasPrefix("M0 90Q") == true)
      #expect(object["ptr"] is [Any])
      #expect(object["e"] is [Any])
    }
    let packed = try #require(scene["handleFrames"] as? [String: Any])
    #expect(packed["encoding"] as? String == "scenec-delta-1")
    #expect(packed["keyframeEvery"] as? Int == 32)
    #expect(
      packed["states"] as? [String] == ["idle", "dragging", "animating", "settling", "hidden"])
    let data = try #require(packed["data"] as? String)
    #expect(Data(base64Encoded: data)?.isEmpty == false)

    // Handles as [x, y, angle, r, state], as the preview sends them: the ball pressed at
    // the first frame.
    let first = try #require(try Self.previewEntry(frames[0])["h"] as? [[Any]])
    #expect(first[0][0] as? Double == 50)
    #expect(first[0][1] as? Double == 50)
    #expect(first[0][3] as? Double == 10)
    #expect(first[0][4] as? String == "dragging")
    #expect(first[3][3] as? Double == 0)  // A rect has no radius.
    // The pointer and the events are there.
    #expect((embedded.first?["ptr"] as? [[Any]])?.first?[3] as? Bool == true)
    let events = embedded.flatMap { ($0["e"] as? [[String]]) ?? [] }
    #expect(events.contains(["grab", "ball"]))
    #expect(events.contains(["release", "ball"]))
  }

  @Test func thePageReachesForNothingOutside() throws {
    let page = try Self.render().page.lowercased()
    for forbidden in [
      "http://", "https://", "//cdn", "src=", "href=", "url(", "@import", "<link", "<img",
      "<iframe",
    ] {
      #expect(!page.contains(forbidden), "the page contains \(forbidden)")
    }
  }

  @Test func thePageHasTheCanvasTheControlsAndThePlayer() throws {
    let page = try Self.render().page
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    for part in [
      "<canvas id=\"stage\" width=\"200\" height=\"100\"", "id=\"play\"",
      "<input id=\"scrub\" type=\"range\"",
      "max=\"15\"", "<option value=\"0.25\">", "<option value=\"0.5\">",
      "<option value=\"1\" selected>",
      "<option value=\"2\">", "id=\"loop\" type=\"checkbox\"", "id=\"points\" type=\"checkbox\"",
      "id=\"trail\" type=\"checkbox\"", "id=\"events\"", "id=\"log\"", "requestAnimationFrame",
      "new Path2D(d)",
      "ArrowLeft", "ArrowRight",
    ] {
      #expect(page.contains(part), "the page lacks \(part)")
    }
  }

  @Test func aSceneNameCannotCloseTheScriptBlockOrOpenMarkup() throws {
    let page = try Self.render().page
    // One `</script>` ends the data block and one the player; the name adds none.
    #expect(page.lowercased().components(separatedBy: "</script").count - 1 == 2)
    #expect(!page.contains("<!--"))
    #expect(
      page.contains(
        "<title>Player &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;!-- &amp; &quot;quotes&quot;</title>"
      ))
  }

  @Test(arguments: [
    "</script><script>alert(1)</script>", "</SCRIPT >", "a</b", "<!-- <script>", "<\\/already",
    "plain",
    "line\nbreak\t\u{1}\u{2028}\"quoted\" \\ é 🙂",
  ])
  func escapingKeepsTheJSONInsideItsBlockAndTheValueTheSame(text: String) throws {
    let escaped = HTMLPlayer.scriptSafe(HTMLPlayer.jsonString(text))
    #expect(!escaped.contains("</"))
    #expect(!escaped.contains("<!--"))
    #expect(!escaped.contains("\n"))
    let value = try JSONSerialization.jsonObject(
      with: Data(escaped.utf8), options: .fragmentsAllowed)
    #expect(value as? String == text)
  }

  @Test func escapingLeavesTextWithoutAngleBracketsAlone() {
    #expect(HTMLPlayer.scriptSafe("{\"a\":[1,2]}") == "{\"a\":[1,2]}")
    #expect(HTMLPlayer.scriptSafe("[\"</\"]") == "[\"<\\/\"]")
  }

  @Test func pathDataPrintsAtThePrecision() throws {
    let path = try Path(
      svgPathData: "M0.123456 -0.0001 L 10 20 Q 1.5 2.25 3.125 4 C 1 2 3 4 5.55555 6 Z")
    #expect(
      HTMLPlayer.pathData(path, precision: 2) == "M0.12 0L10 20Q1.5 2.25 3.13 4C1 2 3 4 5.56 6Z")
    #expect(HTMLPlayer.pathData(Path(), precision: 3) == "")
  }

  @Test func theOutputIsDeterministic() throws {
    let first = try Self.render().page
    let second = try Self.render().page
    #expect(first == second)
  }

  @Test func theNumbersFollowThePrecision() throws {
    let page = try Self.render(precision: 1).page
    let scene = try Self.parsedScene(page)
    #expect(scene["precision"] as? Int == 1)
    let frames = try #require(scene["frames"] as? [[String: Any]])
    // Times keep at least six decimals so frames stay in order at any precision.
    #expect(frames[1]["t"] as? Double == 0.033333)
    let rendered = try Self.render(precision: 1).frames
    let car = try #require((try Self.previewEntry(rendered[5], precision: 1)["h"] as? [[Any]])?[3])
    for value in car.prefix(4) {
      let number = try #require(value as? Double)
      #expect((number * 10).rounded() == number * 10)
    }
  }

  @Test func noFramesStillMakeAValidPage() throws {
    let source = SourceFile(name: "empty.yaml", text: "scene: { size: 10x10 }\n")
    let spec = try #require(SceneLoader.load(source, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    let empty = FrameOutput.html.text(of: [], context: OutputContext(graph: graph, fps: 60))
    let scene = try Self.parsedScene(empty)
    #expect(scene["frameCount"] as? Int == 0)
    #expect((scene["frames"] as? [Any])?.isEmpty == true)
  }
}

/// A scene with inputs and a machine: the page names the machines and inputs, and each
/// frame carries the machines' states, the inputs' values and the state events.
@Suite struct HTMLStatesTests {
  static let scene = """
    scene: { size: 200x100, fps: 30, duration: 0.3s }
    inputs:
      go: trigger
      level: { value: 0.5, min: 0, max: 1 }
    states:
      m:
        initial: a
        states: { a: , b: }
        transitions:
          - { from: a, to: b, on: go }
    gesture:
      - wait: 0.1s
      - fire: go
      - set: { level: 0.25 }
    """

  @Test func framesCarryStatesInputsAndStateEvents() throws {
    let source = SourceFile(name: "states.yaml", text: Self.scene)
    let spec = try #require(SceneLoader.load(source, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    let frames = try SceneRunner.frames(of: graph)
    let context = OutputContext(graph: graph, precision: 3, fps: graph.fps)
    let page = FrameOutput.html.text(of: frames, context: context)
    let scene = try HTMLOutputTests.parsedScene(page)
    #expect(scene["machines"] as? [String] == ["m"])
    let inputs = try #require(scene["inputs"] as? [[String: Any]])
    #expect(inputs.map { $0["name"] as? String } == ["go", "level"])
    #expect(inputs.map { $0["kind"] as? String } == ["trigger", "number"])
    #expect(inputs[1]["min"] as? Double == 0 && inputs[1]["max"] as? Double == 1)
    let entries = try #require(scene["frames"] as? [[String: Any]])
    #expect(
      entries.map { $0["s"] as? [String] } == [
        ["a"], ["a"], ["a"], ["b"], ["b"], ["b"], ["b"], ["b"], ["b"], ["b"],
      ])
    #expect(entries[3]["in"] as? [Double] == [0, 0.25])
    #expect(entries[2]["in"] as? [Double] == [0, 0.5])
    let events = try #require(entries[3]["e"] as? [[String]])
    #expect(events == [["state", "m", "b", "a"]])
    // The page shows the states line only for a scene with machines.
    #expect(page.contains("<div class=\"events\" id=\"stateline\" hidden>"))
  }
}
