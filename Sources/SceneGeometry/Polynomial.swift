/// A real polynomial of degree at most 5, stored without heap allocation.
///
/// Curve queries reduce to such polynomials: the nearest point on a cubic solves
/// `(B(t) − P)·B'(t) = 0` (degree 5), bounds solve `B'(t) = 0` (degree 2). Root finding
/// dispatches to fixed-degree types (``Quintic`` … ``Quadratic``) whose evaluation is
/// unrolled, because the nearest-point query is a hot path.
struct Polynomial {
  /// Coefficients, constant term first: `c[0] + c[1]·x + … + c[5]·x⁵`.
  var coefficients: InlineArray<6, Double>
  /// The highest power that may be non-zero.
  var degree: Int

  init(_ coefficients: InlineArray<6, Double>, degree: Int) {
    self.coefficients = coefficients
    self.degree = degree
  }

  /// The value at `x` (Horner's rule).
  func callAsFunction(_ x: Double) -> Double { valueAndSlope(x).value }

  /// The value and the first derivative at `x`, in one pass.
  func valueAndSlope(_ x: Double) -> (value: Double, slope: Double) {
    var value = coefficients[degree]
    var slope = 0.0
    var k = degree - 1
    while k >= 0 {
      slope = slope * x + value
      value = value * x + coefficients[k]
      k -= 1
    }
    return (value, slope)
  }

  /// Every real root in `lo...hi`, ascending.
  ///
  /// Uses the critical-point bracketing of Yuksel ("High-Performance Polynomial Root
  /// Finding for Graphics", 2022): the roots of the derivative, found recursively,
  /// split the interval into pieces on which the polynomial is monotonic, so each
  /// piece holds at most one root, found by Newton's method kept inside its bracket by
  /// bisection. No root with a sign change is ever missed; a root of even multiplicity
  /// may show up only as a root of the derivative.
  ///
  /// - Complexity: O(degree²) Newton solves; no allocation.
  func roots(in lo: Double, _ hi: Double) -> RootList {
    var top = degree
    while top > 0 && coefficients[top] == 0 { top -= 1 }
    let c = coefficients
    switch top {
    case 0: return RootList()
    case 1:
      var result = RootList()
      let x = -c[0] / c[1]
      if x >= lo && x <= hi { result.append(x) }
      return result
    case 2: return Quadratic(c[0], c[1], c[2]).roots(in: lo, hi)
    case 3: return CubicPolynomial(c[0], c[1], c[2], c[3]).roots(in: lo, hi)
    case 4: return Quartic(c[0], c[1], c[2], c[3], c[4]).roots(in: lo, hi)
    default: return Quintic(c[0], c[1], c[2], c[3], c[4], c[5]).roots(in: lo, hi)
    }
  }
}

/// Up to five sorted real numbers, stored without heap allocation.
struct RootList {
  private(set) var values = InlineArray<5, Double>(repeating: 0)
  private(set) var count = 0

  @inline(__always)
  mutating func append(_ x: Double) {
    guard count < 5 else { return }
    values[count] = x
    count += 1
  }

  @inline(__always)
  subscript(i: Int) -> Double { values[i] }
}

// MARK: - Fixed-degree polynomials

/// A polynomial whose value and slope can be evaluated; the root bracketing works on it.
protocol EvaluablePolynomial {
  func value(_ x: Double) -> Double
  func valueAndSlope(_ x: Double) -> (value: Double, slope: Double)
}

/// `c0 + c1·x + c2·x²`, with closed-form roots.
struct Quadratic {
  var c0, c1, c2: Double
  init(_ c0: Double, _ c1: Double, _ c2: Double) { (self.c0, self.c1, self.c2) = (c0, c1, c2) }

  /// Roots in `lo...hi`, ascending, by the cancellation-free formula; copes with a
  /// zero leading coefficient (a line, or a constant with no roots).
  @inline(__always)
  func roots(in lo: Double, _ hi: Double) -> RootList {
    var result = RootList()
    if c2 == 0 {
      if c1 != 0 {
        let x = -c0 / c1
        if x >= lo && x <= hi { result.append(x) }
      }
      return result
    }
    let discriminant = c1 * c1 - 4 * c2 * c0
    guard discriminant >= 0 else { return result }
    let q = -0.5 * (c1 + (c1 >= 0 ? 1.0 : -1.0) * discriminant.squareRoot())
    var x1 = q / c2
    var x2 = q != 0 ? c0 / q : x1
    if x1 > x2 { swap(&x1, &x2) }
    if x1 >= lo && x1 <= hi { result.append(x1) }
    if x2 != x1 && x2 >= lo && x2 <= hi { result.append(x2) }
    return result
  }
}

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

// MARK: - Bracketing

/// The roots of `p` in `lo...hi`, given the sorted roots of its derivative there: each
/// piece between them is monotonic and holds at most one root.
@inline(__always)
func bracketedRoots<P: EvaluablePolynomial>(
  of p: P, between critical: RootList, _ lo: Double, _ hi: Double,
  newtonStep: Double = 1e-9
) -> RootList {
  var result = RootList()
  var a = lo
  var fa = p.value(a)
  if fa == 0 { result.append(a) }
  var i = 0
  while i <= critical.count {
    let b = i < critical.count ? critical[i] : hi
    let fb = p.value(b)
    if fb == 0 {
      if result.count == 0 || result[result.count - 1] != b { result.append(b) }
    } else if fa != 0 && (fa < 0) != (fb < 0) {
      result.append(monotonicRoot(of: p, a, fa, b, fb, newtonStep: newtonStep))
    }
    a = b
    fa = fb
    i += 1
  }
  return result
}

/// The single root in `(a, b)` of a polynomial monotonic there, with `fa` and `fb` of
/// opposite signs: Newton's method from the regula falsi guess, falling back to
/// bisection whenever a step would leave the shrinking bracket.
///
/// Newton converges quadratically, so once a Newton step is shorter than `newtonStep`
/// the point it lands on is already good to about `newtonStep²`: it stops there rather
/// than spending a division on confirming it. After bisection steps it stops only when
/// the bracket itself is a few ulps wide.
@inline(__always)
func monotonicRoot<P: EvaluablePolynomial>(
  of p: P, _ a: Double, _ fa: Double, _ b: Double, _ fb: Double, newtonStep: Double = 1e-9
) -> Double {
  var lo = a
  var hi = b
  let rising = fb > 0
  var x = a - fa * (b - a) / (fb - fa)
  if !(x > lo && x < hi) { x = 0.5 * (lo + hi) }
  // 64 steps bound the bisection fallback too: it halves a bracket inside 0...1.
  for _ in 0..<64 {
    let (value, slope) = p.valueAndSlope(x)
    if value == 0 { return x }
    if (value > 0) == rising { hi = x } else { lo = x }
    var next = x - value / slope
    if next > lo && next < hi {
      if abs(next - x) <= newtonStep * Swift.max(abs(x), 1) { return next }
    } else {
      next = 0.5 * (lo + hi)
      if hi - lo <= 4 * Double.ulpOfOne * Swift.max(abs(x), 1) { return next }
    }
    x = next
  }
  return x
}
