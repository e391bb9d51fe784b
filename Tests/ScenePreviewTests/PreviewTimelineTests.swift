import Foundation
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneRuntime
import SceneTestSupport
import Testing

@testable import ScenePreview

/// The preview's timeline: going back to a frame makes the frame the take made, playing on
/// replays it, live input takes over, and a tuned scene makes the take again.
@Suite struct PreviewTimelineTests {
  static func graph(_ scene: String) throws -> SceneGraph {
    try #require(try ScenePipeline.load(path: repositoryPath("Scenes/\(scene)")).graph)
  }

  @Test func seekingTheScriptedGestureGivesScenecRunsFrames() throws {
    let graph = try Self.graph("wave.yaml")
    let run = try SceneRunner.frames(of: graph)
    var session = try PreviewSession(graph: graph)
    try session.playScript()
    for _ in run.indices { _ = try session.frame() }
    #expect(session.furthestFrame == run.count - 1)
    // Back across two checkpoints, forward, and back to the first frame.
    for target in [130, 40, 61, 119, 0, 60] {
      let frame = try #require(try session.seek(to: target))
      #expect(frame == run[target], "frame \(target)")
      #expect(session.isPaused && session.nextFrame == target + 1)
    }
    // Played on from there, the take replays to its end, frame for frame.
    for k in 61..<run.count { #expect(try session.frame() == run[k], "frame \(k)") }
    #expect(!session.isReplaying)
  }

  @Test func framesAPageMissedAreMadeAgainWithoutMovingTheSession() throws {
    let graph = try Self.graph("elastic-drag.yaml")
    var session = try PreviewSession(graph: graph)
    let live = try PreviewSessionTests.playDrag(&session, frames: 70)
    #expect(try session.framesOfTake(from: 5, to: 64) == Array(live[5...64]))
    // Past the take's end: up to its last frame; wholly past it, none.
    #expect(try session.framesOfTake(from: 60, to: 500) == Array(live[60...69]))
    #expect(try session.framesOfTake(from: 70, to: 80).isEmpty)
    // The session goes on live where it was, as a session never asked does.
    var twin = try PreviewSession(graph: graph)
    _ = try PreviewSessionTests.playDrag(&twin, frames: 70)
    #expect(session.nextFrame == 70 && !session.isPaused && !session.isReplaying)
    #expect(try session.frame() == (try twin.frame()))
  }

  @Test func aLiveDragReplaysExactlyAndInputTakesOver() throws {
    let graph = try Self.graph("elastic-drag.yaml")
    var session = try PreviewSession(graph: graph)
    let live = try PreviewSessionTests.playDrag(&session, frames: 70)
    #expect(try session.seek(to: 12) == live[12])  // Mid-drag: a finger is down.
    for k in 13..<70 { #expect(try session.frame() == live[k], "frame \(k)") }
    // "Replay my last gesture": the whole take again, from its first frame.
    #expect(try session.replayTake() == live[0])
    #expect(!session.isPaused)
    for k in 1..<70 { #expect(try session.frame() == live[k], "frame \(k)") }

    // Back to frame 12, where the take held the badge; a new press there takes over:
    // the rest of the take goes, and the finger the take held is lifted.
    _ = try session.seek(to: 12)
    session.pointer(.down, id: 0, at: Point(260, 150), afterLastFrame: 0.004)
    #expect(session.furthestFrame == 12 && !session.isReplaying)
    let next = try session.frame()
    #expect(next.events.map(\.type) == ["release", "grab"])
    #expect(next.handles.first { $0.name == "band" }?.state == .dragging)
  }

  @Test func aTunedSceneMakesTheTakeAgainWithTheNewNumbers() throws {
    let graph = try Self.graph("elastic-drag.yaml")
    let folder = try makeScratchFolder("scenec-tuned")
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = try String(
      contentsOfFile: repositoryPath("Scenes/elastic-drag.yaml"), encoding: .utf8)
    let path = folder.appendingPathComponent("tuned.yaml").path
    try text.replacingOccurrences(of: "speed: 900", with: "speed: 400")
      .write(toFile: path, atomically: true, encoding: .utf8)
    let tuned = try #require(try ScenePipeline.load(path: path).graph)

    var session = try PreviewSession(graph: graph)
    let before = try PreviewSessionTests.playDrag(&session, frames: 50)
    let rerun = try session.rerun(with: tuned)
    var fresh = try PreviewSession(graph: tuned)
    let expected = try PreviewSessionTests.playDrag(&fresh, frames: 50)
    let same = rerun == expected
    #expect(same)
    let changed = rerun != before
    #expect(changed)  // The badge goes back at another speed.
    // And it goes on live from there, as the fresh one does.
    let next = try session.frame() == (try fresh.frame())
    #expect(next)
  }

  @Test func checkpointsStayFewOnALongTake() throws {
    let graph = try Self.graph("wave.yaml")
    var session = try PreviewSession(graph: graph)
    for _ in 0..<(60 * 130) { _ = try session.frame() }
    #expect(session.checkpointCount <= PreviewSession.maximumCheckpoints)
    #expect(session.checkpointCount >= PreviewSession.maximumCheckpoints / 2)
    let end = try #require(try session.seek(to: session.furthestFrame))
    #expect(end.index == 60 * 130 - 1)
  }
}
