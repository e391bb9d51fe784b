import Foundation
import SceneGeometry
import SceneTestSupport
import Testing

@testable import SceneRuntime

@Suite struct GooeyBridgeTests {
  /// Circles apart, overlapping, and in every quadrant, so signs of the normal are covered.
  static let configurations: [(anchor: Vector, r0: Double, ball: Vector, r1: Double)] = [
    (Vector(120, 300), 30, Vector(260, 180), 18),
    (Vector(0, 0), 20, Vector(-90, 0), 20),
    (Vector(50, 50), 12, Vector(50, -400), 40),
    (Vector(-30, 75), 25, Vector(-10, 90), 15),  // overlapping
    (Vector(400, 400), 8, Vector(395, 390), 6),  // overlapping, ball larger share
  ]

  // MARK: - Sticky

  @Test func stickyTangentPointsLieOnTheCirclesSymmetrically() throws {
    for (o, r0, p, r1) in Self.configurations {
      let path = try #require(
        GooeyBridge.path(anchor: o, anchorRadius: r0, ball: p, ballRadius: r1, style: .sticky))
      let (a, _, d, c, _, b) = try stickyPoints(path)
      let u = try #require((p - o).normalized)
      for (point, centre, radius) in [(a, o, r0), (b, o, r0), (c, p, r1), (d, p, r1)] {
        #expect(
          isApproximatelyEqual(
            point.distance(to: centre), radius, relativeTolerance: 0, absoluteTolerance: 1e-12))
        // Across the centre line: perpendicular to it at the centre.
        #expect(abs((point - centre).dot(u)) <= 1e-12)
      }
      // Mirrored in the centre line: A ↔ B on the anchor, D ↔ C on the ball.
      #expect(reflect(a, origin: o, along: u).distance(to: b) <= 1e-12)
      #expect(reflect(d, origin: o, along: u).distance(to: c) <= 1e-12)
      // A and D on the same side, as the seed draws A → D.
      #expect((a - o).dot(d - p) > 0)
    }
  }

  @Test func stickyControlPointsLieOnTheBisector() throws {
    for (o, r0, p, r1) in Self.configurations {
      let path = try #require(
        GooeyBridge.path(anchor: o, anchorRadius: r0, ball: p, ballRadius: r1, style: .sticky))
      let (a, m, _, _, n, b) = try stickyPoints(path)
      let q = (o + p) * 0.5
      let u = try #require((p - o).normalized)
      for control in [m, n] {
        #expect(
          isApproximatelyEqual(
            control.distance(to: o), control.distance(to: p), relativeTolerance: 0,
            absoluteTolerance: 1e-12))
        #expect(abs((control - q).dot(u)) <= 1e-12)
        // The seed's M and N: where the tangents at A and B meet the bisector.
        #expect(
          isApproximatelyEqual(
            control.distance(to: q), r0, relativeTolerance: 0, absoluteTolerance: 1e-12))
      }
      #expect(abs((m - a).cross(u)) <= 1e-12 && abs((n - b).cross(u)) <= 1e-12)
      #expect(reflect(m, origin: o, along: u).distance(to: n) <= 1e-12)
    }
  }

  /// The seed's code transcribed literally (cos and sin of the centre line, swapped as it
  /// has them): the construction must be exactly this one.
  @Test func stickyMatchesTheSeed() throws {
    for (o, r0, p, r1) in Self.configurations {
      let path = try #require(
        GooeyBridge.path(anchor: o, anchorRadius: r0, ball: p, ballRadius: r1, style: .sticky))
      let (a, m, d, c, n, b) = try stickyPoints(path)
      let length = (pow(p.x - o.x, 2) + pow(p.y - o.y, 2)).squareRoot()
      let cosine = (p.y - o.y) / length
      let sine = (p.x - o.x) / length
      let (x1, y1, x2, y2) = (r0 * cosine, r0 * sine, r1 * cosine, r1 * sine)
      let q = Vector((o.x + p.x) / 2, (o.y + p.y) / 2)
      let expected = [
        Vector(o.x - x1, o.y + y1), Vector(q.x - x1, q.y + y1), Vector(p.x - x2, p.y + y2),
        Vector(p.x + x2, p.y - y2), Vector(q.x + x1, q.y - y1), Vector(o.x + x1, o.y - y1),
      ]
      for (got, want) in zip([a, m, d, c, n, b], expected) {
        #expect(got.distance(to: want) <= 1e-12)
      }
    }
  }

  @Test func outlineIsOneClosedChain() throws {
    for style in [GooeyBridge.Style.sticky, .metaball(maxDistance: 1000)] {
      for (o, r0, p, r1) in Self.configurations {
        let path = try #require(
          GooeyBridge.path(anchor: o, anchorRadius: r0, ball: p, ballRadius: r1, style: style))
        #expect(path.subpaths.count == 1)
        let subpath = try #require(path.subpaths.first)
        #expect(subpath.isClosed)
        #expect(subpath.segments.count == 3)
        let drawn = subpath.drawnSegments
        #expect(drawn.first?.start == subpath.start)
        #expect(drawn.last?.end == subpath.start)
        for (before, after) in zip(drawn, drawn.dropFirst()) {
          #expect(before.end == after.start)
        }
        // Closed along the circles with straight lines: the middle segment and the
        // implied closing one.
        if case .line = subpath.segments[1] {} else { Issue.record("middle segment is not a line") }
        #expect(subpath.closingSegment != nil)
      }
    }
  }

  // MARK: - Metaball

  @Test func metaballPointsLieOnTheCircles() throws {
    for (o, r0, p, r1) in Self.configurations {
      let path = try #require(
        GooeyBridge.path(
          anchor: o, anchorRadius: r0, ball: p, ballRadius: r1, style: .metaball(maxDistance: 1000))
      )
      let subpath = try #require(path.subpaths.first)
      guard case .cubic(let p1a, _, _, let p2a) = subpath.segments[0],
        case .cubic(let p2b, _, _, let p1b) = subpath.segments[2]
      else {
        Issue.record("expected two cubic curves")
        continue
      }
      for (point, centre, radius) in [(p1a, o, r0), (p1b, o, r0), (p2a, p, r1), (p2b, p, r1)] {
        #expect(
          isApproximatelyEqual(
            point.distance(to: centre), radius, relativeTolerance: 0, absoluteTolerance: 1e-12))
      }
      let u = try #require((p - o).normalized)
      #expect(reflect(p1a, origin: o, along: u).distance(to: p1b) <= 1e-12)
      #expect(reflect(p2a, origin: o, along: u).distance(to: p2b) <= 1e-12)
    }
  }

  /// paper.js's metaball transcribed naively (squares of the distance and all); the
  /// overflow-safe rewrite must agree with it wherever the naive form is safe.
  @Test func metaballMatchesPaperJS() throws {
    for (o, r0, p, r1) in Self.configurations {
      let path = try #require(
        GooeyBridge.path(
          anchor: o, anchorRadius: r0, ball: p, ballRadius: r1, style: .metaball(maxDistance: 1000))
      )
      let subpath = try #require(path.subpaths.first)
      let want = naiveMetaball(o, r0, p, r1)
      var got: [Vector] = []
      if case .cubic(let a, let b, let c, let d) = subpath.segments[0] { got += [a, b, c, d] }
      if case .cubic(let a, let b, let c, let d) = subpath.segments[2] { got += [a, b, c, d] }
      #expect(got.count == 8)
      for (g, w) in zip(got, want) {
        #expect(g.distance(to: w) <= 1e-9)
      }
    }
  }

  @Test func metaballBreaksBeyondMaxDistance() {
    let o = Vector(0, 0)
    let p = Vector(150, 0)
    #expect(
      GooeyBridge.path(
        anchor: o, anchorRadius: 20, ball: p, ballRadius: 20, style: .metaball(maxDistance: 149))
        == nil)
    #expect(
      GooeyBridge.path(
        anchor: o, anchorRadius: 20, ball: p, ballRadius: 20, style: .metaball(maxDistance: 150))
        != nil)
    #expect(
      GooeyBridge.path(
        anchor: o, anchorRadius: 20, ball: p, ballRadius: 20,
        style: .metaball(maxDistance: .infinity)) != nil)
    #expect(
      GooeyBridge.path(
        anchor: o, anchorRadius: 20, ball: p, ballRadius: 20, style: .metaball(maxDistance: .nan))
        == nil)
    #expect(
      GooeyBridge.path(
        anchor: o, anchorRadius: 20, ball: p, ballRadius: 20, style: .metaball(maxDistance: -1))
        == nil)
  }

  // MARK: - Degenerate input

  static let styles: [GooeyBridge.Style] = [
    .sticky, .metaball(maxDistance: 1000), .metaball(maxDistance: .infinity),
  ]

  @Test(arguments: styles)
  func nothingToDraw(style: GooeyBridge.Style) {
    let o = Vector(10, 20)
    func bridge(_ a: Vector, _ r0: Double, _ b: Vector, _ r1: Double) -> Path? {
      GooeyBridge.path(anchor: a, anchorRadius: r0, ball: b, ballRadius: r1, style: style)
    }
    // Coincident centres, equal or different radii.
    #expect(bridge(o, 20, o, 20) == nil)
    #expect(bridge(o, 20, o, 5) == nil)
    // Zero, negative and non-finite radii.
    for bad in [0, -0.0, -5, -.infinity, .infinity, .nan] {
      #expect(bridge(o, bad, Vector(100, 20), 10) == nil)
      #expect(bridge(o, 10, Vector(100, 20), bad) == nil)
    }
    // Non-finite centres.
    #expect(bridge(Vector(.nan, 0), 10, Vector(100, 20), 10) == nil)
    #expect(bridge(o, 10, Vector(.infinity, 20), 10) == nil)
    // One circle inside the other, either way, and touching from inside.
    #expect(bridge(o, 50, Vector(30, 20), 10) == nil)
    #expect(bridge(o, 10, Vector(30, 20), 50) == nil)
    #expect(bridge(o, 50, Vector(50, 20), 10) == nil)
    // Centres closer than 1e-9 × (r0 + r1 + 1), though neither circle contains the other.
    #expect(bridge(Vector(0, 0), 1, Vector(1e-300, 0), 1) == nil)
    #expect(bridge(Vector(0, 0), 1e-300, Vector(1e-300, 0), 1e-300) == nil)
    #expect(bridge(Vector(0, 0), 1e300, Vector(1e-300, 0), 1e300) == nil)
    // Just outside the tolerance there is a bridge.
    #expect(bridge(Vector(0, 0), 1, Vector(0, 4e-9), 1).map(isFinite) == true)
  }

  @Test(arguments: styles)
  func hugeAndTinyDistancesStayFinite(style: GooeyBridge.Style) throws {
    func bridge(_ a: Vector, _ r0: Double, _ b: Vector, _ r1: Double) -> Path? {
      GooeyBridge.path(anchor: a, anchorRadius: r0, ball: b, ballRadius: r1, style: style)
    }
    let max = Double.greatestFiniteMagnitude
    let tiny = Double.leastNonzeroMagnitude
    let cases: [(Vector, Double, Vector, Double)] = [
      (Vector(0, 0), 1, Vector(1e300, 0), 1),
      (Vector(0, 0), 1e-300, Vector(1e300, 1e300), 1e-300),
      (Vector(-max, -max), 1, Vector(max, max), 1),
      (Vector(-max, 0), max, Vector(max, 0), max / 2),
      (Vector(max, 0), 1e308, Vector(max, -1e308), 1e307),
      (Vector(0, 0), 1e-300, Vector(1e-300, 0), 1e-300),
      (Vector(1e-300, 1e-300), 1e-300, Vector(-1e-300, 0), 1),
      (Vector(0, 0), 1e300, Vector(1e300, 0), 1e300),
      (Vector(0, 0), 1e300, Vector(1.5e300, 0), 1e300),
      (Vector(0, 0), tiny, Vector(1, 0), tiny),
      (Vector(0, 0), 1, Vector(1, 0), tiny),
      (Vector(1e300, -1e300), 1e-300, Vector(-1e300, 1e300), 1e-300),
    ]
    for (a, r0, b, r1) in cases {
      if let path = bridge(a, r0, b, r1) {
        #expect(isFinite(path), "\(a) \(r0) \(b) \(r1)")
      }
    }
    // Far apart but representable: there is a bridge (metaball only without a limit).
    let far = bridge(Vector(0, 0), 1, Vector(1e300, 0), 1)
    let overflowingDistance = bridge(Vector(-max, 0), 1, Vector(max, 0), 1)
    if case .metaball(let limit) = style, limit.isFinite {
      #expect(far == nil && overflowingDistance == nil)
    } else {
      #expect(try isFinite(#require(far)))
      #expect(try isFinite(#require(overflowingDistance)))
    }
    // A bridge whose points would leave Double's range is not drawn rather than infinite.
    #expect(bridge(Vector(max, max), 1e308, Vector(max, -max), 1e308) == nil)
  }

  @Test func seededSweepNeverProducesANonFinitePoint() {
    var random = XorShift(seed: 0x9E37_79B9_7F4A_7C15)
    var drawn = 0
    for index in 0..<2000 {
      let anchor: Vector
      let ball: Vector
      let r0: Double
      let r1: Double
      switch index % 4 {
      case 0:  // Screen-sized.
        anchor = Vector(random.uniform(-500, 500), random.uniform(-500, 500))
        ball = Vector(random.uniform(-500, 500), random.uniform(-500, 500))
        r0 = random.uniform(-5, 80)
        r1 = random.uniform(-5, 80)
      case 1:  // Any magnitude from 1e-320 to 1e308, either sign.
        anchor = Vector(random.wide(), random.wide())
        ball = Vector(random.wide(), random.wide())
        r0 = abs(random.wide())
        r1 = abs(random.wide())
      case 2:  // Nearly coincident centres.
        anchor = Vector(random.wide(), random.wide())
        ball = anchor + Vector(random.wide(), random.wide()) * 1e-12
        r0 = abs(random.wide())
        r1 = random.next() % 2 == 0 ? r0 : abs(random.wide())
      default:  // Overlapping or touching circles of similar size.
        anchor = Vector(random.uniform(-100, 100), random.uniform(-100, 100))
        let r = random.uniform(1, 50)
        r0 = r
        r1 = r * random.uniform(0.5, 1.5)
        ball = anchor + Vector(angle: random.uniform(-4, 4)) * ((r0 + r1) * random.uniform(0, 1.1))
      }
      let style: GooeyBridge.Style =
        switch random.next() % 3 {
        case 0: .sticky
        case 1: .metaball(maxDistance: .infinity)
        default: .metaball(maxDistance: abs(random.wide()))
        }
      guard
        let path = GooeyBridge.path(
          anchor: anchor, anchorRadius: r0, ball: ball, ballRadius: r1, style: style)
      else { continue }
      drawn += 1
      #expect(isFinite(path), "\(anchor) \(r0) \(ball) \(r1) \(style)")
    }
    // The sweep must exercise the drawing, not only the early exits.
    #expect(drawn > 500)
  }

  // MARK: - Helpers

  /// The sticky outline's points in drawing order: A, M, D, C, N, B.
  func stickyPoints(_ path: Path) throws -> (Vector, Vector, Vector, Vector, Vector, Vector) {
    let subpath = try #require(path.subpaths.first)
    guard subpath.segments.count == 3,
      case .quadratic(let a, let m, let d) = subpath.segments[0],
      case .line(let d2, let c) = subpath.segments[1],
      case .quadratic(let c2, let n, let b) = subpath.segments[2],
      d == d2, c == c2, subpath.start == a
    else {
      Issue.record("not the sticky outline: \(subpath)")
      throw CancellationError()
    }
    return (a, m, d, c, n, b)
  }

  /// `point` mirrored in the line through `origin` along the unit vector `u`.
  func reflect(_ point: Vector, origin: Vector, along u: Vector) -> Vector {
    let v = point - origin
    return origin + u * (2 * v.dot(u)) - v
  }

  /// Every control point of every drawn segment, and the start, is finite.
  func isFinite(_ path: Path) -> Bool {
    path.subpaths.allSatisfy { subpath in
      subpath.start.isFinite
        && subpath.drawnSegments.allSatisfy { segment in
          let c = segment.cubic
          return segment.isFinite && [c.p0, c.p1, c.p2, c.p3].allSatisfy(\.isFinite)
        }
    }
  }

  /// paper.js's example, straight: p1a, handle, handle, p2a, p2b, handle, handle, p1b.
  func naiveMetaball(_ c1: Vector, _ r1: Double, _ c2: Vector, _ r2: Double) -> [Vector] {
    let v = 0.5
    let rate = 2.4
    let d = c1.distance(to: c2)
    var u1 = 0.0
    var u2 = 0.0
    if d < r1 + r2 {
      u1 = acos((r1 * r1 + d * d - r2 * r2) / (2 * r1 * d))
      u2 = acos((r2 * r2 + d * d - r1 * r1) / (2 * r2 * d))
    }
    let angle1 = atan2(c2.y - c1.y, c2.x - c1.x)
    let angle2 = acos((r1 - r2) / d)
    let angle1a = angle1 + u1 + (angle2 - u1) * v
    let angle1b = angle1 - u1 - (angle2 - u1) * v
    let angle2a = angle1 + .pi - u2 - (.pi - u2 - angle2) * v
    let angle2b = angle1 - .pi + u2 + (.pi - u2 - angle2) * v
    func vector(_ angle: Double, _ length: Double) -> Vector {
      Vector(cos(angle) * length, sin(angle) * length)
    }
    let p1a = c1 + vector(angle1a, r1)
    let p1b = c1 + vector(angle1b, r1)
    let p2a = c2 + vector(angle2a, r2)
    let p2b = c2 + vector(angle2b, r2)
    let totalRadius = r1 + r2
    var d2 = min(v * rate, p1a.distance(to: p2a) / totalRadius)
    d2 *= min(1, d * 2 / (r1 + r2))
    let pi2 = Double.pi / 2
    return [
      p1a, p1a + vector(angle1a - pi2, r1 * d2), p2a + vector(angle2a + pi2, r2 * d2), p2a,
      p2b, p2b + vector(angle2b - pi2, r2 * d2), p1b + vector(angle1b + pi2, r1 * d2), p1b,
    ]
  }

  /// Marsaglia's xorshift64: a fixed seed gives the same sweep on every run and platform.
  struct XorShift {
    var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 1 : seed }

    mutating func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }

    /// Uniform in `0..<1`, from the top 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// A signed value whose decimal exponent is uniform in −320…308, or exactly 0 now and then.
    mutating func wide() -> Double {
      if next() % 50 == 0 { return 0 }
      let sign: Double = next() % 2 == 0 ? 1 : -1
      let exponent = Double(Int(next() % 629) - 320)
      let value = uniform(1, 1.79) * pow(10, exponent)
      return sign * value
    }
  }
}
