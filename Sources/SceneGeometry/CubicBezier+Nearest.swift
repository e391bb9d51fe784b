// MARK: - Nearest point

extension CubicBezier {
  /// The polynomial `(B(t) − P)·B'(t)`, half the derivative of the squared distance
  /// from `point` to the curve: its roots are where the distance is stationary.
  ///
  /// The curve is shifted so that `point` is the origin first, which keeps the
  /// coefficients small and the roots accurate far from the coordinate origin.
  @inline(__always)
  func distanceSlopePolynomial(from point: Point) -> Quintic {
    let basis = CubicBezier(p0 - point, p1 - point, p2 - point, p3 - point).powerBasis
    let (a, b, c, d) = basis
    return Quintic(
      c.dot(d),
      c.lengthSquared + 2 * b.dot(d),
      3 * b.dot(c) + 3 * a.dot(d),
      4 * a.dot(c) + 2 * b.lengthSquared,
      5 * a.dot(b),
      3 * a.lengthSquared)
  }

  /// The local minima of the distance strictly inside `0...1`: the roots where the
  /// slope polynomial rises through zero.
  ///
  /// Falling roots (maxima) are never solved for,
  /// which halves the work of a nearest-point query.
  @inline(__always)
  func distanceMinima(of slope: Quintic) -> RootList {
    let critical = slope.derivative.criticalPoints(in: 0, 1)
    var minima = RootList()
    var a = 0.0
    var fa = slope.value(0)
    var i = 0
    while i <= critical.count {
      let b = i < critical.count ? critical[i] : 1
      let fb = slope.value(b)
      if fa < 0 && fb > 0 {
        minima.append(monotonicRoot(of: slope, a, fa, b, fb))
      } else if fb == 0 && fa < 0 && b < 1 {
        minima.append(b)
      }
      a = b
      fa = fb
      i += 1
    }
    return minima
  }

  /// The parameter of the point of the curve nearest to `point`, and the squared distance.
  ///
  /// Exact up to rounding: the candidates are both ends and every root in `0...1` of the
  /// degree-5 polynomial `(B(t) − P)·B'(t)` where it rises through zero (a local
  /// minimum of the distance), all of them isolated by critical-point bracketing, so
  /// the global minimum is never missed. Ties go to the smaller `t`.
  ///
  /// - Complexity: one degree-5 root isolation; no allocation.
  public func nearestParameter(to point: Point) -> (t: Double, distanceSquared: Double) {
    var bestT = 0.0
    var best = (p0 - point).lengthSquared
    let endDistance = (p3 - point).lengthSquared
    if endDistance < best {
      best = endDistance
      bestT = 1
    }
    let minima = distanceMinima(of: distanceSlopePolynomial(from: point))
    for i in 0..<minima.count {
      let t = minima[i]
      let d = (self.point(at: t) - point).lengthSquared
      if d < best || (d == best && t < bestT) {
        best = d
        bestT = t
      }
    }
    return (bestT, best)
  }

  /// The point of the curve nearest to `point`, with its parameter and distance.
  public func nearest(to point: Point) -> (t: Double, point: Point, distance: Double) {
    let (t, squared) = nearestParameter(to: point)
    return (t, self.point(at: t), squared.squareRoot())
  }

  /// The parameters of the local minima of the distance from `point` that lie strictly
  /// inside `0...1`, ascending.
  ///
  /// Ends are not included; callers decide about ends,
  /// because whether an end is a minimum depends on the neighbouring segment.
  func interiorDistanceMinima(from point: Point) -> RootList {
    distanceMinima(of: distanceSlopePolynomial(from: point))
  }

  /// `(B(t) − P)·B'(t)`: positive where the distance from `point` grows with `t`.
  @inlinable
  public func distanceSlope(at t: Double, from point: Point) -> Double {
    (self.point(at: t) - point).dot(derivative(at: t))
  }
}

// MARK: - The next minimum along the curve

/// What ``CubicBezier/nextDistanceMinimum(from:after:forward:)`` found.
enum NextMinimum: Equatable {
  /// The first local minimum of the distance strictly inside `0...1` in the walking
  /// direction, at this parameter.
  case at(Double)
  /// There is none before the end of the curve in the walking direction.
  case none
  /// It could not tell cheaply: find every minimum instead.
  case undecided
}

extension CubicBezier {
  /// The first local minimum of the distance from `point` after `t` (before it when not
  /// `forward`), found by Newton's method from `t` and then proven to be the first.
  ///
  /// A tracking walk asks for one minimum, usually a little way from where it starts,
  /// and ``interiorDistanceMinima(from:)`` finds them all from the critical points of the
  /// slope, which costs the roots of a quartic. Here the slope `S` is followed by Newton
  /// from `t` to a root `r`; then the Bernstein coefficients of `S` on the interval from
  /// `t` to within `1e-6·|r − t|` of `r` are all of the walking direction's sign, with a
  /// margin for their rounding, so `S` has no root there (they bound it); and `S′(r) > 0`,
  /// so `r` is a minimum, not a maximum or a touching root. A root hidden in the last
  /// millionth of the way would be a near-double root next to `r`: the same minimum for
  /// any finger. Whatever cannot be proven this way is `.undecided`, never a guess.
  ///
  /// - Precondition: the slope at `t` points the walk downhill: negative going forward,
  ///   positive going backward (otherwise the answer is `.undecided`).
  func nextDistanceMinimum(from point: Point, after t: Double, forward: Bool) -> NextMinimum {
    let slope = distanceSlopePolynomial(from: point)
    let sign = forward ? -1.0 : 1.0
    let (start, startRate) = slope.valueAndSlope(t)
    // Downhill is where the slope has the walking direction's sign, strictly.
    guard sign * start > 0, startRate > 0, t > 0 || forward, t < 1 || !forward else {
      return .undecided
    }
    // A scale for the coefficients' rounding: the slope's terms at their largest on 0...2,
    // which bounds every value and shifted coefficient taken below.
    let scale =
      abs(slope.c0) + 2 * abs(slope.c1) + 4 * abs(slope.c2) + 8 * abs(slope.c3) + 16
      * abs(slope.c4) + 32 * abs(slope.c5)
    // About thirty times the rounding of the fifteen steps that make a coefficient.
    let margin = 1e-13 * scale
    var x = t
    var value = start
    var rate = startRate
    for _ in 0..<12 {
      let step = -value / rate
      let next = x + step
      guard next.isFinite else { return .undecided }
      if forward ? next >= 1 : next <= 0 {
        // Past the end: none ahead, if the whole rest of the curve keeps the sign.
        let bounded = slope.keepsSign(sign, from: t, to: forward ? 1 : 0, margin: margin)
        return bounded ? .none : .undecided
      }
      x = next
      (value, rate) = slope.valueAndSlope(x)
      if abs(step) <= 1e-9 * Swift.max(abs(x), 1) {
        // Converged. A minimum, strictly inside, with no root between the start and it.
        guard rate > 0, forward ? x > t : x < t, x > 0, x < 1 else { return .undecided }
        let end = x - 1e-6 * (x - t)
        guard slope.keepsSign(sign, from: t, to: end, margin: margin) else { return .undecided }
        return .at(x)
      }
    }
    return .undecided
  }
}
