import SceneGeometry
import SceneGraph
import Testing

@testable import SceneRuntime

/// The pass that steps runs of `follow`s together (``FollowConstraint/stepCommonCases``)
/// against the general step it stands in for: the same frames, to the bit.
@Suite struct FollowPassTests {
  /// Follows in every state a step meets: springing along open and closed paths, oriented
  /// or not, arriving at rest, gliding with momentum, snapping to detents, held, with no
  /// spring; runs of them broken by other kinds, whose steps must still come in order.
  static let scene = """
    scene: { size: 600x700, fps: 60, duration: 4s }
    springs:
      loose: { dampingRatio: 0.2, duration: 1.5s }
      snap: { dampingRatio: 0.9, duration: 0.3s }
    paths:
      open: { d: "M0 100 C 100 -50 200 250 300 100" }
      loop: { d: "M100 400 C 100 300 300 300 300 400 C 300 500 100 500 100 400 Z" }
      wavy: { d: "M0 600 C 50 550 100 650 150 600 C 200 550 250 650 300 600 L 400 600" }
    handles:
      a: { position: [0, 100], r: 10, draggable: true }
      b: { position: [100, 400], r: 10, draggable: true }
      c: { position: [0, 600], r: 10, draggable: true }
      d: { position: [500, 100], r: 10, draggable: true }
      e: { position: [300, 100], r: 10, draggable: true }
      f: { position: [300, 400], r: 10, draggable: true }
      g: { position: [400, 600], r: 10, draggable: true }
      h: { position: [200, 600], r: 10, draggable: true }
    constraints:
      - follow: { handle: a, path: open, orient: true, spring: loose }
      - follow: { handle: b, path: loop, spring: snap, rest: 0.25 }
      - elastic: { handle: d }
      - follow: { handle: c, path: wavy, spring: loose }
      - follow: { handle: e, path: open, momentum: normal, spring: snap }
      - follow: { handle: f, path: loop, orient: true, snap: { top: 0.25, bottom: 0.75 } }
      - follow: { handle: g, path: wavy }
      - follow: { handle: h, path: wavy, ends: clamp, spring: snap }
    """

  /// Where each handle is pressed, how far it is pulled, and the velocity it is let go at.
  static let pulls: [(at: Point, by: Vector, velocity: Vector)] = [
    (Point(0, 100), Vector(120, 30), Vector(-400, 0)),
    (Point(100, 400), Vector(90, -80), Vector(0, 900)),
    (Point(0, 600), Vector(160, 0), Vector(300, 0)),
    (Point(500, 100), Vector(40, 60), Vector(0, 0)),
    (Point(300, 100), Vector(-150, 0), Vector(-1_500, 0)),
    (Point(300, 400), Vector(-60, 60), Vector(-700, 700)),
    (Point(400, 600), Vector(-80, 10), Vector(0, 0)),
    (Point(200, 600), Vector(90, 0), Vector(2_000, 0)),
  ]

  /// Every frame of the scene with pointers pressing, pulling and letting go of each
  /// handle in turn, overlapping, at step `dt`.
  static func run(dt: Double, together: Bool) throws -> [Frame] {
    var simulation = try Simulation(graph: graph(scene))
    simulation.stepsFollowsTogether = together
    var frames: [Frame] = []
    let steps = Int((4 / dt).rounded())
    for step in 0..<steps {
      // Handle k is pressed at 0.2 k s, pulled over 0.25 s and let go at 0.2 k + 0.3 s,
      // each by its own pointer, so several are held, springing and arriving at once.
      for (k, pull) in pulls.enumerated() {
        let press = Int((0.2 * Double(k) / dt).rounded())
        let release = press + Int((0.3 / dt).rounded())
        if step == press {
          simulation.pointerDown(id: k, at: pull.at)
        } else if step > press && step < release {
          let progress = min(Double(step - press) * dt / 0.25, 1)
          simulation.pointerMoved(id: k, to: pull.at + pull.by * progress)
        } else if step == release {
          simulation.pointerUp(id: k, velocity: pull.velocity)
        }
      }
      frames.append(try simulation.step(dt: dt))
    }
    return frames
  }

  @Test(arguments: [1.0 / 30, 1.0 / 60, 1.0 / 120, 1.0 / 144])
  func theSharedPassMovesEveryHandleAsTheStepDoes(dt: Double) throws {
    let together = try Self.run(dt: dt, together: true)
    let apart = try Self.run(dt: dt, together: false)
    #expect(together.count == apart.count)
    var compared = 0
    for (one, other) in zip(together, apart) {
      #expect(one.events == other.events, "events at frame \(one.index)")
      for (a, b) in zip(one.handles, other.handles) {
        let same =
          a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern
          && a.angle.bitPattern == b.angle.bitPattern && a.state == b.state
        #expect(same, "handle \(a.name) at frame \(one.index): \(a) against \(b)")
        compared += 1
      }
    }
    #expect(compared == together.count * 8)
    // The run meets what it is meant to: springs arriving, a snap, handles still moving.
    let events = Set(together.flatMap(\.namedEvents).map(\.type))
    #expect(events.isSuperset(of: ["grab", "release", "rest", "snap"]), "\(events)")
  }
}

@Suite struct OutOfLineGlideTests {
  static func stillValue(_ glide: Glide?) -> Double? {
    guard let glide, case .still(let value) = glide.phase else { return nil }
    return value
  }

  @Test func aCopyKeepsItsGlideWhenTheOtherChanges() {
    var one = OutOfLineGlide()
    #expect(one.isEmpty && one.glide == nil)
    one.glide = Glide(still: 3)
    var other = one
    other.glide = Glide(still: 5)
    #expect(Self.stillValue(one.glide) == 3 && Self.stillValue(other.glide) == 5)
    // Written in place once no copy shares it: still its own value.
    other.glide = Glide(still: 7)
    #expect(Self.stillValue(one.glide) == 3 && Self.stillValue(other.glide) == 7)
    other.glide = nil
    #expect(other.isEmpty && !one.isEmpty)
  }
}
