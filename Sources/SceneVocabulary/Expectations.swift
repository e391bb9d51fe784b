import SceneDiagnostics

/// When a value expectation is checked.
public enum ExpectationMoment: Hashable, Sendable {
  case time(Double)
  case frame(Int)
  case end
}

/// How an expectation compares two values.
public enum Comparison: String, Hashable, Sendable, CaseIterable {
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case approximately = "≈"
  case equal = "=="
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

  /// Whether its subject is a handle; otherwise it is a `gooey` constraint.
  public var isAboutHandle: Bool {
    switch self {
    case .grab, .release, .rest, .loop, .snap: return true
    case .linkBroke, .linkRestored, .dismissed: return false
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

  public init(
    name: String, subject: String? = nil, subjectSource: SourceRef = .synthesized,
    target: String? = nil
  ) {
    self.name = name
    self.subject = subject
    self.subjectSource = subjectSource
    self.target = target
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
