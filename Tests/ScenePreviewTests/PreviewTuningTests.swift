import Foundation
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneRuntime
import SceneSyntax
import SceneTestSupport
import Testing

@testable import ScenePreview

/// Tuning in the preview: a slider's value runs the page's take again at once, and saving
/// writes only that number's text into the scene file, in either syntax; a file changed
/// on disk is never overwritten.
@Suite struct PreviewTuningTests {
  typealias Clock = PreviewConnectionTests.StillClock

  static func connection(_ scene: String) async throws -> (
    hub: PreviewHub, connection: PreviewConnection<Clock>, outbox: PreviewConnectionTests.Outbox,
    updates: AsyncStream<PreviewHub.Update>.Iterator, file: String
  ) {
    let folder = try PreviewSessionTests.folder(with: scene)
    let file = folder + "/" + scene
    let hub = PreviewHub(sceneFile: file)
    #expect(await hub.load() == "")
    let outbox = PreviewConnectionTests.Outbox()
    let connection = PreviewConnection(hub: hub, clock: Clock()) { await outbox.add($0) }
    let (_, updates) = try #require(await hub.subscribe())
    var iterator = updates.makeAsyncIterator()
    await connection.receive(try #require(await iterator.next()))
    return (hub, connection, outbox, iterator, file)
  }

  static func json(_ text: String) -> [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
  }

  static func last(_ type: String, in outbox: PreviewConnectionTests.Outbox) async -> [String: Any]?
  {
    await outbox.texts.compactMap(json).last { $0["type"] as? String == type }
  }

  @Test(arguments: ["wave.yaml", "wave.scene"])
  func aTunedDampingRunsTheTakeAgainAndSavesOnlyThatNumber(scene: String) async throws {
    var (hub, connection, outbox, updates, file) = try await Self.connection(scene)
    let original = try Data(contentsOf: URL(fileURLWithPath: file))
    let tunables = try #require(await Self.last("tunables", in: outbox))
    let numbers = try #require(tunables["numbers"] as? [[String: Any]])
    let index = try #require(
      numbers.firstIndex { $0["path"] as? String == "springs.wave.dampingRatio" })
    #expect(numbers[index]["value"] as? Double == 0.57)
    #expect(tunables["unsaved"] as? Bool == false)

    // The scene's gesture, played for 100 frames.
    await connection.receive(
      text: #"{"type":"control","action":"script"}"#, at: Clock.Instant(offset: .zero))
    for k in 0..<100 { await connection.tick(at: Clock.Instant(offset: .milliseconds(17 * k))) }
    let before = await outbox.texts.filter(PreviewConnection<Clock>.isFrame).compactMap(Self.json)

    await connection.receive(
      text: #"{"type":"tune","index":\#(index),"value":0.2}"#,
      at: Clock.Instant(offset: .seconds(2)))
    guard case .tuned(let graph) = try #require(await updates.next()) else {
      Issue.record("no tuned scene")
      return
    }
    await connection.receive(.tuned(graph))
    // The history is the scripted run of the tuned scene, frame for frame.
    let history = try #require(await Self.last("history", in: outbox))
    let frames = try #require(history["frames"] as? [[String: Any]])
    #expect(frames.count == 100)
    let tuned = try SceneRunner.frames(of: graph)
    let c = try #require(graph.handles.firstIndex { $0.name == "c" })
    for k in [0, 45, 70, 99] {
      let handles = try #require(frames[k]["h"] as? [[Any]])
      #expect(abs((handles[c][1] as? Double ?? .nan) - tuned[k].handles[c].y) < 1e-3, "frame \(k)")
    }
    // A lighter damping bounces further once the finger lifts.
    let oldY = ((before[80]["frame"] as? [String: Any])?["h"] as? [[Any]])?[c][1] as? Double
    let newY = (frames[80]["h"] as? [[Any]])?[c][1] as? Double
    #expect(oldY != nil && newY != nil && oldY != newY)
    let after = try #require(await Self.last("tunables", in: outbox))
    #expect(after["unsaved"] as? Bool == true)
    #expect(after["changes"] as? [String] == ["springs.wave.dampingRatio 0.57 → 0.2"])
    // Not in the file yet.
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)

    await connection.receive(
      text: #"{"type":"save-tuning"}"#, at: Clock.Instant(offset: .seconds(3)))
    let saved = try #require(await Self.last("tuning-saved", in: outbox))
    #expect(saved["message"] as? String == "saved springs.wave.dampingRatio 0.57 → 0.2 to \(scene)")
    let written = try String(contentsOfFile: file, encoding: .utf8)
    let expected = String(decoding: original, as: UTF8.self).replacingOccurrences(
      of: scene.hasSuffix(".yaml") ? "dampingRatio: 0.57" : "dampingRatio=0.57",
      with: scene.hasSuffix(".yaml") ? "dampingRatio: 0.2" : "dampingRatio=0.2")
    #expect(written == expected)
    #expect(written != String(decoding: original, as: UTF8.self))
    // The watcher sees the scene it already runs: no reload.
    #expect(await hub.reloadIfChanged() == false)
    #expect(await Self.last("tunables", in: outbox)?["unsaved"] as? Bool == false)
  }

  @Test func framesAPageMissedComeAgainAsAHistoryToMerge() async throws {
    let (_, connection, outbox, _, _) = try await Self.connection("wave.yaml")
    await connection.receive(
      text: #"{"type":"control","action":"script"}"#, at: Clock.Instant(offset: .zero))
    for k in 0..<40 { await connection.tick(at: Clock.Instant(offset: .milliseconds(17 * k))) }
    let sent = await outbox.texts.filter(PreviewConnection<Clock>.isFrame).compactMap(Self.json)
      .compactMap { $0["frame"] as? [String: Any] }
    await connection.receive(
      text: #"{"type":"frames","from":10,"to":19}"#, at: Clock.Instant(offset: .seconds(1)))
    let history = try #require(await Self.last("history", in: outbox))
    #expect(history["merge"] as? Bool == true)
    let frames = try #require(history["frames"] as? [[String: Any]])
    #expect(frames.map { $0["i"] as? Int } == Array(10...19))
    for frame in frames {
      let index = try #require(frame["i"] as? Int)
      let original = try #require(sent.first { $0["i"] as? Int == index })
      #expect(NSDictionary(dictionary: frame) == NSDictionary(dictionary: original))
    }
  }

  @Test func aReplyOfMissedFramesIsBoundedAndStartsWhereAsked() throws {
    let graph = try #require(
      try ScenePipeline.load(path: repositoryPath("Scenes/wave.yaml")).graph)
    let frames = try SceneRunner.frames(of: graph)
    let context = OutputContext(graph: graph, fps: graph.fps)
    // Twenty runs' worth: far more than a reply may hold.
    let many = Array(repeating: frames, count: 20).flatMap { $0 }
    let reply = PreviewConnection<Clock>.history(many, context: context, merge: true)
    #expect(reply.utf8.count <= PreviewConnection<Clock>.mergeBytes + 64)
    let object = try #require(Self.json(reply))
    let sent = try #require(object["frames"] as? [[String: Any]])
    #expect(!sent.isEmpty && sent.count < many.count)
    #expect(sent.first?["i"] as? Int == 0)
  }

  @Test func aFloodOfTunesRunsTheTakeAgainOncePerInterval() async throws {
    let (hub, connection, _, _, _) = try await Self.connection("wave.yaml")
    let numbers = await hub.tunables
    let ratio = try #require(numbers.firstIndex { $0.path == "springs.wave.dampingRatio" })
    // A slider dragged through 100 values in 10 ms: the first is done at once, the rest
    // wait, and only the last of them is done, at the next tick 50 ms on.
    for k in 0..<100 {
      await connection.receive(
        text: #"{"type":"tune","index":\#(ratio),"value":\#(0.2 + Double(k) / 1000)}"#,
        at: Clock.Instant(offset: .microseconds(100 * k)))
    }
    #expect(await hub.tunables[ratio].text == "0.2")
    await connection.tick(at: Clock.Instant(offset: .milliseconds(49)))
    #expect(await hub.tunables[ratio].text == "0.2")
    await connection.tick(at: Clock.Instant(offset: .milliseconds(60)))
    #expect(await hub.tunables[ratio].text == "0.3")  // 0.299, to the slider's step.
  }

  @Test func aFileChangedOnDiskIsNeverOverwritten() async throws {
    var (hub, connection, outbox, updates, file) = try await Self.connection("wave.yaml")
    await connection.receive(
      text: #"{"type":"tune","index":0,"value":60}"#, at: Clock.Instant(offset: .zero))
    _ = await updates.next()
    let edited = try String(contentsOfFile: file, encoding: .utf8) + "# edited elsewhere\n"
    try edited.write(toFile: file, atomically: true, encoding: .utf8)
    await connection.receive(
      text: #"{"type":"save-tuning"}"#, at: Clock.Instant(offset: .seconds(1)))
    let refused = try #require(await Self.last("error", in: outbox))
    #expect(
      refused["message"] as? String
        == "wave.yaml changed on disk since it was read: it was not overwritten; it will be read again"
    )
    #expect(try String(contentsOfFile: file, encoding: .utf8) == edited)
    #expect(await hub.reloadIfChanged() == true)
  }

  @Test func aValueOutOfRangeOrAnUnknownNumberChangesNothing() async throws {
    let (hub, connection, outbox, _, file) = try await Self.connection("wave.yaml")
    let original = try String(contentsOfFile: file, encoding: .utf8)
    let numbers = await hub.tunables
    let ratio = try #require(numbers.firstIndex { $0.path == "springs.wave.dampingRatio" })
    await connection.receive(
      text: #"{"type":"tune","index":\#(ratio),"value":7}"#, at: Clock.Instant(offset: .zero))
    #expect(
      await Self.last("error", in: outbox)?["message"] as? String
        == "springs.wave.dampingRatio must be between 0.05 and 2")
    await connection.receive(
      text: #"{"type":"tune","index":999,"value":1}"#, at: Clock.Instant(offset: .zero))
    #expect(
      await Self.last("error", in: outbox)?["message"] as? String
        == "there is no tunable number 999")
    await connection.receive(text: #"{"type":"save-tuning"}"#, at: Clock.Instant(offset: .zero))
    #expect(
      await Self.last("error", in: outbox)?["message"] as? String
        == "nothing to save: the file already holds these values")
    #expect(await hub.hasUnsavedTuning == false)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == original)
  }
}
