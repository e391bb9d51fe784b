import Foundation
import SceneGeometry
import SceneGraph
import Testing

@testable import SceneRuntime

/// A drag's `transform: pinch`: two fingers move, zoom and turn the handle about the point
/// between them, exactly as hand-worked geometry says, resisting past the zoom and
/// springing back into it at every frame rate.
@Suite struct PinchTransformTests {
  /// A photo at (200, 200) pinched about (240, 220), off its middle: spread to 6× (shown
  /// past 4×) and turned 30° from 0.1 s to 0.6 s, then lifted.
  static let scene = """
    scene: { size: 400x400, fps: 60, duration: 2s }
    springs:
      back: { dampingRatio: 1, duration: 0.3s }
    handles:
      photo: { position: [200, 200], shape: rect, width: 200, height: 160, draggable: true, hitRadius: 150 }
    constraints:
      - drag: { handle: photo, transform: pinch, zoom: { min: 0.5, max: 4 }, momentum: none, spring: back }
    gesture:
      - wait: 0.1s
      - pinch: { scale: 6, rotation: 30deg, center: [240, 220], distance: 60, over: 0.5s }
    """

  static let zoom = SceneGraph.Drag.PinchTransform(minScale: 0.5, maxScale: 4, rotates: true)
  static let model = SpringModel(dampingRatio: 1, duration: 0.3)

  @Test(arguments: [30.0, 60, 120, 144])
  func theHandleFollowsTheFingersAndSpringsBackIntoItsZoom(fps: Double) throws {
    let run = try frames(Self.scene, fps: fps)
    var pinched = 0
    var sprung = 0
    // Where it is shown when the fingers lift: 6× resisted.
    let lifted = Simulation.resistedScale(6, Self.zoom)
    #expect(abs(lifted - 4 * (2 - 1 / (0.55 * 0.5 + 1))) <= 1e-12)
    for frame in run {
      let t = frame.time
      let photo = try #require(handle(frame, "photo"))
      let fingers = frame.pointers.filter(\.isDown)
      if fingers.count == 2 {
        // From the fingers as the frame shows them, by hand: the ratio of their distance
        // to the first (60), their turn, and the photo's offset from their first middle
        // (200 − 240, 200 − 220) scaled by the zoom shown and turned by their turn.
        let a = Vector(fingers[0].x, fingers[0].y)
        let b = Vector(fingers[1].x, fingers[1].y)
        let ratio = (b - a).length / 60
        let turn = (b - a).angle
        let shown = Simulation.resistedScale(ratio, Self.zoom)
        let offset = Vector(-40, -20) * shown
        let middle = (a + b) / 2
        let x = middle.x + offset.x * cos(turn) - offset.y * sin(turn)
        let y = middle.y + offset.x * sin(turn) + offset.y * cos(turn)
        #expect(abs(photo.scale - shown) <= 1e-12, "at \(t)")
        #expect(abs(photo.rotation - turn) <= 1e-12, "at \(t)")
        #expect(abs(photo.x - x) <= 1e-9 && abs(photo.y - y) <= 1e-9, "at \(t)")
        pinched += 1
      } else if t > 0.6 + 1e-9 {
        // Lifted at the scale shown, at rest: the spring brings it back to 4 exactly.
        let spring = Self.model.state(after: t - 0.6, displacement: lifted - 4, velocity: 0)
        let settled = photo.scale == 4 && abs(spring.displacement) <= 1e-3
        #expect(
          abs(photo.scale - (4 + spring.displacement)) <= 1e-12 || settled,
          "at \(t): \(photo.scale), expected \(4 + spring.displacement)")
        #expect(abs(photo.rotation - .pi / 6) <= 1e-12)
        sprung += 1
      }
    }
    #expect(pinched >= Int(0.45 * fps) && sprung >= Int(fps))
    #expect(try #require(run.last.flatMap { handle($0, "photo") }).scale == 4)
  }

  /// The scale resists past the zoom, continuously, and never beyond its documented limits.
  @Test func theScaleResistsPastItsZoomWithinItsLimits() {
    var previous = 0.0
    for k in 1...2_000 {
      let raw = Double(k) * 0.01
      let shown = Simulation.resistedScale(raw, Self.zoom)
      #expect(shown >= previous && shown > 0.5 * 0.738 && shown < 8)
      if raw >= 0.5 && raw <= 4 { #expect(shown == raw) }
      previous = shown
    }
  }

  /// One finger lifting hands the photo to the other, which drags it on from where it is:
  /// no jump, no release, and it keeps its zoom.
  @Test func theFingerLeftDragsItOnWithoutAJump() throws {
    var simulation = try Simulation(
      graph: graph(
        Self.scene.replacingOccurrences(
          of:
            "gesture:\n  - wait: 0.1s\n  - pinch: { scale: 6, rotation: 30deg, center: [240, 220], distance: 60, over: 0.5s }",
          with: "")))
    _ = try simulation.currentFrame()
    simulation.pointerDown(id: 0, at: Vector(180, 200))
    simulation.pointerDown(id: 1, at: Vector(220, 200))
    simulation.pointerMoved(id: 1, to: Vector(260, 200))
    var frame = try simulation.step(dt: 1.0 / 60)
    let pinched = try #require(handle(frame, "photo"))
    // Twice as far apart, their middle moved from (200, 200), where the photo's is, to
    // (220, 200): the photo goes with it.
    #expect(pinched.scale == 2 && pinched.x == 220 && pinched.y == 200, "\(pinched)")
    simulation.pointerUp(id: 0)
    simulation.pointerMoved(id: 1, to: Vector(270, 210))
    frame = try simulation.step(dt: 1.0 / 60)
    let dragged = try #require(handle(frame, "photo"))
    // The finger left moved by (10, 10), and so did the photo.
    #expect(dragged.scale == 2 && dragged.x == 230 && dragged.y == 210, "\(dragged)")
    #expect(!frame.events.contains { $0.type == "release" })
  }
}
