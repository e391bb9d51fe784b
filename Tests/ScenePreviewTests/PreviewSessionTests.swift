import Foundation
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneRuntime
import SceneSyntax
import Testing

@testable import ScenePreview

/// A live session plays input exactly as a recorded trace replays, so a gesture recorded
/// in the preview becomes a `scenec test` case with the same frames.
@Suite struct PreviewSessionTests {
  /// A folder of its own holding a copy of `scene` from `Scenes/`.
  static func folder(with scene: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-preview-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Scenes/\(scene)")
    try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(scene))
    return folder.path
  }

  /// Plays a hand-made drag of the badge: pointer messages between frames, at uneven
  /// wall-clock offsets, as a browser sends them.
  static func playDrag(_ session: inout PreviewSession, frames count: Int) throws -> [Frame] {
    var frames: [Frame] = []
    for n in 0..<count {
      switch n {
      case 3: session.pointer(.down, id: 0, at: Point(121, 152), afterLastFrame: 0.0071)
      case 4...20:
        session.pointer(
          .move, id: 0, at: Point(121 + Double(n - 3) * 4.5, 152 + Double(n - 3) * 9.25),
          afterLastFrame: 0.004 + Double(n % 3) * 0.003)
      case 21:
        session.pointer(.up, id: 0, at: Point(200, 310), afterLastFrame: 0.0123)
      default: break
      }
      frames.append(try session.frame())
    }
    return frames
  }

  @Test func aRecordedGestureReplaysToTheSameFrames() async throws {
    let folder = try Self.folder(with: "elastic-drag.yaml")
    let hub = PreviewHub(sceneFile: folder + "/elastic-drag.yaml")
    #expect(await hub.load() == "")
    let graph = try #require(await hub.graph)
    var session = try PreviewSession(graph: graph)
    try session.startRecording()
    let live = try Self.playDrag(&session, frames: 60)
    session.stopRecording()
    let trace = try #require(session.recordedTrace)
    // The badge was grabbed, dragged and let go.
    #expect(live.flatMap(\.namedEvents).map(\.type).prefix(2) == ["grab", "release"])

    let outcome = try await hub.save(
      trace, traceName: "pull.csv", sceneName: "pull.yaml", confirmed: false)
    guard case .saved(let written, let summary) = outcome else {
      Issue.record("not saved: \(outcome)")
      return
    }
    #expect(written.map(\.path) == [folder + "/pull.csv", folder + "/pull.yaml"])
    #expect(
      summary
        == "saved pull.csv (\(trace.samples.count) samples, \(((trace.duration * 100).rounded() / 100).shortestDescription) s) and pull.yaml, which replays it; its expectations: event grab of badge; event release of badge; event rest of badge; at end: all at rest. Record its snapshot with: scenec test pull.yaml --record"
    )
    // The trace reads back to the very samples recorded.
    let text = try String(contentsOfFile: folder + "/pull.csv", encoding: .utf8)
    #expect(try TraceFile.parse(text, name: "pull.csv") == trace)

    let loaded = try ScenePipeline.load(path: folder + "/pull.yaml")
    #expect(loaded.diagnostics.isEmpty, "\(loaded.rendered())")
    let replayed = try SceneRunner.frames(of: try #require(loaded.graph))
    // The copy runs until the badge is back at rest, past the release at frame 21.
    #expect(replayed.count > 25 && replayed.last?.handles.allSatisfy { $0.state == .idle } == true)
    for (a, b) in zip(live, replayed) {
      #expect(a.index == b.index && a.events == b.events)
      for (h, k) in zip(a.handles, b.handles) {
        #expect(abs(h.x - k.x) <= 1e-9 && abs(h.y - k.y) <= 1e-9, "frame \(a.index) \(h.name)")
        #expect(h.state == k.state)
      }
    }
  }

  @Test func savingNeverReplacesAFileUnlessConfirmed() async throws {
    let folder = try Self.folder(with: "elastic-drag.yaml")
    let hub = PreviewHub(sceneFile: folder + "/elastic-drag.yaml")
    await hub.load()
    let trace = TraceFile(samples: [
      .init(time: 0.1, position: Vector(1, 2), phase: .down, pointer: 0),
      .init(time: 0.2, position: Vector(1, 2), phase: .up, pointer: 0),
    ])
    try "keep me".write(toFile: folder + "/taken.csv", atomically: true, encoding: .utf8)
    let asked = try await hub.save(trace, traceName: "taken.csv", sceneName: nil, confirmed: false)
    guard case .needsConfirmation(let existing) = asked else {
      Issue.record("an existing trace was replaced")
      return
    }
    #expect(existing.map(\.real) == [folder + "/taken.csv"])
    #expect(try String(contentsOfFile: folder + "/taken.csv", encoding: .utf8) == "keep me")
    _ = try await hub.save(trace, traceName: "taken.csv", sceneName: nil, confirmed: true)
    #expect(try String(contentsOfFile: folder + "/taken.csv", encoding: .utf8) == trace.csvText)
    // The scene being previewed is never the copy.
    await #expect(
      throws: PreviewHub.SaveError(message: "the copy cannot replace the scene being previewed")
    ) {
      _ = try await hub.save(
        trace, traceName: "t.csv", sceneName: "elastic-drag.yaml", confirmed: true)
    }
  }

  @Test func aLivePointerGrabsAndFlingsLikeTheScriptedFinger() throws {
    let (graph, _) = try Self.graph(
      """
      scene: { fps: 60, duration: 1s }
      handles:
        ball: { position: [100, 100], r: 20, draggable: true }
      """)
    var session = try PreviewSession(graph: graph)
    _ = try session.frame()
    session.pointer(.down, id: 0, at: Point(105, 100), afterLastFrame: 0.01)
    let grabbed = try session.frame()
    #expect(grabbed.events.map(\.type) == ["grab"])
    #expect(grabbed.handles[0].state == .dragging)
    session.pointer(.move, id: 0, at: Point(145, 100), afterLastFrame: 0.01)
    let moved = try session.frame()
    #expect(moved.handles[0].x == 140)  // Held at its grab offset.
  }

  static func graph(_ yaml: String) throws -> (SceneGraph, [SourceFile]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-preview-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("s.yaml").path
    try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    let loaded = try ScenePipeline.load(path: path)
    return (try #require(loaded.graph, "\(loaded.rendered())"), loaded.files)
  }
}

/// Inputs set by hand in the preview play at their own moment, as a press does.
@Suite struct PreviewSessionInputTests {
  @Test func anInputSetByHandChangesTheMachineAtItsMoment() async throws {
    let folder = try PreviewSessionTests.folder(with: "pull-to-refresh.yaml")
    let hub = PreviewHub(sceneFile: folder + "/pull-to-refresh.yaml")
    #expect(await hub.load() == "")
    let graph = try #require(await hub.graph)
    var session = try PreviewSession(graph: graph)
    _ = try session.frame()
    #expect(
      session.setInput(named: "loadng", to: 1, afterLastFrame: 0)
        == "the scene has no input 'loadng'")
    #expect(
      session.setInput(named: "loading", to: .nan, afterLastFrame: 0)
        == "input 'loading' cannot be nan")
    #expect(session.setInput(named: "loading", to: 1, afterLastFrame: 0.005) == nil)
    #expect(session.inputValues == [0])
    let frame = try session.frame()
    #expect(frame.inputs == [1])
    #expect(session.inputValues == [1])
    #expect(session.machineStates == ["idle"])
    // Restarted, the input is back to its default.
    try session.restart()
    _ = try session.frame()
    #expect(session.inputValues == [0])
  }
}
