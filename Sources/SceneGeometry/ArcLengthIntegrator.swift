/// Integrates the speed of one cubic: everything about its arc length that does not
/// depend on the range, worked out once so repeated ranges (an inverse solve) are cheap.
///
/// Adaptive Gauss–Kronrod quadrature of `|B'(t)|`, after splitting where the speed has a
/// local minimum. Near a cusp the speed is about `√(v² + k²(t − t*)²)` around its minimum
/// `t*`: a dip of width `v/k`. Polynomial rules cannot see such a dip from afar, and their
/// error estimates cannot either, so the pieces next to it are cut geometrically
/// towards it. A dip just outside a range still shapes the range's end: there its width
/// is the distance to the dip's complex singularity, `hypot(distance, v/k)`.
struct ArcLengthIntegrator {
  let speed: SpeedIntegrand
  /// The absolute error allowed per integrated piece.
  let tolerance: Double
  /// The speed's local minima in `0...1` and their dip widths.
  private var dipCenters = InlineArray<3, Double>(repeating: 0)
  private var dipWidths = InlineArray<3, Double>(repeating: 0)
  private var dipCount = 0
  /// `true` for a uniformly parametrised line, whose speed is constant.
  private let isUniform: Bool

  @inline(__always)
  init(_ cubic: CubicBezier) {
    let (a, b, c) = cubic.speedCoefficients
    speed = SpeedIntegrand(a: a, b: b, c: c)
    tolerance = CubicBezier.arcLengthTolerance * Swift.max(cubic.controlPolygonLength, 1e-300)
    isUniform = a.x == 0 && a.y == 0 && b.x == 0 && b.y == 0
    if isUniform { return }
    // d/dt |B'|² = 2 B'·B'': a cubic whose roots are the speed's turning points.
    let turning = CubicPolynomial(
      b.dot(c), b.lengthSquared + 2 * a.dot(c), 3 * a.dot(b), 2 * a.lengthSquared)
    let roots = turning.roots(in: 0, 1)
    for i in 0..<roots.count {
      let t = roots[i]
      guard turning.valueAndSlope(t).slope > 0, dipCount < 3 else { continue }  // A maximum.
      let k = cubic.secondDerivative(at: t).length
      guard k > 0 else { continue }
      dipCenters[dipCount] = t
      dipWidths[dipCount] = speed(t) / k
      dipCount += 1
    }
  }

  /// The arc length from `t0` to `t1` (negative if `t1 < t0`).
  func length(from t0: Double, to t1: Double) -> Double {
    if t0 == t1 { return 0 }
    if t1 < t0 { return -length(from: t1, to: t0) }
    if isUniform { return speed.c.length * (t1 - t0) }
    var total = 0.0
    var start = t0
    var startDip = 0.0
    var endDip = 0.0
    for i in 0..<dipCount {
      let t = dipCenters[i]
      let dip = dipWidths[i]
      if t <= t0 {
        // Parameters and widths are at most about 1: no overflow, so no `hypot`.
        let width = ((t0 - t) * (t0 - t) + dip * dip).squareRoot()
        startDip = startDip == 0 ? width : Swift.min(startDip, width)
      } else if t >= t1 {
        let width = ((t - t1) * (t - t1) + dip * dip).squareRoot()
        endDip = endDip == 0 ? width : Swift.min(endDip, width)
      } else {
        total += integrateGraded(start, t, startDip: startDip, endDip: dip)
        start = t
        startDip = dip
      }
    }
    return total + integrateGraded(start, t1, startDip: startDip, endDip: endDip)
  }

  /// `∫ speed` over `u...v`, cut into pieces growing fourfold away from an end that has
  /// a speed dip of the given width (0 for none) so every piece is smooth on its scale.
  private func integrateGraded(_ u: Double, _ v: Double, startDip: Double, endDip: Double)
    -> Double
  {
    let width = v - u
    let needsStart = startDip > 0 && startDip < width / 8
    let needsEnd = endDip > 0 && endDip < width / 8
    guard needsStart || needsEnd else {
      return Quadrature.integrate(u, v, tolerance: tolerance, speed)
    }
    let middle = u + width / 2
    let half = width / 2
    var total = 0.0
    // From the start towards the middle.
    var offset = 0.0
    var step = needsStart ? startDip : half
    while offset < half {
      let next = Swift.min(offset + step, half)
      let end = next == half ? middle : u + next
      total += Quadrature.integrate(u + offset, end, tolerance: tolerance, speed)
      offset = next
      step = offset * 3  // Each piece ends four times as far from the dip as the last.
    }
    // From the end back towards the middle.
    offset = 0
    step = needsEnd ? endDip : half
    while offset < half {
      let next = Swift.min(offset + step, half)
      let end = next == half ? middle : v - next
      total += Quadrature.integrate(end, v - offset, tolerance: tolerance, speed)
      offset = next
      step = offset * 3
    }
    return total
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
}
