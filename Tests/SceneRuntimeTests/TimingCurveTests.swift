import SceneSyntax
import SceneTestSupport
import SceneVocabulary
import Testing

@testable import SceneRuntime

@Suite struct TimingCurveTests {
  @Test func namedCurvesMatchCoreAnimation() {
    #expect(TimingCurve(.linear).value(at: 0.3) == 0.3)
    // ease-in-out is symmetric: y(0.5) = 0.5, y(1 − x) = 1 − y(x).
    let inOut = TimingCurve(.easeInOut)
    #expect(
      isApproximatelyEqual(
        inOut.value(at: 0.5), 0.5, relativeTolerance: 0, absoluteTolerance: 1e-12))
    for x in stride(from: 0.05, through: 0.95, by: 0.05) {
      #expect(
        isApproximatelyEqual(
          inOut.value(at: x) + inOut.value(at: 1 - x), 1, relativeTolerance: 0,
          absoluteTolerance: 1e-12))
    }
    // ease-out starts fast: above the diagonal everywhere inside.
    let out = TimingCurve(.easeOut)
    for x in stride(from: 0.05, through: 0.95, by: 0.05) { #expect(out.value(at: x) > x) }
  }

  @Test func solvesXExactly() {
    let curve = TimingCurve(x1: 0.1, y1: 0.9, x2: 0.2, y2: 1.3)
    for k in 1..<100 {
      let x = Double(k) / 100
      let s = curve.parameter(forX: x)
      #expect(
        isApproximatelyEqual(
          TimingCurve.bezier(s, curve.x1, curve.x2), x, relativeTolerance: 0,
          absoluteTolerance: 1e-12))
    }
    #expect(curve.value(at: -1) == 0 && curve.value(at: 2) == 1)
    // x(s) is flat at both ends here (x1 = 0, x2 = 1): Newton's slope vanishes there,
    // and the bisection bracket must carry the solve.
    let flat = TimingCurve(x1: 0, y1: 0.5, x2: 1, y2: 0.5)
    for x in [1e-9, 1e-6, 0.5, 1 - 1e-6] {
      let s = flat.parameter(forX: x)
      #expect(
        isApproximatelyEqual(
          TimingCurve.bezier(s, 0, 1), x, relativeTolerance: 0, absoluteTolerance: 1e-12))
    }
  }
}
