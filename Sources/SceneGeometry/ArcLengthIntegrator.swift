/// Integrates the speed of one cubic: everything about its arc length that does not
/// depend on the range, worked out once so repeated ranges (an inverse solve) are cheap.
///
/// Gauss–Legendre quadrature of `|B'(t)|` with the rule chosen per piece from an error
/// estimate (``GaussLegendre``). Near a cusp the speed has a sharp V-shaped dip that no
/// polynomial rule integrates well; the estimate sees it (the speed changes fast relative
/// to itself there), so pieces next to it are halved towards it while the rest settle at
/// once: the cost grows with the logarithm of the dip's width, not with its inverse.
struct ArcLengthIntegrator {
  let speed: SpeedIntegrand
  /// The absolute error allowed per integrated range.
  let tolerance: Double
  /// `true` for a uniformly parametrised line, whose speed is constant.
  private let isUniform: Bool

  @inline(__always)
  init(_ cubic: CubicBezier, accuracy: Double = CubicBezier.defaultArcLengthAccuracy) {
    let (a, b, c) = cubic.speedCoefficients
    speed = SpeedIntegrand(a: a, b: b, c: c)
    // The control polygon by square roots of sums of squares, as the integrand does:
    // no overflow below about 1e154, far past any coordinate a scene accepts.
    let polygon =
      (cubic.p1 - cubic.p0).lengthSquared.squareRoot()
      + (cubic.p2 - cubic.p1).lengthSquared.squareRoot()
      + (cubic.p3 - cubic.p2).lengthSquared.squareRoot()
    let relative = accuracy.isFinite && accuracy > 0 ? Swift.max(accuracy, 1e-15) : 1e-9
    let chord = (cubic.p3 - cubic.p0).lengthSquared.squareRoot()
    tolerance = Swift.max(
      CubicBezier.arcLengthTolerance(accuracy: relative, polygon: polygon, chord: chord), 1e-300)
    isUniform = a.x == 0 && a.y == 0 && b.x == 0 && b.y == 0
  }

  /// The arc length from `t0` to `t1` (negative if `t1 < t0`).
  func length(from t0: Double, to t1: Double) -> Double {
    if t0 == t1 { return 0 }
    if t1 < t0 { return -length(from: t1, to: t0) }
    if isUniform { return speed.c.length * (t1 - t0) }
    return GaussLegendre.integrate(t0, t1, tolerance: tolerance, speed)
  }
}

/// The speed `|A·t² + B·t + C|` of a cubic, the integrand of its arc length.
struct SpeedIntegrand: Integrand {
  var a: Vector
  var b: Vector
  var c: Vector

  @inline(__always)
  func callAsFunction(_ t: Double) -> Double {
    let dx = (a.x * t + b.x) * t + c.x
    let dy = (a.y * t + b.y) * t + c.y
    return (dx * dx + dy * dy).squareRoot()
  }

  /// The speed at two parameters, one square root instruction for both.
  @inline(__always)
  func callAsFunction(_ t: SIMD2<Double>) -> SIMD2<Double> {
    let dx = (a.x * t + b.x) * t + c.x
    let dy = (a.y * t + b.y) * t + c.y
    return (dx * dx + dy * dy).squareRoot()
  }
}
