// MARK: - Nearest point

extension CubicBezier {
  /// The polynomial `(B(t) − P)·B'(t)`, half the derivative of the squared distance
  /// from `point` to the curve: its roots are where the distance is stationary.
  ///
  /// The curve is shifted so that `point` is the origin first, which keeps the
  /// coefficients small and the roots accurate far from the coordinate origin.
  func distanceSlopePolynomial(from point: Point) -> Polynomial {
    let basis = CubicBezier(p0 - point, p1 - point, p2 - point, p3 - point).powerBasis
    let (a, b, c, d) = basis
    return Polynomial(
      [
        c.dot(d),
        c.lengthSquared + 2 * b.dot(d),
        3 * b.dot(c) + 3 * a.dot(d),
        4 * a.dot(c) + 2 * b.lengthSquared,
        5 * a.dot(b),
        3 * a.lengthSquared,
      ], degree: 5)
  }

  /// The parameter of the point of the curve nearest to `point`, and the squared distance.
  ///
  /// Exact up to rounding: the candidates are both ends and every root in `0...1` of the
  /// degree-5 polynomial `(B(t) − P)·B'(t)`, all of them found by critical-point
  /// bracketing, so the global minimum is never missed. Ties go to the smaller `t`.
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
    let roots = distanceSlopePolynomial(from: point).roots(in: 0, 1)
    for i in 0..<roots.count {
      let t = roots[i]
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
  /// inside `0...1`, ascending. Ends are not included; callers decide about ends,
  /// because whether an end is a minimum depends on the neighbouring segment.
  func interiorDistanceMinima(from point: Point) -> RootList {
    let slope = distanceSlopePolynomial(from: point)
    let roots = slope.roots(in: 0, 1)
    var minima = RootList()
    for i in 0..<roots.count where roots[i] > 0 && roots[i] < 1 {
      // A minimum where the slope rises through zero.
      if slope.valueAndSlope(roots[i]).slope > 0 { minima.append(roots[i]) }
    }
    return minima
  }

  /// `(B(t) − P)·B'(t)`: positive where the distance from `point` grows with `t`.
  @inlinable
  public func distanceSlope(at t: Double, from point: Point) -> Double {
    (self.point(at: t) - point).dot(derivative(at: t))
  }
}
