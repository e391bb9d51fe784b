import SceneTestSupport
import Testing

@testable import SceneGeometry

/// The cheap next minimum of a tracking walk against every minimum found from the critical
/// points of the slope, on seeded curves and fingers.
@Suite struct NextMinimumTests {
  /// The first minimum strictly after `t` (before it, backward) among all the minima.
  static func reference(_ cubic: CubicBezier, _ point: Point, after t: Double, forward: Bool)
    -> Double?
  {
    let minima = cubic.interiorDistanceMinima(from: point)
    let all = (0..<minima.count).map { minima[$0] }
    return forward ? all.first { $0 > t } : all.last { $0 < t }
  }

  /// A point with both coordinates drawn from `range`, x first.
  static func randomPoint(in range: ClosedRange<Double>, _ generator: inout SeededGenerator)
    -> Point
  {
    Point(Double.random(in: range, using: &generator), Double.random(in: range, using: &generator))
  }

  static func randomCubic(_ generator: inout SeededGenerator) -> CubicBezier {
    CubicBezier(
      randomPoint(in: -100...300, &generator), randomPoint(in: -100...300, &generator),
      randomPoint(in: -100...300, &generator), randomPoint(in: -100...300, &generator))
  }

  /// Where tracking asks: the walk starts at the last answer, a minimum for the finger's
  /// last place, and the finger has moved a few points since.
  @Test func agreesWithEveryMinimumWhereTrackingAsks() {
    var generator = SeededGenerator(seed: 0x4E_E7)
    var asked = 0
    var decided = 0
    for _ in 0..<3_000 {
      let cubic = Self.randomCubic(&generator)
      let before = Self.randomPoint(in: -50...250, &generator)
      let minima = cubic.interiorDistanceMinima(from: before)
      guard minima.count > 0 else { continue }
      let t = minima[Int.random(in: 0..<minima.count, using: &generator)]
      let finger = before + Self.randomPoint(in: -6...6, &generator)  // moved up to 6 each way
      let slope = cubic.distanceSlope(at: t, from: finger)
      guard slope != 0 else { continue }
      let forward = slope < 0
      asked += 1
      let expected = Self.reference(cubic, finger, after: t, forward: forward)
      switch cubic.nextDistanceMinimum(from: finger, after: t, forward: forward) {
      case .at(let found):
        decided += 1
        #expect(expected != nil, "found \(found) where there is none")
        if let expected {
          #expect(abs(found - expected) <= 1e-12, "\(found) against \(expected)")
        }
      case .none:
        decided += 1
        #expect(expected == nil, "none where there is \(String(describing: expected))")
      case .undecided:
        break
      }
    }
    #expect(asked > 2_000)
    // The point of it: nearly every tracking step is answered without the quartic.
    #expect(Double(decided) >= 0.9 * Double(asked), "\(decided) of \(asked)")
  }

  /// Anywhere on any curve: whatever it answers is what every minimum says.
  @Test func neverContradictsEveryMinimum() {
    var generator = SeededGenerator(seed: 0xA11_C0)
    var decided = 0
    for _ in 0..<20_000 {
      let cubic = Self.randomCubic(&generator)
      let finger = Self.randomPoint(in: -200...400, &generator)
      let t = Double.random(in: 0...1, using: &generator)
      let forward = Bool.random(using: &generator)
      let expected = Self.reference(cubic, finger, after: t, forward: forward)
      switch cubic.nextDistanceMinimum(from: finger, after: t, forward: forward) {
      case .at(let found):
        decided += 1
        #expect(
          expected.map { abs(found - $0) <= 1e-12 } == true,
          "\(found) against \(String(describing: expected))")
      case .none:
        decided += 1
        #expect(expected == nil)
      case .undecided:
        break
      }
    }
    #expect(decided > 5_000)
  }

  @Test func aSignIsKeptOnlyWhereTheValuesKeepIt() {
    var generator = SeededGenerator(seed: 0x516_4)
    var kept = 0
    for _ in 0..<5_000 {
      let p = Quintic(
        Double.random(in: -1...1, using: &generator), Double.random(in: -3...3, using: &generator),
        Double.random(in: -3...3, using: &generator), Double.random(in: -3...3, using: &generator),
        Double.random(in: -3...3, using: &generator), Double.random(in: -3...3, using: &generator))
      let a = Double.random(in: 0...1, using: &generator)
      let b = Double.random(in: 0...1, using: &generator)
      for sign in [-1.0, 1.0] where p.keepsSign(sign, from: a, to: b, margin: 1e-12) {
        kept += 1
        for k in 0...200 {
          let x = a + (b - a) * Double(k) / 200
          #expect(sign * p.value(x) > 0, "at \(x)")
        }
      }
    }
    #expect(kept > 500)
  }
}
