import SceneDiagnostics

/// When a value expectation is checked.
public enum ExpectationMoment: Hashable, Sendable {
  case time(Double)
  case frame(Int)
  case end
}

/// The span of a run an expectation looks at: every frame from `start` to `end` seconds,
/// both included (`end` `nil`: to the end of the run).
public struct ExpectationWindow: Hashable, Sendable {
  public var start: Double
  public var end: Double?

  public init(start: Double, end: Double?) {
    self.start = start
    self.end = end
  }

  /// Whether a frame at `time` seconds is in the window; a frame within a nanosecond of an
  /// edge counts, so `0.5s..1s` holds the frames at 0.5 s and 1 s whatever the rounding.
  public func contains(_ time: Double) -> Bool {
    time >= start - 1e-9 && (end.map { time <= $0 + 1e-9 } ?? true)
  }
}

/// Which extreme of a value over a window an expectation compares.
public enum Extreme: String, Hashable, Sendable, CaseIterable {
  case max
  case min
}

/// Whether an assertion must hold on every frame of a window, or on none.
public enum Quantifier: String, Hashable, Sendable, CaseIterable {
  case always
  case never
}

/// How an expectation compares two values.
public enum Comparison: String, Hashable, Sendable, CaseIterable {
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case approximately = "≈"
  case equal = "=="
  /// Different by more than the tolerance (0 unless given).
  case notEqual = "!="
}

/// The events a running scene reports, by the name frames, logs and expectations use.
public enum SceneEventName: String, Hashable, Sendable, CaseIterable {
  case grab
  case release
  case rest
  case linkBroke = "link.broke"
  case linkRestored = "link.restored"
  case dismissed
  case loop
  /// A handle came to rest at a snap target; the event names the target.
  case snap
  /// A state machine went from one state to another; the event names both.
  case state
  /// A handle was tapped: grabbed and let go within ``tapDuration`` seconds, the finger
  /// never ``tapSlop`` points from where it went down (reported in scenes with states).
  case tap

  /// The longest a press may last and still be a tap, in seconds.
  public static let tapDuration = 0.5
  /// How far a tapping finger may wander, in points (UIKit's allowable movement).
  public static let tapSlop = 10.0

  /// Whether its subject is a handle; otherwise it is a `gooey` constraint or, for
  /// ``state``, a state machine.
  public var isAboutHandle: Bool {
    switch self {
    case .grab, .release, .rest, .loop, .snap, .tap: return true
    case .linkBroke, .linkRestored, .dismissed, .state: return false
    }
  }

  /// Whether its subject is a `gooey` constraint.
  public var isAboutLink: Bool {
    switch self {
    case .linkBroke, .linkRestored, .dismissed: return true
    case .grab, .release, .rest, .loop, .snap, .state, .tap: return false
    }
  }
}

/// An event an expectation looks for.
public struct EventPattern: Hashable, Sendable {
  /// `grab`, `release`, `rest`, `link.broke`, `link.restored`, `dismissed`, `loop`, `snap`.
  public var name: String
  /// The handle or constraint it concerns (`of ball`), if any.
  public var subject: String?
  /// Where the subject was written (ignored by `==`).
  public var subjectSource: SourceRef
  /// The snap target it names (`to open`), if any.
  public var target: String?
  /// Where the target was written (ignored by `==`).
  public var targetSource: SourceRef

  public init(
    name: String, subject: String? = nil, subjectSource: SourceRef = .synthesized,
    target: String? = nil, targetSource: SourceRef = .synthesized
  ) {
    self.name = name
    self.subject = subject
    self.subjectSource = subjectSource
    self.target = target
    self.targetSource = targetSource
  }
}

/// When an expected event must happen: before or after a time or another event.
public enum EventTiming: Hashable, Sendable {
  case before(Reference)
  case after(Reference)

  /// What an event is timed against: a time in seconds, or the first occurrence of an event.
  public enum Reference: Hashable, Sendable {
    case time(Double)
    case event(EventPattern)
  }
}
