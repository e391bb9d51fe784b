import Foundation
import SceneGeometry
import ScenePipeline
import SceneRuntime
import SceneSyntax
import SceneTesting
import Testing

@testable import ScenePreview

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Saving a recording in a folder someone else may have prepared: links, FIFOs and the
/// previewed scene itself are never written; nothing is replaced without the server's own
/// confirmation; and what is saved replays under `scenec test` the first time.
@Suite struct RecordingSaveTests {
  static let trace = TraceFile(samples: [
    .init(time: 0.1, position: Vector(120, 150), phase: .down, pointer: 0),
    .init(time: 0.2, position: Vector(130, 200), phase: .move, pointer: 0),
    .init(time: 0.3, position: Vector(130, 200), phase: .up, pointer: 0),
  ])

  /// A hub previewing a copy of `elastic-drag.yaml` in a folder of its own.
  static func hub() async throws -> (PreviewHub, String) {
    let folder = try PreviewSessionTests.folder(with: "elastic-drag.yaml")
    let hub = PreviewHub(sceneFile: folder + "/elastic-drag.yaml")
    #expect(await hub.load() == "")
    return (hub, folder)
  }

  func saveError(
    _ hub: PreviewHub, trace: String, scene: String? = nil, confirmed: Bool = true
  ) async -> String? {
    do {
      _ = try await hub.save(Self.trace, traceName: trace, sceneName: scene, confirmed: confirmed)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func linksOutOfTheFolderAndLinksToNowhereAreNeverWritten() async throws {
    let (hub, folder) = try await Self.hub()
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-outside-\(UUID().uuidString)"
    ).path
    try "PRECIOUS".write(toFile: outside, atomically: true, encoding: .utf8)
    defer { unlink(outside) }
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/gesture.csv", withDestinationPath: outside)
    #expect(
      await saveError(hub, trace: "gesture.csv")
        == "'gesture.csv' is a symbolic link to '\(outside)', outside the scene's folder: not written"
    )
    #expect(try String(contentsOfFile: outside, encoding: .utf8) == "PRECIOUS")
    // A link to nowhere would create its target, wherever it points.
    let nowhere = outside + "-new"
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/scene-recorded.yaml", withDestinationPath: nowhere)
    #expect(
      await saveError(hub, trace: "t.csv", scene: "scene-recorded.yaml")
        == "'scene-recorded.yaml' is a symbolic link to '\(nowhere)', which does not exist: not written"
    )
    #expect(!FileManager.default.fileExists(atPath: nowhere))
    #expect(!FileManager.default.fileExists(atPath: folder + "/t.csv"))
  }

  @Test func aLinkInsideTheFolderIsConfirmedByItsRealTarget() async throws {
    let (hub, folder) = try await Self.hub()
    try "other".write(toFile: folder + "/other.csv", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/gesture.csv", withDestinationPath: "other.csv")
    let outcome = try await hub.save(
      Self.trace, traceName: "gesture.csv", sceneName: nil, confirmed: false)
    guard case .needsConfirmation(let targets) = outcome else {
      Issue.record("replaced without asking")
      return
    }
    #expect(targets.map(\.real) == [folder + "/other.csv"])
    #expect(try String(contentsOfFile: folder + "/other.csv", encoding: .utf8) == "other")
  }

  @Test func thePreviewedSceneIsNeverReplacedUnderAnotherName() async throws {
    let folder = try PreviewSessionTests.folder(with: "elastic-drag.yaml")
    try FileManager.default.moveItem(
      atPath: folder + "/elastic-drag.yaml", toPath: folder + "/real.yaml")
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/alias.yaml", withDestinationPath: "real.yaml")
    let hub = PreviewHub(sceneFile: folder + "/alias.yaml")
    await hub.load()
    let before = try String(contentsOfFile: folder + "/real.yaml", encoding: .utf8)
    for name in ["real.yaml", "alias.yaml"] {
      #expect(
        await saveError(hub, trace: "t.csv", scene: name)
          == "the copy cannot replace the scene being previewed", "\(name)")
    }
    #expect(
      await saveError(hub, trace: "real.yaml.csv", scene: nil) == nil)
    #expect(try String(contentsOfFile: folder + "/real.yaml", encoding: .utf8) == before)
  }

  @Test func aFIFOIsRefusedWithoutBeingOpened() async throws {
    let (hub, folder) = try await Self.hub()
    #expect(mkfifo(folder + "/gesture.csv", 0o600) == 0)
    // Opening a FIFO nobody reads would block for ever: it is refused first.
    #expect(
      await saveError(hub, trace: "gesture.csv")
        == "'gesture.csv' is not a regular file (a folder, FIFO, socket or device): not written")
    #expect(await hub.pageCount == 0)
  }

  @Test func theCopyKeepsNoneOfTheScriptsExpectationsAndPassesAsATest() async throws {
    let (hub, folder) = try await Self.hub()
    let outcome = try await hub.save(
      Self.trace, traceName: "pull.csv", sceneName: "pull.yaml", confirmed: false)
    guard case .saved = outcome else {
      Issue.record("\(outcome)")
      return
    }
    let copy = try String(contentsOfFile: folder + "/pull.yaml", encoding: .utf8)
    // elastic-drag.yaml's own `at 0.5s: badge.y ≈ 290` describes its scripted gesture.
    #expect(!copy.contains("290"))
    #expect(copy.contains("event grab of badge") && copy.contains("at end: all at rest"))
    let report = SceneTest(scene: folder + "/pull.yaml").run(record: true)
    #expect(report.outcome == .recorded, "\(report.failedExpectations ?? "")")
    #expect(SceneTest(scene: folder + "/pull.yaml").run().outcome == .passed)
  }

  @Test func theConfirmationIsTheServersNotThePages() async throws {
    let (connection, outbox) = try await PreviewConnectionTests.connection()
    let folder = await PathNameOfHub.folder(connection)
    try "keep".write(toFile: folder + "/mine.csv", atomically: true, encoding: .utf8)
    // Record something.
    await connection.receive(
      text: #"{"type":"control","action":"record"}"#, at: PreviewConnectionTests.zero)
    await connection.receive(
      text: #"{"type":"pointer","phase":"down","id":0,"x":120,"y":150}"#,
      at: PreviewConnectionTests.zero)
    await connection.tick(at: PreviewConnectionTests.zero)
    await connection.receive(
      text: #"{"type":"pointer","phase":"up","id":0,"x":120,"y":150}"#,
      at: PreviewConnectionTests.zero)
    await connection.receive(
      text: #"{"type":"control","action":"stop-recording"}"#, at: PreviewConnectionTests.zero)
    // A page that claims a confirmation it was never given replaces nothing.
    await connection.receive(
      text: #"{"type":"save","trace":"mine.csv","confirm":"made-up"}"#,
      at: PreviewConnectionTests.zero)
    #expect(try String(contentsOfFile: folder + "/mine.csv", encoding: .utf8) == "keep")
    #expect(
      await outbox.texts.last
        == #"{"message":"that confirmation is not for these files or this recording: save again to be asked anew","type":"error"}"#
    )
    // Asked properly: the server names the file and hands a token.
    await connection.receive(
      text: #"{"type":"save","trace":"mine.csv"}"#, at: PreviewConnectionTests.zero)
    let questionText = try #require(await outbox.texts.last)
    let question = try #require(
      try JSONSerialization.jsonObject(with: Data(questionText.utf8)) as? [String: Any])
    #expect(question["type"] as? String == "confirm")
    #expect(question["message"] as? String == "'mine.csv' exists. Replace it?")
    let token = try #require(question["token"] as? String)
    // The token is for that file only.
    await connection.receive(
      text: #"{"type":"save","trace":"other.csv","confirm":"\#(token)"}"#,
      at: PreviewConnectionTests.zero)
    #expect(!FileManager.default.fileExists(atPath: folder + "/other.csv"))
    await connection.receive(
      text: #"{"type":"save","trace":"mine.csv"}"#, at: PreviewConnectionTests.zero)
    let againText = try #require(await outbox.texts.last)
    let again = try #require(
      try JSONSerialization.jsonObject(with: Data(againText.utf8)) as? [String: Any])
    let secondToken = try #require(again["token"] as? String)
    await connection.receive(
      text: #"{"type":"save","trace":"mine.csv","confirm":"\#(secondToken)"}"#,
      at: PreviewConnectionTests.zero)
    #expect(try String(contentsOfFile: folder + "/mine.csv", encoding: .utf8) != "keep")
    #expect(await outbox.texts.last?.contains(#""type":"saved""#) == true)
  }

  @Test func saveNamesComeFromTheScenesName() {
    #expect(
      PreviewHub.saveNames(sceneFile: "Scenes/wave.yaml")
        == ("wave-gesture.csv", "wave-recorded.yaml"))
    #expect(
      PreviewHub.saveNames(sceneFile: "a/b/sticky ball.scene")
        == ("stickyball-gesture.csv", "stickyball-recorded.scene"))
    #expect(
      PreviewHub.saveNames(sceneFile: "-.yaml")
        == ("scene-gesture.csv", "scene-recorded.yaml"))
  }
}

/// The folder of a connection's scene.
enum PathNameOfHub {
  static func folder<C: Clock>(_ connection: PreviewConnection<C>) async -> String {
    let file = await connection.hub.sceneFile
    return String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
  }
}

/// What a recording holds: always a trace that loads, whatever the fingers did.
@Suite struct RecordingTraceTests {
  /// Saves `trace` as `NAME.csv` with its copy `NAME.yaml`, and checks that the copy is
  /// recorded by `scenec test --record` as it is.
  static func expectSavedCopyPasses(
    _ trace: TraceFile, named name: String, hub: PreviewHub, folder: String
  ) async throws {
    let outcome = try await hub.save(
      trace, traceName: name + ".csv", sceneName: name + ".yaml", confirmed: false)
    guard case .saved = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(SceneTest(scene: folder + "/\(name).yaml").run(record: true).outcome == .recorded)
  }

  static func session() async throws -> (PreviewSession, PreviewHub, String) {
    let (hub, folder) = try await RecordingSaveTests.hub()
    let graph = try #require(await hub.graph)
    return (try PreviewSession(graph: graph), hub, folder)
  }

  @Test func aFlingLiftedInTheFrameOfItsLastMoveSavesATraceThatReplays() async throws {
    var (session, hub, folder) = try await Self.session()
    try session.startRecording()
    _ = try session.frame()
    session.pointer(.down, id: 0, at: Point(120, 150), afterLastFrame: 0.004)
    for n in 1...6 {
      _ = try session.frame()
      session.pointer(.move, id: 0, at: Point(120 + Double(n) * 15, 150), afterLastFrame: 0)
    }
    // The lift comes with no time passed since the last frame, where the finger moved:
    // it used to land on that move's time, and the trace was refused.
    session.pointer(.up, id: 0, at: Point(215, 150), afterLastFrame: 0)
    for _ in 0..<3 { _ = try session.frame() }
    session.stopRecording()
    let trace = try #require(session.recordedTrace)
    #expect(try TraceFile.parse(trace.csvText, name: "fling.csv") == trace)
    try await Self.expectSavedCopyPasses(trace, named: "fling", hub: hub, folder: folder)
  }

  @Test func aPressAtTheFirstFrameAndALiftAtTheNextFrameStayInOrder() async throws {
    var (session, _, _) = try await Self.session()
    try session.startRecording()
    session.pointer(.down, id: 0, at: Point(120, 150), afterLastFrame: 0)
    _ = try session.frame()
    // A lift reported a whole frame late would tie with the next frame's moves.
    session.pointer(.move, id: 0, at: Point(130, 160), afterLastFrame: 0.001)
    session.pointer(.up, id: 0, at: Point(130, 160), afterLastFrame: 1)
    _ = try session.frame()
    session.stopRecording()
    let trace = try #require(session.recordedTrace)
    #expect(try TraceFile.parse(trace.csvText, name: "t.csv") == trace)
    #expect(trace.samples.map(\.phase) == [.down, .up])
  }

  @Test func aRecordingStopsAtItsLimitWithAWholeGestureAndSaysSo() async throws {
    var (session, hub, folder) = try await Self.session()
    #expect(session.maximumRecordingSeconds == 600)
    #expect(PreviewSession.recordingLimit(fps: 240) == 100_000.0 / 240 - 30)
    session.maximumRecordingSeconds = 0.5
    try session.startRecording()
    _ = try session.frame()
    session.pointer(.down, id: 0, at: Point(120, 150), afterLastFrame: 0.004)
    var frames = 0
    while session.isRecording && frames < 100 {
      _ = try session.frame()
      frames += 1
    }
    #expect(!session.isRecording && frames == 30)
    #expect(
      session.takeRecordingNotice()
        == "the recording stopped at its limit of 0.5 s of scene time (a longer one could not be replayed by scenec test); it can be saved"
    )
    #expect(session.takeRecordingNotice() == nil)
    let trace = try #require(session.recordedTrace)
    #expect(trace.samples.last?.phase == .up)
    try await Self.expectSavedCopyPasses(trace, named: "held", hub: hub, folder: folder)
  }
}
