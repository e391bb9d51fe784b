import Foundation
import SceneTestSupport
import Testing

@testable import SceneGeometry

@Suite struct CubicBezierTests {
  let curve = CubicBezier(Point(0, 0), Point(30, 80), Point(70, -40), Point(100, 0))

  @Test func evaluatesPointsAndDerivatives() {
    #expect(curve.point(at: 0) == Point(0, 0))
    #expect(curve.point(at: 1) == Point(100, 0))
    #expect(curve.point(at: 0.5) == Point(50, 15))
    #expect(curve.derivative(at: 0) == Point(90, 240))
    #expect(curve.derivative(at: 1) == Point(90, 120))
    // The power basis agrees with the Bernstein form.
    let (a, b, c, d) = curve.powerBasis
    for t in stride(from: 0.0, through: 1, by: 0.125) {
      let p = a * (t * t * t) + b * (t * t) + c * t + d
      #expect((p - curve.point(at: t)).length <= 1e-12)
    }
  }

  @Test func derivativesMatchFiniteDifferences() {
    var inputs = SeededInputs(seed: 31)
    for _ in 0..<100 {
      let cubic = inputs.cubic()
      let t = inputs.double(in: 0.01...0.99)
      let h = 1e-6
      let numeric = (cubic.point(at: t + h) - cubic.point(at: t - h)) / (2 * h)
      #expect((numeric - cubic.derivative(at: t)).length <= 1e-5 * cubic.scale)
      let numeric2 = (cubic.derivative(at: t + h) - cubic.derivative(at: t - h)) / (2 * h)
      #expect((numeric2 - cubic.secondDerivative(at: t)).length <= 1e-5 * cubic.scale)
    }
  }

  @Test func tangentAtZeroDerivativeEndsIsTheLimitDirection() {
    // p1 == p0: B'(0) = 0, the curve leaves towards p2.
    let startStill = CubicBezier(Point(0, 0), Point(0, 0), Point(0, 50), Point(100, 50))
    #expect((startStill.tangent(at: 0) - Vector(0, 1)).length <= 1e-12)
    // p2 == p3: B'(1) = 0, the curve arrives from p1's side, moving +x.
    let endStill = CubicBezier(Point(0, 0), Point(50, 0), Point(100, 0), Point(100, 0))
    #expect((endStill.tangent(at: 1) - Vector(1, 0)).length <= 1e-12)
    // Both inner points on the ends: a straight line with zero speed at both ends.
    let flat = CubicBezier(Point(0, 0), Point(0, 0), Point(0, 10), Point(0, 10))
    #expect((flat.tangent(at: 0) - Vector(0, 1)).length <= 1e-12)
    #expect((flat.tangent(at: 1) - Vector(0, 1)).length <= 1e-12)
    // The limit agrees with the tangent just inside.
    #expect((endStill.tangent(at: 1) - endStill.tangent(at: 1 - 1e-7)).length <= 1e-6)
  }

  @Test func tangentIsNeverNaN() {
    let dot = CubicBezier(Point(2, 2), Point(2, 2), Point(2, 2), Point(2, 2))
    #expect(dot.tangent(at: 0.5) == Vector(1, 0))
    let cusp = CubicBezier(Point(0, 0), Point(100, 100), Point(0, 100), Point(100, 0))
    let atCusp = cusp.tangent(at: 0.5)
    #expect(
      atCusp.isFinite
        && isApproximatelyEqual(atCusp.length, 1, relativeTolerance: 0, absoluteTolerance: 1e-12))
    #expect(cusp.angle(at: 0.5).isFinite)
    let normal = curve.normal(at: 0.3)
    #expect(abs(normal.dot(curve.tangent(at: 0.3))) <= 1e-15)
  }

  @Test func angleIsMeasuredInYDownCoordinates() {
    // A line going down the screen has angle +π/2.
    let down = CubicBezier(line: Point(0, 0), Point(0, 10))
    #expect(
      isApproximatelyEqual(
        down.angle(at: 0.5), Double.pi / 2, relativeTolerance: 0, absoluteTolerance: 1e-15))
  }

  @Test func boundsAreExact() {
    var inputs = SeededInputs(seed: 32)
    for _ in 0..<300 {
      let cubic = inputs.cubic()
      let bounds = cubic.bounds
      var sampled = Rect(point: cubic.p0)
      for k in 0...2000 { sampled = sampled.including(cubic.point(at: Double(k) / 2000)) }
      // Sampling can only fall short of the true extremes, never beyond them.
      #expect(bounds.minX <= sampled.minX + 1e-9 && bounds.maxX >= sampled.maxX - 1e-9)
      #expect(bounds.minY <= sampled.minY + 1e-9 && bounds.maxY >= sampled.maxY - 1e-9)
      #expect(sampled.minX - bounds.minX <= 1e-3 && bounds.maxX - sampled.maxX <= 1e-3)
      #expect(sampled.minY - bounds.minY <= 1e-3 && bounds.maxY - sampled.maxY <= 1e-3)
    }
  }

  @Test func subcurveRetracesTheCurve() {
    let piece = curve.subcurve(from: 0.25, to: 0.75)
    for k in 0...10 {
      let u = Double(k) / 10
      let expected = curve.point(at: 0.25 + 0.5 * u)
      #expect((piece.point(at: u) - expected).length <= 1e-12)
    }
  }

  @Test func raisedLinesAndQuadraticsKeepTheirParametrisation() {
    let line = CubicBezier(line: Point(0, 0), Point(9, 3))
    #expect((line.point(at: 1.0 / 3) - Point(3, 1)).length <= 1e-14)
    let quad = CubicBezier(quadratic: Point(0, 0), Point(10, 20), Point(20, 0))
    let t = 0.3
    let direct =
      Point(0, 0) * ((1 - t) * (1 - t)) + Point(10, 20) * (2 * t * (1 - t)) + Point(20, 0) * (t * t)
    #expect((quad.point(at: t) - direct).length <= 1e-13)
  }
}
