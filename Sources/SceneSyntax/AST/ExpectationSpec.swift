import SceneDiagnostics
import SceneVocabulary

/// An assertion a scene test checks: `at 1.2s: ball.y < 300 ± 0.5`,
/// `event link.broke before 0.8s`, `no event dismissed`, `at end: all at rest`,
/// `max ball.y during 0.5s..1s < 30`, `always ball.y < 300 during 0s..end`.
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
    /// The largest or smallest value over a window, compared: `max ball.y during
    /// 0.5s..1s < 30`.
    case extreme(Extreme, Expression, Window, Comparison, Expression, tolerance: Expression?)
    /// An assertion on every frame of a window, or on none: `always ball.y < 300 during
    /// 0s..2s`.
    case throughout(
      Quantifier, Expression, Comparison, Expression, tolerance: Expression?, Window)
  }

  public typealias Moment = ExpectationMoment
  public typealias Window = ExpectationWindow
  public typealias Comparison = SceneVocabulary.Comparison
  public typealias EventPattern = SceneVocabulary.EventPattern
  public typealias Timing = EventTiming

  /// Every event an expectation may name.
  public static let eventNames = SceneEventName.allCases.map { $0.rawValue }
  /// Events whose subject is a handle.
  public static let handleEventNames = SceneEventName.allCases.filter { $0.isAboutHandle }.map(
    { $0.rawValue })
  /// Events whose subject is a `gooey` constraint (by name, or `gooey1`, `gooey2`, …).
  public static let constraintEventNames = SceneEventName.allCases.filter { $0.isAboutLink }
    .map { $0.rawValue }

  public var kind: Kind
  public var source: SourceRef

  public init(_ kind: Kind, at source: SourceRef = .synthesized) {
    self.kind = kind
    self.source = source
  }
}
