import PropertyBased
import SceneDiagnostics
import SceneVocabulary
import Testing

@testable import SceneSyntax

private let x = Expression(.identifier("x"))
private let ballY = Expression(.member(Expression(.identifier("ball")), "y"))
private func n(_ value: Double) -> Expression { Expression(.number(value, nil)) }

@Suite struct ExpectationParserTests {
  typealias Spec = ExpectationSpec
  typealias Pattern = ExpectationSpec.EventPattern

  /// The scalar's place: line 7, from column 5, 30 columns wide.
  let origin = SourceSpan(
    SceneDiagnostics.SourceLocation(file: "t.yaml", line: 7, column: 5), length: 30)

  func parse(_ text: String, verbatim: Bool = true) throws -> ExpectationSpec {
    try ExpectationParser.parse(text, at: origin, verbatim: verbatim)
  }

  func failure(_ text: String, verbatim: Bool = true) -> ExpressionError? {
    do {
      _ = try ExpectationParser.parse(text, at: origin, verbatim: verbatim)
      return nil
    } catch {
      return error
    }
  }

  func at(_ column: Int, _ length: Int) -> SourceSpan {
    SourceSpan(
      SceneDiagnostics.SourceLocation(file: "t.yaml", line: 7, column: column), length: length)
  }

  func expr(_ text: String) throws -> Expression {
    try ExpressionParser.parse(text, at: origin, verbatim: false)
  }

  // MARK: - Forms

  @Test func valueAtTime() throws {
    let spec = try parse("at 1.2s: ball.y < 300 ± 0.5")
    #expect(
      spec.kind
        == .value(
          at: .time(1.2), try expr("ball.y"), .less, try expr("300"), tolerance: try expr("0.5")))
    #expect(spec.text == "at 1.2s: ball.y < 300 ± 0.5")
    #expect(spec.source.span == origin)
  }

  @Test(arguments: [
    (
      "at 1200ms: ball.y <= 300",
      Spec.Kind.value(at: .time(1.2), ballY, .lessOrEqual, n(300), tolerance: nil),
      "at 1.2s: ball.y <= 300"
    ),
    ("at 2: x > 1", .value(at: .time(2), x, .greater, n(1), tolerance: nil), "at 2s: x > 1"),
    (
      "at .5s: x >= 1", .value(at: .time(0.5), x, .greaterOrEqual, n(1), tolerance: nil),
      "at 0.5s: x >= 1"
    ),
    (
      "at frame 30: x == 1", .value(at: .frame(30), x, .equal, n(1), tolerance: nil),
      "at frame 30: x == 1"
    ),
    ("at end: x ≈ 1", .value(at: .end, x, .approximately, n(1), tolerance: nil), "at end: x ≈ 1"),
    (
      "at end: x ~= 1 +- 0.1", .value(at: .end, x, .approximately, n(1), tolerance: n(0.1)),
      "at end: x ≈ 1 ± 0.1"
    ),
    (
      "  at   1.2s :  x<300±0.5 ", .value(at: .time(1.2), x, .less, n(300), tolerance: n(0.5)),
      "at 1.2s: x < 300 ± 0.5"
    ),
    ("at end: all at rest", .allAtRest(at: .end), "at end: all at rest"),
    ("at 0.5s:   all  at\trest", .allAtRest(at: .time(0.5)), "at 0.5s: all at rest"),
    ("at frame 0: all at rest", .allAtRest(at: .frame(0)), "at frame 0: all at rest"),
    (
      "event link.broke before 0.8s", .event(Pattern(name: "link.broke"), .before(.time(0.8))),
      "event link.broke before 0.8s"
    ),
    (
      "event rest of ball after release",
      .event(Pattern(name: "rest", subject: "ball"), .after(.event(Pattern(name: "release")))),
      "event rest of ball after release"
    ),
    ("event grab", .event(Pattern(name: "grab"), nil), "event grab"),
    (
      "event link.restored of link", .event(Pattern(name: "link.restored", subject: "link"), nil),
      "event link.restored of link"
    ),
    (
      "event rest of ball after release of ball",
      .event(
        Pattern(name: "rest", subject: "ball"),
        .after(.event(Pattern(name: "release", subject: "ball")))),
      "event rest of ball after release of ball"
    ),
    (
      "event loop after 500ms", .event(Pattern(name: "loop"), .after(.time(0.5))),
      "event loop after 0.5s"
    ),
    (
      "event dismissed before 2", .event(Pattern(name: "dismissed"), .before(.time(2))),
      "event dismissed before 2s"
    ),
    ("no event dismissed", .noEvent(Pattern(name: "dismissed")), "no event dismissed"),
    (
      "event snap of ball to open before 2s",
      .event(Pattern(name: "snap", subject: "ball", target: "open"), .before(.time(2))),
      "event snap of ball to open before 2s"
    ),
    (
      "max ball.y during 500ms..1s < 30",
      .extreme(
        .max, ballY, .init(start: 0.5, end: 1), .less, n(30), tolerance: nil),
      "max ball.y during 0.5s..1s < 30"
    ),
    (
      "min  ball.y  during 0..end >= 3 ± 0.5",
      .extreme(.min, ballY, .init(start: 0, end: nil), .greaterOrEqual, n(3), tolerance: n(0.5)),
      "min ball.y during 0s..end >= 3 ± 0.5"
    ),
    (
      "always ball.y < 300 during 0s..2s",
      .throughout(.always, ballY, .less, n(300), tolerance: nil, .init(start: 0, end: 2)),
      "always ball.y < 300 during 0s..2s"
    ),
    (
      "never x ≈ 1 ± 0.5 during 1s..end",
      .throughout(.never, x, .approximately, n(1), tolerance: n(0.5), .init(start: 1, end: nil)),
      "never x ≈ 1 ± 0.5 during 1s..end"
    ),
    (
      "no  event link.broke of link", .noEvent(Pattern(name: "link.broke", subject: "link")),
      "no event link.broke of link"
    ),
  ])
  func forms(text: String, kind: Spec.Kind, canonical: String) throws {
    let spec = try parse(text)
    #expect(spec.kind == kind)
    #expect(spec.text == canonical)
    #expect(try parse(canonical) == spec)
  }

  @Test func assertionSplitsAtFirstTopLevelComparison() throws {
    // The comparison inside the call's parentheses does not split.
    let call = try parse("at 1s: max(a < b ? 1 : 2, 0) < 3")
    #expect(
      call.kind
        == .value(
          at: .time(1), try expr("max(a < b ? 1 : 2, 0)"), .less, try expr("3"), tolerance: nil))
    // A parenthesised comparison on the left stays one, and prints back parenthesised.
    let grouped = try parse("at 1s: (a < b) == c")
    #expect(
      grouped.kind == .value(at: .time(1), try expr("a < b"), .equal, try expr("c"), tolerance: nil)
    )
    #expect(grouped.text == "at 1s: (a < b) == c")
    // `!=` at the top is the comparison "differs"; in parentheses, the expression's.
    let notEqual = try parse("at 1s: a != b == c")
    #expect(
      notEqual.kind
        == .value(at: .time(1), try expr("a"), .notEqual, try expr("b == c"), tolerance: nil))
    #expect(notEqual.text == "at 1s: a != b == c")
    let inner = try parse("at 1s: (a != b) == c")
    #expect(
      inner.kind
        == .value(at: .time(1), try expr("a != b"), .equal, try expr("c"), tolerance: nil))
    // Later comparisons belong to the right side.
    let chained = try parse("at 1s: a < b < c")
    #expect(
      chained.kind == .value(at: .time(1), try expr("a"), .less, try expr("b < c"), tolerance: nil))
    // A `+-` on the right would be read as a tolerance, so it prints parenthesised.
    let spec = Spec(.value(at: .end, try expr("a"), .less, try expr("+-b"), tolerance: nil))
    #expect(spec.text == "at end: a < (+-b)")
    #expect(try parse(spec.text) == spec)
  }

  @Test func verbatimSpans() throws {
    let spec = try parse("at 1.2s: ball.y < 300 ± 0.5")
    guard case .value(_, let lhs, _, let rhs, let tolerance) = spec.kind else {
      Issue.record("not a value expectation")
      return
    }
    #expect(lhs.source.span == at(14, 6))
    #expect(rhs.source.span == at(23, 3))
    #expect(tolerance?.source.span == at(29, 3))
  }

  @Test func nonVerbatimSpans() throws {
    let spec = try parse("at 1.2s: ball.y < 300 ± 0.5", verbatim: false)
    guard case .value(_, let lhs, _, let rhs, let tolerance) = spec.kind else {
      Issue.record("not a value expectation")
      return
    }
    #expect(
      [lhs.source.span, rhs.source.span, tolerance?.source.span] == [origin, origin, origin])
    #expect(spec.source.span == origin)
    #expect(
      failure("at 1s: (x < 1", verbatim: false)
        == ExpressionError(
          "expected ')' to close '(' at column 8, found end of expression", at: origin))
    #expect(
      failure("event lnk.broke", verbatim: false)
        == ExpressionError("unknown event 'lnk.broke'; did you mean 'link.broke'?", at: origin))
  }

  // MARK: - Errors

  @Test(arguments: [
    (
      "when 1s: x < 1",
      "expected 'at', 'event', 'no event', 'max', 'min', 'always' or 'never', found 'when'", 5, 4
    ),
    (
      "At 1s: x < 1",
      "expected 'at', 'event', 'no event', 'max', 'min', 'always' or 'never', found 'At'", 5, 2
    ),
    (
      ": x < 1", "expected 'at', 'event', 'no event', 'max', 'min', 'always' or 'never', found ':'",
      5, 1
    ),
    ("", "empty expectation", 5, 30),
    ("at 1s: ball.y", "expected a comparison (<, <=, >, >=, ==, !=, ≈) in the assertion", 12, 6),
    ("at 1s: x = 1", "unexpected character '='; did you mean '=='?", 14, 1),
    ("at 1s: (x < 1", "expected ')' to close '(' at column 12, found end of expression", 18, 1),
    ("event lnk.broke", "unknown event 'lnk.broke'; did you mean 'link.broke'?", 11, 9),
    (
      "event snap of ball too open",
      "expected 'to', 'before', 'after' or the end of the expectation, found 'too'", 24, 3
    ),
    ("no event snap to 2x", "expected a snap target name after 'to', found '2x'", 22, 2),
    (
      "event fly",
      "unknown event 'fly'; expected grab, release, rest, link.broke, link.restored, dismissed, loop, snap, state or tap",
      11, 3
    ),
    ("event", "expected an event name after 'event', found end of expectation", 10, 1),
    ("at 1.2s ball.y < 3", "expected ':' after the moment, found 'ball.y'", 13, 6),
    ("at 1s: < 3", "expected an expression before '<'", 12, 1),
    ("at 1s: x <", "expected an expression after '<', found end of expectation", 15, 1),
    ("at 1s: x < ± 1", "expected an expression after '<', found '±'", 16, 1),
    ("at 1s: x < 1 ±", "expected a tolerance after '±', found end of expectation", 19, 1),
    ("at 1s: x < 1 +-", "expected a tolerance after '+-', found end of expectation", 20, 1),
    ("at 1s: x < 1 ± 2 @", "unexpected character '@'", 22, 1),
    ("at 1s: x < 1 @ 2", "unexpected character '@'", 18, 1),
    ("at 1s: x @ < 1", "unexpected character '@'", 14, 1),
    (
      "at soon: x < 1",
      "expected a moment (a time such as 1.2s, 'frame N' or 'end') after 'at', found 'soon'", 8, 4
    ),
    (
      "at: x < 1",
      "expected a moment (a time such as 1.2s, 'frame N' or 'end') after 'at', found ':'", 7, 1
    ),
    ("at 1.2px: x < 1", "unknown unit 'px'; expected s, ms, deg or rad", 11, 2),
    ("at 90deg: x < 1", "a time takes the unit s or ms, not 'deg'", 8, 5),
    ("at 1+2: x < 1", "expected a time such as 1.2s or 1200ms, found '1+2'", 8, 3),
    ("at frame x: a < 1", "expected a frame number after 'frame', found 'x'", 14, 1),
    ("at frame: a < 1", "expected a frame number after 'frame', found ':'", 13, 1),
    (
      "at frame 99999999999999999999: a < 1", "frame number '99999999999999999999' is too large",
      14, 20
    ),
    (
      "at 1s:", "expected an assertion or 'all at rest' after the moment, found end of expectation",
      11, 1
    ),
    (
      "at end: all at rest now", "expected 'all at rest' or an assertion, found 'all at rest now'",
      13, 15
    ),
    ("no events", "expected 'event' after 'no', found 'events'", 8, 6),
    (
      "no event rest before 1s", "expected 'of' or the end of the expectation, found 'before'", 19,
      6
    ),
    ("no event rest of ball now", "unexpected 'now' at the end of the expectation", 27, 3),
    (
      "event rest of", "expected a handle or constraint name after 'of', found end of expectation",
      18, 1
    ),
    ("event rest of 3d", "expected a handle or constraint name after 'of', found '3d'", 19, 2),
    (
      "event rest soon",
      "expected 'of', 'before', 'after' or the end of the expectation, found 'soon'", 16, 4
    ),
    (
      "event rest of ball soon",
      "expected 'before', 'after' or the end of the expectation, found 'soon'", 24, 4
    ),
    ("event rest before 1s later", "unexpected 'later' at the end of the expectation", 26, 5),
    (
      "event rest after release soon", "expected 'of' or the end of the expectation, found 'soon'",
      30, 4
    ),
    (
      "event rest after", "expected a time or an event after 'after', found end of expectation", 21,
      1
    ),
    ("event rest after -1s", "expected a time or an event after 'after', found '-1s'", 22, 3),
    ("event rest after relase", "unknown event 'relase'; did you mean 'release'?", 22, 6),
  ])
  func errors(text: String, message: String, column: Int, length: Int) {
    #expect(failure(text) == ExpressionError(message, at: at(column, length)))
  }

  @Test func rendered() throws {
    let line = "expect: event lnk.broke before 0.8s"
    let file = SourceFile(name: "t.yaml", text: line + "\n")
    let origin = SourceSpan(file.location(line: 1, column: 9), length: 27)
    var caught: ExpressionError?
    do {
      _ = try ExpectationParser.parse("event lnk.broke before 0.8s", at: origin, verbatim: true)
    } catch {
      caught = error
    }
    let error = try #require(caught)
    #expect(
      DiagnosticRenderer(files: [file]).render(error.diagnostic) == """
        t.yaml:1:15: error: unknown event 'lnk.broke'; did you mean 'link.broke'?
            expect: event lnk.broke before 0.8s
                          ^~~~~~~~~

        """)
  }

  // MARK: - Round trip

  @Test func roundTripOfRandomSpecs() throws {
    var generator = ExpressionGenerator(seed: (5, 6, 7, 8))
    for _ in 0..<600 {
      let spec = randomSpec(&generator)
      let text = spec.text
      #expect(try parse(text) == spec, "\(text)")
      #expect(try parse(text).text == text)
    }
  }

  func randomSpec(_ g: inout ExpressionGenerator) -> ExpectationSpec {
    func time() -> Double {
      g.pick([
        0, 0.8, 1.2, 1e-3, Double(Int.random(in: 0...100, using: &g.rng)) / 10,
        Double.random(in: 0..<100, using: &g.rng),
      ])
    }
    func pattern() -> Pattern {
      Pattern(
        name: g.pick(Spec.eventNames),
        subject: Bool.random(using: &g.rng) ? nil : g.pick(["ball", "link", "_h2"]))
    }
    func moment() -> Spec.Moment {
      switch Int.random(in: 0..<3, using: &g.rng) {
      case 0: return .time(time())
      case 1: return .frame(Int.random(in: 0...10_000, using: &g.rng))
      default: return .end
      }
    }
    func reference() -> Spec.Timing.Reference {
      Bool.random(using: &g.rng) ? .time(time()) : .event(pattern())
    }
    switch Int.random(in: 0..<6, using: &g.rng) {
    case 0, 1, 2:
      let tolerance = Bool.random(using: &g.rng) ? g.expression(depth: 3) : nil
      return Spec(
        .value(
          at: moment(), g.expression(depth: 4), g.pick(Spec.Comparison.allCases),
          g.expression(depth: 4),
          tolerance: tolerance))
    case 3:
      let timing: Spec.Timing? =
        switch Int.random(in: 0..<3, using: &g.rng) {
        case 0: nil
        case 1: .before(reference())
        default: .after(reference())
        }
      return Spec(.event(pattern(), timing))
    case 4:
      return Spec(.noEvent(pattern()))
    default:
      return Spec(.allAtRest(at: moment()))
    }
  }
}
