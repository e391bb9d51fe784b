import Foundation
import SceneGeometry
import SceneGraph
import SceneSyntax
import SceneTestSupport
import Testing

@testable import SceneRuntime

@Suite struct SpringTests {
  /// The damping ratios the closed form is checked at: undamped, both sides of critical
  /// and close to it, and strongly over-damped.
  static let ratios = [0, 0.1, 0.43, 0.57, 0.999_999, 1, 1.000_001, 1.5, 4]

  /// Starting states: displaced, flung, and both against each other.
  static let starts: [(x0: Double, v0: Double)] = [(100, 0), (0, -1_500), (-40, 900)]

  /// A spring with ratio ζ, period 0.6 s and mass 2, so k and m are not both 1.
  static func model(_ zeta: Double) -> SpringModel {
    SpringModel(dampingRatio: zeta, duration: 0.6, mass: 2)
  }

  /// The amplitude scale of a start: max(|x0|, |v0|/ω0).
  static func scale(_ model: SpringModel, _ x0: Double, _ v0: Double) -> Double {
    max(abs(x0), abs(v0) / model.naturalFrequency)
  }

  // MARK: - Closed form against an independent integration

  /// Classic RK4 on m·x'' + c·x' + k·x = 0 at step `h`, sampled after each step count.
  static func integrate(
    _ model: SpringModel, x0: Double, v0: Double, h: Double, samples: [Int]
  ) -> [(x: Double, v: Double)] {
    let k = model.stiffness / model.mass
    let c = model.damping / model.mass
    var x = x0
    var v = v0
    var n = 0
    var out: [(x: Double, v: Double)] = []
    for target in samples {
      while n < target {
        let k1x = v
        let k1v = -k * x - c * v
        let x2 = x + 0.5 * h * k1x
        let v2 = v + 0.5 * h * k1v
        let k2x = v2
        let k2v = -k * x2 - c * v2
        let x3 = x + 0.5 * h * k2x
        let v3 = v + 0.5 * h * k2v
        let k3x = v3
        let k3v = -k * x3 - c * v3
        let x4 = x + h * k3x
        let v4 = v + h * k3v
        let k4x = v4
        let k4v = -k * x4 - c * v4
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        n += 1
      }
      out.append((x, v))
    }
    return out
  }

  @Test(arguments: ratios)
  func closedFormMatchesRK4(zeta: Double) {
    let h = 1e-5
    // 0.05 s to 2.5 s: the start, the first swing, and well into the decay.
    let samples = [5_000, 23_000, 77_000, 150_000, 250_000]
    let model = Self.model(zeta)
    for start in Self.starts {
      let reference = Self.integrate(model, x0: start.x0, v0: start.v0, h: h, samples: samples)
      let scale = Self.scale(model, start.x0, start.v0)
      for (n, expected) in zip(samples, reference) {
        let got = model.state(after: Double(n) * h, displacement: start.x0, velocity: start.v0)
        #expect(
          isApproximatelyEqual(
            got.displacement, expected.x, relativeTolerance: 0, absoluteTolerance: 1e-7 * scale),
          "ζ \(zeta) start \(start) t \(Double(n) * h): \(got.displacement) vs \(expected.x)")
        #expect(
          isApproximatelyEqual(
            got.velocity, expected.v, relativeTolerance: 0,
            absoluteTolerance: 1e-7 * scale * model.naturalFrequency),
          "ζ \(zeta) start \(start) t \(Double(n) * h): \(got.velocity) vs \(expected.v)")
      }
    }
  }

  // MARK: - ζ = 1

  @Test func continuousAcrossCriticalDamping() {
    // x(ζ) is smooth in ζ, so x(1 ± δ) − x(1) = ±δ·x'(1) + O(δ²). The derivative comes
    // from a central difference at 1e-6; both sides must agree with it, which a jump or a
    // kink at ζ = 1 (or cancellation near it) would break.
    let wide = 1e-6
    for start in Self.starts {
      let scale = Self.scale(Self.model(1), start.x0, start.v0)
      for t in [0.01, 0.1, 0.35, 1, 3] {
        func x(_ zeta: Double) -> Double {
          Self.model(zeta).state(after: t, displacement: start.x0, velocity: start.v0)
            .displacement
        }
        let critical = x(1)
        let slope = (x(1 + wide) - x(1 - wide)) / (2 * wide)
        for delta in [1e-12, 1e-9, 1e-6] {
          for side in [-1.0, 1.0] {
            let predicted = critical + side * delta * slope
            let got = x(1 + side * delta)
            // Rounding of ζ itself (1e-16) and of the states, plus the O(δ²) term.
            let tolerance = (1e-13 + 10 * delta * delta) * scale
            #expect(
              abs(got - predicted) <= tolerance,
              "t \(t) ζ = 1 \(side > 0 ? "+" : "-") \(delta): \(got) vs \(predicted)")
          }
        }
      }
    }
  }

  @Test func criticalIsTheTextbookFormula() {
    // ζ = 1 exactly: x(t) = e^(−ω0 t)(x0 + (v0 + ω0 x0) t).
    let model = SpringModel(stiffness: 144, damping: 24)
    #expect(model.dampingRatio == 1)
    let (x0, v0) = (30.0, -200.0)
    for t in [0, 0.01, 0.2, 1, 7] {
      let expected = exp(-12 * t) * (x0 + (v0 + 12 * x0) * t)
      let got = model.state(after: t, displacement: x0, velocity: v0).displacement
      #expect(
        isApproximatelyEqual(got, expected, relativeTolerance: 0, absoluteTolerance: 1e-13 * 200))
    }
  }

  // MARK: - Frame-rate independence

  @Test(arguments: [0, 0.2, 0.7, 1, 1 + 1e-10, 3])
  func propagatorMatchesClosedForm(zeta: Double) {
    let model = Self.model(zeta)
    let (x0, v0) = (120.0, -800.0)
    let scale = Self.scale(model, x0, v0)
    // Positions at t = j/6 s, where every one of the frame rates has a frame.
    var atCommonTimes: [[Double]] = []
    for fps in [30.0, 60, 120, 144] {
      let dt = 1 / fps
      let propagator = model.propagator(dt: dt)
      var x = x0
      var v = v0
      var common: [Double] = []
      let framesPerSixth = Int(fps) / 6
      for n in 1...10_000 {
        propagator.step(&x, &v)
        let exact = model.state(after: Double(n) * dt, displacement: x0, velocity: v0)
        if abs(x - exact.displacement) > 1e-9 * scale
          || abs(v - exact.velocity) > 1e-9 * scale * model.naturalFrequency
        {
          Issue.record("ζ \(zeta) fps \(fps) step \(n): \((x, v)) vs \(exact)")
          break
        }
        if n % framesPerSixth == 0 { common.append(x) }
      }
      atCommonTimes.append(common)
    }
    let shortest = atCommonTimes.map(\.count).min() ?? 0
    #expect(shortest == 10_000 / 24)
    for j in 0..<shortest {
      let values = atCommonTimes.map { $0[j] }
      let spread = (values.max() ?? 0) - (values.min() ?? 0)
      #expect(spread <= 1e-9 * scale, "ζ \(zeta) t \(Double(j + 1) / 6): \(values)")
    }
  }

  @Test func step2DIsTwoAxes() {
    let propagator = Self.model(0.5).propagator(dt: 1 / 60)
    var d = Vector(30, -70)
    var v = Vector(-400, 250)
    var (x, vx, y, vy) = (30.0, -400.0, -70.0, 250.0)
    for _ in 0..<100 {
      propagator.step2D(&d, &v)
      propagator.step(&x, &vx)
      propagator.step(&y, &vy)
    }
    #expect(d == Vector(x, y) && v == Vector(vx, vy))
  }

  // MARK: - Parameter mappings

  @Test func uikitMapping() {
    let model = SpringModel(dampingRatio: 0.57, duration: 0.9)
    let k = 4 * Double.pi * Double.pi / 0.81
    #expect(model.mass == 1)
    #expect(
      isApproximatelyEqual(model.stiffness, k, relativeTolerance: 0, absoluteTolerance: 1e-12 * k))
    #expect(
      isApproximatelyEqual(
        model.damping, 2 * 0.57 * k.squareRoot(), relativeTolerance: 0,
        absoluteTolerance: 1e-12 * model.damping))
    #expect(
      isApproximatelyEqual(model.dampingRatio, 0.57, relativeTolerance: 0, absoluteTolerance: 1e-14)
    )
    #expect(
      isApproximatelyEqual(
        model.naturalFrequency, 2 * Double.pi / 0.9, relativeTolerance: 0, absoluteTolerance: 1e-12)
    )
    // Mass scales both constants and leaves the motion alone.
    let heavy = SpringModel(dampingRatio: 0.57, duration: 0.9, mass: 3)
    #expect(
      isApproximatelyEqual(
        heavy.stiffness, 3 * k, relativeTolerance: 0, absoluteTolerance: 1e-12 * k))
    #expect(
      isApproximatelyEqual(heavy.dampingRatio, 0.57, relativeTolerance: 0, absoluteTolerance: 1e-14)
    )
    let a = model.state(after: 0.4, displacement: 10, velocity: 5)
    let b = heavy.state(after: 0.4, displacement: 10, velocity: 5)
    #expect(
      isApproximatelyEqual(
        a.displacement, b.displacement, relativeTolerance: 0, absoluteTolerance: 1e-12))
  }

  @Test func swiftUIMapping() {
    // bounce ≥ 0: ζ = 1 − bounce, k = (2π/T)², c = 4π(1 − bounce)/T.
    let bouncy = SpringModel(duration: 0.5, bounce: 0.3)
    let k = pow(2 * Double.pi / 0.5, 2)
    #expect(
      isApproximatelyEqual(bouncy.stiffness, k, relativeTolerance: 0, absoluteTolerance: 1e-12 * k))
    #expect(
      isApproximatelyEqual(
        bouncy.damping, 4 * Double.pi * 0.7 / 0.5, relativeTolerance: 0,
        absoluteTolerance: 1e-12 * bouncy.damping))
    #expect(
      isApproximatelyEqual(
        SpringModel(duration: 0.5, bounce: 0).dampingRatio, 1, relativeTolerance: 0,
        absoluteTolerance: 1e-15))
    // bounce < 0: ζ = 1/(1 + bounce), SwiftUI's c = 4π/(T(1 + bounce)).
    let sluggish = SpringModel(duration: 0.5, bounce: -0.5)
    #expect(
      isApproximatelyEqual(sluggish.dampingRatio, 2, relativeTolerance: 0, absoluteTolerance: 1e-14)
    )
    #expect(
      isApproximatelyEqual(
        sluggish.damping, 4 * Double.pi / (0.5 * 0.5), relativeTolerance: 0,
        absoluteTolerance: 1e-12 * sluggish.damping))
    // Out of range clamps to −1…1: undamped at 1, and no NaN at −1.
    #expect(SpringModel(duration: 0.5, bounce: 2).dampingRatio == 0)
    let limit = SpringModel(duration: 0.5, bounce: -1)
    #expect(limit.damping.isFinite && limit.damping > 0)
  }

  /// The resolver turns each of the language's three forms into exactly the SpringModel
  /// the runtime builds, with the language's defaults (mass 1, threshold 0.5).
  @Test func theResolverUsesTheModelsOwnConversions() throws {
    let g = try graph(
      """
      springs:
        snap: { dampingRatio: 0.7, duration: 0.5s, mass: 2, restThreshold: 0.1 }
        soft: { duration: 0.4s, bounce: 0.2 }
        raw: { stiffness: 300, damping: 20 }
      """)
    func model(_ s: SceneGraph.Spring) -> SpringModel {
      SpringModel(
        stiffness: s.stiffness, damping: s.damping, mass: s.mass, restThreshold: s.restThreshold)
    }
    #expect(
      model(g.springs[0])
        == SpringModel(dampingRatio: 0.7, duration: 0.5, mass: 2, restThreshold: 0.1))
    #expect(model(g.springs[1]) == SpringModel(duration: 0.4, bounce: 0.2))
    #expect(model(g.springs[2]) == SpringModel(stiffness: 300, damping: 20))
    #expect(g.springs[2].mass == 1 && g.springs[2].restThreshold == 0.5)
  }

  @Test func garbageParametersStayTotal() {
    let models = [
      SpringModel(stiffness: -5, damping: .nan, mass: 0),
      SpringModel(stiffness: .infinity, damping: .infinity, mass: .infinity),
      SpringModel(dampingRatio: .nan, duration: 0),
      SpringModel(dampingRatio: -1, duration: -3, mass: -2, restThreshold: .nan),
      SpringModel(duration: .nan, bounce: .nan),
      SpringModel(stiffness: 0, damping: 0),  // a free particle
      SpringModel(stiffness: 0, damping: 10),  // pure friction
    ]
    for model in models {
      #expect(model.mass > 0 && model.stiffness.isFinite && model.damping.isFinite)
      #expect(!model.dampingRatio.isNaN)
      for t: Double in [0, 1 / 60, 1, 1e6] {
        let s = model.state(after: t, displacement: 10, velocity: -3)
        #expect(s.displacement.isFinite && s.velocity.isFinite, "\(model) t \(t)")
      }
    }
    // Pure friction: x → x0 + v0·m/c, v → 0.
    let friction = SpringModel(stiffness: 0, damping: 10)
    let end = friction.state(after: 100, displacement: 10, velocity: -3)
    #expect(
      isApproximatelyEqual(end.displacement, 9.7, relativeTolerance: 0, absoluteTolerance: 1e-12)
        && end.velocity == 0)
  }

  // MARK: - Rest and release

  @Test func restDetection() {
    let model = SpringModel(dampingRatio: 0.8, duration: 0.4, restThreshold: 0.5)
    #expect(model.isAtRest(displacement: 0.5, velocity: -0.5))
    #expect(!model.isAtRest(displacement: 0.51, velocity: 0))
    #expect(!model.isAtRest(displacement: 0, velocity: 0.51))
    #expect(!model.isAtRest(displacement: .nan, velocity: 0))
    // Let go from 200 points away, it comes to rest within a couple of seconds and stays.
    let propagator = model.propagator(dt: 1 / 60)
    var x = 200.0
    var v = 0.0
    var firstRest: Int?
    for frame in 1...600 {
      propagator.step(&x, &v)
      let resting = model.isAtRest(displacement: x, velocity: v)
      if resting, firstRest == nil { firstRest = frame }
      if !resting, firstRest != nil { Issue.record("left rest at frame \(frame)") }
    }
    #expect((firstRest ?? .max) < 120)
  }

  @Test(arguments: ratios)
  func releaseCarriesVelocity(zeta: Double) {
    let model = Self.model(zeta)
    let (x0, v0) = (25.0, 1_200.0)
    let start = model.state(after: 0, displacement: x0, velocity: v0)
    #expect(start.displacement == x0 && start.velocity == v0)
    #expect(model.propagator(dt: 0) == model.propagator(dt: -1))
    // The initial slope is v0: a forward difference converges to it at first order.
    let h = 1e-7
    let slope = (model.state(after: h, displacement: x0, velocity: v0).displacement - x0) / h
    #expect(
      isApproximatelyEqual(slope, v0, relativeTolerance: 0, absoluteTolerance: 1e-4 * abs(v0)))
  }

  // MARK: - Extremes

  @Test(arguments: ratios)
  func largeTimesDecayWithoutNaN(zeta: Double) {
    let model = Self.model(zeta)
    let (x0, v0) = (300.0, -4_000.0)
    let scale = Self.scale(model, x0, v0)
    for t in [1e3, 1e6, 1e12, 1e300, .greatestFiniteMagnitude, .infinity] {
      let s = model.state(after: t, displacement: x0, velocity: v0)
      #expect(s.displacement.isFinite && s.velocity.isFinite, "ζ \(zeta) t \(t)")
      if zeta == 0 {
        // Undamped: it stays on its orbit.
        let energy =
          model.stiffness * s.displacement * s.displacement + model.mass * s.velocity * s.velocity
        let initial = model.stiffness * x0 * x0 + model.mass * v0 * v0
        #expect(energy <= initial * (1 + 1e-9), "t \(t)")
      } else {
        #expect(abs(s.displacement) <= 1e-100 * scale, "ζ \(zeta) t \(t): \(s)")
        #expect(abs(s.velocity) <= 1e-100 * scale, "ζ \(zeta) t \(t): \(s)")
      }
    }
  }

  @Test(arguments: [0, 0.01, 0.7, 1, 5])
  func hugeStiffnessIsStable(zeta: Double) {
    // ω0 ≈ 31,623 rad/s at 60 fps: ω0·dt ≈ 527, far past where explicit integrators blow up.
    let mass = 1.0
    let k = 1e9
    let model = SpringModel(stiffness: k, damping: 2 * zeta * (k * mass).squareRoot())
    let propagator = model.propagator(dt: 1 / 60)
    let entries = [propagator.a, propagator.b, propagator.c, propagator.d]
    #expect(entries.allSatisfy { $0.isFinite })
    var x = 50.0
    var v = 3_000.0
    let initial = k * x * x + mass * v * v
    for _ in 0..<10_000 {
      propagator.step(&x, &v)
      #expect(x.isFinite && v.isFinite)
      let energy = k * x * x + mass * v * v
      #expect(energy <= initial * (1 + 1e-9))
    }
    if zeta > 0 { #expect(x == 0 && v == 0) }
  }
}
