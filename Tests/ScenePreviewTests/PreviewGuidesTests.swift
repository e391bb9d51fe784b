import Foundation
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneRuntime
import SceneTestSupport
import Testing

@testable import ScenePreview

/// The guides the preview draws: the scene's own bounds, snap targets and detents, and a
/// released handle's destination, which is where it then comes to rest.
@Suite struct PreviewGuidesTests {
  static func session(_ scene: String) throws -> PreviewSession {
    let graph = try #require(try ScenePipeline.load(path: repositoryPath("Scenes/\(scene)")).graph)
    var session = try PreviewSession(graph: graph)
    try session.playScript()
    return session
  }

  /// Plays the scene's gesture; after each release, the destination the guides give is
  /// checked against where the handle comes to rest (or where the next press finds it).
  static func destinationsComeTrue(_ scene: String, handle name: String) throws -> Int {
    var session = try Self.session(scene)
    let frames = try SceneRunner.frames(of: session.graph)
    let h = try #require(session.graph.handles.firstIndex { $0.name == name })
    var promised: Vector?
    var checked = 0
    for k in frames.indices {
      let frame = try session.frame()
      let guide = session.guides.handles.first { $0.handle == h }
      if let to = guide?.destination {
        if let promised { #expect(promised == to, "frame \(k): the destination moved") }
        promised = to
      }
      let handle = frame.handles[h]
      if let target = promised, handle.state == .idle || handle.state == .dragging {
        #expect(
          abs(handle.x - target.x) <= 1e-6 && abs(handle.y - target.y) <= 1e-6,
          "frame \(k): at (\(handle.x), \(handle.y)), promised \(target)")
        checked += 1
        promised = nil
      }
    }
    return checked
  }

  @Test func theSheetsBoundsSnapTargetsAndGrabRadiusAreTheScenes() throws {
    var session = try Self.session("bottom-sheet.yaml")
    _ = try session.frame()
    let guide = try #require(session.guides.handles.first)
    #expect(guide.hitRadius == 44)
    let bounds = try #require(guide.bounds)
    #expect(bounds.minY == 90 && bounds.maxY == 420 && bounds.minX == -.infinity)
    #expect(guide.snapPoints.map(\.name) == ["large", "medium"])
    #expect(guide.snapPoints.map(\.point) == [Vector(187.5, 90), Vector(187.5, 420)])
    #expect(guide.destination == nil)  // Nothing released yet.
  }

  @Test func aFlungSheetEndsWhereItsGuideSaid() throws {
    // Three releases: the fling up to `large`, the slow drag that goes back to it, the
    // fling down to `medium`.
    let checked = try Self.destinationsComeTrue("bottom-sheet.yaml", handle: "grabber")
    #expect(checked == 3)
  }

  @Test func aPagedStripEndsWhereItsGuideSaid() throws {
    #expect(try Self.destinationsComeTrue("paging-carousel.yaml", handle: "strip") >= 2)
  }

  @Test func aKnobsDetentsArePointsOfItsTrack() throws {
    var session = try Self.session("detent-knob.yaml")
    let frames = try SceneRunner.frames(of: session.graph)
    _ = try session.frame()
    let guide = try #require(session.guides.handles.first { !$0.detents.isEmpty })
    #expect(guide.detents.map(\.name) == ["low", "mid", "high"])
    // The knob comes to rest on the detent it last snapped to, as the event names it.
    let snap = try #require(frames.flatMap(\.events).last { $0.type == "snap" })
    let target = try #require(guide.detents.first { $0.name == snap.target })
    let rest = try #require(frames.last?.handles[guide.handle])
    #expect(abs(rest.x - target.point.x) <= 1e-6 && abs(rest.y - target.point.y) <= 1e-6)
  }

  @Test func framesCarryTheGuidesOnlyWhenThePageAsks() async throws {
    let (connection, outbox) = try await PreviewConnectionTests.connection()
    let zero = PreviewConnectionTests.zero
    await connection.receive(text: #"{"type":"control","action":"step"}"#, at: zero)
    var frames = await outbox.texts.filter(
      PreviewConnection<PreviewConnectionTests.StillClock>.isFrame)
    #expect(frames.count == 1 && frames.allSatisfy { !$0.contains("\"guides\"") })
    await connection.receive(text: #"{"type":"control","action":"show-guides"}"#, at: zero)
    await connection.receive(text: #"{"type":"control","action":"step"}"#, at: zero)
    frames = await outbox.texts.filter(PreviewConnection<PreviewConnectionTests.StillClock>.isFrame)
    // elastic-drag: two draggable badges of radius 30, grabbed within 30 points.
    #expect(frames.last?.hasSuffix(#","guides":[{"h":0,"hit":30},{"h":1,"hit":30}]}"#) == true)
  }
}
