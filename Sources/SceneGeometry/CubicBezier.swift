/// A cubic Bézier curve `B(t)` for `t` in `0...1`, the workhorse of all curve geometry.
///
/// Lines and quadratic curves are raised to cubics exactly (``Segment/cubic``), so
/// arc length, nearest point and tangents are written once, here.
///
/// ```swift
/// let c = CubicBezier(Point(0, 0), Point(30, 80), Point(70, -40), Point(100, 0))
/// c.point(at: 0.5)   // (50, 15)
/// ```
public struct CubicBezier: Hashable, Sendable {
  public var p0: Point
  public var p1: Point
  public var p2: Point
  public var p3: Point

  @inlinable
  public init(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
    self.p0 = p0
    self.p1 = p1
    self.p2 = p2
    self.p3 = p3
  }

  /// The straight line from `a` to `b` as a cubic with uniform speed.
  @inlinable
  public init(line a: Point, _ b: Point) {
    self.init(a, a.interpolate(to: b, amount: 1.0 / 3), a.interpolate(to: b, amount: 2.0 / 3), b)
  }

  /// The quadratic curve `a`, control `c`, `b` raised to a cubic (the same curve and speed).
  @inlinable
  public init(quadratic a: Point, _ c: Point, _ b: Point) {
    self.init(a, a + (c - a) * (2.0 / 3), b + (c - b) * (2.0 / 3), b)
  }
}

// MARK: - Evaluation

extension CubicBezier {
  /// The power-basis coefficients: `B(t) = a·t³ + b·t² + c·t + d`.
  @inlinable
  public var powerBasis: (a: Vector, b: Vector, c: Vector, d: Vector) {
    let c = 3 * (p1 - p0)
    let b = 3 * (p2 - p1) - c
    let a = p3 - p0 - c - b
    return (a, b, c, p0)
  }

  /// The point at parameter `t` (de Casteljau form, exact at both ends).
  @inlinable @inline(always)
  public func point(at t: Double) -> Point {
    let u = 1 - t
    let uu = u * u
    let tt = t * t
    return p0 * (uu * u) + p1 * (3 * uu * t) + p2 * (3 * u * tt) + p3 * (tt * t)
  }

  /// The first derivative `B'(t)`.
  @inlinable
  public func derivative(at t: Double) -> Vector {
    let u = 1 - t
    return (p1 - p0) * (3 * u * u) + (p2 - p1) * (6 * u * t) + (p3 - p2) * (3 * t * t)
  }

  /// The second derivative `B''(t)`.
  @inlinable
  public func secondDerivative(at t: Double) -> Vector {
    let u = 1 - t
    return (p2 - 2 * p1 + p0) * (6 * u) + (p3 - 2 * p2 + p1) * (6 * t)
  }

  /// The third derivative `B'''`, constant along the curve.
  @inlinable
  public var thirdDerivative: Vector { 6 * (p3 - p0 + 3 * (p1 - p2)) }

  /// The largest coordinate magnitude among the control points; the scale that
  /// tolerances of this curve are relative to.
  @inlinable
  public var scale: Double {
    Swift.max(
      Swift.max(Swift.max(abs(p0.x), abs(p0.y)), Swift.max(abs(p1.x), abs(p1.y))),
      Swift.max(Swift.max(abs(p2.x), abs(p2.y)), Swift.max(abs(p3.x), abs(p3.y))), 1)
  }

  /// `true` when all four control points coincide, so the curve is a single point.
  @inlinable
  public var isPoint: Bool { p0 == p1 && p1 == p2 && p2 == p3 }

  /// The length of the control polygon, an upper bound of the arc length.
  @inlinable
  public var controlPolygonLength: Double {
    p0.distance(to: p1) + p1.distance(to: p2) + p2.distance(to: p3)
  }
}

// MARK: - Tangent, normal and angle

extension CubicBezier {
  /// The unit tangent (direction of travel) at `t`.
  ///
  /// Where `B'(t)` vanishes (a control point on an end point, or a cusp) the tangent is
  /// the limit direction, taken from the first non-vanishing higher derivative with the
  /// sign the Taylor expansion gives: at `t == 1`, `B'(t) ≈ B''(1)·(t − 1)`, so the
  /// direction is `−B''(1)`. A curve that is a single point has the tangent `(1, 0)`,
  /// so no caller ever sees NaN.
  public func tangent(at t: Double) -> Vector {
    let tiny = scale * 1e-12
    let d1 = derivative(at: t)
    if d1.length > tiny, let unit = d1.normalized { return unit }
    // Approaching from the left at t == 1 flips odd powers of (t − 1).
    let fromLeft = t >= 1
    let d2 = secondDerivative(at: t)
    if d2.length > tiny, let unit = (fromLeft ? -d2 : d2).normalized { return unit }
    let d3 = thirdDerivative
    if d3.length > tiny, let unit = d3.normalized { return unit }
    return (p3 - p0).normalized ?? Vector(x: 1, y: 0)
  }

  /// The unit normal at `t`: the tangent turned a quarter turn clockwise on a y-down
  /// screen, `(−tangent.y, tangent.x)`.
  public func normal(at t: Double) -> Vector { tangent(at: t).perpendicular }

  /// The tangent direction at `t` in radians, as `atan2(dy, dx)` in y-down coordinates.
  public func angle(at t: Double) -> Double { tangent(at: t).angle }
}

// MARK: - Subdivision

extension CubicBezier {
  /// The part of the curve between parameters `t0` and `t1` as a cubic of its own.
  public func subcurve(from t0: Double, to t1: Double) -> CubicBezier {
    let q0 = point(at: t0)
    let q3 = point(at: t1)
    let scaleFactor = (t1 - t0) / 3
    let q1 = q0 + derivative(at: t0) * scaleFactor
    let q2 = q3 - derivative(at: t1) * scaleFactor
    return CubicBezier(t0 == 0 ? p0 : q0, q1, q2, t1 == 1 ? p3 : q3)
  }

  /// The same curve traversed from end to start.
  public var reversed: CubicBezier { CubicBezier(p3, p2, p1, p0) }
}
