/// `c0 + c1·x + … + c5·x⁵`.
struct Quintic: EvaluablePolynomial {
  var c0, c1, c2, c3, c4, c5: Double
  init(_ c0: Double, _ c1: Double, _ c2: Double, _ c3: Double, _ c4: Double, _ c5: Double) {
    (self.c0, self.c1, self.c2, self.c3, self.c4, self.c5) = (c0, c1, c2, c3, c4, c5)
  }
  @inline(__always) func value(_ x: Double) -> Double {
    ((((c5 * x + c4) * x + c3) * x + c2) * x + c1) * x + c0
  }
  @inline(__always) func valueAndSlope(_ x: Double) -> (value: Double, slope: Double) {
    (value(x), (((5 * c5 * x + 4 * c4) * x + 3 * c3) * x + 2 * c2) * x + c1)
  }
  var derivative: Quartic { Quartic(c1, 2 * c2, 3 * c3, 4 * c4, 5 * c5) }
  func roots(in lo: Double, _ hi: Double) -> RootList {
    bracketedRoots(of: self, between: derivative.roots(in: lo, hi), lo, hi)
  }
}

extension Quintic {
  /// Whether the polynomial is of `sign` (±1), by more than `margin`, all the way from `a`
  /// to `b`: its Bernstein coefficients on that interval are, and they bound it there.
  func keepsSign(_ sign: Double, from a: Double, to b: Double, margin: Double) -> Bool {
    // The coefficients of p(a + h·u), h = b − a, by the Taylor shift to a then scaling.
    var (d0, d1, d2, d3, d4, d5) = (c0, c1, c2, c3, c4, c5)
    // Synthetic division by (x − a), five times, leaves the Taylor coefficients at a.
    d4 += a * d5
    d3 += a * d4
    d2 += a * d3
    d1 += a * d2
    d0 += a * d1
    d4 += a * d5
    d3 += a * d4
    d2 += a * d3
    d1 += a * d2
    d4 += a * d5
    d3 += a * d4
    d2 += a * d3
    d4 += a * d5
    d3 += a * d4
    d4 += a * d5
    let h = b - a
    d1 *= h
    d2 *= h * h
    d3 *= h * h * h
    d4 *= h * h * h * h
    d5 *= h * h * h * h * h
    // The Bernstein coefficients: b_i = Σ_{j ≤ i} C(i, j) / C(5, j) · d_j.
    guard sign * d0 > margin, sign * (d0 + d1 / 5) > margin,
      sign * (d0 + 2 * d1 / 5 + d2 / 10) > margin,
      sign * (d0 + 3 * d1 / 5 + 3 * d2 / 10 + d3 / 10) > margin,
      sign * (d0 + 4 * d1 / 5 + 6 * d2 / 10 + 4 * d3 / 10 + d4 / 5) > margin,
      sign * (d0 + d1 + d2 + d3 + d4 + d5) > margin
    else { return false }
    return true
  }
}
