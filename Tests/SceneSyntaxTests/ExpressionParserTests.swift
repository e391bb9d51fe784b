import PropertyBased
import SceneDiagnostics
import Testing

@testable import SceneSyntax

// MARK: - Builders

private func num(_ value: Double, _ unit: Expression.Unit? = nil) -> Expression {
  Expression(.number(value, unit))
}
private func id(_ name: String) -> Expression { Expression(.identifier(name)) }
private func bin(_ op: Expression.BinaryOperator, _ lhs: Expression, _ rhs: Expression)
  -> Expression
{
  Expression(.binary(op, lhs, rhs))
}
private func un(_ op: Expression.UnaryOperator, _ operand: Expression) -> Expression {
  Expression(.unary(op, operand))
}
private func mem(_ base: Expression, _ name: String) -> Expression {
  Expression(.member(base, name))
}
private func pt(_ x: Expression, _ y: Expression) -> Expression { Expression(.point(x, y)) }
private func call(_ name: String, _ arguments: Expression...) -> Expression {
  Expression(.call(name, arguments))
}
private func cond(_ c: Expression, _ t: Expression, _ e: Expression) -> Expression {
  Expression(.conditional(c, t, e))
}

@Suite struct ExpressionParserTests {
  /// The scalar's place: line 4, from column 10, 20 columns wide.
  let origin = SourceSpan(
    SceneDiagnostics.SourceLocation(file: "s.yaml", line: 4, column: 10), length: 20)

  func parse(_ text: String, verbatim: Bool = true) throws -> Expression {
    try ExpressionParser.parse(text, at: origin, verbatim: verbatim)
  }

  func failure(_ text: String, verbatim: Bool = true) -> ExpressionError? {
    do {
      _ = try ExpressionParser.parse(text, at: origin, verbatim: verbatim)
      return nil
    } catch {
      return error
    }
  }

  /// The span of every node, root first, depth first.
  func spans(_ e: Expression) -> [SourceSpan] {
    var result = [e.source.span]
    switch e.kind {
    case .number, .identifier: break
    case .point(let a, let b): result += spans(a) + spans(b)
    case .member(let base, _): result += spans(base)
    case .unary(_, let operand): result += spans(operand)
    case .binary(_, let a, let b): result += spans(a) + spans(b)
    case .conditional(let a, let b, let c): result += spans(a) + spans(b) + spans(c)
    case .call(_, let arguments): result += arguments.flatMap(spans)
    }
    return result
  }

  /// A span on the origin's line.
  func at(_ column: Int, _ length: Int) -> SourceSpan {
    SourceSpan(
      SceneDiagnostics.SourceLocation(file: "s.yaml", line: 4, column: column), length: length)
  }

  // MARK: - Precedence and associativity

  /// What the full parser makes of `text`: its expression and every span, or its message.
  func fullParse(_ text: String, verbatim: Bool) -> String {
    let scalars = Array(text.unicodeScalars)
    let spans = ExpressionParser.Spans(origin: origin, verbatim: verbatim)
    do {
      let e = try ExpressionParser.parse(scalars, in: 0..<scalars.count, spans: spans)
      return rendered(e)
    } catch {
      return error.message
    }
  }

  /// What the public entry point makes of it, which reads a bare name or plain number
  /// without starting the parser.
  func entryParse(_ text: String, verbatim: Bool) -> String {
    do {
      let e = try ExpressionParser.parse(text, at: origin, verbatim: verbatim)
      return rendered(e)
    } catch {
      return error.message
    }
  }

  /// The expression and every node's span in full (`SourceRef`s compare equal whatever
  /// they hold, and a span prints only its start).
  func rendered(_ e: Expression) -> String {
    let places = spans(e).map { "\($0.start.line):\($0.start.column)+\($0.length)" }
    return "\(e.kind) \(places)"
  }

  /// A symbol advances the lexer by as many scalars as its spelling has.
  @Test func symbolLengthsAreTheirSpellings() {
    for symbol in ExpressionParser.Symbol.allCases {
      #expect(symbol.length == symbol.rawValue.unicodeScalars.count, "\(symbol)")
    }
  }

  /// Every text of up to three characters from an alphabet of the characters that decide
  /// between a name, a number and something else, and a few longer ones: the shortcut
  /// for single tokens gives exactly what the parser gives, spans included.
  @Test func singleTokensParseAsTheParserParsesThem() throws {
    let alphabet = ["a", "Z", "_", "1", "0", ".", "e", " ", "(", "-", "é"]
    var texts = [""]
    var level = [""]
    for _ in 1...3 {
      level = level.flatMap { prefix in alphabet.map { prefix + $0 } }
      texts += level
    }
    texts += [
      "w0_1", "handle_12", "105", "0.25", "007", "1.", ".5", "1e5", "1.5.2", "12s", "90deg",
      "a.b", "9a", "1" + String(repeating: "0", count: 400),
      "0." + String(repeating: "9", count: 30),
      String(repeating: "x", count: 300),
    ]
    var shortcuts = 0
    for text in texts {
      for verbatim in [true, false] {
        #expect(
          entryParse(text, verbatim: verbatim) == fullParse(text, verbatim: verbatim), "\(text)")
        let spans = ExpressionParser.Spans(origin: origin, verbatim: verbatim)
        if ExpressionParser.singleToken(text, spans: spans) != nil { shortcuts += 1 }
      }
    }
    // The shortcut did answer most names and numbers in the set.
    #expect(shortcuts > 200)
  }

  @Test func precedence() throws {
    #expect(try parse("1 + 2 * 3") == bin(.add, num(1), bin(.multiply, num(2), num(3))))
    #expect(try parse("1 * 2 + 3") == bin(.add, bin(.multiply, num(1), num(2)), num(3)))
    #expect(try parse("2 * (3 + 4)") == bin(.multiply, num(2), bin(.add, num(3), num(4))))
    #expect(
      try parse("a < b == c < d")
        == bin(.equal, bin(.less, id("a"), id("b")), bin(.less, id("c"), id("d"))))
    #expect(try parse("a || b && c") == bin(.or, id("a"), bin(.and, id("b"), id("c"))))
    #expect(try parse("a && b || c") == bin(.or, bin(.and, id("a"), id("b")), id("c")))
    #expect(try parse("x % 2 == 0") == bin(.equal, bin(.remainder, id("x"), num(2)), num(0)))
    #expect(
      try parse("a + b >= c - d")
        == bin(.greaterOrEqual, bin(.add, id("a"), id("b")), bin(.subtract, id("c"), id("d"))))
    #expect(
      try parse("a != b && c <= d")
        == bin(.and, bin(.notEqual, id("a"), id("b")), bin(.lessOrEqual, id("c"), id("d"))))
    #expect(try parse("a > b") == bin(.greater, id("a"), id("b")))
    #expect(try parse("a / b") == bin(.divide, id("a"), id("b")))
  }

  @Test func associativity() throws {
    #expect(try parse("a - b - c") == bin(.subtract, bin(.subtract, id("a"), id("b")), id("c")))
    #expect(try parse("a - (b - c)") == bin(.subtract, id("a"), bin(.subtract, id("b"), id("c"))))
    #expect(try parse("a / b * c") == bin(.multiply, bin(.divide, id("a"), id("b")), id("c")))
    #expect(try parse("a < b < c") == bin(.less, bin(.less, id("a"), id("b")), id("c")))
    #expect(try parse("a || b || c") == bin(.or, bin(.or, id("a"), id("b")), id("c")))
    #expect(
      try parse("a + b * c - d")
        == bin(.subtract, bin(.add, id("a"), bin(.multiply, id("b"), id("c"))), id("d")))
  }

  @Test func unary() throws {
    #expect(try parse("-1") == un(.negate, num(1)))
    #expect(try parse("-2 * 3") == bin(.multiply, un(.negate, num(2)), num(3)))
    #expect(try parse("-a.x") == un(.negate, mem(id("a"), "x")))
    #expect(try parse("--x") == un(.negate, un(.negate, id("x"))))
    #expect(try parse("- -x") == un(.negate, un(.negate, id("x"))))
    #expect(try parse("+x") == un(.plus, id("x")))
    #expect(try parse("!a && b") == bin(.and, un(.not, id("a")), id("b")))
    #expect(try parse("a * -b") == bin(.multiply, id("a"), un(.negate, id("b"))))
    // The Unicode minus reads as `-`, binary and unary.
    #expect(try parse("a − b") == bin(.subtract, id("a"), id("b")))
    #expect(try parse("−1") == un(.negate, num(1)))
  }

  @Test func conditionals() throws {
    #expect(try parse("a ? b : c") == cond(id("a"), id("b"), id("c")))
    #expect(
      try parse("a ? b : c ? d : e") == cond(id("a"), id("b"), cond(id("c"), id("d"), id("e"))))
    #expect(
      try parse("a ? b ? c : d : e") == cond(id("a"), cond(id("b"), id("c"), id("d")), id("e")))
    #expect(
      try parse("a || b ? c + 1 : d")
        == cond(bin(.or, id("a"), id("b")), bin(.add, id("c"), num(1)), id("d")))
    #expect(
      try parse("(a ? b : c) ? d : e") == cond(cond(id("a"), id("b"), id("c")), id("d"), id("e")))
    #expect(try parse("pointer.down ? 1 : 0") == cond(mem(id("pointer"), "down"), num(1), num(0)))
  }

  // MARK: - Numbers and units

  @Test func numbers() throws {
    #expect(try parse("1") == num(1))
    #expect(try parse("0.5") == num(0.5))
    #expect(try parse(".5") == num(0.5))
    #expect(try parse("1e3") == num(1000))
    #expect(try parse("2.5E-3") == num(0.0025))
    #expect(try parse("1e+2") == num(100))
    #expect(try parse("007") == num(7))
  }

  /// Numbers are read exactly from their digits when they can be; every one must be the
  /// value `Double(String)` gives, alone (the single-token route) or inside a group (the
  /// lexer's).
  @Test func numbersAreReadAsTheStandardLibraryReadsThem() throws {
    var generator = Xoshiro(seed: (0x5EED, 0xDEC1, 0x3A1, 0x77))
    func digits(_ range: ClosedRange<Int>) -> String {
      let count = Int.random(in: range, using: &generator)
      return String((0..<count).map { _ in "0123456789".randomElement(using: &generator)! })
    }
    for _ in 0..<5_000 {
      var text = digits(1...18)
      if Bool.random(using: &generator) { text += "." + digits(1...12) }
      if Int.random(in: 0..<3, using: &generator) == 0 {
        text += ["e", "E"].randomElement(using: &generator)!
        text += ["", "+", "-"].randomElement(using: &generator)! + digits(1...3)
      }
      guard let expected = Double(text), expected.isFinite else { continue }
      #expect(try parse(text) == num(expected), "\(text)")
      #expect(try parse("(\(text))") == num(expected), "\(text)")
    }
  }

  @Test func units() throws {
    #expect(try parse("0.9s") == num(0.9, .seconds))
    #expect(try parse("900ms") == num(900, .milliseconds))
    #expect(try parse("90deg") == num(90, .degrees))
    #expect(try parse("1.5rad") == num(1.5, .radians))
    #expect(try parse(".5s") == num(0.5, .seconds))
    #expect(try parse("1e3ms") == num(1000, .milliseconds))
    #expect(try parse("-90deg") == un(.negate, num(90, .degrees)))
    #expect(try parse("0.9s * 2") == bin(.multiply, num(0.9, .seconds), num(2)))
  }

  // MARK: - Points, calls, members

  @Test func points() throws {
    #expect(try parse("(1, 2)") == pt(num(1), num(2)))
    #expect(
      try parse("(pointer.x, baseY + waveHeight)")
        == pt(mem(id("pointer"), "x"), bin(.add, id("baseY"), id("waveHeight"))))
    #expect(try parse("((1, 2), 3)") == pt(pt(num(1), num(2)), num(3)))
    #expect(try parse("(1, 2).x") == mem(pt(num(1), num(2)), "x"))
    #expect(try parse("-(1, 2)") == un(.negate, pt(num(1), num(2))))
    #expect(try parse("(a ? 1 : 2, 3)") == pt(cond(id("a"), num(1), num(2)), num(3)))
    // A parenthesised single expression has no node of its own.
    #expect(try parse("((x))") == id("x"))
  }

  @Test func calls() throws {
    #expect(
      try parse("min(pull * 0.6, 100)")
        == call("min", bin(.multiply, id("pull"), num(0.6)), num(100)))
    #expect(try parse("clamp(x, 0, 1)") == call("clamp", id("x"), num(0), num(1)))
    #expect(try parse("max (1, 2)") == call("max", num(1), num(2)))
    #expect(
      try parse("max(1, 2, 3, 4, 5, 6, 7, 8)")
        == call("max", num(1), num(2), num(3), num(4), num(5), num(6), num(7), num(8)))
    #expect(try parse("abs(-x)") == call("abs", un(.negate, id("x"))))
    #expect(try parse("sin(90deg)") == call("sin", num(90, .degrees)))
    #expect(
      try parse("lerp(a, b, t ? 1 : 0)")
        == call("lerp", id("a"), id("b"), cond(id("t"), num(1), num(0))))
    #expect(try parse("min(1, 2).x") == mem(call("min", num(1), num(2)), "x"))
    // A function's name without parentheses is just an identifier.
    #expect(try parse("max") == id("max"))
  }

  @Test func members() throws {
    #expect(try parse("ball.x") == mem(id("ball"), "x"))
    #expect(try parse("ball.position.x") == mem(mem(id("ball"), "position"), "x"))
    #expect(try parse("(a + b).y") == mem(bin(.add, id("a"), id("b")), "y"))
    #expect(try parse("1.x") == mem(num(1), "x"))
    #expect(try parse("1.5.x") == mem(num(1.5), "x"))
    #expect(try parse("drag . dy") == mem(id("drag"), "dy"))
    #expect(try parse("_a1.b_2") == mem(id("_a1"), "b_2"))
  }

  @Test func whitespace() throws {
    #expect(try parse(" \t a\t+  b ") == bin(.add, id("a"), id("b")))
    #expect(try parse("a +\n b", verbatim: false) == bin(.add, id("a"), id("b")))
  }

  // MARK: - Spans

  @Test func verbatimSpans() throws {
    #expect(
      spans(try parse("a + b * c")) == [at(10, 9), at(10, 1), at(14, 5), at(14, 1), at(18, 1)])
    // The parentheses belong to the enclosing node, not to the one inside them.
    #expect(
      spans(try parse("(a + b) * c")) == [at(10, 11), at(11, 5), at(11, 1), at(15, 1), at(20, 1)])
    #expect(spans(try parse("(1, 2)")) == [at(10, 6), at(11, 1), at(14, 1)])
    #expect(spans(try parse("max(a, b)")) == [at(10, 9), at(14, 1), at(17, 1)])
    #expect(spans(try parse("-ball.x")) == [at(10, 7), at(11, 6), at(11, 4)])
    #expect(spans(try parse("a ? 0.9s : 10ms")) == [at(10, 15), at(10, 1), at(14, 4), at(21, 4)])
    #expect(spans(try parse("  x  ")) == [at(12, 1)])
    // Columns count Unicode scalars: `−` is one column.
    #expect(spans(try parse("−1")) == [at(10, 2), at(11, 1)])
  }

  @Test func nonVerbatimSpans() throws {
    for text in ["a + b * c", "(a + b) * c", "max(a, b).x", "-ball.x ? (1, 2) : 3"] {
      #expect(spans(try parse(text, verbatim: false)).allSatisfy { $0 == origin })
    }
    let error = try #require(failure("(a + b", verbatim: false))
    // Without columns in the file, the message counts columns in the text.
    #expect(
      error
        == ExpressionError(
          "expected ')' to close '(' at column 1, found end of expression", at: origin))
    #expect(
      failure("a @ b", verbatim: false) == ExpressionError("unexpected character '@'", at: origin))
  }

  // MARK: - Errors

  @Test(arguments: [
    ("(a + b", "expected ')' to close '(' at column 10, found end of expression", 16, 1),
    ("a + )", "expected an expression, found ')'", 14, 1),
    ("(a, b, c)", "expected ')' to close '(' at column 10, found ','", 15, 1),
    ("a, b", "unexpected ',' after expression", 11, 1),
    ("", "empty expression", 10, 20),
    ("   ", "empty expression", 10, 20),
    ("a @ b", "unexpected character '@'", 12, 1),
    ("10px", "unknown unit 'px'; expected s, ms, deg or rad", 12, 2),
    ("90degs", "unknown unit 'degs'; did you mean 'deg'?", 12, 4),
    ("mx(1, 2)", "unknown function 'mx'; did you mean 'max'?", 10, 2),
    ("foo(1)", "unknown function 'foo'", 10, 3),
    ("clamp(x, 0)", "'clamp' takes 3 arguments, found 2", 10, 11),
    ("abs()", "'abs' takes 1 argument, found 0", 10, 5),
    ("min(1)", "'min' takes 2 to 8 arguments, found 1", 10, 6),
    ("max(1, 2, 3, 4, 5, 6, 7, 8, 9)", "'max' takes 2 to 8 arguments, found 9", 10, 30),
    ("a.5", "expected a member name after '.', found '5'", 12, 1),
    ("1.", "expected a member name after '.', found end of expression", 12, 1),
    ("x.(y)", "expected a member name after '.', found '('", 12, 1),
    ("a ? b", "expected ':' to match '?' at column 12, found end of expression", 15, 1),
    ("1e+", "expected digits in the exponent of '1e+'", 10, 3),
    ("1e999", "number '1e999' is too large", 10, 5),
    ("a = b", "unexpected character '='; did you mean '=='?", 12, 1),
    ("a & b", "unexpected character '&'; did you mean '&&'?", 12, 1),
    ("1 + 2 ≤ 3", "unexpected character '≤'; did you mean '<='?", 16, 1),
    ("max(1, 2)(3)", "unexpected '(' after expression", 19, 1),
    ("a.b(1)", "unexpected '(' after expression", 13, 1),
    ("a b", "unexpected 'b' after expression", 12, 1),
    ("0.9 s", "unexpected 's' after expression", 14, 1),
    ("a +", "expected an expression, found end of expression", 13, 1),
    ("a\u{7}", "unexpected character U+0007", 11, 1),
    ("é", "unexpected character 'é'", 10, 1),
    ("max(1, )", "expected an expression, found ')'", 17, 1),
    ("(1, 2", "expected ')' to close '(' at column 10, found end of expression", 15, 1),
    ("1 +* 2", "expected an expression, found '*'", 13, 1),
    ("😀 + 1", "unexpected character '😀'", 10, 1),
  ])
  func errors(text: String, message: String, column: Int, length: Int) {
    #expect(failure(text) == ExpressionError(message, at: at(column, length)))
  }

  @Test func firstErrorWins() {
    // The unclosed '(' is found before the stray character after it.
    #expect(
      failure("(a b @")
        == ExpressionError("expected ')' to close '(' at column 10, found 'b'", at: at(13, 1)))
    #expect(
      failure("clamp(1) @") == ExpressionError("'clamp' takes 3 arguments, found 1", at: at(10, 8)))
  }

  @Test func longTokensAreShortenedInMessages() {
    let name = String(repeating: "a", count: 50)
    let error = failure("1 \(name)")
    #expect(error?.message == "unexpected '\(String(repeating: "a", count: 40))…' after expression")
    #expect(error?.span == at(12, 50))
  }

  @Test func rendered() throws {
    let line = "  offset: min(pull * 0.6, 100px)"
    let file = SourceFile(name: "wave.yaml", text: "handles:\n\(line)\n")
    let scalar = "min(pull * 0.6, 100px)"
    let origin = SourceSpan(file.location(line: 2, column: 11), length: scalar.unicodeScalars.count)
    var caught: ExpressionError?
    do { _ = try ExpressionParser.parse(scalar, at: origin, verbatim: true) } catch {
      caught = error
    }
    let error = try #require(caught)
    #expect(
      DiagnosticRenderer(files: [file]).render(error.diagnostic) == """
        wave.yaml:2:30: error: unknown unit 'px'; expected s, ms, deg or rad
              offset: min(pull * 0.6, 100px)
                                         ^~

        """)
  }

  // MARK: - Hostile input

  @Test func nestingLimit() throws {
    let hundred = String(repeating: "(", count: 100) + "x" + String(repeating: ")", count: 100)
    #expect(try parse(hundred) == id("x"))
    #expect(
      try parse(String(repeating: "-", count: 100) + "x").text == String(repeating: "-", count: 100)
        + "x")
    let calls = String(repeating: "abs(", count: 100) + "x" + String(repeating: ")", count: 100)
    #expect(try parse(calls).text == calls)

    let tooDeep = "expression nested too deeply (more than 100 levels)"
    #expect(
      failure(String(repeating: "(", count: 101) + "x" + String(repeating: ")", count: 101))
        == ExpressionError(tooDeep, at: at(110, 1)))
    #expect(
      failure(String(repeating: "!", count: 101) + "x") == ExpressionError(tooDeep, at: at(110, 1)))
    #expect(failure(String(repeating: "-(", count: 51)) == ExpressionError(tooDeep, at: at(110, 1)))
    #expect(
      failure(String(repeating: "abs(", count: 101)) == ExpressionError(tooDeep, at: at(413, 1)))
    #expect(
      failure(String(repeating: "a ? b : ", count: 101) + "c")
        == ExpressionError(tooDeep, at: at(812, 1)))
  }

  @Test func tenThousandParentheses() {
    let text = String(repeating: "(", count: 10_000)
    let error = failure(text)
    // Stops at the first parenthesis too many: 101 tokens lexed of 10,000.
    #expect(ExpressionParser.tokenCount(parsing: text) == 101)
    #expect(
      error
        == ExpressionError("expression nested too deeply (more than 100 levels)", at: at(110, 1)))
  }

  @Test func longChainsAreLinearAndBounded() {
    let sumText = String(repeating: "1 + ", count: 100_000) + "1"
    let membersText = "a" + String(repeating: ".b", count: 100_000)
    let argumentsText = "max(" + String(repeating: "1, ", count: 100_000) + "1)"
    let nameText = String(repeating: "a", count: 1_000_000) + " @"
    #expect(
      failure(sumText)?.message == "expression too complex (more than 256 levels of operations)")
    #expect(
      failure(membersText)?.message == "expression too complex (more than 256 levels of operations)"
    )
    #expect(failure(argumentsText)?.message == "'max' takes 2 to 8 arguments, found 100001")
    #expect(failure(nameText)?.message == "unexpected character '@'")
    // Work is counted, not timed: each token is lexed once, and a chain that is too tall
    // stops a few hundred tokens in, however long the text goes on.
    #expect(ExpressionParser.tokenCount(parsing: sumText) <= 2 * ExpressionParser.maximumHeight + 2)
    #expect(
      ExpressionParser.tokenCount(parsing: membersText) <= 2 * ExpressionParser.maximumHeight + 2)
    #expect(ExpressionParser.tokenCount(parsing: argumentsText) == 2 * 100_001 + 2)
    #expect(ExpressionParser.tokenCount(parsing: nameText) == 2)
    // Twice the arguments, exactly twice the work.
    let shorter = "max(" + String(repeating: "1, ", count: 50_000) + "1)"
    #expect(ExpressionParser.tokenCount(parsing: shorter) == 2 * 50_001 + 2)
  }

  @Test func anyUnicodeInput() {
    let pieces = [
      "(", ")", ",", ".", "1", "0.5", "e", "s", "ms", "x", "max", "+", "-", "−", "*", "/", "%", "<",
      "=",
      "!", "&", "|", "?", ":", " ", "\t", "\n", "é", "😀", "\u{301}", "\u{0}", "\u{FFFF}", "≈", "±",
      "_",
    ]
    var rng = Xoshiro(seed: (9, 8, 7, 6))
    for _ in 0..<3_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...12, using: &rng) {
        text += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
      }
      do throws(ExpressionError) {
        let e = try ExpressionParser.parse(text, at: origin, verbatim: true)
        #expect(try ExpressionParser.parse(e.text, at: origin, verbatim: true) == e)
      } catch {
        // Every error lies on the scalar's line, within the text or just past its end.
        #expect(error.span.start.line == 4)
        #expect(error.span.start.column >= 10)
        #expect(error.span.start.column <= 10 + max(text.unicodeScalars.count, 1))
      }
    }
  }

  // MARK: - Printing

  @Test(arguments: [
    ("(a - b) - c", "a - b - c"),
    ("a - (b - c)", "a - (b - c)"),
    ("a*(b+c)", "a * (b + c)"),
    ("(a*b)+c", "a * b + c"),
    ("-(x)", "-x"),
    ("-(a + b)", "-(a + b)"),
    ("(-a).x", "(-a).x"),
    ("-(a.x)", "-a.x"),
    ("(a ? b : c) ? d : e", "(a ? b : c) ? d : e"),
    ("a ? (b ? c : d) : (e ? f : g)", "a ? b ? c : d : e ? f : g"),
    ("(a ? b : c) + 1", "(a ? b : c) + 1"),
    ("max( 1 ,2 )", "max(1, 2)"),
    ("( 1 ,2 )", "(1, 2)"),
    ("0.90s", "0.9s"),
    ("900ms", "900ms"),
    ("1e3", "1000"),
    ("2.5E-3", "0.0025"),
    ("1e-7", "1e-07"),
    ("1e25deg", "1e+25deg"),
    (".5", "0.5"),
    ("-1", "-1"),
    ("a − b", "a - b"),
    ("1 < 2 < 3", "1 < 2 < 3"),
    ("1 < (2 < 3)", "1 < (2 < 3)"),
    ("!(a && b)", "!(a && b)"),
    ("!!a", "!!a"),
    ("- - a", "--a"),
    ("(1).x", "1.x"),
    ("(1.5).x", "1.5.x"),
    ("a - -b", "a - -b"),
    ("(a || b) && c", "(a || b) && c"),
    ("a == (b == c)", "a == (b == c)"),
    ("((1, 2))", "(1, 2)"),
  ])
  func canonicalText(input: String, text: String) throws {
    let e = try parse(input)
    #expect(e.text == text)
    #expect(try parse(text) == e)
  }

  @Test func negativeLiteralKeepsItsShape() throws {
    #expect(un(.negate, num(1)).text == "-1")
    #expect(bin(.subtract, num(2), un(.negate, num(1))).text == "2 - -1")
    #expect(try parse("2 - -1") == bin(.subtract, num(2), un(.negate, num(1))))
  }

  // MARK: - Round trip

  @Test func roundTripOfRandomTrees() throws {
    var generator = ExpressionGenerator(seed: (1, 2, 3, 4))
    var kinds = Set<String>()
    for _ in 0..<1_000 {
      let e = generator.expression(depth: 6)
      let text = e.text
      let parsed = try parse(text)
      #expect(parsed == e, "\(text)")
      #expect(parsed.text == text)
      kinds.insert(String(describing: e.kind).prefix { $0 != "(" }.description)
    }
    #expect(kinds.count == 8)
  }
}

/// Random expression trees from a seeded generator, using only what the parser can
/// produce: non-negative finite numbers, identifiers, known functions with valid counts.
struct ExpressionGenerator {
  var rng: Xoshiro

  init(seed: (UInt64, UInt64, UInt64, UInt64)) { rng = Xoshiro(seed: seed) }

  mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

  mutating func number() -> Double {
    switch Int.random(in: 0..<6, using: &rng) {
    case 0: return Double(Int.random(in: 0...1_000, using: &rng))
    case 1: return Double(Int.random(in: 0...64, using: &rng)) / 8
    case 2: return Double.random(in: 0..<1, using: &rng)
    case 3: return Double.random(in: 0..<1e6, using: &rng)
    case 4:
      return pick([1e-7, Double.leastNonzeroMagnitude, 1e20, 1.7976931348623157e308, 0.1, 1e16])
    default: return 0
    }
  }

  mutating func expression(depth: Int) -> Expression {
    let leaf = depth <= 0 || Int.random(in: 0..<4, using: &rng) == 0
    if leaf {
      if Bool.random(using: &rng) {
        let unit: Expression.Unit? = Bool.random(using: &rng) ? nil : pick(Expression.Unit.allCases)
        return Expression(.number(number(), unit))
      }
      return Expression(
        .identifier(pick(["x", "y", "ball", "pointer", "_t", "a1", "width", "max", "s", "e5"])))
    }
    let next = depth - 1
    switch Int.random(in: 0..<6, using: &rng) {
    case 0:
      return Expression(.point(expression(depth: next), expression(depth: next)))
    case 1:
      return Expression(
        .member(expression(depth: next), pick(["x", "y", "down", "dy", "e1", "s"])))
    case 2:
      return Expression(.unary(pick([.negate, .plus, .not]), expression(depth: next)))
    case 3:
      return Expression(
        .conditional(expression(depth: next), expression(depth: next), expression(depth: next)))
    case 4:
      let name = pick(Expression.functions.keys.sorted())
      let range = Expression.functions[name] ?? 1...1
      let count = Int.random(in: range.lowerBound...min(range.upperBound, 4), using: &rng)
      return Expression(.call(name, (0..<count).map { _ in expression(depth: next) }))
    default:
      return Expression(
        .binary(
          pick(Expression.BinaryOperator.allCases), expression(depth: next), expression(depth: next)
        ))
    }
  }
}
