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
