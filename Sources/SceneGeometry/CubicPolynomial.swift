/// `c0 + c1·x + c2·x² + c3·x³`.
struct CubicPolynomial: EvaluablePolynomial {
  var c0, c1, c2, c3: Double
  init(_ c0: Double, _ c1: Double, _ c2: Double, _ c3: Double) {
    (self.c0, self.c1, self.c2, self.c3) = (c0, c1, c2, c3)
  }
  @inline(__always) func value(_ x: Double) -> Double { ((c3 * x + c2) * x + c1) * x + c0 }
  @inline(__always) func valueAndSlope(_ x: Double) -> (value: Double, slope: Double) {
    (value(x), (3 * c3 * x + 2 * c2) * x + c1)
  }
  var derivative: Quadratic { Quadratic(c1, 2 * c2, 3 * c3) }
  func roots(in lo: Double, _ hi: Double) -> RootList {
    bracketedRoots(of: self, between: derivative.roots(in: lo, hi), lo, hi)
  }
}
