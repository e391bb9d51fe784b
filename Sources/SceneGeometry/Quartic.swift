/// `c0 + c1·x + … + c4·x⁴`.
struct Quartic: EvaluablePolynomial {
  var c0, c1, c2, c3, c4: Double
  init(_ c0: Double, _ c1: Double, _ c2: Double, _ c3: Double, _ c4: Double) {
    (self.c0, self.c1, self.c2, self.c3, self.c4) = (c0, c1, c2, c3, c4)
  }
  @inline(__always) func value(_ x: Double) -> Double {
    (((c4 * x + c3) * x + c2) * x + c1) * x + c0
  }
  @inline(__always) func valueAndSlope(_ x: Double) -> (value: Double, slope: Double) {
    (value(x), ((4 * c4 * x + 3 * c3) * x + 2 * c2) * x + c1)
  }
  var derivative: CubicPolynomial { CubicPolynomial(c1, 2 * c2, 3 * c3, 4 * c4) }
  func roots(in lo: Double, _ hi: Double) -> RootList {
    bracketedRoots(of: self, between: derivative.roots(in: lo, hi), lo, hi)
  }

  /// The roots to about 1e-12, enough where they only bracket the roots of an integral of
  /// this polynomial: a root missed through that slack is a near-double root of the
  /// integral, which marks no minimum worth finding.
  func criticalPoints(in lo: Double, _ hi: Double) -> RootList {
    let inner = derivative
    let critical = bracketedRoots(
      of: inner, between: inner.derivative.roots(in: lo, hi), lo, hi, newtonStep: 1e-6)
    return bracketedRoots(of: self, between: critical, lo, hi, newtonStep: 1e-6)
  }
}
