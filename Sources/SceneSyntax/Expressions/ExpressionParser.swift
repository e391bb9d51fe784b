import SceneDiagnostics
import SceneGeometry

/// Parses the text of one expression (`min(pull * 0.6, 100)`, `(pointer.x, baseY)`,
/// `90deg`) into an ``Expression``.
///
/// A hand-written lexer feeds an operator-precedence parser. The grammar, in EBNF:
///
/// ```
/// expression     = conditional ;
/// conditional    = or [ "?" expression ":" expression ] ;
/// or             = and { "||" and } ;
/// and            = equality { "&&" equality } ;
/// equality       = comparison { ( "==" | "!=" ) comparison } ;
/// comparison     = additive { ( "<" | "<=" | ">" | ">=" ) additive } ;
/// additive       = multiplicative { ( "+" | "-" ) multiplicative } ;
/// multiplicative = unary { ( "*" | "/" | "%" ) unary } ;
/// unary          = ( "-" | "+" | "!" ) unary | postfix ;
/// postfix        = primary { "." identifier | "[" digits "]" } ;
/// primary        = number [ unit ]
///                | identifier [ "(" [ expression { "," expression } ] ")" ]
///                | "(" expression [ "," expression ] ")" ;
/// number         = ( digits [ "." digits ] | "." digits ) [ ( "e" | "E" ) [ "+" | "-" ] digits ] ;
/// unit           = "s" | "ms" | "deg" | "rad" ;   (* glued to the number *)
/// identifier     = ( letter | "_" ) { letter | digit | "_" } ;   (* ASCII *)
/// ```
///
/// Binary operators are left-associative; `(a, b)` is a point and `(a)` is just `a`.
/// Calls are allowed only on a bare identifier naming one of ``Expression/functions``.
/// Spaces, tabs and line breaks between tokens are ignored, and the Unicode minus `−`
/// reads as `-`.
///
/// The first error stops parsing. The parser reads the text once, never backs up more
/// than one token, and nests at most ``maximumNesting`` levels of parentheses, unary
/// operators, calls and conditional branches, so hostile input can neither take quadratic
/// time nor overflow the stack.
public enum ExpressionParser {
  /// How many levels of parentheses, unary operators, calls and conditional branches may
  /// nest; deeper text is rejected rather than risk the stack.
  static let maximumNesting = 100

  /// How tall a parsed tree may grow.
  ///
  /// Long operator chains (`a + b + … + z`) add a level per operator without nesting, and
  /// every later stage walks the tree recursively (even `==` and freeing it recurse): a few
  /// thousand levels overflow a secondary thread's stack in a debug build. 256 still
  /// admits the deepest nesting allowed with a couple of operators at every level.
  static let maximumHeight = 256

  /// Parses `text`, the whole of a scalar whose place in the file is `origin`.
  ///
  /// When `verbatim` is true the text stands in the file as it is, one Unicode scalar per
  /// column from `origin.start`, and every node and error points at its own columns.
  /// Otherwise (escaped or multi-line scalars) every span is `origin` itself.
  public static func parse(
    _ text: String, at origin: SourceSpan, verbatim: Bool
  ) throws(ExpressionError) -> Expression {
    let spans = Spans(origin: origin, verbatim: verbatim)
    if let single = singleToken(text, spans: spans) { return single }
    // Expressions are nearly always ASCII, where each byte is a scalar: copied straight
    // from the bytes, without decoding the text twice (to count, then to copy).
    let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> [Unicode.Scalar]? in
      bytes.allSatisfy { $0 < 0x80 } ? [Unicode.Scalar](ascii: bytes) : nil
    }
    let scalars = (ascii ?? nil) ?? Array(text.unicodeScalars)
    if scalars.allSatisfy(isSpace) { throw ExpressionError("empty expression", at: origin) }
    return try parse(scalars, in: 0..<scalars.count, spans: spans)
  }

  /// The expression `text` spells when it is one bare name (`w0_1`) or one plain decimal
  /// number (`105`, `0.25`), or `nil` for anything else, which the full parser then
  /// reads.
  ///
  /// Most expressions in a scene are one of these: every coordinate of a point written as
  /// a list, every handle a path's segments go through. For them the parser's set-up (a
  /// copy of the text as scalars, the lexer's state, a node for each grammar level) costs
  /// many times the answer. The answer is the node the parser gives, span included
  /// (`ExpressionParserTests.singleTokensParseAsThe…`).
  static func singleToken(_ text: String, spans: Spans) -> Expression? {
    var utf8 = text.utf8.makeIterator()
    guard let first = utf8.next() else { return nil }
    let count: Int
    let kind: Expression.Kind
    // The lexer's own character classes, on bytes: a byte below 0x80 is its scalar, and
    // one above is not a letter, digit or `_`.
    if isIdentifierStart(Unicode.Scalar(first)) {
      var length = 1
      while let byte = utf8.next() {
        guard isIdentifierContinuation(Unicode.Scalar(byte)) else { return nil }
        length += 1
      }
      count = length
      kind = .identifier(text)
    } else if isDigit(Unicode.Scalar(first)) {
      // Digits, then at most one point with digits after it: no exponent, no unit.
      var length = 1
      var digitsSincePoint = -1
      while let byte = utf8.next() {
        if isDigit(Unicode.Scalar(byte)) {
          if digitsSincePoint >= 0 { digitsSincePoint += 1 }
        } else if byte == UInt8(ascii: "."), digitsSincePoint < 0 {
          digitsSincePoint = 0
        } else {
          return nil
        }
        length += 1
      }
      guard digitsSincePoint != 0,
        let value = DecimalNumber.exactValue(utf8: text.utf8) ?? Double(text), value.isFinite
      else { return nil }
      count = length
      kind = .number(value, nil)
    } else {
      return nil
    }
    return Expression(kind, at: SourceRef(spans.span(0, count)))
  }

  /// Parses `text` like ``parse(_:at:verbatim:)`` and reports how many tokens were lexed,
  /// whether it succeeded or not: the measure of work tests check linearity with.
  static func tokenCount(parsing text: String) -> Int {
    let scalars = Array(text.unicodeScalars)
    let origin = SourceSpan(SourceLocation(file: "", line: 1, column: 1))
    var machine = Machine(
      scalars: scalars, range: 0..<scalars.count, spans: Spans(origin: origin, verbatim: true))
    _ = try? machine.parseWhole()
    return machine.tokensLexed
  }

  /// Parses the scalars in `range` of a longer text (an expectation), with offsets and
  /// columns counted from the start of `scalars`.
  static func parse(
    _ scalars: [Unicode.Scalar], in range: Range<Int>, spans: Spans
  ) throws(ExpressionError) -> Expression {
    if scalars[range].allSatisfy(isSpace) {
      throw ExpressionError("empty expression", at: spans.span(range.lowerBound, range.upperBound))
    }
    var machine = Machine(scalars: scalars, range: range, spans: spans)
    return try machine.parseWhole()
  }

  // MARK: - Spans

  /// Turns scalar offsets into spans in the file.
  struct Spans {
    /// The whole scalar in the file.
    var origin: SourceSpan
    /// Whether the text stands in the file one scalar per column from `origin.start`.
    var verbatim: Bool

    /// The span of the scalars `start..<end` (at least one column wide).
    func span(_ start: Int, _ end: Int) -> SourceSpan {
      guard verbatim else { return origin }
      return SourceSpan(origin.start.advanced(by: start), length: max(end - start, 1))
    }

    /// The column of the scalar at `offset`: in the file when verbatim, else in the text,
    /// which is the only place the user can count from.
    func column(_ offset: Int) -> Int {
      verbatim ? origin.start.column + offset : offset + 1
    }
  }

  // MARK: - Characters

  /// Whitespace between tokens: line breaks count too, for multi-line scalars.
  static func isSpace(_ c: Unicode.Scalar) -> Bool {
    c == " " || c == "\t" || c == "\n" || c == "\r"
  }

  /// An ASCII digit.
  static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

  /// An ASCII letter or `_`: identifiers are ASCII, like the names of the YAML keys.
  static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_"
  }

  /// A letter, digit or `_`.
  static func isIdentifierContinuation(_ c: Unicode.Scalar) -> Bool {
    isIdentifierStart(c) || isDigit(c)
  }

  /// Whether `text` is an identifier as the lexer reads one.
  static func isIdentifier<S: StringProtocol>(_ text: S) -> Bool {
    guard let first = text.unicodeScalars.first, isIdentifierStart(first) else { return false }
    return text.unicodeScalars.allSatisfy(isIdentifierContinuation)
  }

  /// `'text'` for a run of scalars, shortened when long so a message stays one line.
  static func quote(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    let limit = 40
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars.prefix(limit))
    return "'" + String(text) + (scalars.count > limit ? "…'" : "'")
  }

  /// A stray character as a message shows it: `'@'`, or `U+0007` for one that would not
  /// show (controls, marks, separators, unassigned code points).
  static func describe(_ c: Unicode.Scalar) -> String {
    switch c.properties.generalCategory {
    case .control, .format, .nonspacingMark, .spacingMark, .enclosingMark, .spaceSeparator,
      .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
      let hex = String(c.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    default:
      return "'\(c)'"
    }
  }

  /// The units in the order messages list them.
  static let unitNames = Expression.Unit.allCases.map { $0.rawValue }

  // MARK: - Tokens

  /// An operator or punctuation mark, spelt as written (`−` lexes as `minus` too).
  enum Symbol: String, CaseIterable {
    case plus = "+"
    case minus = "-"
    case star = "*"
    case slash = "/"
    case percent = "%"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case equal = "=="
    case notEqual = "!="
    case and = "&&"
    case or = "||"
    case not = "!"
    case question = "?"
    case colon = ":"
    case dot = "."
    case comma = ","
    case open = "("
    case close = ")"
    case openBracket = "["
    case closeBracket = "]"

    /// How many scalars the symbol takes: its spelling's, without counting the string
    /// for every token.
    var length: Int {
      switch self {
      case .lessOrEqual, .greaterOrEqual, .equal, .notEqual, .and, .or: return 2
      default: return 1
      }
    }

    /// The binary operator the symbol spells between two operands, if any.
    var binaryOperator: Expression.BinaryOperator? {
      switch self {
      case .plus: return .add
      case .minus: return .subtract
      case .star: return .multiply
      case .slash: return .divide
      case .percent: return .remainder
      case .less: return .less
      case .lessOrEqual: return .lessOrEqual
      case .greater: return .greater
      case .greaterOrEqual: return .greaterOrEqual
      case .equal: return .equal
      case .notEqual: return .notEqual
      case .and: return .and
      case .or: return .or
      case .not, .question, .colon, .dot, .comma, .open, .close, .openBracket, .closeBracket:
        return nil
      }
    }

    /// The unary operator the symbol spells before an operand, if any.
    var unaryOperator: Expression.UnaryOperator? {
      switch self {
      case .minus: return .negate
      case .plus: return .plus
      case .not: return .not
      default: return nil
      }
    }
  }

  /// One token and the scalars it covers.
  struct Token {
    enum Kind {
      case number(Double, Expression.Unit?)
      /// A name, spelt by the scalars the token covers: its string is made only for the
      /// node that needs it, so tokens stay plain data that copies without reference counting.
      case identifier
      case symbol(Symbol)
      case end
    }

    var kind: Kind
    /// The scalar offsets the token covers, `start..<end`.
    var start: Int
    var end: Int

    /// Whether the token is `symbol`.
    func isSymbol(_ symbol: Symbol) -> Bool {
      if case .symbol(let s) = kind { return s == symbol }
      return false
    }
  }

  /// A parsed subexpression and the scalars it covers, including any parentheses around
  /// it (which have no node of their own, but belong to the span of an enclosing node).
  struct Parsed {
    var expression: Expression
    var start: Int
    var end: Int
    /// Nodes on the longest path from this node down to a leaf, this one included.
    var height: Int
  }

  // MARK: - Parser

  /// The lexer and parser state for one parse.
  struct Machine {
    let scalars: [Unicode.Scalar]
    /// Where the text ends (the upper bound of the range being parsed).
    let end: Int
    let spans: Spans
    /// The next scalar to lex.
    var position: Int
    /// The next token, once peeked; tokens are lexed on demand so that errors come out
    /// in the order of the text.
    var lookahead: Token?
    /// Whether the last token lexed ends an operand, which makes a following `.` a
    /// member access (`a.5` is an error, not `a` then `0.5`).
    var previousEndsOperand = false
    /// The current nesting of parentheses, unary operators, calls and conditionals.
    var depth = 0
    /// How many tokens have been lexed: each exactly once, so this counts the parser's
    /// work (tests prove linear time by it, not by a clock).
    var tokensLexed = 0

    init(scalars: [Unicode.Scalar], range: Range<Int>, spans: Spans) {
      self.scalars = scalars
      self.end = range.upperBound
      self.spans = spans
      self.position = range.lowerBound
    }

    // MARK: Errors

    /// An error at the scalars `start..<end`.
    func error(_ message: String, _ start: Int, _ end: Int) -> ExpressionError {
      ExpressionError(message, at: spans.span(start, end))
    }

    /// An error at `token`.
    func error(_ message: String, at token: Token) -> ExpressionError {
      error(message, token.start, token.end)
    }

    /// How a message names a token: `'x'`, `')'` or `end of expression`.
    func describe(_ token: Token) -> String {
      if case .end = token.kind { return "end of expression" }
      return ExpressionParser.quote(scalars[token.start..<token.end])
    }

    /// `expected WHAT, found TOKEN`, at the token.
    func expected(_ what: String, found token: Token) -> ExpressionError {
      error("expected \(what), found \(describe(token))", at: token)
    }

    // MARK: Lexer

    /// The next token, lexed if not yet.
    mutating func peek() throws(ExpressionError) -> Token {
      if let lookahead { return lookahead }
      let token = try lex()
      lookahead = token
      return token
    }

    /// Consumes the peeked token.
    mutating func advance() { lookahead = nil }

    /// Lexes the token at `position`, skipping whitespace before it.
    private mutating func lex() throws(ExpressionError) -> Token {
      tokensLexed += 1
      while position < end && ExpressionParser.isSpace(scalars[position]) { position += 1 }
      let start = position
      guard position < end else { return Token(kind: .end, start: start, end: start) }
      let c = scalars[position]
      let next: Unicode.Scalar? = position + 1 < end ? scalars[position + 1] : nil
      let token: Token
      if ExpressionParser.isDigit(c)
        || (c == "." && !previousEndsOperand && next.map(ExpressionParser.isDigit) == true)
      {
        token = try lexNumber()
      } else if ExpressionParser.isIdentifierStart(c) {
        position += 1
        while position < end && ExpressionParser.isIdentifierContinuation(scalars[position]) {
          position += 1
        }
        token = Token(kind: .identifier, start: start, end: position)
      } else {
        let symbol = try lexSymbol(c, next: next)
        position += symbol.length
        token = Token(kind: .symbol(symbol), start: start, end: position)
      }
      switch token.kind {
      case .number, .identifier, .symbol(.close): previousEndsOperand = true
      default: previousEndsOperand = false
      }
      return token
    }

    /// The scalars `start..<end` as a string.
    func text(_ start: Int, _ end: Int) -> String {
      String(scalars: scalars[start..<end])
    }

    /// The symbol starting with `c` (and `next`, for two-character operators).
    private func lexSymbol(_ c: Unicode.Scalar, next: Unicode.Scalar?) throws(ExpressionError)
      -> Symbol
    {
      switch c {
      case "+": return .plus
      case "-", "\u{2212}": return .minus
      case "*": return .star
      case "/": return .slash
      case "%": return .percent
      case "<": return next == "=" ? .lessOrEqual : .less
      case ">": return next == "=" ? .greaterOrEqual : .greater
      case "!": return next == "=" ? .notEqual : .not
      case "=" where next == "=": return .equal
      case "&" where next == "&": return .and
      case "|" where next == "|": return .or
      case "?": return .question
      case ":": return .colon
      case ".": return .dot
      case ",": return .comma
      case "(": return .open
      case ")": return .close
      case "[": return .openBracket
      case "]": return .closeBracket
      default:
        // Characters people reach for by habit or from typeset text get a hint.
        let hints: [Unicode.Scalar: String] = [
          "=": "==", "&": "&&", "|": "||", "≤": "<=", "≥": ">=", "≠": "!=", "×": "*", "÷": "/",
        ]
        let hint = hints[c].map { "; did you mean '\($0)'?" } ?? ""
        throw error(
          "unexpected character \(ExpressionParser.describe(c))\(hint)", position, position + 1)
      }
    }

    /// Lexes a number and the unit glued to it.
    private mutating func lexNumber() throws(ExpressionError) -> Token {
      let start = position
      func skipDigits() {
        while position < end && ExpressionParser.isDigit(scalars[position]) { position += 1 }
      }
      skipDigits()
      // A fraction needs a digit after the point: `1.x` is a member of `1`.
      if position + 1 < end && scalars[position] == "."
        && ExpressionParser.isDigit(scalars[position + 1])
      {
        position += 1
        skipDigits()
      }
      if position < end && (scalars[position] == "e" || scalars[position] == "E") {
        var exponent = position + 1
        let signed = exponent < end && (scalars[exponent] == "+" || scalars[exponent] == "-")
        if signed { exponent += 1 }
        if exponent < end && ExpressionParser.isDigit(scalars[exponent]) {
          position = exponent
          skipDigits()
        } else if signed {
          throw error(
            "expected digits in the exponent of \(ExpressionParser.quote(scalars[start..<exponent]))",
            start, exponent)
        }
        // Otherwise the `e` starts a unit, which is rejected below.
      }
      // Most numbers are read exactly from the scalars; the rest through a string.
      guard
        let value = DecimalNumber.exactValue(scalars[start..<position])
          ?? Double(text(start, position))
      else {
        throw error(
          "invalid number \(ExpressionParser.quote(scalars[start..<position]))", start, position)
      }
      guard value.isFinite else {
        throw error(
          "number \(ExpressionParser.quote(scalars[start..<position])) is too large", start,
          position)
      }
      var unit: Expression.Unit?
      if position < end && ExpressionParser.isIdentifierStart(scalars[position]) {
        let unitStart = position
        while position < end && ExpressionParser.isIdentifierContinuation(scalars[position]) {
          position += 1
        }
        let name = text(unitStart, position)
        guard let known = Expression.Unit(rawValue: name) else {
          let suggestion = Suggestion.didYouMean(name, among: ExpressionParser.unitNames)
          let message =
            suggestion.isEmpty
            ? "unknown unit '\(name)'; expected s, ms, deg or rad"
            : "unknown unit '\(name)'\(suggestion)"
          throw error(message, unitStart, position)
        }
        unit = known
      }
      return Token(kind: .number(value, unit), start: start, end: position)
    }

    // MARK: Grammar

    /// A node spanning `start..<end`, unless it would make the tree too tall.
    func node(_ kind: Expression.Kind, _ start: Int, _ end: Int, height: Int)
      throws(ExpressionError) -> Parsed
    {
      guard height <= ExpressionParser.maximumHeight else {
        throw error(
          "expression too complex (more than \(ExpressionParser.maximumHeight) levels of operations)",
          start, end)
      }
      return Parsed(
        expression: Expression(kind, at: SourceRef(spans.span(start, end))), start: start, end: end,
        height: height)
    }

    /// Goes one level deeper at `token`, or fails if that is too deep.
    mutating func enter(_ token: Token) throws(ExpressionError) {
      depth += 1
      guard depth <= ExpressionParser.maximumNesting else {
        throw error(
          "expression nested too deeply (more than \(ExpressionParser.maximumNesting) levels)",
          at: token)
      }
    }

    /// The whole text: one expression and nothing after it.
    mutating func parseWhole() throws(ExpressionError) -> Expression {
      let parsed = try parseExpression()
      let token = try peek()
      if case .end = token.kind { return parsed.expression }
      throw error("unexpected \(describe(token)) after expression", at: token)
    }

    /// `expression = conditional ; conditional = or [ "?" expression ":" expression ]`.
    mutating func parseExpression() throws(ExpressionError) -> Parsed {
      let condition = try parseBinary()
      let question = try peek()
      guard question.isSymbol(.question) else { return condition }
      advance()
      try enter(question)
      let then = try parseExpression()
      let colon = try peek()
      guard colon.isSymbol(.colon) else {
        throw expected("':' to match '?' at column \(spans.column(question.start))", found: colon)
      }
      advance()
      let otherwise = try parseExpression()
      depth -= 1
      return try node(
        .conditional(condition.expression, then.expression, otherwise.expression), condition.start,
        otherwise.end, height: 1 + max(condition.height, then.height, otherwise.height))
    }

    /// All the binary levels at once, by precedence climbing.
    mutating func parseBinary() throws(ExpressionError) -> Parsed {
      try parseBinary(from: try parseUnary(), binding: 1)
    }

    /// `first` and the operators after it that bind at least as tightly as `minimum`, with
    /// their operands, left-associative: `a - b - c` is `(a - b) - c`.
    ///
    /// An operand followed by a tighter operator climbs one level, so recursion is at most
    /// as deep as there are precedence levels (six): a long chain (`a + b + … + z`) is a
    /// loop, and no stacks are allocated.
    mutating func parseBinary(from first: Parsed, binding minimum: Int) throws(ExpressionError)
      -> Parsed
    {
      var left = first
      while let op = try peekBinaryOperator(), op.precedence >= minimum {
        advance()
        var right = try parseUnary()
        while let next = try peekBinaryOperator(), next.precedence > op.precedence {
          right = try parseBinary(from: right, binding: op.precedence + 1)
        }
        left = try node(
          .binary(op, left.expression, right.expression), left.start, right.end,
          height: 1 + max(left.height, right.height))
      }
      return left
    }

    /// The binary operator the next token spells, if any, peeked but not consumed.
    mutating func peekBinaryOperator() throws(ExpressionError) -> Expression.BinaryOperator? {
      guard case .symbol(let symbol) = try peek().kind else { return nil }
      return symbol.binaryOperator
    }

    /// `unary = ( "-" | "+" | "!" ) unary | postfix`, read as a loop over the prefixes.
    mutating func parseUnary() throws(ExpressionError) -> Parsed {
      var prefixes: [(Expression.UnaryOperator, Int)] = []
      while true {
        let token = try peek()
        guard case .symbol(let symbol) = token.kind, let op = symbol.unaryOperator else { break }
        try enter(token)
        advance()
        prefixes.append((op, token.start))
      }
      var operand = try parsePostfix()
      for (op, start) in prefixes.reversed() {
        operand = try node(
          .unary(op, operand.expression), start, operand.end, height: 1 + operand.height)
      }
      depth -= prefixes.count
      return operand
    }

    /// `postfix = primary { "." identifier | "[" digits "]" }`; an index is a member named
    /// by its digits (`pointers[1]` is the member `1` of `pointers`).
    mutating func parsePostfix() throws(ExpressionError) -> Parsed {
      var base = try parsePrimary()
      while true {
        let next = try peek()
        guard next.isSymbol(.dot) || next.isSymbol(.openBracket) else { break }
        if next.isSymbol(.openBracket) {
          advance()
          let index = try peek()
          guard case .number(let value, nil) = index.kind, value >= 0, value < 1_000_000,
            value == value.rounded(.towardZero)
          else {
            throw expected("a whole number from 0 in '[ ]'", found: index)
          }
          advance()
          let close = try peek()
          guard close.isSymbol(.closeBracket) else {
            throw expected("']' to close '['", found: close)
          }
          advance()
          base = try node(
            .member(base.expression, String(Int(value))), base.start, close.end,
            height: 1 + base.height)
          continue
        }
        advance()
        let name = try peek()
        guard case .identifier = name.kind else {
          throw expected("a member name after '.'", found: name)
        }
        advance()
        let member = text(name.start, name.end)
        base = try node(
          .member(base.expression, member), base.start, name.end, height: 1 + base.height)
      }
      return base
    }

    /// `primary = number [unit] | identifier [ call ] | "(" expression [ "," expression ] ")"`.
    mutating func parsePrimary() throws(ExpressionError) -> Parsed {
      let token = try peek()
      switch token.kind {
      case .number(let value, let unit):
        advance()
        return try node(.number(value, unit), token.start, token.end, height: 1)
      case .identifier:
        let name = text(token.start, token.end)
        advance()
        guard try peek().isSymbol(.open) else {
          return try node(.identifier(name), token.start, token.end, height: 1)
        }
        return try parseCall(name, at: token)
      case .symbol(.open):
        return try parseGroup()
      default:
        throw expected("an expression", found: token)
      }
    }

    /// A call of the built-in function `name`, with `(` next.
    mutating func parseCall(_ name: String, at nameToken: Token) throws(ExpressionError) -> Parsed {
      guard let arity = Expression.functions[name] else {
        let suggestion = Suggestion.didYouMean(name, among: Expression.functions.keys.sorted())
        throw error("unknown function '\(name)'\(suggestion)", at: nameToken)
      }
      let open = try peek()
      advance()
      try enter(open)
      var arguments: [Parsed] = []
      if !(try peek().isSymbol(.close)) {
        arguments.append(try parseExpression())
        while try peek().isSymbol(.comma) {
          advance()
          arguments.append(try parseExpression())
        }
      }
      let close = try closing(open)
      guard arity.contains(arguments.count) else {
        let expected =
          arity.lowerBound == arity.upperBound
          ? "\(arity.lowerBound) argument\(arity.lowerBound == 1 ? "" : "s")"
          : "\(arity.lowerBound) to \(arity.upperBound) arguments"
        throw error(
          "'\(name)' takes \(expected), found \(arguments.count)", nameToken.start, close.end)
      }
      advance()
      depth -= 1
      return try node(
        .call(name, arguments.map { $0.expression }), nameToken.start, close.end,
        height: 1 + (arguments.map { $0.height }.max() ?? 0))
    }

    /// `"(" expression [ "," expression ] ")"`: a point, or just the inner expression.
    mutating func parseGroup() throws(ExpressionError) -> Parsed {
      let open = try peek()
      advance()
      try enter(open)
      let first = try parseExpression()
      var second: Parsed?
      if try peek().isSymbol(.comma) {
        advance()
        second = try parseExpression()
      }
      let close = try closing(open)
      advance()
      depth -= 1
      guard let second else {
        // No node for the parentheses, but they belong to whatever encloses this.
        return Parsed(
          expression: first.expression, start: open.start, end: close.end, height: first.height)
      }
      return try node(
        .point(first.expression, second.expression), open.start, close.end,
        height: 1 + max(first.height, second.height))
    }

    /// The `)` matching `open`, peeked but not consumed.
    mutating func closing(_ open: Token) throws(ExpressionError) -> Token {
      let close = try peek()
      guard close.isSymbol(.close) else {
        throw expected("')' to close '(' at column \(spans.column(open.start))", found: close)
      }
      return close
    }
  }
}
