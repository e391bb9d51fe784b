/// A real polynomial of degree at most 5, stored without heap allocation.
///
/// Curve queries reduce to such polynomials: the nearest point on a cubic solves
/// `(B(t) − P)·B'(t) = 0` (degree 5), bounds solve `B'(t) = 0` (degree 2).
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
  @inline(__always)
  func callAsFunction(_ x: Double) -> Double {
    var value = coefficients[degree]
    var k = degree - 1
    while k >= 0 {
      value = value * x + coefficients[k]
      k -= 1
    }
    return value
  }

  /// The value and the first derivative at `x`, in one pass.
  @inline(__always)
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

  /// The derivative polynomial.
  var derivative: Polynomial {
    var d = InlineArray<6, Double>(repeating: 0)
    var k = 1
    while k <= degree {
      d[k - 1] = Double(k) * coefficients[k]
      k += 1
    }
    return Polynomial(d, degree: Swift.max(degree - 1, 0))
  }
}

/// Up to five sorted real numbers, stored without heap allocation.
struct RootList {
  private(set) var values = InlineArray<5, Double>(repeating: 0)
  private(set) var count = 0

  mutating func append(_ x: Double) {
    guard count < 5 else { return }
    values[count] = x
    count += 1
  }

  subscript(i: Int) -> Double { values[i] }
}

// MARK: - Root finding

extension Polynomial {
  /// Every real root in `lo...hi`, ascending.
  ///
  /// Uses the critical-point bracketing of Yuksel ("High-Performance Polynomial Root
  /// Finding for Graphics", 2022): the roots of the derivative, found recursively,
  /// split the interval into pieces on which the polynomial is monotonic, so each
  /// piece holds at most one root, found by Newton's method kept inside its bracket by
  /// bisection. No root with a sign change is ever missed; a root of even multiplicity
  /// shows up as a critical point, which callers that need it can ask for with
  /// ``criticalPoints(in:)``.
  ///
  /// - Complexity: O(degree²) Newton solves; no allocation.
  func roots(in lo: Double, _ hi: Double) -> RootList {
    var top = degree
    // Drop exactly zero leading terms; tiny ones are harmless because we only
    // ever look inside `lo...hi`.
    while top > 0 && coefficients[top] == 0 { top -= 1 }
    let p = Polynomial(coefficients, degree: top)
    var result = RootList()
    switch top {
    case 0:
      return result
    case 1:
      let x = -p.coefficients[0] / p.coefficients[1]
      if x >= lo && x <= hi { result.append(x) }
      return result
    case 2:
      return p.quadraticRoots(in: lo, hi)
    default:
      let critical = p.derivative.roots(in: lo, hi)
      var a = lo
      var fa = p(a)
      if fa == 0 { result.append(a) }
      var i = 0
      while i <= critical.count {
        let b = i < critical.count ? critical[i] : hi
        let fb = p(b)
        if fb == 0 {
          if b > a || result.count == 0 || result[result.count - 1] != b { result.append(b) }
        } else if fa != 0 && (fa < 0) != (fb < 0) {
          result.append(p.monotonicRoot(a, fa, b, fb))
        }
        a = b
        fa = fb
        i += 1
      }
      return result
    }
  }

  /// The roots of the derivative in `lo...hi`: where the polynomial turns.
  func criticalPoints(in lo: Double, _ hi: Double) -> RootList {
    derivative.roots(in: lo, hi)
  }

  /// Roots of `c₂x² + c₁x + c₀` in `lo...hi`, ascending, by the cancellation-free formula.
  private func quadraticRoots(in lo: Double, _ hi: Double) -> RootList {
    let a = coefficients[2]
    let b = coefficients[1]
    let c = coefficients[0]
    var result = RootList()
    let discriminant = b * b - 4 * a * c
    guard discriminant >= 0 else { return result }
    let q = -0.5 * (b + (b >= 0 ? 1.0 : -1.0) * discriminant.squareRoot())
    var x1 = q / a
    var x2 = q != 0 ? c / q : x1
    if x1 > x2 { swap(&x1, &x2) }
    if x1 >= lo && x1 <= hi { result.append(x1) }
    if x2 != x1 && x2 >= lo && x2 <= hi { result.append(x2) }
    return result
  }

  /// The single root in `(a, b)` of a polynomial monotonic there, with `fa` and `fb`
  /// of opposite signs: Newton's method, falling back to bisection whenever a step
  /// would leave the bracket.
  private func monotonicRoot(_ a: Double, _ fa: Double, _ b: Double, _ fb: Double) -> Double {
    var lo = a
    var hi = b
    let rising = fb > 0
    // Regula falsi gives a good first guess on a monotonic piece.
    var x = a - fa * (b - a) / (fb - fa)
    if !(x > lo && x < hi) { x = 0.5 * (lo + hi) }
    for _ in 0..<100 {
      let (value, slope) = valueAndSlope(x)
      if value == 0 { return x }
      if (value > 0) == rising { hi = x } else { lo = x }
      var next = x - value / slope
      if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }
      if abs(next - x) <= 4 * Double.ulpOfOne * Swift.max(abs(x), 1e-300) || hi - lo <= 0 {
        return next
      }
      x = next
    }
    return x
  }
}
