import SceneGeometry
import SceneSyntax
import SceneTestSupport
import SceneVocabulary
import Testing

@testable import SceneRuntime

@Suite struct TweenTests {
  static let from = Vector(100, 100)
  static let to = Vector(370, 460)  // 450 points away: a 270-360-450 triangle.

  @Test func endpointsAreExact() {
    let tween = Tween(from: Self.from, to: Self.to, duration: 0.8, curve: TimingCurve(.easeInOut))
    #expect(tween.value(at: 0) == Self.from)
    #expect(tween.value(at: -1) == Self.from)
    #expect(tween.value(at: 0.8) == Self.to)
    #expect(tween.value(at: 5) == Self.to)
    #expect(!tween.isFinished(at: 0.79) && tween.isFinished(at: 0.8))
    #expect(tween.value(at: .nan) == Self.from && !tween.isFinished(at: .nan))
  }

  @Test func easingIsApplied() {
    let linear = Tween(from: Self.from, to: Self.to, duration: 2, curve: TimingCurve(.linear))
    #expect(linear.value(at: 1) == Vector(235, 280))
    let curve = TimingCurve(.easeOut)
    let eased = Tween(from: Self.from, to: Self.to, duration: 2, curve: curve)
    for elapsed in [0.2, 0.5, 1, 1.7] {
      let p = curve.value(at: elapsed / 2)
      #expect(p > elapsed / 2)  // ease-out runs ahead of linear.
      #expect(eased.progress(at: elapsed) == p)
      let expected = Self.from + (Self.to - Self.from) * p
      #expect(eased.value(at: elapsed).distance(to: expected) <= 1e-12)
    }
    // A curve that overshoots carries the point past `to` in between.
    let back = Tween(
      from: .zero, to: Vector(100, 0), duration: 1,
      curve: TimingCurve(x1: 0.3, y1: 1.6, x2: 0.7, y2: 1.4))
    #expect(back.value(at: 0.6).x > 100)
  }

  @Test func speedSetsDuration() {
    // The default return: 900 points/s, ease-out; 450 points take 0.5 s.
    let tween = Tween(from: Self.from, to: Self.to, speed: 900, curve: TimingCurve(.easeOut))
    #expect(
      isApproximatelyEqual(tween.duration, 0.5, relativeTolerance: 0, absoluteTolerance: 1e-15))
    #expect(tween.value(at: 0.5) == Self.to && tween.isFinished(at: 0.5))
    #expect(!tween.isFinished(at: 0.49))
  }

  @Test func zeroDistanceOrDurationIsAlreadyThere() {
    let still = Tween(from: Self.from, to: Self.from, speed: 900, curve: TimingCurve(.easeOut))
    #expect(still.duration == 0 && still.isFinished(at: 0))
    #expect(still.value(at: 0) == Self.from)
    let instant = Tween(from: Self.from, to: Self.to, duration: 0, curve: TimingCurve(.linear))
    #expect(instant.value(at: 0) == Self.to && instant.value(at: -1) == Self.to)
    #expect(instant.isFinished(at: 0) && instant.progress(at: .nan) == 1)
    // Nonsense durations and speeds are instant too, never NaN.
    for tween in [
      Tween(from: Self.from, to: Self.to, duration: -2, curve: TimingCurve(.linear)),
      Tween(from: Self.from, to: Self.to, duration: .nan, curve: TimingCurve(.linear)),
      Tween(from: Self.from, to: Self.to, speed: 0, curve: TimingCurve(.linear)),
      Tween(from: Self.from, to: Self.to, speed: -900, curve: TimingCurve(.linear)),
    ] {
      #expect(tween.duration == 0 && tween.value(at: 0.1) == Self.to)
    }
  }
}
