import Foundation

// MARK: - Arc length

extension CubicBezier {
  /// The relative accuracy every arc-length result is computed to; the documented
  /// guarantee is 1e-9, and the margin covers the error estimate's own uncertainty.
  public static let arcLengthTolerance = 1e-12

  /// The speed polynomial `B'(t) = A·t² + B·t + C` in power form.
  @inline(__always)
  var speedCoefficients: (a: Vector, b: Vector, c: Vector) {
    let basis = powerBasis
    return (3 * basis.a, 2 * basis.b, basis.c)
  }

  /// The length of the whole curve.
  ///
  /// Adaptive Gauss–Kronrod quadrature of the speed `|B'(t)|`, after splitting the
  /// curve where the speed has a local minimum. Near a cusp the speed has a sharp
  /// V-shaped dip that no polynomial rule integrates well; split there, each piece
  /// sees the dip only at its end, where the adaptive bisection resolves it in a few
  /// steps. The relative error is at most 1e-9, near-cusp curves included.
  ///
  /// - Complexity: about 15 to 150 speed evaluations; no allocation.
  public var arcLength: Double { arcLength(from: 0, to: 1) }

  /// The length of the curve between parameters `t0` and `t1` (negative if `t1 < t0`).
  public func arcLength(from t0: Double, to t1: Double) -> Double {
    if t0 == t1 { return 0 }
    if t1 < t0 { return -arcLength(from: t1, to: t0) }
    let (a, b, c) = speedCoefficients
    if a.x == 0 && a.y == 0 && b.x == 0 && b.y == 0 {
      return c.length * (t1 - t0)  // A uniformly parametrised line.
    }
    let tolerance = Self.arcLengthTolerance * Swift.max(controlPolygonLength, 1e-300)
    let speed = { (t: Double) -> Double in
      let dx = (a.x * t + b.x) * t + c.x
      let dy = (a.y * t + b.y) * t + c.y
      return (dx * dx + dy * dy).squareRoot()
    }
    // d/dt |B'|² = 2 B'·B'': a cubic whose roots are the speed's turning points.
    let turningPolynomial = Polynomial(
      [b.dot(c), b.lengthSquared + 2 * a.dot(c), 3 * a.dot(b), 2 * a.lengthSquared, 0, 0],
      degree: 3)
    let turning = turningPolynomial.roots(in: 0, 1)
    // Near a cusp the speed is about √(v² + k²(t − t*)²) around its minimum t*: a dip
    // of width v/k. Polynomial rules cannot see such a dip from afar, and their error
    // estimates cannot either, so the pieces next to it are cut geometrically towards
    // it. A dip just outside the range still shapes the range's end: there its width
    // is the distance to the dip's complex singularity, hypot(distance, v/k).
    var total = 0.0
    var start = t0
    var startDip = 0.0
    var endDip = 0.0
    for i in 0..<turning.count {
      let t = turning[i]
      guard turningPolynomial.valueAndSlope(t).slope > 0 else { continue }  // A maximum.
      let k = secondDerivative(at: t).length
      guard k > 0 else { continue }
      let dip = derivative(at: t).length / k
      if t <= t0 {
        let width = hypot(t0 - t, dip)
        startDip = startDip == 0 ? width : Swift.min(startDip, width)
      } else if t >= t1 {
        let width = hypot(t - t1, dip)
        endDip = endDip == 0 ? width : Swift.min(endDip, width)
      } else if t > start {
        total += Self.integrateGraded(
          start, t, startDip: startDip, endDip: dip, tolerance: tolerance, speed)
        start = t
        startDip = dip
      }
    }
    total += Self.integrateGraded(
      start, t1, startDip: startDip, endDip: endDip, tolerance: tolerance, speed)
    return total
  }

  /// `∫ speed` over `u...v`, cut into pieces growing fourfold away from an end that has
  /// a speed dip of the given width (0 for none) so every piece is smooth on its scale.
  private static func integrateGraded(
    _ u: Double, _ v: Double, startDip: Double, endDip: Double, tolerance: Double,
    _ speed: (Double) -> Double
  ) -> Double {
    let width = v - u
    let needsStart = startDip > 0 && startDip < width / 8
    let needsEnd = endDip > 0 && endDip < width / 8
    guard needsStart || needsEnd else {
      return Quadrature.integrate(u, v, tolerance: tolerance, speed)
    }
    let middle = u + width / 2
    var total = 0.0
    // From the start towards the middle.
    var offset = 0.0
    var step = needsStart ? startDip : width / 2
    let half = width / 2
    while offset < half {
      let next = Swift.min(offset + step, half)
      let end = next == half ? middle : u + next
      total += Quadrature.integrate(u + offset, end, tolerance: tolerance, speed)
      offset = next
      step = offset * 3  // Each piece ends four times as far from the dip as the last.
    }
    // From the end back towards the middle.
    offset = 0
    step = needsEnd ? endDip : width / 2
    while offset < half {
      let next = Swift.min(offset + step, half)
      let end = next == half ? middle : v - next
      total += Quadrature.integrate(end, v - offset, tolerance: tolerance, speed)
      offset = next
      step = offset * 3
    }
    return total
  }

  /// The speed `|B'(t)|`, the rate at which arc length grows with `t`.
  @inlinable
  public func speed(at t: Double) -> Double { derivative(at: t).length }

  /// The parameter `t` at which the arc length from the start equals `length`.
  ///
  /// Newton's method on `s(t) − length`, each step integrating only the small stretch
  /// since the previous guess, with a bisection bracket so it converges even where
  /// the speed vanishes. `|s(t) − length| ≤ 1e-9 · L`. Lengths outside `0...L` clamp
  /// to the ends.
  ///
  /// - Parameters:
  ///   - length: The arc length from the start of the curve.
  ///   - totalLength: The curve's ``arcLength``, when the caller already has it.
  public func parameter(atLength length: Double, totalLength: Double? = nil) -> Double {
    let total = totalLength ?? arcLength
    if !(length > 0) || total <= 0 { return 0 }
    if length >= total { return 1 }
    let tolerance = 1e-11 * total
    var lo = 0.0
    var hi = 1.0
    var t = length / total
    var s = arcLength(from: 0, to: t)
    for _ in 0..<60 {
      let error = s - length
      if abs(error) <= tolerance { return t }
      if error < 0 { lo = t } else { hi = t }
      let v = speed(at: t)
      var next = v > 0 ? t - error / v : 0.5 * (lo + hi)
      if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }
      if next == t { return t }
      s += arcLength(from: t, to: next)
      t = next
    }
    return t
  }
}
