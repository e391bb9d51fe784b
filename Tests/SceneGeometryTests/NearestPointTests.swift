import Foundation
import SceneTestSupport
import Testing

@testable import SceneGeometry

@Suite struct NearestPointTests {
  @Test func neverMissesTheGlobalMinimumOnRandomCubics() {
    var inputs = SeededInputs(seed: 21)
    var worstExcess = 0.0
    for _ in 0..<3000 {
      let cubic = inputs.cubic()
      let query = inputs.point(in: -300...300)
      let found = cubic.nearest(to: query)
      let brute = Reference.nearestDistance(cubic, to: query, samples: 4000)
      // The exact solver may only ever beat brute force, never lose to it.
      worstExcess = max(worstExcess, found.distance - brute)
      #expect((cubic.point(at: found.t) - found.point).length == 0)
    }
    #expect(worstExcess <= 1e-9 * 200, "worst excess over brute force \(worstExcess)")
  }

  @Test func queriesOnTheCurveFindThemselves() {
    var inputs = SeededInputs(seed: 22)
    for _ in 0..<500 {
      let cubic = inputs.cubic()
      let t = inputs.double(in: 0...1)
      let onCurve = cubic.point(at: t)
      #expect(cubic.nearest(to: onCurve).distance <= 1e-9 * cubic.scale)
    }
  }

  @Test func degenerateCurvesGiveDefinedAnswers() {
    let dot = CubicBezier(Point(5, 5), Point(5, 5), Point(5, 5), Point(5, 5))
    let answer = dot.nearest(to: Point(8, 9))
    #expect(answer.t == 0)
    #expect(answer.distance == 5)
    // A cubic that is really a line traversed back and forth.
    let doubled = CubicBezier(Point(0, 0), Point(100, 0), Point(100, 0), Point(0, 0))
    let onIt = doubled.nearest(to: Point(60, 10))
    #expect(isApproximatelyEqual(onIt.distance, 10, relativeTolerance: 0, absoluteTolerance: 1e-12))
    #expect(isApproximatelyEqual(onIt.point.x, 60, relativeTolerance: 0, absoluteTolerance: 1e-9))
    // An exact cusp, queried at the cusp point itself.
    let cusp = CubicBezier(Point(0, 0), Point(100, 100), Point(0, 100), Point(100, 0))
    let tip = cusp.point(at: 0.5)
    #expect(cusp.nearest(to: tip).distance <= 1e-12)
  }

  @Test func farAwayQueriesStayAccurate() {
    let cubic = CubicBezier(
      Point(1e6, 1e6), Point(1e6 + 30, 1e6 + 80), Point(1e6 + 70, 1e6 - 40), Point(1e6 + 100, 1e6))
    let query = Point(1e6 + 40, 1e6 + 10)
    let brute = Reference.nearestDistance(cubic, to: query)
    #expect(
      isApproximatelyEqual(
        cubic.nearest(to: query).distance, brute, relativeTolerance: 0, absoluteTolerance: 1e-7))
  }
}
