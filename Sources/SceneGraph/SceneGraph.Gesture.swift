import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

extension SceneGraph {
  /// One pointer's script, resolved: each step with its exact start and end and its
  /// expressions compiled, so the player does no timing arithmetic of its own.
  public struct GestureTrack: Sendable {
    /// The pointer's id (0 for a one-finger script).
    public var pointer: Int
    public var steps: [GestureStep]

    public init(pointer: Int, steps: [GestureStep]) {
      self.pointer = pointer
      self.steps = steps
    }

    /// When the last step ends, in whole microseconds (0 for no steps).
    public var endMicroseconds: Int64 { steps.last?.endMicroseconds ?? 0 }
  }

  /// One step of a gesture track.
  ///
  /// Times are whole microseconds since the script began: sums of step lengths stay exact,
  /// so a step written to land on a frame lands on it (`wait 0.1s` then `wait 50ms` ends at
  /// 0.15 s, frame 9 at 60 fps, not just after).
  public struct GestureStep: Sendable {
    public enum Action: Sendable {
      /// Put the finger down at a point.
      case press(CompiledExpression)
      /// Press and release at a point without moving.
      case tap(CompiledExpression)
      /// Lift the finger; the velocity is the script's own over the last 100 ms unless given.
      case release(velocity: CompiledExpression?)
      /// Keep still, finger down or up.
      case wait
      /// Move the finger (down or up) to a point or by an offset, along `easing`; a fling
      /// lifts at the end (`lift`).
      case motion(Motion, easing: Easing, lift: Lift)
      /// Play a recorded trace.
      case replay(Replay)
      /// Two fingers (the track's and the next id) down about `center`, `distance` apart
      /// (100 unless given), spread by `scale` (1) and turned by `rotation` (0) along
      /// `easing`, then lifted.
      case pinch(
        center: CompiledExpression, scale: CompiledExpression?, rotation: CompiledExpression?,
        distance: CompiledExpression?, easing: Easing)
      /// Set inputs (by index into ``SceneGraph/inputs``) to values, in no time.
      case setInputs([InputChange])
      /// Fire a trigger input, in no time.
      case fire(Int)
    }

    /// An input a `set` step changes, and the value it is given.
    public struct InputChange: Sendable {
      public var input: Int
      public var value: CompiledExpression

      public init(input: Int, value: CompiledExpression) {
        self.input = input
        self.value = value
      }
    }

    /// Where a motion goes.
    public enum Motion: Sendable {
      case to(CompiledExpression)
      case by(CompiledExpression)
    }

    /// Whether a motion ends by lifting the finger, and with what velocity (the script's
    /// own when `nil`).
    public enum Lift: Sendable {
      case none
      case up(velocity: CompiledExpression?)
    }

    public var action: Action
    public var startMicroseconds: Int64
    public var endMicroseconds: Int64
    public var source: SourceRef

    /// A step starting at `start` lasting `duration` microseconds (the end saturates).
    public init(_ action: Action, start: Int64, duration: Int64, at source: SourceRef) {
      self.action = action
      self.startMicroseconds = start
      let (end, overflow) = start.addingReportingOverflow(duration)
      self.endMicroseconds = overflow ? Int64.max : end
      self.source = source
    }

    /// The start in seconds, the double nearest the exact time.
    public var start: Double { Double(startMicroseconds) / 1e6 }
    public var end: Double { Double(endMicroseconds) / 1e6 }
    public var duration: Double { Double(endMicroseconds - startMicroseconds) / 1e6 }
  }

  /// The step-length rules both syntaxes document.
  public enum GestureTiming {
    /// A `drag` or `move` without `over`: 0.3 s.
    public static let defaultMotionDuration = 0.3
    /// A `fling` without `over`: 0.1 s.
    public static let defaultFlingDuration = 0.1
    /// The longest step timed exactly: a day, far past any scene's limit.
    public static let longestStepMicroseconds: Int64 = 86_400_000_000

    /// A duration in whole microseconds: negative, NaN and infinite ones are 0 (the
    /// resolver refuses them with an error first), and none is longer than a day.
    public static func microseconds(_ seconds: Double) -> Int64 {
      guard seconds.isFinite && seconds > 0 else { return 0 }
      return Int64(min((seconds * 1e6).rounded(), Double(longestStepMicroseconds)))
    }
  }

  /// A trace ready to play: times relative to its first sample, never decreasing, and for
  /// each sample the index of the same finger's next one.
  public struct Replay: Sendable {
    public enum Phase: Sendable { case down, move, up }

    public private(set) var positions: [Vector] = []
    public private(set) var phases: [Phase] = []
    /// Seconds since the first sample.
    public private(set) var offsets: [Double] = []
    /// The finger of each sample (its id, or 0).
    public private(set) var fingers: [Int] = []
    /// The index of the same finger's next sample.
    public private(set) var next: [Int?] = []

    public init() {}

    /// Adds a sample recorded at `time` (seconds, any origin); samples with a time that is
    /// not finite are skipped, and a time earlier than the latest plays at the latest.
    public mutating func append(time: Double, position: Vector, phase: Phase, finger: Int) {
      guard time.isFinite else { return }
      if origin == nil { origin = time }
      let offset = time - (origin ?? time)
      guard offset.isFinite else { return }
      latestOffset = max(latestOffset, offset)
      if let previous = latestOfFinger[finger] { next[previous] = positions.count }
      latestOfFinger[finger] = positions.count
      positions.append(position)
      phases.append(phase)
      offsets.append(latestOffset)
      fingers.append(finger)
      next.append(nil)
    }

    private var origin: Double?
    private var latestOffset = 0.0
    private var latestOfFinger: [Int: Int] = [:]

    public var count: Int { positions.count }
    /// How long it plays, in seconds.
    public var duration: Double { offsets.last ?? 0 }
    /// How long it plays in whole microseconds, rounded up so the last sample is inside.
    public var durationMicroseconds: Int64 {
      Int64(
        min(
          (duration * 1e6).rounded(.up), Double(GestureTiming.longestStepMicroseconds)))
    }
  }
}
