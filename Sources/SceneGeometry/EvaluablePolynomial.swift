/// A polynomial whose value and slope can be evaluated; the root bracketing works on it.
protocol EvaluablePolynomial {
  func value(_ x: Double) -> Double
  func valueAndSlope(_ x: Double) -> (value: Double, slope: Double)
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
