import RealModule
import SceneGraph
import SceneVocabulary

/// One axis of a released handle's motion, in closed form from the moment it began: a
/// momentum glide, x(t) = x₀ + A·(1 − e^(−t/τ)), or a spring to a target.
///
/// Every sample is evaluated at its own time from the phase's start, never accumulated
/// step by step, so where a handle is at time t does not depend on the frame rate. A
/// glide that would pass a bound turns, at the exact moment it reaches the bound, into a
/// spring back to it that starts with the glide's speed there.
struct Glide: Sendable {
  enum Phase: Sendable {
    /// Not moving, at this value.
    case still(Double)
    /// Decaying towards `origin + amplitude`; at `crossing` seconds after `start` it
    /// reaches `bound` and bounces back from it with `bounce`.
    case decay(
      start: Double, origin: Double, amplitude: Double, timeConstant: Double,
      crossing: Double?, bound: Double, bounce: SpringModel)
    /// Springing to `rest` from a displacement and velocity it had at `start`.
    case spring(
      start: Double, rest: Double, displacement: Double, velocity: Double, model: SpringModel)
  }

  private(set) var phase: Phase

  init(still value: Double) { phase = .still(value) }

  /// A glide from `origin` with release velocity `velocity`, kept within `lower…upper`
  /// (either may be absent) by bouncing back from them.
  init(
    glideFrom origin: Double, velocity: Double, momentum: SceneGraph.Momentum, lower: Double?,
    upper: Double?, bounce: SpringModel, at time: Double
  ) {
    let amplitude = momentum.gain * velocity
    let tau = momentum.timeConstant
    guard amplitude != 0, amplitude.isFinite, tau > 0 else {
      phase = .still(origin)
      return
    }
    let end = origin + amplitude
    var crossing: Double?
    var bound = end
    if let upper, end > upper, origin <= upper {
      bound = upper
    } else if let lower, end < lower, origin >= lower {
      bound = lower
    }
    if bound != end {
      // origin + A(1 − e^(−t/τ)) = bound.
      crossing = -tau * Double.log(onePlus: -(bound - origin) / amplitude)
    }
    phase = .decay(
      start: time, origin: origin, amplitude: amplitude, timeConstant: tau, crossing: crossing,
      bound: bound, bounce: bounce)
  }

  /// A spring from `value` moving at `velocity` to `rest`.
  ///
  /// `judgingRest: false` starts it even within its rest threshold, for a caller that
  /// judges rest on two axes together (``restsTogether(_:_:)``).
  init(
    springFrom value: Double, velocity: Double, to rest: Double, model: SpringModel,
    at time: Double, judgingRest: Bool = true
  ) {
    if judgingRest && model.isAtRest(displacement: value - rest, velocity: velocity) {
      phase = .still(rest)
    } else {
      phase = .spring(
        start: time, rest: rest, displacement: value - rest, velocity: velocity, model: model)
    }
  }

  var isMoving: Bool {
    if case .still = phase { return false }
    return true
  }

  /// Where the axis is at `time`, and its velocity; a motion that has come to rest
  /// becomes still exactly at its end (the glide's limit, the spring's target).
  ///
  /// Rest is judged on this axis alone: a spring within its threshold in distance and
  /// speed, a glide within ``SceneGraph/Momentum/restDistance`` of its end (one on its way
  /// to a bound always gets there). Two axes of one handle judge it together instead,
  /// with ``advance(to:)`` and ``restsTogether(_:_:)``.
  mutating func sample(at time: Double) -> (value: Double, velocity: Double) {
    let axis = advance(to: time)
    let rests =
      axis.canRest && abs(axis.offset) <= axis.threshold
      && (!axis.speedCounts || abs(axis.velocity) <= axis.threshold)
    guard rests, axis.threshold.isFinite else { return (axis.value, axis.velocity) }
    settle()
    return (advance(to: time).value, 0)
  }
}

// MARK: - Two axes at rest together

extension Glide {
  /// One axis at a moment, before rest is judged.
  struct AxisSample {
    var value: Double
    var velocity: Double
    /// How far the axis is from where it would rest (its glide's end, its spring's target).
    var offset: Double
    /// The distance (and, for a spring, speed) within which it may rest: the spring's
    /// `restThreshold` or a glide's ``SceneGraph/Momentum/restDistance``; infinite for an
    /// axis that is still.
    var threshold: Double
    /// Whether its speed counts towards rest (a spring's does; a glide rests by distance).
    var speedCounts: Bool
    /// False while it must go on: a glide still on its way to a bound it will bounce from.
    var canRest: Bool
  }

  /// The axis at `time`, with no decision about rest: a glide that reaches its bound
  /// turns into its bounce, but nothing becomes still here (see ``settle()``).
  mutating func advance(to time: Double) -> AxisSample {
    switch phase {
    case .still(let value):
      return AxisSample(
        value: value, velocity: 0, offset: 0, threshold: .infinity, speedCounts: false,
        canRest: true)
    case .decay(
      let start, let origin, let amplitude, let tau, let crossing, let bound, let bounce):
      let t = max(time - start, 0)
      if let crossing, t >= crossing {
        let speed = amplitude / tau * Double.exp(-crossing / tau)
        phase = .spring(
          start: start + crossing, rest: bound, displacement: 0, velocity: speed, model: bounce)
        return advance(to: time)
      }
      let remaining = amplitude * Double.exp(-t / tau)
      return AxisSample(
        value: origin + amplitude - remaining, velocity: remaining / tau, offset: -remaining,
        threshold: SceneGraph.Momentum.restDistance, speedCounts: false, canRest: crossing == nil)
    case .spring(let start, let rest, let displacement, let velocity, let model):
      let state = model.state(
        after: max(time - start, 0), displacement: displacement, velocity: velocity)
      return AxisSample(
        value: rest + state.displacement, velocity: state.velocity, offset: state.displacement,
        threshold: model.restThreshold, speedCounts: true, canRest: true)
    }
  }

  /// Becomes still where it would rest: a glide at its end, a spring at its target.
  mutating func settle() {
    switch phase {
    case .still: break
    case .decay(_, let origin, let amplitude, _, _, _, _): phase = .still(origin + amplitude)
    case .spring(_, let rest, _, _, _): phase = .still(rest)
    }
  }

  /// Whether two axes of one handle are at rest together.
  ///
  /// Judged on 2D lengths, as Grammar.md says: the distance from where they would rest, and the speed of those
  /// moving by spring, each within the smaller of their thresholds. So a diagonal spring
  /// rests when a straight one of the same length would, both axes in the same frame;
  /// for one moving axis this is that axis's own rule.
  static func restsTogether(_ x: AxisSample, _ y: AxisSample) -> Bool {
    guard x.canRest, y.canRest else { return false }
    let threshold = min(x.threshold, y.threshold)
    guard threshold.isFinite else { return true }  // Both still.
    let squared = threshold * threshold
    let distance = x.offset * x.offset + y.offset * y.offset
    let vx = x.speedCounts ? x.velocity : 0
    let vy = y.speedCounts ? y.velocity : 0
    return distance <= squared && vx * vx + vy * vy <= squared
  }
}

extension Simulation {
  /// The `snap` event of handle `h`, now at rest at `target`; nothing when it was not
  /// snapping to one.
  mutating func reportSnap(of h: Int, to target: String?) {
    guard let target else { return }
    events.append(SceneEvent(.snap, h, target: target))
  }
}

/// An optional ``Glide`` kept out of line, with value semantics: a `follow`'s state holds
/// a glide only after a release with momentum or detents, yet reading it inline made every
/// state 80 bytes longer, which a frame streams through for every handle springing along
/// its path.
///
/// The box is written in place while only one state holds it (copy on write), so a glide
/// stepped frame after frame allocates nothing.
struct OutOfLineGlide: Sendable {
  private final class Box: @unchecked Sendable {
    // Mutated only through `glide`'s setter, and only while uniquely referenced.
    var value: Glide
    init(_ value: Glide) { self.value = value }
  }

  private var box: Box?

  init() {}

  /// Whether there is a glide: a test of the reference alone, with no copy.
  var isEmpty: Bool { box == nil }

  var glide: Glide? {
    get { box?.value }
    set {
      guard let newValue else {
        box = nil
        return
      }
      if box != nil && isKnownUniquelyReferenced(&box) {
        box?.value = newValue
      } else {
        box = Box(newValue)
      }
    }
  }
}
