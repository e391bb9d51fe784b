/// The fixed time step a scene runs at: frame `n` is at `n / fps` seconds exactly.
///
/// The one place the frame rate's range and the rounding between times and frames live,
/// for the resolver, the runner, `scenec run --at`, expectations and every command's
/// `--fps`.
public struct FrameClock: Hashable, Sendable {
  /// The frame rates a scene or a command may ask for.
  public static let fpsRange: ClosedRange<Double> = 1...1000

  /// What `--fps` and `fps:` say when out of range.
  public static let fpsRangeDescription = "between 1 and 1000"

  public let fps: Double

  /// A clock at `fps` frames per second, which must be within ``fpsRange``.
  public init(fps: Double) {
    precondition(Self.fpsRange.contains(fps), "fps \(fps) is outside \(Self.fpsRange)")
    self.fps = fps
  }

  /// The time of frame `n`, in seconds.
  public func time(ofFrame n: Int) -> Double { Double(n) / fps }

  /// The frame nearest `time`, or `nil` for a time that is negative, not finite, or past
  /// any frame an `Int` can number.
  public func frame(nearest time: Double) -> Int? {
    let frame = (time * fps).rounded()
    // 2^62 where `Int` is 64 bits, 2^30 where it is 32 (WebAssembly).
    guard frame >= 0, frame < Double(Int.max >> 1) else { return nil }
    return Int(frame)
  }

  /// The number of the last frame of a run of `seconds`.
  ///
  /// Whole steps, with a tolerance so that a duration meant to land on a frame (0.1 s at
  /// 30 fps) does. A `Double`, so that a caller can compare it with a limit before
  /// converting it.
  public func lastFrame(after seconds: Double) -> Double {
    (seconds * fps + 1e-9).rounded(.down)
  }
}
