import SceneGeometry

/// A timed move of a point from `from` to `to`, eased by a timing curve.
///
/// A tween holds no clock: its owner records when it started and asks for the value at the
/// time elapsed since then, so the same tween replays identically at any frame rate. A
/// scalar is a point on the x axis, or use ``progress(at:)`` directly.
public struct Tween: Hashable, Sendable {
  public let from: Vector
  public let to: Vector
  /// The length in seconds; 0 means the move is already over.
  public let duration: Double
  public let curve: TimingCurve

  /// A tween over a fixed duration; a negative or NaN duration is 0.
  public init(from: Vector, to: Vector, duration: Double, curve: TimingCurve) {
    self.from = from
    self.to = to
    self.duration = duration > 0 ? duration : 0
    self.curve = curve
  }

  /// A tween whose duration is the straight-line distance over `speed` (points per second).
  ///
  /// A zero distance, or a speed that is not positive, gives duration 0: there is nothing to
  /// animate, or no finite time to animate it in that would make sense.
  public init(from: Vector, to: Vector, speed: Double, curve: TimingCurve) {
    let distance = from.distance(to: to)
    let duration = distance > 0 && speed > 0 ? distance / speed : 0
    self.init(from: from, to: to, duration: duration, curve: curve)
  }

  /// The eased fraction of the way at `elapsed` seconds: 0 before the start, 1 from the end.
  ///
  /// Curves whose control points leave 0…1 in y overshoot in between. A NaN time counts as
  /// the start; with duration 0 every time is the end.
  public func progress(at elapsed: Double) -> Double {
    guard duration > 0 else { return 1 }
    guard elapsed < duration else { return elapsed.isNaN ? 0 : 1 }
    return curve.value(at: elapsed / duration)
  }

  /// The position at `elapsed` seconds since the start; exactly `from` and `to` at the ends.
  public func value(at elapsed: Double) -> Vector {
    let p = progress(at: elapsed)
    // Exact endpoints: from + (to − from) · 1 need not round to `to`.
    if p == 0 { return from }
    if p == 1 { return to }
    return from + (to - from) * p
  }

  /// Whether the move is over at `elapsed` seconds since the start.
  public func isFinished(at elapsed: Double) -> Bool { duration == 0 || elapsed >= duration }
}
