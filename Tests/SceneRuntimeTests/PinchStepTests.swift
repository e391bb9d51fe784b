import Foundation
import SceneGeometry
import SceneGraph
import Testing

@testable import SceneRuntime

/// The `pinch` step's two fingers against their closed form, and a scale held to the pinch
/// that a spring takes over when the fingers lift, at every frame rate.
@Suite struct PinchStepTests {
  /// Two fingers 100 apart about (200, 200), spread to twice that and turned 30° from
  /// 0.1 s to 0.6 s, then lifted; the photo's scale is the pinch's while it lasts, then
  /// springs back to 1 from where and how fast it was going.
  static let scene = """
    scene: { size: 400x400, fps: 60, duration: 1.5s }
    springs:
      back: { dampingRatio: 0.8, duration: 0.35s }
    handles:
      measures: { position: "(pinch.scale, pinch.rotation)" }
      center: { position: "pinch.active ? pinch.center : (0, 0)" }
      photo:
        position: [200, 200]
        shape: rect
        width: 100
        height: 80
        scale: { to: "pinch.active ? pinch.scale : 1", spring: back, held: pinch.active }
    gesture:
      - wait: 0.1s
      - pinch: { scale: 2, rotation: 30deg, center: [200, 200], over: 0.5s }
    """

  static let model = SpringModel(dampingRatio: 0.8, duration: 0.35)

  @Test(arguments: [30.0, 60, 120, 144])
  func thePinchAndTheSpringThatTakesOverFollowTheirClosedForms(fps: Double) throws {
    let run = try frames(Self.scene, fps: fps)
    var pinched = 0
    var sprung = 0
    for frame in run {
      let t = frame.time
      let measures = try #require(handle(frame, "measures"))
      let center = try #require(handle(frame, "center"))
      let photo = try #require(handle(frame, "photo"))
      if t > 0.1 + 1e-9 && t < 0.6 - 1e-9 {
        let u = (t - 0.1) / 0.5
        #expect(abs(measures.x - (1 + u)) <= 1e-12, "at \(t)")
        #expect(abs(measures.y - u * .pi / 6) <= 1e-12, "at \(t)")
        #expect(center.x == 200 && center.y == 200)
        #expect(abs(photo.scale - (1 + u)) <= 1e-12)
        pinched += 1
      } else if t > 0.6 + 1e-9 {
        // Lifted at 2× and growing at 2 a second: the spring carries it from there.
        let spring = Self.model.state(after: t - 0.6, displacement: 1, velocity: 2)
        let settled = photo.scale == 1 && abs(spring.displacement) <= 1e-3
        #expect(
          abs(photo.scale - (1 + spring.displacement)) <= 1e-9 || settled,
          "at \(t): \(photo.scale), expected \(1 + spring.displacement)")
        #expect(measures.x == 1 && measures.y == 0)
        sprung += 1
      }
    }
    #expect(pinched >= Int(0.5 * fps) - 1 && sprung >= Int(0.9 * fps) - 1)
    // Both fingers went down and came up together.
    let last = try #require(run.last)
    #expect(last.pointers.map(\.id) == [0, 1] && last.pointers.allSatisfy { !$0.isDown })
  }
}
