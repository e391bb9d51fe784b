import Foundation
import SceneDiagnostics
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneStress
import SceneTestSupport
import Testing

@testable import SceneOutputs
@testable import SceneRuntime

/// The HTML player's packed handles: the bytes as documented, and the player's decoder
/// (run in node) giving back exactly the numbers of the JSON text, frame by frame.
@Suite struct HandleFrameStreamTests {
  static func handle(_ x: Double, _ y: Double, _ state: HandleState = .idle) -> HandleFrame {
    HandleFrame(name: "h", x: x, y: y, angle: 0, radius: 5, state: state)
  }

  @Test func theBytesAreTheDocumentedTokens() {
    var stream = HandleFrameStream(handleCount: 3, precision: 2)
    // Frame 0, a keyframe: against zeros.
    stream.append([Self.handle(1.5, -2), Self.handle(0, 0), Self.handle(0, 0)])
    // Frame 1: the first handle moves in x and starts dragging, the others stay, the third
    // is missing.
    stream.append([Self.handle(1.75, -2, .dragging), Self.handle(0, 0)])
    #expect(
      stream.bytes == [
        // x 150 (zigzag 300 = 0xAC 0x02), y -200 (zigzag 399 = 0x8F 0x03), r 500 (1000).
        0b0000_1011, 0xAC, 0x02, 0x8F, 0x03, 0xE8, 0x07,
        // Two handles with only r 500.
        0b0000_1000, 0xE8, 0x07, 0b0000_1000, 0xE8, 0x07,
        // x +25 (zigzag 50), state 1; one unchanged; one missing.
        0b0001_0001, 50, 1, 0x80, 0x20,
      ])
  }

  @Test func longRunsOfStillHandlesSplitAt128() {
    var stream = HandleFrameStream(handleCount: 300, precision: 0)
    let still = Array(
      repeating: HandleFrame(name: "h", x: 0, y: 0, angle: 0, radius: 0, state: .idle), count: 300)
    stream.append(still)
    #expect(stream.bytes == [0xFF, 0xFF, 0x80 | 43])
  }

  @Test func valuesPastTheDeltaRangeAreWrittenAsTheTextWouldParse() throws {
    typealias Value = HandleFrameStream.Value
    #expect(Value(12.3456, precision: 3) == .scaled(12_346))
    #expect(Value(-0.0004, precision: 3) == .scaled(0))
    // Past 2^51 scaled, a raw value is what the text parses to, which need not be the
    // value itself (15 decimals of 3.1 + 1e-16 are 3.100000000000000).
    for value in [3.1 + 1e-16, 7.123456789012345678, -8.99, 123.456, 1e300, -2.3] {
      let text = NumberText.format(value, precision: 15)
      let parsed = try #require(Double(text))
      #expect(Value(value, precision: 15) == .raw(parsed.bitPattern), "\(value) as \(text)")
    }
    #expect(Value(.infinity, precision: 3) == .scaled(0))
  }

  @Test func base64IsTheStandardAlphabetWithPadding() {
    var text = [UInt8](repeating: 0, count: 16)
    for (input, expected) in [
      ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy"),
    ] {
      let count = Base64.encode(ArraySlice(Array(input.utf8)), into: &text)
      #expect(String(decoding: text[0..<count], as: UTF8.self) == expected)
    }
  }

  // MARK: - The player's decoder

  static func graphAndFrames(yaml: String, name: String) throws -> (SceneGraph, [Frame]) {
    let source = SourceFile(name: name, text: yaml)
    let spec = try #require(SceneLoader.load(source, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    return (graph, try SceneRunner.frames(of: graph))
  }

  /// Every frame's handles as the page's player decodes them, in order and then
  /// backwards (seeking), against the JSON text of the same frames.
  static func checkDecoding(graph: SceneGraph, frames: [Frame], precision: Int) throws {
    let context = OutputContext(graph: graph, precision: precision, fps: graph.fps)
    let page = FrameOutput.html.text(of: frames, context: context)
    let decoder = try HTMLPlayerScriptTests.function("handleFrames", in: page)
    let json = try HTMLOutputTests.embeddedJSON(page)
    let script =
      decoder + """
        var scene = JSON.parse(require("fs").readFileSync(0, "utf8"));
        var packed = handleFrames(scene.handleFrames, scene.handles.length, scene.precision);
        var forward = [], backward = [];
        for (var k = 0; k < scene.frames.length; k++) { packed.seek(k); forward.push(packed.handles()); }
        for (var k = scene.frames.length - 1; k >= 0; k--) { packed.seek(k); backward.unshift(packed.handles()); }
        process.stdout.write(JSON.stringify([forward, backward]));
        """
    let output = try HTMLPlayerScriptTests.run(script, input: Data(json.utf8))
    let decoded = try #require(try JSONSerialization.jsonObject(with: output) as? [[Any]])
    var text = TextBytes(capacity: 1024)
    text.append("[")
    for (k, frame) in frames.enumerated() {
      if k > 0 { text.append(UInt8(ascii: ",")) }
      var entry = TextBytes(capacity: 256)
      HTMLPlayer.appendHandles(frame, context: context, to: &entry)
      text.append(String(decoding: entry.bytes.dropFirst(5), as: UTF8.self))  // `,"h":`
    }
    text.append("]")
    let expected = try #require(
      try JSONSerialization.jsonObject(with: Data(text.bytes)) as? [[Any]])
    #expect(decoded.count == 2)
    for (label, frameList) in zip(["in order", "seeking backwards"], decoded) {
      let got = try #require(frameList as? [[Any]])
      #expect(got.count == expected.count)
      var mismatches = 0
      for (k, (a, b)) in zip(got, expected).enumerated() where !Self.same(a, b) {
        mismatches += 1
        if mismatches <= 3 { Issue.record("frame \(k) \(label): \(a.prefix(4)) vs \(b.prefix(4))") }
      }
      #expect(mismatches == 0, "\(mismatches) frames differ \(label)")
    }
  }

  /// Two decoded `h` lists hold the same numbers, states and nulls.
  static func same(_ a: [Any], _ b: [Any]) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) {
      switch (x, y) {
      case (is NSNull, is NSNull): continue
      case (let u as [Any], let v as [Any]):
        guard u.count == 5, v.count == 5 else { return false }
        for f in 0..<4 {
          guard let p = (u[f] as? NSNumber)?.doubleValue, let q = (v[f] as? NSNumber)?.doubleValue,
            p == q
          else { return false }
        }
        guard u[4] as? String == v[4] as? String else { return false }
      default: return false
      }
    }
    return true
  }

  @Test(
    .enabled(
      if: HTMLPlayerScriptTests.node != nil, "node is not installed: the decoder cannot be run here"
    ),
    arguments: [
      ("Scenes/wave.yaml", 3), ("Scenes/car-along-path.yaml", 3), ("Scenes/metaball-pinch.yaml", 3),
      ("Scenes/paging-carousel.yaml", 0), ("Scenes/drag-along-curve.yaml", 15),
    ])
  func thePlayerDecodesTheTextsNumbers(scene: String, precision: Int) throws {
    let yaml = try String(contentsOfFile: repositoryPath(scene), encoding: .utf8)
    let (graph, frames) = try Self.graphAndFrames(yaml: yaml, name: scene)
    try Self.checkDecoding(graph: graph, frames: frames, precision: precision)
  }

  /// What no scene in the repository makes: a handle missing from some frames and back,
  /// raw values, and a run past 128, decoded by the player's script.
  @Test(
    .enabled(
      if: HTMLPlayerScriptTests.node != nil, "node is not installed: the decoder cannot be run here"
    ))
  func thePlayerDecodesMissingHandlesAndRawValues() throws {
    let count = 140
    var frames: [[HandleFrame]] = []
    for k in 0..<40 {
      var handles = (0..<count).map { i in
        HandleFrame(
          name: "h", x: Double(i) + (i == 7 ? Double(k) * 0.25 : 0), y: 1e17 * Double(k % 3),
          angle: 0, radius: 2, state: k % 5 == 0 ? .settling : .idle)
      }
      // The last handle is missing from frames 3 to 9 and from 33 on.
      if (3..<10).contains(k) || k >= 33 { handles.removeLast() }
      frames.append(handles)
    }
    var stream = HandleFrameStream(handleCount: count, precision: 2)
    for handles in frames { stream.append(handles) }
    var data: [UInt8] = []
    stream.drainBase64 { data += Array($0) }
    let decoder = try HTMLPlayerScriptTests.function(
      "handleFrames", in: try HTMLOutputTests.render().page)
    let script =
      decoder + """
        var packed = handleFrames({ encoding: "scenec-delta-1", keyframeEvery: 32,
          states: ["idle", "dragging", "animating", "settling", "hidden"],
          data: require("fs").readFileSync(0, "utf8") }, \(count), 2);
        var out = [];
        for (var k = 39; k >= 0; k--) { packed.seek(k); out.unshift(packed.handles()); }
        process.stdout.write(JSON.stringify(out));
        """
    let output = try HTMLPlayerScriptTests.run(script, input: Data(data))
    let decoded = try #require(try JSONSerialization.jsonObject(with: output) as? [[Any]])
    #expect(decoded.count == frames.count)
    for (k, (got, handles)) in zip(decoded, frames).enumerated() {
      #expect(got.count == count)
      #expect((got.last is NSNull) == (handles.count < count), "frame \(k)")
      for (i, h) in handles.enumerated() {
        let v = try #require(got[i] as? [Any], "frame \(k) handle \(i)")
        #expect((v[0] as? NSNumber)?.doubleValue == h.x, "frame \(k) handle \(i)")
        #expect((v[1] as? NSNumber)?.doubleValue == h.y)
        #expect((v[3] as? NSNumber)?.doubleValue == 2)
        #expect(v[4] as? String == h.state.rawValue)
      }
    }
  }

  /// Hundreds of handles (runs longer than 128) over more than one keyframe.
  @Test(
    .enabled(
      if: HTMLPlayerScriptTests.node != nil, "node is not installed: the decoder cannot be run here"
    ))
  func thePlayerDecodesAStressScene() throws {
    let yaml = StressScene(handles: 400, duration: 1.5, fps: 60).yaml
    let (graph, frames) = try Self.graphAndFrames(yaml: yaml, name: "stress.yaml")
    #expect(frames.count > 2 * HandleFrameStream.keyframeEvery)
    try Self.checkDecoding(graph: graph, frames: frames, precision: 3)
  }
}
