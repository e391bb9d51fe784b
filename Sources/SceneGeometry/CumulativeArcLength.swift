import RealModule

/// The arc length of a cubic from its start to t = k / 8, k = 0…8, from one set of speed
/// values: what measuring a path stores for every curved segment.
///
/// Integrating each eighth on its own costs 8 Gauss–Legendre rules, each with its own error
/// estimate. Instead the speed is sampled once at the `order` Gauss–Legendre nodes of the
/// whole curve, and each partial length is the integral of the polynomial through those
/// values, which is a fixed weighted sum of them (the weights are worked out once per
/// order from the Legendre expansion: ∫₋₁ˣ Pₖ = (Pₖ₊₁(x) − Pₖ₋₁(x)) / (2k + 1)). The last
/// entry, the whole length, is then exactly the Gauss–Legendre rule of that order. This is
/// the cumulative integration of spectral methods (Chebfun's `cumsum`), on Legendre nodes.
///
/// The error of a partial length is that of the interpolant, which the Legendre coefficients
/// of its two highest degrees (the "tail") measure where the speed is analytic near the
/// curve: they then fall geometrically, and the ones beyond are smaller still. A sharp
/// turn or a near cusp inside the curve puts a kink in the speed, whose coefficients fall
/// slowly: the tail is large and the curve is refused. A zero of the speed just past an end
/// (a control point almost on its end point) is the one thing the tail can miss: the nodes
/// near that end never see the dip. So a curve is also refused where |B′| / |B″| at an end,
/// about the distance in t to that zero, is below ``endClearance``. A refused curve (`nil`)
/// has its eighths integrated one by one as before.
///
/// Both thresholds were set on 4,450 seeded cubics (random, near-cusp, a cusp anywhere from
/// just before the start to just after the end, a control point within 1e-7 of its end,
/// gently curved), each sample against the 1e-13 reference of the tests: every error that
/// the tail alone missed had an end ratio below 2.5e-4, 80 times under the clearance, and
/// every curve accepted was within 0.001 of the tolerance. `CumulativeArcLengthTests`
/// checks that bound on another seed.
struct CumulativeArcLengthRule: Sendable {
  /// Two nodes with everything their speed values are multiplied by: the speed is taken
  /// at two nodes at once, one square root instruction for both.
  struct NodePair: Sendable {
    /// The nodes as parameters in `0...1`.
    var t: SIMD2<Double>
    /// Their weights in the length from t = 0 to t = (j + 1) / 8, j = 0…7.
    var firstWeights: SIMD8<Double>
    var secondWeights: SIMD8<Double>
    /// Their weights in the Legendre coefficients of degrees `order − 1` and `order − 2`:
    /// the first node's two, then the second's.
    var tailWeights: SIMD4<Double>
  }

  /// How many nodes.
  var order: Int { 2 * pairs.count }
  let pairs: [NodePair]

  /// The rules tried in turn: 32 nodes, then 64.
  ///
  /// 32 settle gently curved segments (51 of the 64 of the benchmarks' wavy path), 64 most
  /// of the rest. Each is made the first time it is needed, so a run whose curves are all
  /// gentle never makes the larger one.
  static let first = CumulativeArcLengthRule(order: 32)
  static let second = CumulativeArcLengthRule(order: 64)

  /// How far below the tolerance the tail must be.
  ///
  /// With the ends clear, no curve accepted at this margin was off by more than 0.001 of
  /// the tolerance.
  static let margin = 0.1

  /// The least |B′| / |B″| at either end for which the tail is trusted.
  static let endClearance = 0.02

  init(order n: Int) {
    precondition(n >= 4 && n % 2 == 0 && MeasuredPath.samplesPerPiece == 8)
    let (x, w) = Self.gaussLegendre(order: n)
    // Legendre values at every node: p[i][k] = Pₖ(xᵢ), k = 0…n.
    let p = x.map { Self.legendreValues(upTo: n, at: $0) }
    // And at the ends of the eighths: atEnd[j][k] = Pₖ(2 (j + 1) / 8 − 1).
    let atEnd = (1...8).map { Self.legendreValues(upTo: n, at: Double($0) / 4 - 1) }
    func sampleWeights(_ i: Int) -> SIMD8<Double> {
      var weights = SIMD8<Double>()
      for j in 0..<8 {
        // ∫₋₁ᴱ p dx = Σₖ cₖ ∫₋₁ᴱ Pₖ with cₖ = (2k + 1)/2 Σᵢ wᵢ fᵢ Pₖ(xᵢ); dt = dx / 2.
        let end = Double(j + 1) / 4 - 1
        var sum = end + 1
        for k in 1..<n { sum += p[i][k] * (atEnd[j][k + 1] - atEnd[j][k - 1]) }
        weights[j] = 0.25 * w[i] * sum
      }
      return weights
    }
    func tailWeights(_ i: Int) -> SIMD2<Double> {
      SIMD2(Double(2 * n - 1) / 2 * w[i] * p[i][n - 1], Double(2 * n - 3) / 2 * w[i] * p[i][n - 2])
    }
    pairs = stride(from: 0, to: n, by: 2).map { i in
      NodePair(
        t: SIMD2(0.5 * (x[i] + 1), 0.5 * (x[i + 1] + 1)), firstWeights: sampleWeights(i),
        secondWeights: sampleWeights(i + 1),
        tailWeights: SIMD4(lowHalf: tailWeights(i), highHalf: tailWeights(i + 1)))
    }
  }

  /// The lengths at t = k / 8 (entry k − 1, k = 1…8), and the tail: |c₍ₙ₋₁₎| + |c₍ₙ₋₂₎|.
  func integrate(_ f: SpeedIntegrand) -> (lengths: SIMD8<Double>, tail: Double) {
    var lengths = SIMD8<Double>()
    var tail = SIMD4<Double>()
    for pair in pairs {
      let t = pair.t
      // B′(t) = a t² + b t + c at both nodes.
      let dx = (f.a.x * t + f.b.x) * t + f.c.x
      let dy = (f.a.y * t + f.b.y) * t + f.c.y
      let speed = (dx * dx + dy * dy).squareRoot()
      lengths += pair.firstWeights * speed[0] + pair.secondWeights * speed[1]
      tail += pair.tailWeights * SIMD4(speed[0], speed[0], speed[1], speed[1])
    }
    let coefficients = tail.lowHalf + tail.highHalf
    return (lengths, abs(coefficients[0]) + abs(coefficients[1]))
  }

  /// The lengths at t = k / 8, k = 0…8, by this rule, or `nil` if its tail is too large.
  func samples(of f: SpeedIntegrand, tolerance: Double) -> InlineArray<9, Double>? {
    let (lengths, tail) = integrate(f)
    guard tail.isFinite, tail <= Self.margin * tolerance else { return nil }
    var result = InlineArray<9, Double>(repeating: 0)
    for k in 0..<8 {
      // The speed is never negative, so neither is any eighth: an interpolant that says
      // otherwise is not to be trusted.
      guard lengths[k] >= result[k] else { return nil }
      result[k + 1] = lengths[k]
    }
    return result
  }

  /// Whether the speed has no zero within ``endClearance`` of either end: |B′| ≥ 0.02 |B″|
  /// at t = 0 and t = 1.
  static func endsAreClear(_ f: SpeedIntegrand) -> Bool {
    // B′ = a t² + b t + c and B″ = 2a t + b.
    let start = f.c.lengthSquared
    let startBend = f.b.lengthSquared
    let end = (f.a + f.b + f.c).lengthSquared
    let endBend = (2 * f.a + f.b).lengthSquared
    let clearance = endClearance * endClearance
    return start >= clearance * startBend && end >= clearance * endBend
  }

  /// The eighths of a curve, by the first rule accurate enough, or `nil` if none is (or
  /// an end is not clear).
  static func samples(of f: SpeedIntegrand, tolerance: Double) -> InlineArray<9, Double>? {
    guard endsAreClear(f) else { return nil }
    if let found = first.samples(of: f, tolerance: tolerance) { return found }
    return second.samples(of: f, tolerance: tolerance)
  }

  /// P₀(x) … Pₙ(x) by the three-term recurrence, in one pass (n ≥ 1): the tables are made
  /// when the first path is measured, so their cost is part of every run's start-up.
  static func legendreValues(upTo n: Int, at x: Double) -> [Double] {
    var values = [1.0, x]
    values.reserveCapacity(n + 1)
    for m in stride(from: 1, to: n, by: 1) {
      values.append((Double(2 * m + 1) * x * values[m] - Double(m) * values[m - 1]) / Double(m + 1))
    }
    return values
  }

  /// The `order`-point Gauss–Legendre nodes on −1…1, ascending, and their weights: Newton's
  /// method on Pₙ from Tricomi's estimate of each root.
  static func gaussLegendre(order n: Int) -> (nodes: [Double], weights: [Double]) {
    var nodes: [Double] = []
    var weights: [Double] = []
    for i in 1...n {
      var x = -Double.cos(Double.pi * (Double(i) - 0.25) / (Double(n) + 0.5))
      var derivative = 1.0
      // Pₙ and Pₙ₋₁ at x, from one pass of the recurrence.
      func values(at x: Double) -> (value: Double, below: Double) {
        let all = legendreValues(upTo: n, at: x)
        return (all[n], all[n - 1])
      }
      for _ in 0..<100 {
        let (value, below) = values(at: x)
        derivative = Double(n) * (x * value - below) / (x * x - 1)
        let step = value / derivative
        x -= step
        if abs(step) < 1e-16 { break }
      }
      let (value, below) = values(at: x)
      derivative = Double(n) * (x * value - below) / (x * x - 1)
      nodes.append(x)
      weights.append(2 / ((1 - x * x) * derivative * derivative))
    }
    return (nodes, weights)
  }
}
