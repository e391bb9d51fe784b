import Foundation
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneRuntime
import SceneTestSupport
import Testing

@testable import SceneOutputs

/// The Lottie export: its structure, and the values it holds at each frame.
@Suite struct LottieOutputTests {
  static func export(_ scene: String) throws -> (
    frames: [Frame], json: [String: Any], notes: [String]
  ) {
    let loaded = try ScenePipeline.load(path: repositoryPath("Scenes/\(scene)"))
    let graph = try #require(loaded.graph)
    let frames = try SceneRunner.frames(of: graph)
    let context = OutputContext(graph: graph, precision: 3, fps: graph.fps)
    var writer = LottieWriter(context: context)
    var sink = TextBytes()
    for frame in frames { writer.frame(frame, into: &sink) }
    writer.end(into: &sink)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(sink.bytes)) as? [String: Any])
    return (frames, json, writer.notes)
  }

  /// The value of a held property at frame `k`: the last keyframe at or before it.
  static func value(_ property: [String: Any], at k: Int) -> [Double]? {
    if property["a"] as? Int == 0 {
      if let list = property["k"] as? [Double] { return list }
      return (property["k"] as? Double).map { [$0] }
    }
    let keys = (property["k"] as? [[String: Any]]) ?? []
    let key = keys.last { ($0["t"] as? Double ?? 0) <= Double(k) }
    return key?["s"] as? [Double]
  }

  @Test func aHandlesLayerHoldsItsPlaceTurnAndOpacityAtEveryFrame() throws {
    let (frames, json, notes) = try Self.export("swipe-card.yaml")
    #expect(json["fr"] as? Double == 60)
    #expect(json["op"] as? Int == frames.count)
    let layers = try #require(json["layers"] as? [[String: Any]])
    #expect(layers.map { $0["nm"] as? String } == ["card", "background"])
    let transform = try #require(layers[0]["ks"] as? [String: Any])
    for k in stride(from: 0, to: frames.count, by: 7) {
      let card = try #require(frames[k].handles.first { $0.name == "card" })
      let position = try #require(transform["p"] as? [String: Any])
      let p = try #require(Self.value(position, at: k))
      #expect(abs(p[0] - card.x) <= 1e-3 && abs(p[1] - card.y) <= 1e-3, "frame \(k)")
      let rotation = try #require(transform["r"] as? [String: Any])
      let r = try #require(Self.value(rotation, at: k))
      #expect(abs(r[0] - (card.angle + card.rotation) * 180 / .pi) <= 1e-3, "frame \(k)")
      let opacity = try #require(transform["o"] as? [String: Any])
      let o = try #require(Self.value(opacity, at: k))
      #expect(abs(o[0] - card.opacity * 100) <= 1e-3, "frame \(k)")
    }
    // Its three text children are named as left out.
    #expect(notes.count == 3)
    #expect(notes.allSatisfy { $0.hasPrefix("Lottie: the text child 'card.") })
  }

  @Test func aPathsVerticesFollowItsSegments() throws {
    let (frames, json, notes) = try Self.export("wave.yaml")
    #expect(notes.isEmpty)
    let layers = try #require(json["layers"] as? [[String: Any]])
    let wave = try #require(layers.first { $0["nm"] as? String == "wave" })
    let group = try #require((wave["shapes"] as? [[String: Any]])?.first)
    let items = try #require(group["it"] as? [[String: Any]])
    let shape = try #require(items.first { $0["ty"] as? String == "sh" }?["ks"] as? [String: Any])
    let keys = try #require(shape["k"] as? [[String: Any]])
    #expect(keys.count > 10)  // The wave moves: a vertex list held at each change.
    let k = 39
    let key = try #require(keys.last { ($0["t"] as? Double ?? 0) <= Double(k) })
    let value = try #require((key["s"] as? [[String: Any]])?.first)
    let vertices = try #require(value["v"] as? [[Double]])
    let subpath = try #require(frames[k].paths.first { $0.name == "wave" }?.path.subpaths.first)
    // Closed by a straight line back to its start: a vertex at each segment's start and
    // one at the last one's end.
    #expect(value["c"] as? Bool == true)
    let ends = subpath.segments.map(\.start) + [try #require(subpath.segments.last?.end)]
    #expect(vertices.count == ends.count)
    for (vertex, point) in zip(vertices, ends) {
      #expect(abs(vertex[0] - point.x) <= 1e-3 && abs(vertex[1] - point.y) <= 1e-3)
    }
  }

  @Test func theSameRunGivesTheSameBytes() throws {
    let a = try Self.export("sticky-ball.yaml").json
    let b = try Self.export("sticky-ball.yaml").json
    #expect(NSDictionary(dictionary: a) == NSDictionary(dictionary: b))
  }
}
