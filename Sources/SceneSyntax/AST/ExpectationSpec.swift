/// An assertion a scene test checks: `at 1.2s: ball.y < 300 ± 0.5`,
/// `event link.broke before 0.8s`, `no event dismissed`, `at end: all at rest`.
///
/// Both syntaxes write an expectation as one line of text, parsed by
/// ``ExpectationParser``; ``text`` is the canonical form `fmt` writes back.
public struct ExpectationSpec: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// A comparison at a moment, with an optional tolerance.
    case value(at: Moment, Expression, Comparison, Expression, tolerance: Expression?)
    /// An event happens (of a handle or constraint, if named), optionally before or after a time or another event.
    case event(EventPattern, Timing?)
    /// An event never happens.
    case noEvent(EventPattern)
    /// Every handle is at rest at the moment.
    case allAtRest(at: Moment)
  }

  public enum Moment: Hashable, Sendable {
    case time(Double)
    case frame(Int)
    case end
  }

  public enum Comparison: String, Hashable, Sendable, CaseIterable {
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case approximately = "≈"
    case equal = "=="
  }

  public struct EventPattern: Hashable, Sendable {
    /// `grab`, `release`, `rest`, `link.broke`, `link.restored`, `dismissed`, `loop`.
    public var name: String
    /// The handle or constraint it concerns (`of ball`), if any.
    public var subject: String?
    /// Where the subject was written (ignored by `==`).
    public var subjectSource: SourceRef

    public init(name: String, subject: String? = nil, subjectSource: SourceRef = .synthesized) {
      self.name = name
      self.subject = subject
      self.subjectSource = subjectSource
    }
  }

  public enum Timing: Hashable, Sendable {
    case before(Reference)
    case after(Reference)

    /// What an event is timed against: a time in seconds, or the first occurrence of an event.
    public enum Reference: Hashable, Sendable {
      case time(Double)
      case event(EventPattern)
    }
  }

  public static let eventNames = [
    "grab", "release", "rest", "link.broke", "link.restored", "dismissed", "loop",
  ]

  /// Events whose subject is a handle.
  public static let handleEventNames = ["grab", "release", "rest", "loop"]
  /// Events whose subject is a `gooey` constraint (by name, or `gooey1`, `gooey2`, …).
  public static let constraintEventNames = ["link.broke", "link.restored", "dismissed"]

  public var kind: Kind
  public var source: SourceRef

  public init(_ kind: Kind, at source: SourceRef = .synthesized) {
    self.kind = kind
    self.source = source
  }
}
