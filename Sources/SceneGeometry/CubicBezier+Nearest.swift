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
