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
/// checks that bound on another seed. The rules of 40 and 48 nodes came later, with the
/// same thresholds: on 8 more seeds of 760 cubics, the worst eighth accepted was 8.7e-5
/// of the tolerance.
///
/// Which rule: 32 nodes first, then the order predicted from how far its tail was from
/// passing and how fast tails fall for this speed (``nextOrder(after:tail:f:tolerance:)``).
struct CumulativeArcLengthRule: Sendable {
  /// Two nodes below ½ and their mirrors, with everything their speed values are
  /// multiplied by.
  ///
  /// The nodes are symmetric about ½, so the rule works on the sums s = f(t) + f(1 − t)
  /// and the differences d = f(t) − f(1 − t): the length to T is A(T) + B(T), with A a
  /// weighted sum of the s and B one of the d, and the length to 1 − T is the whole length
  /// − A(T) + B(T) (the same rule applied to the curve run backwards). So the eight lengths
  /// need four sums of s and four of d, each over half the nodes: half the multiplications
  /// of weighting every node for every length.
  ///
  /// Two pairs at a time keep every number in the lane of its pair, so nothing is
  /// shuffled: the speed is taken at both nodes and then at both mirrors, s and d are the
  /// two results' sum and difference, and each weight vector holds one weight for each
  /// pair, per sum.
  struct NodeQuad: Sendable {
    /// The two nodes below ½, as parameters in `0...1`.
    var t: SIMD2<Double>
    /// Their mirrors.
    var mirrors: SIMD2<Double>
    /// The weights of s in A(1/8), A(2/8), A(3/8) and in the whole length: two lanes each.
    var sumWeights: SIMD8<Double>
    /// The weights of d in B(1/8) … B(4/8): two lanes each.
    var differenceWeights: SIMD8<Double>
    /// The weights of s in the Legendre coefficient of degree `order − 2` (an even
    /// polynomial), then of d in that of degree `order − 1` (an odd one): two lanes each.
    var tailWeights: SIMD4<Double>
  }

  /// How many nodes.
  var order: Int { 4 * quads.count }
  let quads: [NodeQuad]

  /// The orders there are rules for: 32 first, then a larger one chosen from how far the
  /// tail of the one before was from passing.
  ///
  /// 32 settle gently curved segments (51 of the 64 of the benchmarks' wavy path); the
  /// rest of that path needs 40 or 48. Fewer than 32 would pass some curves, but choosing
  /// them would cost more than it saves: see ``samples(of:tolerance:)``.
  @inline(__always) static var orders: InlineArray<4, Int> { [32, 40, 48, 64] }

  /// The rule of `orders[index]`, made the first time it is needed: a run whose curves
  /// are all gentle never makes the larger ones. (Measuring reads the rules in place,
  /// through ``integrate(_:rule:)``.)
  static func rule(_ index: Int) -> CumulativeArcLengthRule {
    switch index {
    case 0: order32
    case 1: order40
    case 2: order48
    default: order64
    }
  }
  /// ``integrate(_:)`` by the rule of `orders[index]`, each rule read where it is kept:
  /// through ``rule(_:)``, the copy would retain and release its nodes every time.
  @inline(__always)
  static func integrate(_ f: SpeedIntegrand, rule index: Int) -> (
    lengths: SIMD8<Double>, tail: Double
  ) {
    switch index {
    case 0: order32.integrate(f)
    case 1: order40.integrate(f)
    case 2: order48.integrate(f)
    default: order64.integrate(f)
    }
  }
  private static let order32 = CumulativeArcLengthRule(order: 32)
  private static let order40 = CumulativeArcLengthRule(order: 40)
  private static let order48 = CumulativeArcLengthRule(order: 48)
  private static let order64 = CumulativeArcLengthRule(order: 64)

  /// How much larger than the tolerance the tail of the largest rule, extrapolated from a
  /// rule that failed, may be before the curve goes straight to its eighths one by one:
  /// trying a rule that fails costs less than integrating the eighths of a curve that
  /// would have passed, so only a clear prediction skips it.
  static var hopelessFactor: Double { 4.5 }

  /// How far below the tolerance the tail must be.
  ///
  /// With the ends clear, no curve accepted at this margin was off by more than 0.001 of
  /// the tolerance.
  static let margin = 0.1

  /// The least |B′| / |B″| at either end for which the tail is trusted.
  static let endClearance = 0.02

  init(order n: Int) {
    precondition(n >= 4 && n % 4 == 0 && MeasuredPath.samplesPerPiece == 8)
    let (x, w) = Self.gaussLegendre(order: n)
    // Legendre values at every node: p[i][k] = Pₖ(xᵢ), k = 0…n.
    let p = x.map { Self.legendreValues(upTo: n, at: $0) }
    // And at the ends of the first four eighths: atEnd[j][k] = Pₖ(2 (j + 1) / 8 − 1).
    let atEnd = (1...4).map { Self.legendreValues(upTo: n, at: Double($0) / 4 - 1) }
    // The weight of node i in the length from t = 0 to t = (j + 1) / 8, j = 0…3:
    // ∫₋₁ᴱ p dx = Σₖ cₖ ∫₋₁ᴱ Pₖ with cₖ = (2k + 1)/2 Σᵢ wᵢ fᵢ Pₖ(xᵢ); dt = dx / 2.
    func weight(_ i: Int, _ j: Int) -> Double {
      let end = Double(j + 1) / 4 - 1
      var sum = end + 1
      for k in 1..<n { sum += p[i][k] * (atEnd[j][k + 1] - atEnd[j][k - 1]) }
      return 0.25 * w[i] * sum
    }
    quads = stride(from: 0, to: n / 2, by: 2).map { first in
      var quad = NodeQuad(
        t: SIMD2(), mirrors: SIMD2(), sumWeights: SIMD8(), differenceWeights: SIMD8(),
        tailWeights: SIMD4())
      for lane in 0..<2 {
        let i = first + lane
        let mirror = n - 1 - i
        quad.t[lane] = 0.5 * (x[i] + 1)
        quad.mirrors[lane] = 0.5 * (x[mirror] + 1)
        for j in 0..<4 {
          let (own, mirrored) = (weight(i, j), weight(mirror, j))
          quad.sumWeights[2 * j + lane] = 0.5 * (own + mirrored)
          quad.differenceWeights[2 * j + lane] = 0.5 * (own - mirrored)
        }
        // The whole length is the Gauss–Legendre rule: wᵢ / 2 on f(t) and on f(1 − t).
        quad.sumWeights[6 + lane] = 0.5 * w[i]
        quad.tailWeights[lane] = Double(2 * n - 3) / 2 * w[i] * p[i][n - 2]
        quad.tailWeights[lane + 2] = Double(2 * n - 1) / 2 * w[i] * p[i][n - 1]
      }
      return quad
    }
  }

  /// The lengths at t = k / 8 (entry k − 1, k = 1…8), and the tail: |c₍ₙ₋₁₎| + |c₍ₙ₋₂₎|.
  @inline(__always)
  func integrate<F: Integrand>(_ integrand: F) -> (lengths: SIMD8<Double>, tail: Double) {
    var sums = SIMD8<Double>()
    var differences = SIMD8<Double>()
    var tails = SIMD4<Double>()
    for quad in quads {
      let speed = integrand(quad.t)
      let mirrored = integrand(quad.mirrors)
      let s = speed + mirrored
      let d = speed - mirrored
      let s4 = SIMD4(lowHalf: s, highHalf: s)
      let d4 = SIMD4(lowHalf: d, highHalf: d)
      sums += quad.sumWeights * SIMD8(lowHalf: s4, highHalf: s4)
      differences += quad.differenceWeights * SIMD8(lowHalf: d4, highHalf: d4)
      tails += quad.tailWeights * SIMD4(lowHalf: s, highHalf: d)
    }
    // Each sum's two lanes, added.
    let a = SIMD4(sums[0] + sums[1], sums[2] + sums[3], sums[4] + sums[5], sums[6] + sums[7])
    let b = SIMD4(
      differences[0] + differences[1], differences[2] + differences[3],
      differences[4] + differences[5], differences[6] + differences[7])
    let whole = a[3]
    var lengths = SIMD8<Double>()
    for j in 0..<3 {
      lengths[j] = a[j] + b[j]
      lengths[6 - j] = whole - a[j] + b[j]
    }
    lengths[3] = 0.5 * whole + b[3]
    lengths[7] = whole
    return (lengths, abs(tails[0] + tails[1]) + abs(tails[2] + tails[3]))
  }

  /// The lengths at t = k / 8, k = 0…8, by this rule, or `nil` if its tail is too large.
  func samples(of f: SpeedIntegrand, tolerance: Double) -> InlineArray<9, Double>? {
    let (lengths, tail) = integrate(f)
    return Self.samples(lengths: lengths, tail: tail, tolerance: tolerance)
  }

  /// The lengths at t = k / 8, k = 0…8, from what ``integrate(_:)`` gave, or `nil` if its
  /// tail is too large.
  static func samples(lengths: SIMD8<Double>, tail: Double, tolerance: Double)
    -> InlineArray<9, Double>?
  {
    guard tail.isFinite, tail <= margin * tolerance else { return nil }
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
  ///
  /// The 32-node rule goes first. If its tail is too large, the speed's
  /// ``SpeedIntegrand/ellipseParameter`` ρ says how fast the tail falls with the order, so
  /// the next rule is the one that tail, falling by ρ a degree, predicts to pass, and no
  /// rule at all if even the largest would miss by more than ``hopelessFactor``. The
  /// prediction only chooses the order: what is accepted is decided by the tail alone.
  ///
  /// Predicting the first order too (16 or 24 nodes pass a third of the wavy path's
  /// segments) was tried: computing ρ for every segment cost as much as the nodes it saved.
  static func samples(of f: SpeedIntegrand, tolerance: Double) -> InlineArray<9, Double>? {
    guard endsAreClear(f) else { return nil }
    var index = 0
    while true {
      let (lengths, tail) = integrate(f, rule: index)
      if let accepted = samples(lengths: lengths, tail: tail, tolerance: tolerance) {
        return accepted
      }
      guard index < orders.count - 1,
        let next = nextOrder(after: index, tail: tail, f: f, tolerance: tolerance)
      else { return nil }
      index = next
    }
  }

  /// The index of the order that a rule's failed `tail` predicts to pass, or `nil` if
  /// none is predicted to.
  ///
  /// Out of line: the optimizer would otherwise compute its logarithms before every first
  /// try, not only after a failure.
  @inline(never)
  static func nextOrder(after index: Int, tail: Double, f: SpeedIntegrand, tolerance: Double)
    -> Int?
  {
    let rho = f.ellipseParameter
    guard tail.isFinite, rho > 1 else { return nil }
    let goal = margin * tolerance
    // tail · ρ^(order − n) ≤ goal.
    let needed = Double(orders[index]) + Double.log(tail / goal) / Double.log(rho)
    let last = orders.count - 1
    if needed > Double(orders[last]) + Double.log(hopelessFactor) / Double.log(rho) {
      return nil
    }
    var next = index + 1
    while next < last && Double(orders[next]) < needed { next += 1 }
    return next
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

extension SpeedIntegrand {
  /// How fast polynomial rules converge on this speed.
  ///
  /// This is ρ, the sum of the semi-axes (in units of the half interval) of the largest
  /// ellipse with foci t = 0 and t = 1 inside which the speed is analytic. A rule of n
  /// nodes is then off by about ρ^(−2n), and the speed's Legendre coefficients fall like
  /// ρ^(−k). Infinite for a speed that vanishes nowhere, 1 for one that vanishes inside
  /// the curve; NaN if the arithmetic overflows (the caller then gives up on the rules).
  ///
  /// |B′(t)|² = p(t) · p̄(t) with p(t) = A t² + B t + C over the complex numbers (A = a.x
  /// + i a.y, …), so the speed's branch points are the zeros of p and their conjugates,
  /// which lie on the same ellipses. A zero r lies on the ellipse of ρ + 1/ρ = 2 (|r| +
  /// |r − 1|). About 150 instructions, a chain of square roots and divisions: worth it
  /// after a rule has failed, not before every first one.
  var ellipseParameter: Double {
    // (x + iy) / (u + iv), with one division.
    func divide(_ x: Double, _ y: Double, by u: Double, _ v: Double) -> (Double, Double) {
      let scale = 1 / (u * u + v * v)
      return ((x * u + y * v) * scale, (y * u - x * v) * scale)
    }
    // |r| + |r − 1|: the sum of the distances to the foci.
    func focalSum(_ x: Double, _ y: Double) -> Double {
      (x * x + y * y).squareRoot() + ((x - 1) * (x - 1) + y * y).squareRoot()
    }
    var sum: Double
    if a.x == 0 && a.y == 0 {
      if b.x == 0 && b.y == 0 { return .infinity }
      let (x, y) = divide(-c.x, -c.y, by: b.x, b.y)
      sum = focalSum(x, y)
    } else {
      // The square root of b² − 4ac, by the half-angle formulas, the larger part first
      // so the other does not cancel.
      let dx = b.x * b.x - b.y * b.y - 4 * (a.x * c.x - a.y * c.y)
      let dy = 2 * b.x * b.y - 4 * (a.x * c.y + a.y * c.x)
      let modulus = (dx * dx + dy * dy).squareRoot()
      var (sx, sy) = (0.0, 0.0)
      if modulus > 0 {
        if dx >= 0 {
          sx = (0.5 * (modulus + dx)).squareRoot()
          sy = dy / (2 * sx)
        } else {
          sy = (0.5 * (modulus - dx)).squareRoot()
          if dy < 0 { sy = -sy }
          sx = dy / (2 * sy)
        }
      }
      // The sign that adds to b's direction, so that q = −(b + s) / 2 does not cancel.
      if b.x * sx + b.y * sy < 0 { (sx, sy) = (-sx, -sy) }
      let qx = -0.5 * (b.x + sx)
      let qy = -0.5 * (b.y + sy)
      let (x, y) = divide(qx, qy, by: a.x, a.y)
      sum = focalSum(x, y)
      if qx != 0 || qy != 0 {
        let (x, y) = divide(c.x, c.y, by: qx, qy)
        sum = Swift.min(sum, focalSum(x, y))
      }
    }
    return sum + Swift.max(sum * sum - 1, 0).squareRoot()
  }
}
