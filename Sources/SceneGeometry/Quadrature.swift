/// A function of one variable to integrate; a protocol rather than a closure so the
/// quadrature is specialised for it and nothing is allocated per call.
protocol Integrand {
  func callAsFunction(_ t: Double) -> Double
  /// The values at two points at once.
  func callAsFunction(_ t: SIMD2<Double>) -> SIMD2<Double>
}

extension Integrand {
  @inline(__always)
  func callAsFunction(_ t: SIMD2<Double>) -> SIMD2<Double> { SIMD2(self(t[0]), self(t[1])) }
}

/// Adaptive Gauss–Kronrod quadrature (7-point Gauss, 15-point Kronrod), QUADPACK's QK15.
///
/// Used for arc length, where the integrand is the speed `|B'(t)|`. The error estimate
/// is QUADPACK's: the Gauss–Kronrod difference, scaled by the integrand's variation,
/// which is cautious on rough pieces and does not over-refine smooth ones.
enum Quadrature {
  // Nodes and weights from QUADPACK's dqk15.f.
  @usableFromInline static let kronrodNodes: InlineArray<8, Double> = [
    0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
    0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
    0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
    0.207784955007898467600689403773245, 0.000000000000000000000000000000000,
  ]
  @usableFromInline static let kronrodWeights: InlineArray<8, Double> = [
    0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
    0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
    0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
    0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
  ]
  /// Weights of the embedded Gauss rule, at Kronrod nodes 1, 3, 5 and 7.
  @usableFromInline static let gaussWeights: InlineArray<4, Double> = [
    0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
    0.381830050505118944950369775488975, 0.417959183673469387755102040816327,
  ]

  /// One QK15 application on `a...b`: the Kronrod value and its error estimate.
  @inline(__always)
  static func kronrod15<F: Integrand>(_ a: Double, _ b: Double, _ f: F) -> (
    value: Double, error: Double
  ) {
    let center = 0.5 * (a + b)
    let half = 0.5 * (b - a)
    var samples = InlineArray<15, Double>(repeating: 0)
    let fc = f(center)
    samples[14] = fc
    var kronrod = fc * kronrodWeights[7]
    var gauss = fc * gaussWeights[3]
    for j in 0..<7 {
      let dx = half * kronrodNodes[j]
      let f1 = f(center - dx)
      let f2 = f(center + dx)
      samples[2 * j] = f1
      samples[2 * j + 1] = f2
      kronrod += kronrodWeights[j] * (f1 + f2)
      if j & 1 == 1 { gauss += gaussWeights[j >> 1] * (f1 + f2) }
    }
    let mean = 0.5 * kronrod
    var variation = kronrodWeights[7] * abs(fc - mean)
    for j in 0..<7 {
      variation += kronrodWeights[j] * (abs(samples[2 * j] - mean) + abs(samples[2 * j + 1] - mean))
    }
    variation *= abs(half)
    var error = abs((kronrod - gauss) * half)
    if variation != 0 && error != 0 {
      error = variation * Swift.min(1, pow15(200 * error / variation))
    }
    return (kronrod * half, error)
  }

  @inline(__always)
  private static func pow15(_ x: Double) -> Double { x * x.squareRoot() }

  /// `∫ f` over `a...b` to an absolute error of about `tolerance`, by bisecting the
  /// pieces whose estimate is too large.
  ///
  /// - Complexity: 15 evaluations per piece; no allocation.
  static func integrate<F: Integrand>(
    _ a: Double, _ b: Double, tolerance: Double, depth: Int = 0, _ f: F
  ) -> Double {
    let (value, error) = kronrod15(a, b, f)
    // Depth 48 halves the interval below 1e-14 of the parameter range: beyond that
    // the parameter itself is not resolvable in a Double.
    if error <= tolerance || depth >= 48 || !(error.isFinite) { return value }
    let middle = 0.5 * (a + b)
    return integrate(a, middle, tolerance: tolerance * 0.5, depth: depth + 1, f)
      + integrate(middle, b, tolerance: tolerance * 0.5, depth: depth + 1, f)
  }
}
