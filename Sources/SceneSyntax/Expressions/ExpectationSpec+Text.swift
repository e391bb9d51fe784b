import SceneGeometry
import SceneVocabulary

extension ExpectationSpec {
  /// The canonical text of the expectation, which ``ExpectationParser`` reads back as an
  /// equal spec: `at 1.2s: ball.y < 300 ± 0.5`, `at frame 30: …`, `at end: all at rest`,
  /// `event link.broke before 0.8s`, `event rest of ball after release`,
  /// `no event dismissed`.
  ///
  /// Times print in seconds (`1200ms` comes back as `1.2s`). A side of an assertion is
  /// parenthesised only when its own text would otherwise move the split: a left side
  /// with a comparison of its own, or a right side containing `+-`.
  public var text: String {
    switch kind {
    case .value(let moment, let lhs, let comparison, let rhs, let tolerance):
      var text = "at \(Self.text(of: moment)): "
      text += Self.guarded(lhs.text) {
        ExpectationParser.firstComparison(in: $0, 0..<$0.count) != nil
      }
      text += " \(comparison.rawValue) "
      text += Self.guarded(rhs.text) {
        ExpectationParser.firstTolerance(in: $0, 0..<$0.count) != nil
      }
      if let tolerance { text += " ± \(tolerance.text)" }
      return text
    case .event(let pattern, let timing):
      var text = "event \(Self.text(of: pattern))"
      switch timing {
      case .before(let reference): text += " before \(Self.text(of: reference))"
      case .after(let reference): text += " after \(Self.text(of: reference))"
      case nil: break
      }
      return text
    case .noEvent(let pattern):
      return "no event \(Self.text(of: pattern))"
    case .allAtRest(let moment):
      return "at \(Self.text(of: moment)): all at rest"
    case .extreme(let extreme, let value, let window, let comparison, let rhs, let tolerance):
      var text = "\(extreme.rawValue) \(Self.guarded(value.text, Self.hasDuring)) during "
      text += Self.text(of: window)
      text += " \(comparison.rawValue) "
      text += Self.guarded(rhs.text) {
        ExpectationParser.firstTolerance(in: $0, 0..<$0.count) != nil
      }
      if let tolerance { text += " ± \(tolerance.text)" }
      return text
    case .throughout(let quantifier, let lhs, let comparison, let rhs, let tolerance, let window):
      var text = "\(quantifier.rawValue) "
      text += Self.guarded(lhs.text) {
        ExpectationParser.firstComparison(in: $0, 0..<$0.count) != nil || Self.hasDuring($0)
      }
      text += " \(comparison.rawValue) "
      text += Self.guarded(rhs.text) {
        ExpectationParser.firstTolerance(in: $0, 0..<$0.count) != nil || Self.hasDuring($0)
      }
      if let tolerance { text += " ± \(Self.guarded(tolerance.text, Self.hasDuring))" }
      return text + " during " + Self.text(of: window)
    }
  }
}

extension ExpectationSpec {
  /// `text` in parentheses when `ambiguous` says its scalars would confuse the split.
  private static func guarded(_ text: String, _ ambiguous: ([Unicode.Scalar]) -> Bool) -> String {
    ambiguous(Array(text.unicodeScalars)) ? "(\(text))" : text
  }

  private static func text(ofTime seconds: Double) -> String { seconds.shortestDescription + "s" }

  /// Whether the text has the word `during` outside parentheses, which would move the split.
  private static func hasDuring(_ scalars: [Unicode.Scalar]) -> Bool {
    ExpectationParser.lastDuring(in: scalars, 0..<scalars.count) != nil
  }

  private static func text(of window: Window) -> String {
    text(ofTime: window.start) + ".." + (window.end.map { text(ofTime: $0) } ?? "end")
  }

  private static func text(of moment: Moment) -> String {
    switch moment {
    case .time(let seconds): return text(ofTime: seconds)
    case .frame(let frame): return "frame \(frame)"
    case .end: return "end"
    }
  }

  static func text(of pattern: EventPattern) -> String {
    (pattern.subject.map { "\(pattern.name) of \($0)" } ?? pattern.name)
      + (pattern.target.map { " to \($0)" } ?? "")
  }

  private static func text(of reference: Timing.Reference) -> String {
    switch reference {
    case .time(let seconds): return text(ofTime: seconds)
    case .event(let pattern): return text(of: pattern)
    }
  }
}
