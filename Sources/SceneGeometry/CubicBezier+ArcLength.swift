// MARK: - Arc length

extension CubicBezier {
  /// The relative accuracy of arc lengths unless asked otherwise: the documented 1e-9.
  public static let defaultArcLengthAccuracy = 1e-9

  /// The absolute error allowed for a relative `accuracy`, from the control polygon and
  /// the chord, before the length is known.
  ///
  /// The length is at least the chord, so `accuracy × chord` never exceeds the promise.
  /// For a curve whose ends nearly meet the chord says little; a cubic's arc length is also
  /// seldom below a third of its control polygon (the lowest seen is 0.29, a curve that
  /// goes out, back past its start and home again along one line), so a quarter of the
  /// polygon stands in where it is the larger. Below a quarter the bound would rest on the
  /// error estimate's own margin (orders of magnitude on the seeded curves).
  static func arcLengthTolerance(accuracy: Double, polygon: Double, chord: Double) -> Double {
    accuracy * Swift.max(chord, 0.25 * polygon)
  }

  /// The speed polynomial `B'(t) = A·t² + B·t + C` in power form.
  @inline(__always)
  var speedCoefficients: (a: Vector, b: Vector, c: Vector) {
    let basis = powerBasis
    return (3 * basis.a, 2 * basis.b, basis.c)
  }

  /// The length of the whole curve.
  ///
  /// Gauss–Legendre quadrature of the speed `|B'(t)|`, the rule (8, 16 or 24 points)
  /// chosen per piece from an error estimate made before integrating, halving where none
  /// is accurate enough (``GaussLegendre``; kurbo's method). Near a cusp the speed has a
  /// sharp V-shaped dip; the estimate sees it, and only the pieces next to it are halved.
  /// The relative error is at most 1e-9, near-cusp curves included.
  ///
  /// - Complexity: about 100 speed evaluations for a random cubic, 8 for a nearly
  ///   straight one; more only next to a cusp; no allocation.
  public var arcLength: Double { arcLength(from: 0, to: 1) }

  /// The length of the curve between parameters `t0` and `t1` (negative if `t1 < t0`), to
  /// a relative `accuracy` (1e-9 unless given; a looser one costs fewer speed evaluations,
  /// a tighter one more, down to about 1e-14, where rounding takes over).
  public func arcLength(
    from t0: Double = 0, to t1: Double = 1, accuracy: Double = defaultArcLengthAccuracy
  ) -> Double {
    ArcLengthIntegrator(self, accuracy: accuracy).length(from: t0, to: t1)
  }

  /// The speed `|B'(t)|`, the rate at which arc length grows with `t`.
  ///
  /// A square root of the sum of squares, as the arc-length integrand computes it, not
  /// `hypot`: several times cheaper, and it cannot overflow below about 1e154, far past
  /// any coordinate a scene accepts.
  @inlinable
  public func speed(at t: Double) -> Double {
    let d = derivative(at: t)
    return (d.x * d.x + d.y * d.y).squareRoot()
  }

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
  /// - Returns: The parameter in `0...1`.
  public func parameter(atLength length: Double, totalLength: Double? = nil) -> Double {
    let total = totalLength ?? arcLength
    if !(length > 0) || total <= 0 { return 0 }
    if length >= total { return 1 }
    return parameter(
      atLength: length, from: 0, to: 1, spanLength: total, tolerance: 1e-11 * total,
      integrator: ArcLengthIntegrator(self))
  }

  /// The parameter in `t0...t1` at which the arc length from `t0` equals `length`, given
  /// the length of that stretch: Newton's method from an interpolated guess, each step
  /// integrating only from the previous guess, inside a bisection bracket.
  func parameter(
    atLength length: Double, from t0: Double, to t1: Double, spanLength: Double, tolerance: Double,
    integrator: ArcLengthIntegrator
  ) -> Double {
    if !(length > 0) || spanLength <= 0 { return t0 }
    if length >= spanLength { return t1 }
    var lo = t0
    var hi = t1
    var t = Self.interpolatedParameter(
      atLength: length, from: t0, to: t1, spanLength: spanLength, startSpeed: speed(at: t0),
      endSpeed: speed(at: t1))
    var s = integrator.length(from: t0, to: t)
    for _ in 0..<60 {
      let error = s - length
      if abs(error) <= tolerance { return t }
      if error < 0 { lo = t } else { hi = t }
      let v = speed(at: t)
      var next = v > 0 ? t - error / v : 0.5 * (lo + hi)
      if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }
      if next == t { return t }
      s += integrator.length(from: t, to: next)
      t = next
    }
    return t
  }

  /// A first guess at the parameter `length` along `t0...t1`: the cubic Hermite
  /// interpolant of t(s), whose slopes at the ends are 1 / speed.
  ///
  /// On a table's short
  /// stretch it is close enough that Newton's method usually needs one step instead of
  /// three or four. Where a speed vanishes (a cusp) it falls back to the proportional
  /// guess; the guess is kept strictly inside the stretch.
  @inline(__always)
  static func interpolatedParameter(
    atLength length: Double, from t0: Double, to t1: Double, spanLength: Double, startSpeed: Double,
    endSpeed: Double
  ) -> Double {
    let u = length / spanLength
    let proportional = t0 + (t1 - t0) * u
    guard startSpeed > 0 && endSpeed > 0 else { return proportional }
    let u2 = u * u
    let u3 = u2 * u
    // Hermite basis on u in 0...1; slopes dt/du = spanLength / speed.
    let h00 = 2 * u3 - 3 * u2 + 1
    let h10 = u3 - 2 * u2 + u
    let h01 = -2 * u3 + 3 * u2
    let h11 = u3 - u2
    let guess =
      h00 * t0 + h10 * (spanLength / startSpeed) + h01 * t1 + h11 * (spanLength / endSpeed)
    return guess > t0 && guess < t1 && guess.isFinite ? guess : proportional
  }
}
