import Foundation
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneTestSupport
import Testing

@testable import SceneRuntime

/// `drag` and `follow` with momentum and detents, against the closed forms they promise:
/// x(t) = x₀ + A·(1 − e^(−t/τ)) for a glide, the spring's own exact solution for a snap
/// or a bounce, iOS's rubber band past a bound.
@Suite struct DragTests {
  /// A free draggable dot at (100, 300) in a 400×600 scene, with `drag` settings.
  static func scene(_ settings: String, handle: String = "position: [100, 300], r: 10") -> String {
    """
    scene: { size: 400x600, fps: 60, duration: 10s }
    springs:
      snappy: { dampingRatio: 0.8, duration: 0.4s }
    handles:
      dot: { \(handle), draggable: true }
    constraints:
      - drag: { handle: dot\(settings.isEmpty ? "" : ", " + settings) }
    """
  }

  /// A simulation of `yaml` with the dot grabbed at its centre, dragged to `to` (if given)
  /// and released at time 0 with `velocity`.
  static func flung(_ yaml: String, to: Point? = nil, velocity: Vector) throws -> Simulation {
    var simulation = try Simulation(graph: graph(yaml))
    let start = simulation.graph.handles[0]
    let at = try #require(start.position?.constantValue)
    simulation.pointerDown(id: 0, at: Point(at.x, at.y))
    if let to { simulation.pointerMoved(id: 0, to: to) }
    simulation.pointerUp(id: 0, velocity: velocity)
    return simulation
  }

  /// τ of iOS's `normal` rate: −1 ms / ln 0.998.
  static let normalTau = -0.001 / log(0.998)

  @Test(arguments: [30.0, 60, 120, 144])
  func aFlungHandleGlidesAsTheFormulaSaysAtAnyFrameRate(fps: Double) throws {
    var simulation = try Self.flung(Self.scene(""), velocity: Vector(2000, -500))
    let tau = Self.normalTau
    let amplitude = Vector(2000, -500) * tau
    // It stops when the rest of the glide, a 2D length, is within 0.5 points: at
    // τ·ln(|A|/0.5), both axes at once.
    let stop = tau * log(amplitude.length / 0.5)
    var restedAt: Double?
    var n = 1
    while restedAt == nil && n < Int(10 * fps) {
      let t = Double(n) / fps
      let frame = try simulation.step(to: t)
      let dot = try #require(frame.handles.first)
      if frame.namedEvents.contains(NamedEvent("rest", "dot")) {
        restedAt = t
        // At rest exactly where the glide ends: x₀ + v₀·τ.
        #expect(dot.x == 100 + amplitude.x)
        #expect(dot.y == 300 + amplitude.y)
      } else {
        let decay = 1 - exp(-t / tau)
        #expect(isApproximatelyEqual(dot.x, 100 + amplitude.x * decay, relativeTolerance: 1e-12))
        // The shorter y glide does not stop on its own: the handle rests as one.
        #expect(isApproximatelyEqual(dot.y, 300 + amplitude.y * decay, relativeTolerance: 1e-12))
        #expect(dot.state == .settling)
        let velocity = try #require(simulation.integratedVelocity(ofHandle: 0))
        #expect(isApproximatelyEqual(velocity.x, 2000 * exp(-t / tau), relativeTolerance: 1e-12))
        #expect(isApproximatelyEqual(velocity.y, -500 * exp(-t / tau), relativeTolerance: 1e-12))
      }
      n += 1
    }
    let rested = try #require(restedAt)
    // The first frame at or after the formula's stopping time.
    #expect(rested >= stop - 1e-12)
    #expect(rested - 1 / fps < stop)
  }

  @Test func framerPowerAndTimeConstantGlidePowerTimesTheVelocity() throws {
    var simulation = try Self.flung(
      Self.scene("momentum: { power: 0.8, timeConstant: 700ms }"), velocity: Vector(1000, 0))
    for n in 1...60 {
      let t = Double(n) / 60
      let dot = try #require(simulation.step(to: t).handles.first)
      #expect(
        isApproximatelyEqual(dot.x, 100 + 800 * (1 - exp(-t / 0.7)), relativeTolerance: 1e-12))
    }
  }

  @Test func fastDecelerationStopsSoonerThanNormal() throws {
    var simulation = try Self.flung(Self.scene("momentum: fast"), velocity: Vector(1000, 0))
    let tau = -0.001 / log(0.99)
    var last = 0.0
    for n in 1...120 { last = try #require(simulation.step(to: Double(n) / 60).handles.first).x }
    #expect(last == 100 + 1000 * tau)
  }

  @Test func withoutMomentumAReleasedHandleStaysWhereItIs() throws {
    var simulation = try Self.flung(Self.scene("momentum: none"), velocity: Vector(1000, 0))
    let frame = try simulation.step(to: 1)
    #expect(frame.handles[0].x == 100)
    #expect(frame.handles[0].state == .idle)
  }

  // MARK: - Snapping

  static let detents = """
    axis: y, snap: { top: [100, 100], bottom: [100, 500] }, spring: snappy
    """

  @Test func theTargetIsChosenFromWhereTheGlideWouldEnd() throws {
    // From y = 280, 'top' (180 away) is nearer than 'bottom' (220), but a release at
    // +200 pt/s projects to 280 + 200·τ = 379.9, nearer 'bottom'.
    let handle = "position: [100, 280], r: 10"
    for (velocity, target, end) in [(0.0, "top", 100.0), (200, "bottom", 500), (-200, "top", 100)] {
      var simulation = try Self.flung(
        Self.scene(Self.detents, handle: handle), velocity: Vector(0, velocity))
      var events: [NamedEvent] = []
      var y = 0.0
      for n in 1...180 {
        let frame = try simulation.step(to: Double(n) / 60)
        events += frame.namedEvents
        y = frame.handles[0].y
      }
      #expect(y == end)
      #expect(events.contains(NamedEvent("snap", "dot", target: target)))
    }
  }

  @Test func theSnapSpringCarriesTheReleaseVelocity() throws {
    let handle = "position: [100, 280], r: 10"
    var simulation = try Self.flung(
      Self.scene(Self.detents, handle: handle), velocity: Vector(0, 200))
    let model = SpringModel(dampingRatio: 0.8, duration: 0.4)
    for n in 1...20 {
      let t = Double(n) / 60
      let y = try #require(simulation.step(to: t).handles.first).y
      let exact = model.state(after: t, displacement: 280 - 500, velocity: 200)
      #expect(isApproximatelyEqual(y, 500 + exact.displacement, relativeTolerance: 1e-12))
    }
  }

  @Test func aGridSnapsEachAxisItsCellSizeFromTheStartAndLeavesAZeroAxisFree() throws {
    var simulation = try Self.flung(
      Self.scene("grid: [50, 0], momentum: none, spring: snappy"), to: Point(170, 340),
      velocity: .zero)
    var last: Frame?
    var events: [NamedEvent] = []
    for n in 1...120 {
      last = try simulation.step(to: Double(n) / 60)
      events += last?.namedEvents ?? []
    }
    let dot = try #require(last?.handles.first)
    // x: 170 is 1.4 cells of 50 from 100, so it goes to 150; y has no grid and stays.
    #expect(dot.x == 150)
    #expect(dot.y == 340)
    #expect(events.contains(NamedEvent("snap", "dot", target: "grid")))
  }

  // MARK: - Bounds

  @Test func pastABoundTheHandleRubberBandsAsIOSDoes() throws {
    let yaml = Self.scene("bounds: { maxX: 200 }, momentum: none")
    var simulation = try Simulation(graph: graph(yaml))
    simulation.pointerDown(id: 0, at: Point(100, 300))
    simulation.pointerMoved(id: 0, to: Point(300, 300))
    let x = try simulation.step(to: 1.0 / 60).handles[0].x
    // (1 − 1/(x·c/d + 1))·d with x = 100 past, c = 0.55, d = the scene's width 400.
    let stretch: Double = 100 * 0.55 / 400 + 1
    let band: Double = (1 - 1 / stretch) * 400
    #expect(isApproximatelyEqual(x, 200 + band, relativeTolerance: 1e-15))
  }

  @Test func overdragByAFactorOrNotAtAll() throws {
    for (overdrag, expected) in [("{ factor: 0.25 }", 225.0), ("none", 200)] {
      var simulation = try Simulation(
        graph: graph(Self.scene("bounds: { maxX: 200 }, overdrag: \(overdrag)")))
      simulation.pointerDown(id: 0, at: Point(100, 300))
      simulation.pointerMoved(id: 0, to: Point(300, 300))
      #expect(try simulation.step(to: 1.0 / 60).handles[0].x == expected)
    }
  }

  @Test func momentumThatHitsABoundBouncesBackFromItAndEndsThere() throws {
    var simulation = try Self.flung(
      Self.scene("bounds: { maxX: 200 }"), velocity: Vector(1000, 0))
    let tau = Self.normalTau
    let amplitude = 1000 * tau
    // x₀ + A(1 − e^(−t/τ)) = 200 at t* = −τ·ln(1 − 100/A).
    let crossing = -tau * log(1 - 100 / amplitude)
    let speed = 1000 * exp(-crossing / tau)
    let bounce = SpringModel(stiffness: 500, damping: 10)
    var x = 0.0
    for n in 1...300 {
      let t = Double(n) / 60
      let frame = try simulation.step(to: t)
      x = frame.handles[0].x
      if frame.handles[0].state != .settling { break }
      let gliding: Double = 100 + amplitude * (1 - exp(-t / tau))
      let bounced = bounce.state(after: t - crossing, displacement: 0, velocity: speed)
      let expected: Double = t < crossing ? gliding : 200 + bounced.displacement
      #expect(isApproximatelyEqual(x, expected, relativeTolerance: 1e-11))
    }
    #expect(x == 200)
  }

  @Test func releasedPastABoundItSpringsBackToTheBound() throws {
    var simulation = try Self.flung(
      Self.scene("bounds: { minY: 0, maxY: 320 }"), to: Point(100, 400), velocity: .zero)
    var last: Frame?
    for n in 1...240 { last = try simulation.step(to: Double(n) / 60) }
    #expect(last?.handles[0].y == 320)
    #expect(last?.handles[0].state == .idle)
  }

  @Test func boundsAreExpressionsThatFollowOtherHandles() throws {
    let yaml = """
      scene: { size: 400x600 }
      handles:
        wall: { position: [150, 0] }
        dot: { position: [100, 300], r: 10, draggable: true }
      constraints:
        - drag: { handle: dot, bounds: { maxX: wall.x - 10 }, overdrag: none }
      """
    var simulation = try Simulation(graph: graph(yaml))
    simulation.pointerDown(id: 0, at: Point(100, 300))
    simulation.pointerMoved(id: 0, to: Point(300, 300))
    #expect(try simulation.step(to: 1.0 / 60).handles[1].x == 140)
  }

  // MARK: - Axes

  @Test func anAxisHoldsTheOtherCoordinateWhileDraggedAndWhenFlung() throws {
    var simulation = try Self.flung(
      Self.scene("axis: x"), to: Point(160, 380), velocity: Vector(300, 300))
    for n in 1...60 {
      #expect(try simulation.step(to: Double(n) / 60).handles[0].y == 300)
    }
  }

  @Test func aDirectionLockWaitsForTenPointsThenKeepsTheLargerAxis() throws {
    var simulation = try Simulation(graph: graph(Self.scene("lock: true, momentum: none")))
    simulation.pointerDown(id: 0, at: Point(100, 300))
    simulation.pointerMoved(id: 0, to: Point(106, 308))  // Within 10 points: not moved yet.
    var dot = try simulation.step(to: 1.0 / 60).handles[0]
    #expect(dot.x == 100 && dot.y == 300)
    simulation.pointerMoved(id: 0, to: Point(104, 320))  // y leads: locked to y.
    dot = try simulation.step(to: 2.0 / 60).handles[0]
    #expect(dot.x == 100 && dot.y == 320)
    simulation.pointerMoved(id: 0, to: Point(180, 330))  // Still y only.
    dot = try simulation.step(to: 3.0 / 60).handles[0]
    #expect(dot.x == 100 && dot.y == 330)
  }

  // MARK: - Along a path

  static let rail = """
    scene: { size: 400x200, fps: 60, duration: 10s }
    springs:
      snappy: { dampingRatio: 1, duration: 0.3s }
    handles:
      bead: { position: [50, 100], r: 8, draggable: true }
    paths:
      rail: { d: "M0 100 L400 100" }
    constraints:
      - follow: { handle: bead, path: rail, SETTINGS }
    """

  @Test(arguments: [30.0, 60, 120, 144])
  func followGlidesAlongThePathInArcLength(fps: Double) throws {
    let yaml = Self.rail.replacingOccurrences(of: "SETTINGS", with: "momentum: normal")
    var simulation = try Self.flung(yaml, velocity: Vector(300, 40))
    let tau = Self.normalTau
    // Only the velocity along the tangent counts: 300 pt/s along the rail.
    for n in 1...Int(fps) {
      let t = Double(n) / fps
      let bead = try #require(simulation.step(to: t).handles.first)
      let remaining = 300 * tau * exp(-t / tau)
      let expected = remaining <= 0.5 ? 50 + 300 * tau : 50 + 300 * tau * (1 - exp(-t / tau))
      #expect(isApproximatelyEqual(bead.x, expected, relativeTolerance: 1e-9))
      #expect(abs(bead.y - 100) < 1e-9)
    }
  }

  @Test func aFollowGlideLeavesItsVelocityToTheFrames() throws {
    // It glides in arc length: the engine integrates no velocity in the plane for it, so
    // expectations take the change between frames rather than the velocity it was let go at.
    let yaml = Self.rail.replacingOccurrences(of: "SETTINGS", with: "momentum: normal")
    var simulation = try Self.flung(yaml, velocity: Vector(300, 0))
    #expect(try simulation.step(to: 1.0 / 60).handles[0].state == .settling)
    #expect(simulation.integratedVelocity(ofHandle: 0) == nil)
  }

  @Test func followGlidingIntoAnEndBouncesBackToIt() throws {
    let yaml = Self.rail.replacingOccurrences(of: "SETTINGS", with: "momentum: normal")
    var simulation = try Self.flung(yaml, velocity: Vector(-400, 0))
    var xs: [Double] = []
    for n in 1...240 { xs.append(try simulation.step(to: Double(n) / 60).handles[0].x) }
    #expect(xs.allSatisfy { $0 >= 0 })
    #expect(xs.last == 0)
  }

  @Test func followSnapsToTheDetentItsGlideProjectsTo() throws {
    let yaml = Self.rail.replacingOccurrences(
      of: "SETTINGS", with: "snap: { left: 0.25, right: 0.75 }, spring: snappy")
    for (velocity, target, x) in [(0.0, "left", 100.0), (600, "right", 300)] {
      var simulation = try Self.flung(yaml, velocity: Vector(velocity, 0))
      var events: [NamedEvent] = []
      var last = 0.0
      for n in 1...120 {
        let frame = try simulation.step(to: Double(n) / 60)
        events += frame.namedEvents
        last = frame.handles[0].x
      }
      #expect(isApproximatelyEqual(last, x, relativeTolerance: 1e-9))
      #expect(events.contains(NamedEvent("snap", "bead", target: target)))
    }
  }

  // MARK: - What Grammar.md settles

  /// Released with `momentum: none` and nothing to snap to, it is at rest at once, and
  /// says so as `elastic` does: `rest` in the release's frame.
  @Test func noMomentumRestsAtTheRelease() throws {
    var simulation = try Self.flung(Self.scene("momentum: none"), velocity: Vector(900, 0))
    #expect(simulation.events.map(\.type) == ["grab", "release", "rest"])
    #expect(try simulation.step(to: 1 / 60).handles[0].x == 100)
  }

  /// A target off the locked axis: only its coordinate along the axis counts, and the
  /// handle stays on its own line.
  @Test func aSnapTargetOffTheLockedAxisPullsOnlyAlongIt() throws {
    var simulation = try Self.flung(
      Self.scene("axis: x, momentum: none, snap: { far: [300, 500] }"), velocity: .zero)
    var last = HandleFrame?.none
    for n in 1...120 { last = try simulation.step(to: Double(n) / 60).handles[0] }
    #expect(last?.x == 300 && last?.y == 300)
  }

  /// A grid with a free axis (cell size 0): the free axis glides on with momentum while
  /// the other snaps, and the handle rests when both are done (judged in 2D).
  @Test func aGridsFreeAxisGlidesOn() throws {
    var simulation = try Self.flung(
      Self.scene("grid: [100, 0], spring: snappy"), velocity: Vector(10, 400))
    var last = HandleFrame?.none
    var rests = 0
    for n in 1...600 {
      let frame = try simulation.step(to: Double(n) / 60)
      last = frame.handles[0]
      rests += frame.events.filter { $0.type == "rest" }.count
    }
    let glide = 400 * Self.normalTau
    #expect(last?.x == 100)
    #expect(last.map { isApproximatelyEqual($0.y, 300 + glide, relativeTolerance: 1e-12) } == true)
    #expect(rests == 1)
  }

  /// A `follow` handle whose bounce spring carries it past a clamped end is drawn at the
  /// end, never off the path, until the spring turns it back.
  @Test func aBouncePastAClampedEndIsDrawnAtTheEnd() throws {
    let yaml = Self.rail.replacingOccurrences(
      of: "SETTINGS", with: "momentum: normal, spring: snappy")
    var simulation = try Self.flung(yaml, velocity: Vector(3000, 0))
    var xs: [Double] = []
    for n in 1...240 { xs.append(try simulation.step(to: Double(n) / 60).handles[0].x) }
    #expect(xs.allSatisfy { $0 <= 400 })
    #expect(xs.contains(400) && xs.last == 400)
  }

  // MARK: - Paging

  /// The last `snap` event of a fling of the dot (at x 100) with `settings`.
  static func snappedPage(_ settings: String, velocity: Double) throws -> String? {
    var simulation = try Self.flung(Self.scene(settings), velocity: Vector(velocity, 0))
    var target: String?
    for n in 1...300 {
      for event in try simulation.step(to: Double(n) / 60).events where event.type == "snap" {
        target = event.target
      }
    }
    return target
  }

  /// A hard flick from the first page lands on the next, as iOS's paging does; without
  /// `paging` its momentum carries it to the page it projects to.
  @Test func pagingMovesAtMostOnePagePerRelease() throws {
    let pages = "axis: x, snap: { one: [100, 300], two: [400, 300], three: [700, 300] }"
    #expect(try Self.snappedPage(pages, velocity: 1500) == "three")
    #expect(try Self.snappedPage(pages + ", paging: true", velocity: 1500) == "two")
    #expect(try Self.snappedPage(pages + ", paging: true", velocity: -1500) == "one")
    #expect(try Self.snappedPage(pages + ", paging: true", velocity: 100) == "one")
    // On a grid: the cell it was grabbed in and the next on each side.
    let grid = "axis: x, grid: [100, 0]"
    #expect(try Self.snappedPage(grid, velocity: 1500) == "grid")
    var simulation = try Self.flung(Self.scene(grid + ", paging: true"), velocity: Vector(1500, 0))
    var x = 0.0
    for n in 1...300 { x = try simulation.step(to: Double(n) / 60).handles[0].x }
    #expect(x == 200)
  }

  @Test func pagingWithNothingToPageBetweenIsAnError() throws {
    let result = SceneResolver.resolve(
      try #require(
        SceneLoader.load(
          SourceFile(name: "p.yaml", text: Self.scene("paging: true")), syntax: .yaml
        ).spec))
    #expect(
      result.errors.map(\.message) == [
        "'paging' limits which snap target a release may reach, but this drag has none; add 'snap' or 'grid'"
      ])
  }

  // MARK: - With elastic

  /// `elastic` with iOS's rubber band and a spring return is `drag` held to its rest by
  /// zero-size bounds, bouncing back with the same spring: the two agree frame by frame.
  @Test(arguments: [30.0, 60, 120, 144])
  func elasticIsDragWithBoundsAtItsRest(fps: Double) throws {
    let common = """
      scene: { size: 400x600, fps: 60, duration: 10s }
      springs:
        back: { dampingRatio: 0.5, duration: 0.6s }
      handles:
        dot: { position: [100, 300], r: 10, draggable: true }
      constraints:

      """
    let elastic =
      common
      + "  - elastic: { handle: dot, resistance: { rubberband: 0.55, dimension: 300 }, return: back }\n"
    let drag =
      common
      + "  - drag: { handle: dot, bounds: { minX: 100, maxX: 100, minY: 300, maxY: 300 }, overdrag: { rubberband: 0.55, dimension: 300 }, bounce: back }\n"
    // A diagonal pull and fling: rest is judged on 2D lengths by both, so they rest in the
    // same frame, at the same place.
    var runs: [[HandleFrame]] = []
    var rests: [[Int]] = []
    for yaml in [elastic, drag] {
      var simulation = try Simulation(graph: graph(yaml))
      simulation.pointerDown(id: 0, at: Point(100, 300))
      simulation.pointerMoved(id: 0, to: Point(40, 380))
      var frames = [try simulation.step(to: 1 / fps)]
      simulation.pointerUp(id: 0, velocity: Vector(-300, 400))
      for n in 2...Int(2 * fps) { frames.append(try simulation.step(to: Double(n) / fps)) }
      runs.append(frames.map { $0.handles[0] })
      rests.append(
        frames.indices.filter { frames[$0].namedEvents.contains(NamedEvent("rest", "dot")) })
    }
    for (a, b) in zip(runs[0], runs[1]) {
      #expect(isApproximatelyEqual(a.x, b.x, relativeTolerance: 1e-12, absoluteTolerance: 1e-9))
      #expect(isApproximatelyEqual(a.y, b.y, relativeTolerance: 1e-12, absoluteTolerance: 1e-9))
      #expect(a.state == b.state)
    }
    #expect(rests[0] == rests[1] && rests[0].count == 1)
    #expect(runs[1].last?.x == 100 && runs[1].last?.y == 300)
  }

  // MARK: - The scenes

  /// The four drag scenes of `Scenes/` move the same at 30, 60, 120 and 144 fps.
  ///
  /// At every time the four frame rates share (each 1/6 s), every moving handle is within
  /// 1e-9 points. The one difference is when a spring is declared at rest: the first frame at
  /// which it is within its `restThreshold` (0.5) in distance and speed, which a coarser
  /// frame rate may see later; until then the other is within that threshold of the end.
  @Test(arguments: ["bottom-sheet", "paging-carousel", "detent-knob", "dismiss-card"])
  func theDragScenesAreTheSameAtEveryFrameRate(scene: String) throws {
    let loaded = try ScenePipeline.load(path: repositoryPath("Scenes/\(scene).yaml"))
    let graph = try #require(loaded.graph, "\(loaded.rendered())")
    var samples: [[Int: [HandleFrame]]] = []
    for fps in [30.0, 60, 120, 144] {
      var shared: [Int: [HandleFrame]] = [:]
      for frame in try SceneRunner.frames(of: graph, fps: fps, duration: 4) {
        let sixths = (frame.time * 6).rounded()
        if abs(frame.time * 6 - sixths) < 1e-9 { shared[Int(sixths)] = frame.handles }
      }
      samples.append(shared)
    }
    #expect(samples[0].count == 25)
    for other in samples.dropFirst() {
      for (k, handles) in samples[0] {
        let others = try #require(other[k])
        for (a, b) in zip(handles, others) {
          let settled = a.state != b.state && (a.state == .idle || b.state == .idle)
          let allowed = settled ? 0.5 : 1e-9
          #expect(
            hypot(a.x - b.x, a.y - b.y) <= allowed,
            "\(a.name) at \(Double(k) / 6) s: (\(a.x), \(a.y)) against (\(b.x), \(b.y))")
        }
      }
    }
  }
}
