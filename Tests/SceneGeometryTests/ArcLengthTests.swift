import Foundation
import SceneTestSupport
import Testing

@testable import SceneGeometry

@Suite struct ArcLengthTests {
  /// The documented accuracy bound of arc length, relative to the length.
  let bound = 1e-9

  @Test func lineIsExact() {
    let line = CubicBezier(line: Point(0, 0), Point(30, 40))
    #expect(line.arcLength == 50)
    #expect(Segment.line(Point(1, 1), Point(4, 5)).cubic.arcLength == 5)
  }

  @Test func quadraticMatchesClosedForm() {
    // y = x² for x in 0...1 as a quadratic Bézier: (0,0) (0.5,0) (1,1).
    let curve = CubicBezier(quadratic: Point(0, 0), Point(0.5, 0), Point(1, 1))
    // ∫₀¹ √(1 + 4x²) dx = √5/2 + asinh(2)/4.
    let exact = 5.0.squareRoot() / 2 + asinh(2.0) / 4
    #expect(
      isApproximatelyEqual(
        curve.arcLength, exact, relativeTolerance: 0, absoluteTolerance: 1e-14 * exact))
  }

  @Test func randomCubicsMatchReference() {
    var inputs = SeededInputs(seed: 11)
    var worst = 0.0
    for _ in 0..<600 {
      let cubic = inputs.cubic()
      let reference = Reference.arcLength(cubic)
      let error = abs(cubic.arcLength - reference) / reference
      worst = max(worst, error)
    }
    #expect(worst <= bound, "worst relative error \(worst)")
  }

  @Test(arguments: [1e-2, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12, 0])
  func nearCuspCubicsMatchReference(epsilon: Double) {
    var inputs = SeededInputs(seed: 12)
    var worst = 0.0
    for _ in 0..<40 {
      let cubic = inputs.nearCuspCubic(epsilon: epsilon)
      let reference = Reference.arcLength(cubic)
      worst = max(worst, abs(cubic.arcLength - reference) / reference)
    }
    #expect(worst <= bound, "worst relative error \(worst) at epsilon \(epsilon)")
  }

  /// How many pieces the quadrature looks at for a cubic's whole length.
  func pieces(_ cubic: CubicBezier, accuracy: Double = 1e-9) -> Int {
    let integrator = ArcLengthIntegrator(cubic, accuracy: accuracy)
    var budget = GaussLegendre.pieceBudget
    _ = GaussLegendre.integrate(
      0, 1, tolerance: integrator.tolerance, integrator.speed, depth: 0, budget: &budget)
    return GaussLegendre.pieceBudget - budget
  }

  /// The work is counted, not timed: a random cubic takes a handful of pieces, and a
  /// cusp adds pieces only along the halvings towards it, so even an exact cusp stays far
  /// inside the budget (past which the slower adaptive rule would take over).
  @Test func theQuadratureLooksAtFewPieces() {
    var inputs = SeededInputs(seed: 14)
    var total = 0
    for _ in 0..<600 { total += pieces(inputs.cubic()) }
    #expect(Double(total) / 600 < 12, "\(Double(total) / 600) pieces per random cubic")
    for epsilon in [1e-2, 1e-6, 1e-10, 1e-12, 0] {
      var most = 0
      for _ in 0..<40 { most = max(most, pieces(inputs.nearCuspCubic(epsilon: epsilon))) }
      #expect(most < 200, "\(most) pieces for a near-cusp cubic at epsilon \(epsilon)")
    }
  }

  @Test(arguments: [1e-4, 1e-6, 1e-12])
  func accuracyIsAParameter(accuracy: Double) {
    var inputs = SeededInputs(seed: 15)
    var worst = 0.0
    for _ in 0..<300 {
      let cubic = inputs.cubic()
      let reference = Reference.arcLength(cubic)
      worst = max(worst, abs(cubic.arcLength(accuracy: accuracy) - reference) / reference)
    }
    #expect(worst <= accuracy, "worst relative error \(worst) at accuracy \(accuracy)")
  }

  @Test func aLooserAccuracyLooksAtFewerPieces() {
    var inputs = SeededInputs(seed: 16)
    for _ in 0..<100 {
      let cubic = inputs.cubic()
      #expect(pieces(cubic, accuracy: 1e-6) <= pieces(cubic, accuracy: 1e-9))
      #expect(pieces(cubic, accuracy: 1e-9) <= pieces(cubic, accuracy: 1e-12))
    }
  }

  @Test func partialLengthsAddUp() {
    var inputs = SeededInputs(seed: 13)
    for _ in 0..<200 {
      let cubic = inputs.cubic()
      let split = inputs.double(in: 0...1)
      let sum = cubic.arcLength(from: 0, to: split) + cubic.arcLength(from: split, to: 1)
      #expect(abs(sum - cubic.arcLength) <= bound * cubic.arcLength)
      #expect(cubic.arcLength(from: split, to: 0) == -cubic.arcLength(from: 0, to: split))
    }
  }

  @Test func inverseRoundTripsAgainstReference() {
    var inputs = SeededInputs(seed: 14)
    var worst = 0.0
    for round in 0..<300 {
      let cubic = round % 3 == 0 ? inputs.nearCuspCubic(epsilon: 1e-9) : inputs.cubic()
      let total = cubic.arcLength
      let s = inputs.double(in: 0...total)
      let t = cubic.parameter(atLength: s, totalLength: total)
      #expect(t >= 0 && t <= 1)
      let reached = Reference.arcLength(cubic, from: 0, to: t)
      worst = max(worst, abs(reached - s) / total)
    }
    #expect(worst <= bound, "worst |s(t) − s| / L = \(worst)")
  }

  @Test func inverseClampsAndHandlesDegenerateCurves() {
    let cubic = CubicBezier(Point(0, 0), Point(10, 0), Point(20, 10), Point(30, 0))
    #expect(cubic.parameter(atLength: -5) == 0)
    #expect(cubic.parameter(atLength: 1e9) == 1)
    #expect(cubic.parameter(atLength: .nan) == 0)
    let dot = CubicBezier(Point(3, 4), Point(3, 4), Point(3, 4), Point(3, 4))
    #expect(dot.arcLength == 0)
    #expect(dot.parameter(atLength: 1) == 0)
  }

  @Test func coincidentControlPointsAndExactCusp() {
    // Control points on the ends: speed vanishes at both ends.
    let flat = CubicBezier(Point(0, 0), Point(0, 0), Point(100, 0), Point(100, 0))
    #expect(
      isApproximatelyEqual(
        flat.arcLength, 100, relativeTolerance: 0, absoluteTolerance: 1e-12 * 100))
    // The exact cusp: (0,0) (1,1) (0,1) (1,0).
    let cusp = CubicBezier(Point(0, 0), Point(100, 100), Point(0, 100), Point(100, 0))
    let reference = Reference.arcLength(cusp)
    #expect(abs(cusp.arcLength - reference) <= bound * reference)
  }
}
