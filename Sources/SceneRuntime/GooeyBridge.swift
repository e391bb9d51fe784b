import RealModule
import SceneGeometry

/// The outline of the bridge that joins a `gooey` constraint's two circles.
///
/// The bridge is drawn under the two circles, so its outline only has to cover the gap
/// between them: it runs from one circle to the other along one side, crosses the ball,
/// comes back along the other side and closes across the anchor with straight lines that
/// the circles hide. It is pure geometry, with no state, so the simulation can rebuild it
/// every frame from the circles alone.
///
/// Every result is finite: the inputs are only ever halved before they are subtracted, so
/// no intermediate overflows, and a bridge whose points are out of `Double`'s range is
/// reported as `nil` rather than drawn with infinities.
public enum GooeyBridge {
  /// How the bridge is shaped.
  public enum Style: Hashable, Sendable {
    /// The sticky-ball seed: two quadratic curves between the tangent points that lie
    /// across the centre line. The bridge keeps about the circles' width however far they
    /// are apart, so the constraint alone decides when it breaks.
    case sticky
    /// paper.js's metaball example: two cubic curves leaving the circles at angles that
    /// open up as the circles approach, so the bridge thins as they separate. There is no
    /// bridge once the centres are more than `maxDistance` apart.
    case metaball(maxDistance: Double)
  }

  /// paper.js's `v`: how far (0…1) the metaball's end points spread from where the
  /// circles would meet towards the outer tangent points.
  static let spread = 0.5
  /// paper.js's `handle_len_rate`: the longest handle, as a multiple of `spread` and the
  /// radius.
  static let handleRate = 2.4

  /// The closed outline joining the circle at `anchor` to the circle at `ball`, or `nil`
  /// when there is nothing to draw.
  ///
  /// There is no bridge when a radius is not positive, when one circle lies inside the
  /// other (this includes coincident centres: the circles already overlap completely),
  /// when the centres are closer than `1e-9 × (anchorRadius + ballRadius + 1)` (their
  /// direction is then meaningless), beyond a metaball's `maxDistance`, for input that is
  /// not finite, and when a point of the outline, or of a segment's exact cubic form,
  /// would not be finite (circles near the edge of `Double`'s range).
  ///
  /// - Returns: one closed subpath; its closing straight line back to the start is implied,
  ///   as for SVG's `Z`.
  public static func path(
    anchor: Vector, anchorRadius: Double, ball: Vector, ballRadius: Double, style: Style
  ) -> Path? {
    outline(
      anchor: anchor, anchorRadius: anchorRadius, ball: ball, ballRadius: ballRadius, style: style
    ).map { Path(start: $0.start, segments: [$0.first, $0.across, $0.second], isClosed: true) }
  }

  /// ``path(anchor:anchorRadius:ball:ballRadius:style:)`` written into `path`, reusing its
  /// storage: the simulation redraws every bridge on every frame, and a new path each
  /// time would be two allocations per bridge per frame.
  ///
  /// - Returns: `false`, leaving `path` empty, when there is no bridge.
  static func write(
    anchor: Vector, anchorRadius: Double, ball: Vector, ballRadius: Double, style: Style,
    into path: inout Path
  ) -> Bool {
    guard
      let outline = outline(
        anchor: anchor, anchorRadius: anchorRadius, ball: ball, ballRadius: ballRadius,
        style: style)
    else {
      path.subpaths.removeAll(keepingCapacity: true)
      return false
    }
    path.rewriteSubpath(0, start: outline.start)
    path.subpaths[0].isClosed = true
    path.subpaths[0].segments.append(outline.first)
    path.subpaths[0].segments.append(outline.across)
    path.subpaths[0].segments.append(outline.second)
    path.finishRewrite(subpathCount: 1)
    return true
  }

  /// A bridge's closed outline: a curve from the anchor to the ball, a line across the
  /// ball, a curve back; the straight line from the last point to the start is implied.
  struct Outline {
    var start: Point
    var first: Segment
    var across: Segment
    var second: Segment

    /// Whether every point drawn is finite, the closing line's cubic form included.
    var isFinite: Bool {
      // One at a time, not through an array: this runs for every bridge on every frame.
      func drawable(_ segment: Segment) -> Bool {
        segment.isFinite && GooeyBridge.isFinite(segment.cubic)
      }
      return start.isFinite && drawable(first) && drawable(across) && drawable(second)
        && drawable(.line(second.end, start))
    }
  }

  /// The bridge's outline, or `nil` when there is nothing to draw (see
  /// ``path(anchor:anchorRadius:ball:ballRadius:style:)``).
  private static func outline(
    anchor: Vector, anchorRadius: Double, ball: Vector, ballRadius: Double, style: Style
  ) -> Outline? {
    guard anchor.isFinite, ball.isFinite, anchorRadius.isFinite, ballRadius.isFinite,
      anchorRadius > 0, ballRadius > 0
    else { return nil }
    // Halves throughout: the difference of two finite points, or the sum of two finite
    // radii, can overflow, but the difference of their halves never does.
    let delta = ball * 0.5 - anchor * 0.5
    let halfDistance = delta.length
    let halfAnchor = anchorRadius * 0.5
    let halfBall = ballRadius * 0.5
    // One circle inside the other (or the same circle): the outer one covers everything.
    guard halfDistance > abs(halfAnchor - halfBall) else { return nil }
    // Checked before dividing by the distance, so the direction below is a true unit vector.
    let tolerance = 0.5e-9 * anchorRadius + 0.5e-9 * ballRadius + 0.5e-9
    guard halfDistance > tolerance else { return nil }
    let direction = delta / halfDistance

    let outline: Outline
    switch style {
    case .sticky:
      outline = sticky(
        anchor: anchor, anchorRadius: anchorRadius, ball: ball, ballRadius: ballRadius,
        direction: direction)
    case .metaball(let maxDistance):
      // A NaN limit fails here too: no bridge rather than an unbounded one.
      guard maxDistance >= 0, !(2 * halfDistance > maxDistance) else { return nil }
      outline = metaball(
        anchor: anchor, anchorRadius: anchorRadius, ball: ball, ballRadius: ballRadius,
        halfDistance: halfDistance, direction: direction)
    }
    // Consumers measure and draw through each segment's cubic form, closing line included,
    // built from differences of the outline's points, which can overflow: check it too.
    return outline.isFinite ? outline : nil
  }

  /// The sticky-ball seed's construction.
  ///
  /// With O the anchor, P the ball and n the unit normal of OP, the tangent points are
  /// A = O + r₀n, B = O − r₀n, C = P − r₁n and D = P + r₁n. The control points are where
  /// the tangents at A and B (parallel to OP) meet the perpendicular bisector of OP:
  /// M = Q + r₀n and N = Q − r₀n, Q the midpoint. The outline is A →(M) D, line to C,
  /// C →(N) B, then closed back to A.
  private static func sticky(
    anchor: Vector, anchorRadius: Double, ball: Vector, ballRadius: Double, direction: Vector
  ) -> Outline {
    let normal = direction.perpendicular
    let midpoint = anchor * 0.5 + ball * 0.5
    let a = anchor + normal * anchorRadius
    let b = anchor - normal * anchorRadius
    let c = ball - normal * ballRadius
    let d = ball + normal * ballRadius
    let m = midpoint + normal * anchorRadius
    let n = midpoint - normal * anchorRadius
    return Outline(
      start: a, first: .quadratic(a, m, d), across: .line(d, c), second: .quadratic(c, n, b))
  }

  /// paper.js's metaball construction.
  ///
  /// When the circles overlap, u₁ and u₂ are the angles (at each centre, from the centre
  /// line) of the points where the circles cross, by the law of cosines; apart, they are 0.
  /// angle2 = acos((r₁ − r₂) / d) is the direction of the outer common tangent's touching
  /// point. Each end point sits `spread` of the way from the crossing point to that tangent
  /// point, on both sides, giving p1a, p1b on the anchor and p2a, p2b on the ball. The
  /// handles leave the end points along the circles' tangents, with a length that grows
  /// with the gap between the end points (capped at `spread × handleRate` radii) and
  /// shrinks when the circles are closer than the sum of their radii. The outline is the
  /// cubic p1a → p2a, a line to p2b, the cubic p2b → p1b, then closed back to p1a.
  private static func metaball(
    anchor: Vector, anchorRadius r1: Double, ball: Vector, ballRadius r2: Double,
    halfDistance h: Double, direction: Vector
  ) -> Outline {
    let v = spread
    let halfR1 = r1 * 0.5
    let halfR2 = r2 * 0.5
    var u1 = 0.0
    var u2 = 0.0
    if h < halfR1 + halfR2 {
      // (r₁² + d² − r₂²) / (2r₁d) rewritten as r₁/(2d) + (d − r₂)/r₁ · (d + r₂)/(2d), with
      // d = 2h: no square can overflow, and each factor is bounded because the circles
      // overlap without either containing the other and d is above the tolerance.
      let cos1 = 0.25 * (r1 / h) + 2 * (h - halfR2) / r1 * (0.5 + 0.25 * (r2 / h))
      let cos2 = 0.25 * (r2 / h) + 2 * (h - halfR1) / r2 * (0.5 + 0.25 * (r1 / h))
      u1 = clampedAcos(cos1)
      u2 = clampedAcos(cos2)
    }
    let angle1 = direction.angle
    let angle2 = clampedAcos((halfR1 - halfR2) / h)
    let angle1a = angle1 + u1 + (angle2 - u1) * v
    let angle1b = angle1 - u1 - (angle2 - u1) * v
    let angle2a = angle1 + Double.pi - u2 - (Double.pi - u2 - angle2) * v
    let angle2b = angle1 - Double.pi + u2 + (Double.pi - u2 - angle2) * v

    let p1a = anchor + Vector(angle: angle1a) * r1
    let p1b = anchor + Vector(angle: angle1b) * r1
    let p2a = ball + Vector(angle: angle2a) * r2
    let p2b = ball + Vector(angle: angle2b) * r2

    // dist(p1a, p2a) / (r₁ + r₂) and 2d / (r₁ + r₂), both from halves. Written as
    // `x < cap ? x : cap` so an infinite or NaN ratio (radii that underflow when halved)
    // takes the cap instead of spreading.
    let cap = v * handleRate
    let totalHalfRadius = halfR1 + halfR2
    let gap = (p1a * 0.5 - p2a * 0.5).length / totalHalfRadius
    let closeness = 2 * h / totalHalfRadius
    let d2 = (gap < cap ? gap : cap) * (closeness < 1 ? closeness : 1)

    let halfPi = Double.pi / 2
    let h1a = p1a + Vector(angle: angle1a - halfPi) * (r1 * d2)
    let h2a = p2a + Vector(angle: angle2a + halfPi) * (r2 * d2)
    let h2b = p2b + Vector(angle: angle2b - halfPi) * (r2 * d2)
    let h1b = p1b + Vector(angle: angle1b + halfPi) * (r1 * d2)
    return Outline(
      start: p1a, first: .cubic(p1a, h1a, h2a, p2a), across: .line(p2a, p2b),
      second: .cubic(p2b, h2b, h1b, p1b))
  }

  private static func isFinite(_ cubic: CubicBezier) -> Bool {
    cubic.p0.isFinite && cubic.p1.isFinite && cubic.p2.isFinite && cubic.p3.isFinite
  }

  /// `acos` of `x` clamped to −1…1, since rounding can push a cosine just outside; NaN
  /// (which no checked input produces) counts as 1, an angle of 0.
  private static func clampedAcos(_ x: Double) -> Double {
    if x.isNaN || x >= 1 { return 0 }
    if x <= -1 { return Double.pi }
    return Double.acos(x)
  }
}
