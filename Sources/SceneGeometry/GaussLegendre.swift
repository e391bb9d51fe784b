/// Gauss–Legendre quadrature of a cubic's speed, with an error estimate made beforehand.
///
/// The rule (8, 16 or 24 points) is chosen per piece from the estimate, and a piece none
/// is accurate enough for is halved. The idea is kurbo's `arclen` (Raph Levien); the estimate's constants
/// here were fitted for this code, as said below.
///
/// The estimate. On a piece mapped to u in −1…1, let d(u) = dB/du and e(u) = d²B/du², and
/// let `est` = Σ wᵢ·|e(uᵢ)|² / |d(uᵢ)|² over the 8-point rule's nodes: how fast the speed
/// changes relative to itself, which is what limits a polynomial rule on `|d|`. An n-point
/// rule's relative error then stays below C·est^k·(lp − lc)/L, where lp − lc is the piece's
/// control polygon less its chord (zero for a straight piece). The pairs (k, C), (3, 2.1e-6)
/// for 8 points, (6, 1.1e-11) for 16 and (8, 1.2e-14) for 24, are the largest ratios of
/// actual error to est^k·(lp − lc)/L seen over 200,000 seeded random cubics in a 400-point
/// box and 20,000 near-cusp ones, against the adaptive reference of the tests; the tests
/// check the 1e-9 bound on other seeds. The 8-point rule's value comes out of the same
/// loop as `est` (its square roots taken only when it is chosen), so a smooth piece costs
/// 8 speed evaluations.
enum GaussLegendre {
  // Nodes (the positive half; the rule is symmetric) and weights on −1…1, computed by
  // Newton's method on the Legendre polynomials; each set of weights sums to 2.
  static let nodes8: InlineArray<4, Double> = [
    0.1834346424956498, 0.525532409916329, 0.7966664774136268, 0.9602898564975363,
  ]
  static let weights8: InlineArray<4, Double> = [
    0.362683783378362, 0.3137066458778874, 0.22238103445337445, 0.10122853629037618,
  ]
  static let nodes16: InlineArray<8, Double> = [
    0.09501250983763744, 0.2816035507792589, 0.45801677765722737, 0.6178762444026438,
    0.755404408355003, 0.8656312023878318, 0.9445750230732326, 0.9894009349916499,
  ]
  static let weights16: InlineArray<8, Double> = [
    0.18945061045506847, 0.1826034150449236, 0.16915651939500256, 0.14959598881657682,
    0.12462897125553395, 0.0951585116824929, 0.062253523938647776, 0.027152459411754058,
  ]
  static let nodes24: InlineArray<12, Double> = [
    0.06405689286260563, 0.1911188674736163, 0.3150426796961634, 0.4337935076260451,
    0.5454214713888396, 0.6480936519369755, 0.7401241915785544, 0.820001985973903,
    0.8864155270044011, 0.9382745520027328, 0.9747285559713095, 0.9951872199970213,
  ]
  static let weights24: InlineArray<12, Double> = [
    0.12793819534675224, 0.12583745634682839, 0.12167047292780335, 0.11550566805372554,
    0.10744427011596562, 0.0976186521041139, 0.08619016153195322, 0.07334648141108027,
    0.05929858491543666, 0.044277438817419676, 0.028531388628933813, 0.012341229799987334,
  ]

  /// Halvings allowed below the piece first asked for.
  ///
  /// Only a piece next to a dip in the
  /// speed keeps halving (its estimate falls as the square of its width elsewhere), so the
  /// cost grows with the depth, not with 2^depth; 2⁻⁴⁸ of a piece is below what a
  /// parameter in 0…1 resolves.
  static let maximumDepth = 48

  /// `∫ speed` over `u...v` to an absolute error of about `tolerance`.
  ///
  /// - Complexity: 8 speed evaluations (and their second derivatives) per piece looked at,
  ///   plus 16 or 24 for a piece the 8-point rule does not settle; no allocation.
  static func integrate(_ u: Double, _ v: Double, tolerance: Double, _ f: SpeedIntegrand)
    -> Double
  {
    var budget = pieceBudget
    return integrate(u, v, tolerance: tolerance, f, depth: 0, budget: &budget)
  }

  /// Pieces one call may look at before the rest go to QUADPACK's rule.
  ///
  /// A guard against an estimate that never settles, which would otherwise double the work at each depth.
  /// The seeded near-cusp curves of the tests need at most 75, random cubics 6 on average.
  static let pieceBudget = 1_000

  /// The work of ``integrate(_:_:tolerance:_:)``: `budget` is what is left of
  /// ``pieceBudget`` (tests read how much a curve used).
  static func integrate(
    _ u: Double, _ v: Double, tolerance: Double, _ f: SpeedIntegrand, depth: Int,
    budget: inout Int
  ) -> Double {
    budget -= 1
    if budget < 0 { return Quadrature.integrate(u, v, tolerance: tolerance, f) }
    let middle = 0.5 * (u + v)
    let half = 0.5 * (v - u)
    let (a, b, c) = (f.a, f.b, f.c)
    var estimate = 0.0
    // The squared speeds at the nodes, kept for the 8-point rule: their square roots are
    // taken only if that rule is the one chosen (most pieces of a curved cubic need more).
    var squaredLeft = InlineArray<4, Double>(repeating: 0)
    var squaredRight = InlineArray<4, Double>(repeating: 0)
    for i in 0..<4 {
      let offset = half * nodes8[i]
      let weight = weights8[i]
      let left = middle - offset
      let right = middle + offset
      // B'(t) = a·t² + b·t + c and B''(t) = 2a·t + b, at both nodes.
      let dxl = (a.x * left + b.x) * left + c.x
      let dyl = (a.y * left + b.y) * left + c.y
      let dxr = (a.x * right + b.x) * right + c.x
      let dyr = (a.y * right + b.y) * right + c.y
      let exl = 2 * a.x * left + b.x
      let eyl = 2 * a.y * left + b.y
      let exr = 2 * a.x * right + b.x
      let eyr = 2 * a.y * right + b.y
      let speedSquaredLeft = dxl * dxl + dyl * dyl
      let speedSquaredRight = dxr * dxr + dyr * dyr
      // Where the speed is exactly 0 the integrand is too, and the ratio says nothing.
      let ratioLeft = speedSquaredLeft > 0 ? (exl * exl + eyl * eyl) / speedSquaredLeft : 0
      let ratioRight = speedSquaredRight > 0 ? (exr * exr + eyr * eyr) / speedSquaredRight : 0
      estimate += weight * (ratioLeft + ratioRight)
      squaredLeft[i] = speedSquaredLeft
      squaredRight[i] = speedSquaredRight
    }
    // d/du = half · d/dt: the ratio |B''|²/|B'|² gains half².
    estimate *= half * half
    let flatness = controlPolygonExcess(u, v, f)
    let cubed = estimate * estimate * estimate
    // An estimate that overflows (a speed of 1e-160 at a node) says only that the piece
    // is hard: QUADPACK's adaptive rule, which needs no estimate, takes it.
    guard cubed.isFinite && flatness.isFinite else {
      return Quadrature.integrate(u, v, tolerance: tolerance, f)
    }
    if cubed * 2.1e-6 * flatness <= tolerance {
      var sum = SIMD2<Double>()
      for i in 0..<4 {
        sum += weights8[i] * SIMD2(squaredLeft[i], squaredRight[i]).squareRoot()
      }
      return sum.sum() * half
    }
    let sixth = cubed * cubed
    // Both nodes of a pair at once: one square root instruction for two speeds.
    if sixth * 1.1e-11 * flatness <= tolerance {
      var sum = SIMD2<Double>()
      for i in 0..<8 {
        let offset = half * nodes16[i]
        sum += weights16[i] * f(SIMD2(middle - offset, middle + offset))
      }
      return sum.sum() * half
    }
    if sixth * estimate * estimate * 1.2e-14 * flatness <= tolerance || depth >= maximumDepth {
      var sum = SIMD2<Double>()
      for i in 0..<12 {
        let offset = half * nodes24[i]
        sum += weights24[i] * f(SIMD2(middle - offset, middle + offset))
      }
      return sum.sum() * half
    }
    let first = integrate(
      u, middle, tolerance: tolerance * 0.5, f, depth: depth + 1, budget: &budget)
    return first
      + integrate(middle, v, tolerance: tolerance * 0.5, f, depth: depth + 1, budget: &budget)
  }

  /// The control polygon of the piece `u...v` of the curve less its chord, from the
  /// derivative alone: the chord is `∫ B'`, the end tangents are `B'·(v − u)/3`.
  @inline(__always)
  static func controlPolygonExcess(_ u: Double, _ v: Double, _ f: SpeedIntegrand) -> Double {
    let (a, b, c) = (f.a, f.b, f.c)
    // The antiderivative a·t³/3 + b·t²/2 + c·t at both ends.
    let chordX =
      ((a.x / 3 * v + b.x / 2) * v + c.x) * v - ((a.x / 3 * u + b.x / 2) * u + c.x) * u
    let chordY =
      ((a.y / 3 * v + b.y / 2) * v + c.y) * v - ((a.y / 3 * u + b.y / 2) * u + c.y) * u
    let third = (v - u) / 3
    let startX = ((a.x * u + b.x) * u + c.x) * third
    let startY = ((a.y * u + b.y) * u + c.y) * third
    let endX = ((a.x * v + b.x) * v + c.x) * third
    let endY = ((a.y * v + b.y) * v + c.y) * third
    let middleX = chordX - startX - endX
    let middleY = chordY - startY - endY
    let polygon =
      (startX * startX + startY * startY).squareRoot()
      + (middleX * middleX + middleY * middleY).squareRoot()
      + (endX * endX + endY * endY).squareRoot()
    return Swift.max(polygon - (chordX * chordX + chordY * chordY).squareRoot(), 0)
  }
}
