import Foundation
import Testing

@testable import SceneGeometry

/// The eighths measuring a path stores, from one set of speed values
/// (`CumulativeArcLengthRule`), checked against the 1e-13 reference on the kinds of curve
/// that set its thresholds, on other seeds.
@Suite struct CumulativeArcLengthTests {
  /// The cubics the rule must get right or refuse: random, near-cusp, a cusp anywhere from
  /// just before the start to just after the end, a control point almost on its end point,
  /// and gently curved ones.
  static func cubics(seed: UInt64) -> [CubicBezier] {
    var inputs = SeededInputs(seed: seed)
    var cubics: [CubicBezier] = []
    for _ in 0..<200 { cubics.append(inputs.cubic()) }
    for epsilon in [1e-1, 1e-2, 1e-4, 1e-8, 0] {
      for _ in 0..<20 { cubics.append(inputs.nearCuspCubic(epsilon: epsilon)) }
    }
    for epsilon in [1e-1, 1e-3, 1e-6, 0] {
      for _ in 0..<30 {
        let cusp = inputs.nearCuspCubic(epsilon: epsilon)
        let a = inputs.double(in: 0...0.6)
        let b = inputs.double(in: max(a + 0.05, 0.4)...1)
        cubics.append(cusp.subcurve(from: a, to: b))
      }
    }
    for scale in [1e-1, 1e-3, 1e-5, 1e-7] {
      for _ in 0..<30 {
        let a = inputs.point()
        let d = inputs.point()
        let b = a + Vector(inputs.double(in: -1...1), inputs.double(in: -1...1)) * scale
        cubics.append(CubicBezier(a, b, inputs.point(), d))
        cubics.append(CubicBezier(d, inputs.point(), b, a))
      }
    }
    for _ in 0..<100 {
      let a = inputs.point()
      let d = inputs.point()
      let wobble = { (inputs: inout SeededInputs) in
        Vector(inputs.double(in: -30...30), inputs.double(in: -30...30))
      }
      cubics.append(
        CubicBezier(
          a, a + (d - a) * 0.33 + wobble(&inputs), a + (d - a) * 0.66 + wobble(&inputs), d))
    }
    return cubics
  }

  /// Every eighth the rule answers is within 0.5% of the tolerance of the reference.
  ///
  /// The worst seen on seeds 100–107 is 0.009% (0.07% before the rules of 40 and 48
  /// nodes, when a curve failing 32 went to 64), which keeps measured lengths and
  /// positions inside the documented 1e-9. Without the check of the ends, curves whose speed vanishes just past an end come
  /// out 1% to 5% of the tolerance off, and some of them 200 times the tolerance.
  @Test func acceptedEighthsMatchTheReference() {
    var accepted = 0
    var worst = 0.0
    let cubics = Self.cubics(seed: 2026)
    for cubic in cubics {
      let integrator = ArcLengthIntegrator(cubic)
      guard
        let samples = CumulativeArcLengthRule.samples(
          of: integrator.speed, tolerance: integrator.tolerance)
      else { continue }
      accepted += 1
      for k in 1...8 {
        let reference = Reference.arcLength(cubic, from: 0, to: Double(k) / 8)
        worst = max(worst, abs(samples[k] - reference) / integrator.tolerance)
      }
    }
    #expect(worst <= 0.005, "worst error \(worst) of the tolerance")
    // Not a test that passes by refusing everything.
    #expect(accepted >= cubics.count / 5, "\(accepted) of \(cubics.count) accepted")
  }

  /// A control point almost on its end point hides a zero of the speed from the nodes;
  /// such curves are refused, not answered wrongly.
  @Test func aSpeedThatVanishesAtAnEndIsRefused() {
    let cubic = CubicBezier(
      Point(163.72571566558696, 73.61004000754093), Point(163.72472243028707, 73.6745250561815),
      Point(165.2274634236822, -58.91547121875419), Point(-36.18205602242108, -50.47935010099073))
    let integrator = ArcLengthIntegrator(cubic)
    // The 64-node tail alone would accept it, 200 times the tolerance off.
    let rule = CumulativeArcLengthRule(order: 64)
    #expect(rule.samples(of: integrator.speed, tolerance: integrator.tolerance) != nil)
    #expect(!CumulativeArcLengthRule.endsAreClear(integrator.speed))
    #expect(
      CumulativeArcLengthRule.samples(of: integrator.speed, tolerance: integrator.tolerance) == nil)
    // Measuring still gets it right, by the eighths one at a time.
    let measured = MeasuredPath(
      Path(start: cubic.p0, segments: [.cubic(cubic.p0, cubic.p1, cubic.p2, cubic.p3)]))
    let reference = Reference.arcLength(cubic)
    #expect(abs(measured.length - reference) <= 1e-9 * reference)
  }

  /// The weights: the last length is the Gauss–Legendre rule itself, and every length is
  /// exact for polynomials of degree below the order.
  @Test(arguments: [16, 24, 32, 40, 48, 64])
  func weightsIntegratePolynomialsExactly(order: Int) {
    let rule = CumulativeArcLengthRule(order: order)
    for degree in [0, 1, 2, 5, order - 3, order - 2, order - 1] {
      let (lengths, _) = rule.integrate(Function { t in pow(t, Double(degree)) })
      for k in 1...8 {
        let exact = pow(Double(k) / 8, Double(degree + 1)) / Double(degree + 1)
        #expect(
          abs(lengths[k - 1] - exact) <= 1e-13,
          "degree \(degree), eighth \(k): \(lengths[k - 1]) against \(exact)")
      }
    }
    // The tail is the two highest Legendre coefficients: for Pₖ(2t − 1), 1 at them and 0
    // below them.
    for degree in [0, 3, order - 3, order - 2, order - 1] {
      let (_, tail) = rule.integrate(
        Function { t in CumulativeArcLengthRule.legendreValues(upTo: order, at: 2 * t - 1)[degree] }
      )
      let expected = degree >= order - 2 ? 1.0 : 0.0
      #expect(abs(tail - expected) <= 1e-12, "degree \(degree): tail \(tail)")
    }
  }

  /// The ellipse parameter against its closed form: a speed polynomial built from two
  /// seeded complex zeros r, whose ρ is the smaller of α + √(α² − 1), α = |r| + |r − 1|.
  @Test func ellipseParameterMatchesItsZeros() {
    var inputs = SeededInputs(seed: 11)
    for _ in 0..<500 {
      let r1 = (inputs.double(in: -2...3), inputs.double(in: -2...2))
      let r2 = (inputs.double(in: -2...3), inputs.double(in: -2...2))
      // (t − r1)(t − r2) = t² − (r1 + r2) t + r1 r2, times a seeded complex scale k.
      let k = (inputs.double(in: -50...50), inputs.double(in: -50...50))
      func times(_ u: (Double, Double), _ v: (Double, Double)) -> (Double, Double) {
        (u.0 * v.0 - u.1 * v.1, u.0 * v.1 + u.1 * v.0)
      }
      let b = times(k, (-(r1.0 + r2.0), -(r1.1 + r2.1)))
      let c = times(k, times(r1, r2))
      let speed = SpeedIntegrand(a: Vector(k.0, k.1), b: Vector(b.0, b.1), c: Vector(c.0, c.1))
      func rho(_ r: (Double, Double)) -> Double {
        let alpha = hypot(r.0, r.1) + hypot(r.0 - 1, r.1)
        return alpha + (alpha * alpha - 1).squareRoot()
      }
      let expected = min(rho(r1), rho(r2))
      #expect(
        abs(speed.ellipseParameter - expected) <= 1e-8 * expected,
        "zeros \(r1), \(r2): \(speed.ellipseParameter) against \(expected)")
    }
    // No zero anywhere, a zero inside, and one zero only (a = 0).
    #expect(SpeedIntegrand(a: .zero, b: .zero, c: Vector(3, 4)).ellipseParameter == .infinity)
    let cusp = ArcLengthIntegrator(CubicBezier(Point(0, 0), Point(1, 1), Point(0, 1), Point(1, 0)))
    #expect(abs(cusp.speed.ellipseParameter - 1) <= 1e-6)
    let linear = SpeedIntegrand(a: .zero, b: Vector(1, 0), c: Vector(-2, 0))  // zero at t = 2
    #expect(abs(linear.ellipseParameter - (3 + 8.0.squareRoot())) <= 1e-12)
  }

  /// Choosing the order skips few curves that some rule would pass (they are integrated
  /// eighth by eighth instead, as accurately), and the order chosen after a failure is one
  /// that passes.
  @Test func theOrderChosenAfterAFailurePasses() {
    var passing = 0
    var skipped = 0
    var retried = 0
    var missed = 0
    for cubic in Self.cubics(seed: 2026) + Self.wavyPath() {
      let integrator = ArcLengthIntegrator(cubic)
      let (speed, tolerance) = (integrator.speed, integrator.tolerance)
      guard CumulativeArcLengthRule.endsAreClear(speed) else { continue }
      let passes = (0..<4).map {
        CumulativeArcLengthRule.rule($0).samples(of: speed, tolerance: tolerance) != nil
      }
      guard passes.contains(true) else { continue }
      passing += 1
      if CumulativeArcLengthRule.samples(of: speed, tolerance: tolerance) == nil { skipped += 1 }
      if !passes[0], passes[1] || passes[2] {
        let (_, tail) = CumulativeArcLengthRule.rule(0).integrate(speed)
        let next = CumulativeArcLengthRule.nextOrder(
          after: 0, tail: tail, f: speed, tolerance: tolerance)
        retried += 1
        // Not the largest rule when a smaller one passes; rarely one that fails (then the
        // next one is tried).
        #expect(next.map { $0 < 3 } == true, "\(cubic): \(String(describing: next))")
        if let next, !passes[next] { missed += 1 }
      }
    }
    #expect(retried >= 13, "\(retried) curves needed a second rule")
    #expect(missed * 10 <= retried, "\(missed) of \(retried) second rules failed")
    #expect(skipped * 100 <= passing, "\(skipped) of \(passing) skipped")
  }

  /// The 64 segments of the benchmarks' wavy path.
  static func wavyPath() -> [CubicBezier] {
    func y(_ x: Double) -> Double {
      150 * sin(2 * Double.pi * x / 800) + 40 * sin(2 * Double.pi * x / 230)
    }
    func slope(_ x: Double) -> Double {
      150 * (2 * Double.pi / 800) * cos(2 * Double.pi * x / 800)
        + 40 * (2 * Double.pi / 230) * cos(2 * Double.pi * x / 230)
    }
    return (0..<64).map { index in
      let x0 = Double(index) * 100
      let a = Point(x0, y(x0))
      let d = Point(x0 + 100, y(x0 + 100))
      return CubicBezier(
        a, a + (100.0 / 3) * Vector(1, slope(x0)), d - (100.0 / 3) * Vector(1, slope(x0 + 100)), d)
    }
  }

  /// Every segment of the benchmarks' wavy path takes the cheap route.
  @Test func theWavyPathNeedsNoAdaptiveIntegration() {
    var refused = 0
    for cubic in Self.wavyPath() {
      let integrator = ArcLengthIntegrator(cubic)
      if CumulativeArcLengthRule.samples(of: integrator.speed, tolerance: integrator.tolerance)
        == nil
      {
        refused += 1
      }
    }
    #expect(refused == 0)
  }
}

/// Any function of t, to integrate.
private struct Function: Integrand {
  let value: (Double) -> Double
  init(_ value: @escaping (Double) -> Double) { self.value = value }
  func callAsFunction(_ t: Double) -> Double { value(t) }
}
