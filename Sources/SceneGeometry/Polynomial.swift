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
