import Foundation
import SceneGeometry
import SceneGraph
import Testing

@testable import SceneRuntime

/// `pointers[k]`, `pointers.count` and `pinch`, against the geometry of two scripted
/// fingers worked out by hand.
@Suite struct FingerExpressionTests {
  /// Two fingers, both lifting at 0.5 s.
  ///
  /// Finger 0 presses at (150, 200) and moves to (100, 200) over 0.5 s; finger 1 presses at
  /// (250, 200) at 0.1 s (between two frames at 144 fps) and moves to (200, 300) over 0.4 s.
  static let twoFingers = """
    scene: { size: 400x400, fps: 60, duration: 0.7s }
    handles:
      center: { position: "pinch.active ? pinch.center : (0, 0)" }
      measures: { position: "(pinch.scale, pinch.rotation)" }
      fingers: { position: "(pointers.count, pointers[1].id)" }
      second: { position: "pointers[1]" }
      active: { position: "(pinch.active, pointers[0].down)" }
    gesture:
      0: [{ press: [150, 200] }, { drag: { to: [100, 200], over: 0.5s } }, { release }]
      1: [{ wait: 0.1s }, { press: [250, 200] }, { drag: { to: [200, 300], over: 0.4s } }, { release }]
    """

  /// Where the two fingers are at `t` (both down from 0.1 s to 0.5 s).
  static func fingers(at t: Double) -> (Vector, Vector) {
    let first = Vector(150 - 50 * t / 0.5, 200)
    let u = (t - 0.1) / 0.4
    return (first, Vector(250 - 50 * u, 200 + 100 * u))
  }

  @Test(arguments: [30.0, 60, 120, 144])
  func pinchMeasuresTwoFingersFromWhenTheSecondWentDown(fps: Double) throws {
    let run = try frames(Self.twoFingers, fps: fps)
    let (a0, b0) = Self.fingers(at: 0.1)
    var checked = 0
    for frame in run {
      let center = try #require(handle(frame, "center"))
      let measures = try #require(handle(frame, "measures"))
      let fingers = try #require(handle(frame, "fingers"))
      let active = try #require(handle(frame, "active"))
      let t = frame.time
      if t > 0.1 + 1e-9 && t < 0.5 - 1e-9 {
        let (a, b) = Self.fingers(at: t)
        let between = b - a
        #expect(abs(center.x - (a.x + b.x) / 2) <= 1e-9 && abs(center.y - (a.y + b.y) / 2) <= 1e-9)
        #expect(abs(measures.x - between.length / (b0 - a0).length) <= 1e-12, "at \(t)")
        #expect(abs(measures.y - atan2(between.y, between.x)) <= 1e-12, "at \(t)")
        #expect(fingers.x == 2 && fingers.y == 1 && active.x == 1 && active.y == 1)
        checked += 1
      } else if t > 0.5 + 1e-9 || t < 0.1 - 1e-9 {
        #expect(measures.x == 1 && measures.y == 0 && active.x == 0)
        #expect(center.x == 0 && center.y == 0)
        #expect(fingers.x == (t < 0.1 ? 1 : 0) && fingers.y == -1)
      }
    }
    #expect(checked >= Int(0.3 * fps) - 1)
  }

  /// When the first finger lifts, the second becomes `pointers[0]`, and the pinch ends.
  @Test func aFingerThatLiftsLeavesTheList() throws {
    let yaml = """
      scene: { size: 400x400, fps: 60, duration: 0.5s }
      handles:
        first: { position: "(pointers[0].id, pointers.count)" }
        active: { position: "(pinch.active, 0)" }
      gesture:
        3: [{ press: [10, 10] }, { wait: 0.2s }, { release }]
        7: [{ wait: 0.1s }, { press: [50, 50] }, { wait: 0.3s }, { release }]
      """
    let run = try frames(yaml, fps: 60)
    func at(_ t: Double) throws -> (Double, Double, Double) {
      let frame = try #require(run.first { abs($0.time - t) < 1e-9 })
      let first = try #require(handle(frame, "first"))
      return (first.x, first.y, try #require(handle(frame, "active")).x)
    }
    #expect(try at(0.05) == (3, 1, 0))
    #expect(try at(0.15) == (3, 2, 1))
    #expect(try at(0.25) == (7, 1, 0))
  }

  /// Two fingers turning about their midpoint three quarters of a turn, 5° a frame: the
  /// rotation counts past half a turn instead of wrapping to −π.
  @Test func pinchRotationCountsPastHalfATurn() throws {
    var simulation = try Simulation(
      graph: graph(
        """
        scene: { size: 400x400, fps: 60, duration: 1s }
        handles:
          measures: { position: "(pinch.rotation, pinch.scale)" }
        """))
    simulation.pointerDown(id: 0, at: Point(100, 200))
    simulation.pointerDown(id: 1, at: Point(300, 200))
    var frame = try simulation.step(to: 1.0 / 60)
    for k in 1...54 {
      let angle = Double(k) * 5 * .pi / 180
      simulation.pointerMoved(id: 0, to: Point(200 - 100 * cos(angle), 200 - 100 * sin(angle)))
      simulation.pointerMoved(id: 1, to: Point(200 + 100 * cos(angle), 200 + 100 * sin(angle)))
      frame = try simulation.step(to: Double(k + 1) / 60)
    }
    let measures = try #require(handle(frame, "measures"))
    #expect(abs(measures.x - 1.5 * .pi) <= 1e-12)
    #expect(abs(measures.y - 1) <= 1e-12)
  }
}

/// The fingers' slots are kept only for a scene that reads them: a thousand fingers down
/// at once in one that does not start no pinch and keep no order of them.
@Suite struct FingerBookkeepingTests {
  @Test func aSceneThatReadsNoFingerKeepsNoneOfTheirBookkeeping() throws {
    var quiet = try Simulation(
      graph: graph("scene: { size: 400x400 }\nhandles:\n  dot: { position: [10, 10], r: 4 }\n"))
    var reading = try Simulation(
      graph: graph("scene: { size: 400x400 }\nlet:\n  zoom: pinch.scale\n"))
    #expect(!quiet.readsFingers && reading.readsFingers)
    for k in 0..<1_000 {
      quiet.pointerDown(id: k, at: Point(Double(k), 0))
      reading.pointerDown(id: k, at: Point(Double(k), 0))
    }
    #expect(quiet.pinch == nil)
    #expect(reading.pinch.map { [$0.fingers.0, $0.fingers.1] } == [0, 1])
    // The order they went down in, not their ids': the first lifts, the third joins.
    reading.pointerUp(id: 0)
    #expect(reading.pinch.map { [$0.fingers.0, $0.fingers.1] } == [1, 2])
    #expect(reading.fingersDown(3).map { reading.pointers[$0].id } == [1, 2, 3])
  }
}
