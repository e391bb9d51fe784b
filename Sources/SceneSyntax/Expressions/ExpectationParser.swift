import SceneDiagnostics
import SceneVocabulary

extension String {
  /// This text without `prefix` at its start, or as it is.
  func replacingPrefix(_ prefix: String, with replacement: String) -> String {
    hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
  }
}

/// Parses the one-line text of a scene test's expectation into an ``ExpectationSpec``.
///
/// The forms, with keywords matched case-sensitively:
///
/// ```
/// expectation = "at" moment ":" ( "all" "at" "rest" | assertion )
///             | "event" pattern [ ( "before" | "after" ) reference ]
///             | "no" "event" pattern
///             | ( "max" | "min" ) expression "during" window comparison expression
///               [ ( "±" | "+-" ) expression ]
///             | ( "always" | "never" ) assertion "during" window ;
/// window      = time ".." ( time | "end" ) ;         (* one word: 0.5s..1s *)
/// moment      = time | "frame" digits | "end" ;
/// time        = number [ "s" | "ms" ] ;            (* seconds when bare *)
/// assertion   = expression comparison expression [ ( "±" | "+-" ) expression ] ;
/// comparison  = "<" | "<=" | ">" | ">=" | "==" | "!=" | "≈" | "~=" ;
/// pattern     = event-name [ "of" identifier ] [ "to" identifier ] ;   (* "to": snap only *)
/// reference   = time | pattern ;
/// ```
///
/// An assertion splits at its first comparison outside parentheses, and its tolerance at
/// the first `±` or `+-` after that (write `a + -b` for a sum); each part is then read by
/// ``ExpressionParser`` at its own offset, so errors inside it point at the right column.
/// Spans follow the same rules as ``ExpressionParser/parse(_:at:verbatim:)``; the
/// expectation's own source is `origin`.
public enum ExpectationParser {
  /// Parses `text`, the whole of a scalar whose place in the file is `origin`.
  ///
  /// `verbatim` means what it means for ``ExpressionParser/parse(_:at:verbatim:)``: the
  /// text stands in the file one scalar per column, so errors and the expressions'
  /// sources get their own columns; otherwise they all point at `origin`.
  public static func parse(
    _ text: String, at origin: SourceSpan, verbatim: Bool
  ) throws(ExpressionError) -> ExpectationSpec {
    var machine = Machine(
      scalars: Array(text.unicodeScalars),
      spans: ExpressionParser.Spans(origin: origin, verbatim: verbatim))
    let kind = try machine.parse()
    return ExpectationSpec(kind, at: SourceRef(origin))
  }

  /// Parses what a transition waits for (`on:`): an event pattern (`release of c`,
  /// `snap of sheet to open`, `state of other to done`), or a single other word, an
  /// input's name, left for the resolver to check.
  public static func parseTrigger(
    _ text: String, at origin: SourceSpan, verbatim: Bool
  ) throws(ExpressionError) -> TransitionSpec.Trigger {
    var machine = Machine(
      scalars: Array(text.unicodeScalars),
      spans: ExpressionParser.Spans(origin: origin, verbatim: verbatim))
    return try machine.parseTrigger()
  }

  /// The first comparison operator outside parentheses in `range`, and its scalars.
  ///
  /// `!=` outside parentheses is the comparison "differs"; inside them, an expression operator.
  static func firstComparison(
    in scalars: [Unicode.Scalar], _ range: Range<Int>
  ) -> (ExpectationSpec.Comparison, Range<Int>)? {
    var depth = 0
    var index = range.lowerBound
    while index < range.upperBound {
      let c = scalars[index]
      let next: Unicode.Scalar? = index + 1 < range.upperBound ? scalars[index + 1] : nil
      switch c {
      case "(": depth += 1
      case ")": depth = max(0, depth - 1)
      case "!" where next == "=":
        if depth == 0 { return (.notEqual, index..<(index + 2)) }
        index += 1
      case "<" where depth == 0, ">" where depth == 0:
        let comparison: ExpectationSpec.Comparison =
          c == "<"
          ? (next == "=" ? .lessOrEqual : .less) : (next == "=" ? .greaterOrEqual : .greater)
        return (comparison, index..<(index + (next == "=" ? 2 : 1)))
      case "=" where depth == 0 && next == "=": return (.equal, index..<(index + 2))
      case "~" where depth == 0 && next == "=": return (.approximately, index..<(index + 2))
      case "≈" where depth == 0: return (.approximately, index..<(index + 1))
      default: break
      }
      index += 1
    }
    return nil
  }

  /// The first `±` or `+-` outside parentheses in `range`.
  static func firstTolerance(in scalars: [Unicode.Scalar], _ range: Range<Int>) -> Range<Int>? {
    var depth = 0
    var index = range.lowerBound
    while index < range.upperBound {
      switch scalars[index] {
      case "(": depth += 1
      case ")": depth = max(0, depth - 1)
      case "±" where depth == 0: return index..<(index + 1)
      case "+" where depth == 0 && index + 1 < range.upperBound && scalars[index + 1] == "-":
        return index..<(index + 2)
      default: break
      }
      index += 1
    }
    return nil
  }

  /// The ranges of the word `during` outside parentheses in `range`, with space (or the
  /// range's edge) on both sides.
  static func duringWords(in scalars: [Unicode.Scalar], _ range: Range<Int>) -> [Range<Int>] {
    let word: [Unicode.Scalar] = ["d", "u", "r", "i", "n", "g"]
    var found: [Range<Int>] = []
    var depth = 0
    var index = range.lowerBound
    while index < range.upperBound {
      switch scalars[index] {
      case "(": depth += 1
      case ")": depth = max(0, depth - 1)
      default:
        let end = index + word.count
        if depth == 0 && end <= range.upperBound && Array(scalars[index..<end]) == word
          && (index == range.lowerBound || ExpressionParser.isSpace(scalars[index - 1]))
          && (end == range.upperBound || ExpressionParser.isSpace(scalars[end]))
        {
          found.append(index..<end)
        }
      }
      index += 1
    }
    return found
  }

  /// The first `during` outside parentheses in `range`.
  static func firstDuring(in scalars: [Unicode.Scalar], _ range: Range<Int>) -> Range<Int>? {
    duringWords(in: scalars, range).first
  }

  /// The last `during` outside parentheses in `range`.
  static func lastDuring(in scalars: [Unicode.Scalar], _ range: Range<Int>) -> Range<Int>? {
    duringWords(in: scalars, range).last
  }

  /// `'a', 'b' or 'c'`.
  static func list(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " or " + last
  }

  /// A word of the text: a run of scalars up to whitespace (or, for moments, a `:`).
  struct Word {
    var text: String
    var start: Int
    var end: Int
  }

  /// The state of one parse: the text and how far it has been read.
  struct Machine {
    let scalars: [Unicode.Scalar]
    let spans: ExpressionParser.Spans
    var position = 0
    /// What the text is, for messages about its end.
    var whole = "the expectation"

    init(scalars: [Unicode.Scalar], spans: ExpressionParser.Spans) {
      self.scalars = scalars
      self.spans = spans
    }

    // MARK: Words

    mutating func skipSpaces() {
      while position < scalars.count && ExpressionParser.isSpace(scalars[position]) {
        position += 1
      }
    }

    /// The next word, without moving past it.
    ///
    /// `nil` at the end of the text, or, with `stoppingAtColon`, at a `:`.
    mutating func peekWord(stoppingAtColon: Bool = false) -> Word? {
      skipSpaces()
      var end = position
      while end < scalars.count && !ExpressionParser.isSpace(scalars[end])
        && !(stoppingAtColon && scalars[end] == ":")
      {
        end += 1
      }
      guard end > position else { return nil }
      return Word(text: String(scalars: scalars[position..<end]), start: position, end: end)
    }

    /// The next word, consumed.
    mutating func readWord(stoppingAtColon: Bool = false) -> Word? {
      let word = peekWord(stoppingAtColon: stoppingAtColon)
      if let word { position = word.end }
      return word
    }

    /// An error at the scalars `start..<end`.
    func error(_ message: String, _ start: Int, _ end: Int) -> ExpressionError {
      ExpressionError(message, at: spans.span(start, end))
    }

    /// An error about what comes next: the next word (or `:`), or the end of the text.
    mutating func expected(_ what: String, stoppingAtColon: Bool = false) -> ExpressionError {
      skipSpaces()
      if let word = peekWord(stoppingAtColon: stoppingAtColon) {
        return error("expected \(what), found \(quote(word))", word.start, word.end)
      }
      if position < scalars.count {
        return error("expected \(what), found ':'", position, position + 1)
      }
      return error(
        "expected \(what), found end of \(whole.replacingPrefix("the ", with: ""))", position,
        position + 1)
    }

    /// `'word'`, as messages show what they found.
    func quote(_ word: Word) -> String { quote(word.start..<word.end) }

    /// The scalars in `range`, quoted.
    func quote(_ range: Range<Int>) -> String { ExpressionParser.quote(scalars[range]) }

    /// Succeeds at the end of the text; otherwise names what could have come next.
    mutating func expectEnd(orOneOf options: [String]) throws(ExpressionError) {
      guard let word = peekWord() else { return }
      guard !options.isEmpty else {
        throw error("unexpected \(quote(word)) at the end of \(whole)", word.start, word.end)
      }
      let expected = ExpectationParser.list(
        options.map { "'\($0)'" } + ["the end of \(whole)"])
      throw error("expected \(expected), found \(quote(word))", word.start, word.end)
    }

    // MARK: Forms

    /// See ``ExpectationParser/parseTrigger(_:at:verbatim:)``.
    mutating func parseTrigger() throws(ExpressionError) -> TransitionSpec.Trigger {
      guard let word = peekWord() else {
        throw ExpressionError(
          "expected an event (such as 'release of ball') or an input's name", at: spans.origin)
      }
      if !ExpectationSpec.eventNames.contains(word.text), ExpressionParser.isIdentifier(word.text) {
        position = word.end
        whole = "the trigger"
        try expectEnd(orOneOf: [])
        return .input(Located(word.text, at: SourceRef(spans.span(word.start, word.end))))
      }
      whole = "the trigger"
      let pattern = try parsePattern(after: "on")
      try expectEnd(orOneOf: followers(of: pattern))
      return .event(pattern)
    }

    /// The whole expectation, dispatched on its first word.
    mutating func parse() throws(ExpressionError) -> ExpectationSpec.Kind {
      let forms = "'at', 'event', 'no event', 'max', 'min', 'always' or 'never'"
      guard let keyword = readWord(stoppingAtColon: true) else {
        guard position < scalars.count else {
          throw ExpressionError("empty expectation", at: spans.origin)
        }
        throw expected(forms, stoppingAtColon: true)
      }
      switch keyword.text {
      case "at":
        return try parseAt()
      case "event":
        let pattern = try parsePattern(after: "event")
        var options = followers(of: pattern) + ["before", "after"]
        var timing: ExpectationSpec.Timing?
        if let word = peekWord(), word.text == "before" || word.text == "after" {
          position = word.end
          let reference = try parseReference(after: word.text)
          timing = word.text == "before" ? .before(reference) : .after(reference)
          if case .event(let referenced) = reference, referenced.subject == nil {
            options = ["of"]
          } else {
            options = []
          }
        }
        try expectEnd(orOneOf: options)
        return .event(pattern, timing)
      case "no":
        guard let word = peekWord(), word.text == "event" else {
          throw expected("'event' after 'no'")
        }
        position = word.end
        let pattern = try parsePattern(after: "event")
        try expectEnd(orOneOf: followers(of: pattern))
        return .noEvent(pattern)
      case "max", "min":
        return try parseExtreme(keyword.text == "max" ? .max : .min, after: keyword)
      case "always", "never":
        return try parseThroughout(keyword.text == "always" ? .always : .never, after: keyword)
      default:
        throw error(
          "expected \(forms), found \(quote(keyword))", keyword.start, keyword.end)
      }
    }

    /// After `max` or `min`: the value, `during` and its window, then the comparison.
    mutating func parseExtreme(_ extreme: Extreme, after keyword: Word) throws(ExpressionError)
      -> ExpectationSpec.Kind
    {
      let (valueRange, during) = try splitAtDuring(after: keyword, what: "value", last: false)
      let value = try ExpressionParser.parse(scalars, in: valueRange, spans: spans)
      position = during.upperBound
      let window = try parseWindow()
      let rest = position..<scalars.count
      guard let (comparison, operatorRange) = ExpectationParser.firstComparison(in: scalars, rest),
        isBlank(rest.lowerBound..<operatorRange.lowerBound)
      else {
        throw expected("a comparison (<, <=, >, >=, ==, !=, ≈) after the window")
      }
      let (rhs, tolerance) = try parseRightSide(
        comparison: operatorRange, in: operatorRange.upperBound..<rest.upperBound)
      return .extreme(extreme, value, window, comparison, rhs, tolerance: tolerance)
    }

    /// After `always` or `never`: an assertion, then `during` and its window.
    mutating func parseThroughout(_ quantifier: Quantifier, after keyword: Word)
      throws(ExpressionError) -> ExpectationSpec.Kind
    {
      let (assertion, during) = try splitAtDuring(after: keyword, what: "assertion", last: true)
      let (lhs, comparison, rhs, tolerance) = try parseComparison(in: assertion)
      position = during.upperBound
      let window = try parseWindow()
      try expectEnd(orOneOf: [])
      return .throughout(quantifier, lhs, comparison, rhs, tolerance: tolerance, window)
    }

    /// The rest of the text split at its first (or `last`) `during`: the part before it,
    /// which must not be blank, and the word itself.
    mutating func splitAtDuring(after keyword: Word, what: String, last: Bool)
      throws(ExpressionError) -> (Range<Int>, Range<Int>)
    {
      let body = position..<scalars.count
      let found =
        last
        ? ExpectationParser.lastDuring(in: scalars, body)
        : ExpectationParser.firstDuring(in: scalars, body)
      guard let during = found else {
        if isBlank(body) { throw expected("a \(what) after '\(keyword.text)'") }
        let trimmed = trim(body)
        throw error(
          "expected 'during' and a window (such as 0.5s..1s) after the \(what) of '\(keyword.text)'",
          trimmed.lowerBound, trimmed.upperBound)
      }
      let before = body.lowerBound..<during.lowerBound
      guard !isBlank(before) else {
        throw error(
          "expected a\(what.first == "a" ? "n" : "") \(what) between '\(keyword.text)' and 'during'",
          during.lowerBound, during.upperBound)
      }
      return (before, during)
    }

    /// `time..time` or `time..end`, one word.
    mutating func parseWindow() throws(ExpressionError) -> ExpectationSpec.Window {
      let what = "a window such as 0.5s..1s or 1s..end after 'during'"
      guard let word = peekWord() else { throw expected(what) }
      var dots = word.start
      while dots + 1 < word.end && !(scalars[dots] == "." && scalars[dots + 1] == ".") {
        dots += 1
      }
      guard dots + 1 < word.end, dots > word.start else {
        throw error("expected \(what), found \(quote(word))", word.start, word.end)
      }
      // `0s...1s` would read as 0s..0.1s: a third dot is a mistake, said where it is.
      if dots + 2 < word.end && scalars[dots + 2] == "." {
        var last = dots + 2
        while last < word.end && scalars[last] == "." { last += 1 }
        throw error(
          "a window has two dots between its times (such as 0.5s..1s), found \(last - dots)",
          dots, last)
      }
      let first = Word(text: "", start: word.start, end: dots)
      guard let start = try time(first) else {
        throw error(
          "expected a time such as 0.5s before '..', found \(quote(first))", first.start, first.end)
      }
      let second = Word(text: "", start: dots + 2, end: word.end)
      var end: Double?
      if second.start < second.end {
        let text = String(String.UnicodeScalarView(scalars[second.start..<second.end]))
        if text != "end" {
          guard let time = try time(second) else {
            throw error(
              "expected a time such as 1s or 'end' after '..', found \(quote(second))",
              second.start, second.end)
          }
          end = time
        }
      } else {
        throw error("expected a time such as 1s or 'end' after '..'", dots, dots + 2)
      }
      position = word.end
      return ExpectationSpec.Window(start: start, end: end)
    }

    /// After `at`: the moment, the colon, and `all at rest` or an assertion.
    mutating func parseAt() throws(ExpressionError) -> ExpectationSpec.Kind {
      let moment = try parseMoment()
      skipSpaces()
      guard position < scalars.count && scalars[position] == ":" else {
        throw expected("':' after the moment", stoppingAtColon: true)
      }
      position += 1
      let body = position..<scalars.count
      guard !isBlank(body) else { throw expected("an assertion or 'all at rest' after the moment") }
      let words = scalars[body].split(whereSeparator: ExpressionParser.isSpace).map {
        String(String.UnicodeScalarView($0))
      }
      if words == ["all", "at", "rest"] { return .allAtRest(at: moment) }
      if words.first == "all" && ExpectationParser.firstComparison(in: scalars, body) == nil {
        // Not an expression that happens to start with a name `all`: a misspelt form.
        let trimmed = trim(body)
        throw error(
          "expected 'all at rest' or an assertion, found \(quote(trimmed))", trimmed.lowerBound,
          trimmed.upperBound)
      }
      return try parseAssertion(in: body, at: moment)
    }

    /// `time | "frame" digits | "end"`, up to (not including) the colon.
    mutating func parseMoment() throws(ExpressionError) -> ExpectationSpec.Moment {
      let what = "a moment (a time such as 1.2s, 'frame N' or 'end') after 'at'"
      guard let word = peekWord(stoppingAtColon: true) else {
        throw expected(what, stoppingAtColon: true)
      }
      switch word.text {
      case "end":
        position = word.end
        return .end
      case "frame":
        position = word.end
        guard let number = peekWord(stoppingAtColon: true),
          number.text.unicodeScalars.allSatisfy(ExpressionParser.isDigit)
        else {
          throw expected("a frame number after 'frame'", stoppingAtColon: true)
        }
        guard let frame = Int(number.text) else {
          throw error("frame number \(quote(number)) is too large", number.start, number.end)
        }
        position = number.end
        return .frame(frame)
      default:
        guard let time = try time(word) else { throw expected(what, stoppingAtColon: true) }
        position = word.end
        return .time(time)
      }
    }

    /// The time in seconds that `word` spells (`1.2s`, `1200ms`, `1.2`), `nil` when it
    /// does not start like a number, or an error when it is a malformed one.
    func time(_ word: Word) throws(ExpressionError) -> Double? {
      let first = scalars[word.start]
      let startsWithNumber =
        ExpressionParser.isDigit(first)
        || (first == "." && word.end - word.start > 1
          && ExpressionParser.isDigit(scalars[word.start + 1]))
      guard startsWithNumber else { return nil }
      let expression = try ExpressionParser.parse(scalars, in: word.start..<word.end, spans: spans)
      guard case .number(let value, let unit) = expression.kind else {
        throw error(
          "expected a time such as 1.2s or 1200ms, found \(quote(word))", word.start, word.end)
      }
      switch unit {
      case nil, .seconds: return value
      case .milliseconds: return value / 1000
      case .degrees, .radians:
        throw error(
          "a time takes the unit s or ms, not '\(unit?.rawValue ?? "")'", word.start, word.end)
      }
    }

    /// `expression comparison expression [ ± expression ]` in `body`.
    mutating func parseAssertion(
      in body: Range<Int>, at moment: ExpectationSpec.Moment
    ) throws(ExpressionError) -> ExpectationSpec.Kind {
      let (lhs, comparison, rhs, tolerance) = try parseComparison(in: body)
      return .value(at: moment, lhs, comparison, rhs, tolerance: tolerance)
    }

    /// The parts of `expression comparison expression [ ± expression ]` in `body`.
    mutating func parseComparison(in body: Range<Int>) throws(ExpressionError) -> (
      Expression, ExpectationSpec.Comparison, Expression, Expression?
    ) {
      guard let (comparison, operatorRange) = ExpectationParser.firstComparison(in: scalars, body)
      else {
        // A syntax error (an unclosed parenthesis hiding the operator) says more than
        // a missing comparison.
        if !isBlank(body) { _ = try ExpressionParser.parse(scalars, in: body, spans: spans) }
        let trimmed = trim(body)
        throw error(
          "expected a comparison (<, <=, >, >=, ==, !=, ≈) in the assertion", trimmed.lowerBound,
          trimmed.upperBound)
      }
      let symbol = quote(operatorRange)
      let lhsRange = body.lowerBound..<operatorRange.lowerBound
      guard !isBlank(lhsRange) else {
        throw error(
          "expected an expression before \(symbol)", operatorRange.lowerBound,
          operatorRange.upperBound)
      }
      let lhs = try ExpressionParser.parse(scalars, in: lhsRange, spans: spans)
      let (rhs, tolerance) = try parseRightSide(
        comparison: operatorRange, in: operatorRange.upperBound..<body.upperBound)
      return (lhs, comparison, rhs, tolerance)
    }

    /// `expression [ ± expression ]` in `rest`, after the comparison at `operatorRange`.
    mutating func parseRightSide(comparison operatorRange: Range<Int>, in rest: Range<Int>)
      throws(ExpressionError) -> (Expression, Expression?)
    {
      let symbol = quote(operatorRange)
      let toleranceSign = ExpectationParser.firstTolerance(in: scalars, rest)
      let rhsRange = rest.lowerBound..<(toleranceSign?.lowerBound ?? rest.upperBound)
      guard !isBlank(rhsRange) else {
        position = rhsRange.lowerBound
        if let toleranceSign {
          let sign = quote(toleranceSign)
          throw error(
            "expected an expression after \(symbol), found \(sign)", toleranceSign.lowerBound,
            toleranceSign.upperBound)
        }
        throw expected("an expression after \(symbol)")
      }
      let rhs = try ExpressionParser.parse(scalars, in: rhsRange, spans: spans)

      var tolerance: Expression?
      if let toleranceSign {
        let toleranceRange = toleranceSign.upperBound..<rest.upperBound
        guard !isBlank(toleranceRange) else {
          let sign = quote(toleranceSign)
          position = toleranceRange.lowerBound
          throw expected("a tolerance after \(sign)")
        }
        tolerance = try ExpressionParser.parse(scalars, in: toleranceRange, spans: spans)
      }
      return (rhs, tolerance)
    }

    /// Whether `range` holds only whitespace (or nothing).
    func isBlank(_ range: Range<Int>) -> Bool {
      scalars[range].allSatisfy(ExpressionParser.isSpace)
    }

    /// `range` without the whitespace at either end (or its start, when all blank).
    func trim(_ range: Range<Int>) -> Range<Int> {
      var lower = range.lowerBound
      var upper = range.upperBound
      while lower < upper && ExpressionParser.isSpace(scalars[lower]) { lower += 1 }
      while upper > lower && ExpressionParser.isSpace(scalars[upper - 1]) { upper -= 1 }
      return lower..<upper
    }

    /// `name [of subject]`, after `keyword`.
    mutating func parsePattern(after keyword: String) throws(ExpressionError)
      -> ExpectationSpec.EventPattern
    {
      guard let name = peekWord() else { throw expected("an event name after '\(keyword)'") }
      guard ExpectationSpec.eventNames.contains(name.text) else {
        let suggestion = Suggestion.didYouMean(name.text, among: ExpectationSpec.eventNames)
        let message =
          suggestion.isEmpty
          ? "unknown event \(quote(name)); expected "
            + ExpectationParser.list(ExpectationSpec.eventNames)
          : "unknown event \(quote(name))\(suggestion)"
        throw error(message, name.start, name.end)
      }
      position = name.end
      var pattern = ExpectationSpec.EventPattern(name: name.text)
      if let (subject, source) = try nameWord(after: "of", expecting: "a handle or constraint name")
      {
        pattern.subject = subject
        pattern.subjectSource = source
      }
      let isState = pattern.name == SceneEventName.state.rawValue
      if pattern.name == SceneEventName.snap.rawValue || isState,
        let (target, source) = try nameWord(
          after: "to", expecting: isState ? "a state name" : "a snap target name")
      {
        pattern.target = target
        pattern.targetSource = source
      }
      return pattern
    }

    /// The words that could still extend `pattern`: `of` without a subject, `to` for a
    /// snap without a target.
    func followers(of pattern: ExpectationSpec.EventPattern) -> [String] {
      (pattern.subject == nil ? ["of"] : [])
        + ((pattern.name == SceneEventName.snap.rawValue
          || pattern.name == SceneEventName.state.rawValue) && pattern.target == nil
          ? ["to"] : [])
    }

    /// `keyword NAME` if the next word is `keyword`: the name and where it stands.
    mutating func nameWord(after keyword: String, expecting what: String) throws(ExpressionError)
      -> (String, SourceRef)?
    {
      guard let word = peekWord(), word.text == keyword else { return nil }
      position = word.end
      guard let name = peekWord(), ExpressionParser.isIdentifier(name.text) else {
        throw expected("\(what) after '\(keyword)'")
      }
      position = name.end
      return (name.text, SourceRef(spans.span(name.start, name.end)))
    }

    /// A time or an event pattern, after `before` or `after`.
    mutating func parseReference(after keyword: String) throws(ExpressionError)
      -> ExpectationSpec.Timing.Reference
    {
      let what = "a time or an event after '\(keyword)'"
      guard let word = peekWord() else { throw expected(what) }
      if let time = try time(word) {
        position = word.end
        return .time(time)
      }
      // Far from any event name, the word is more likely a malformed time.
      if !ExpectationSpec.eventNames.contains(word.text)
        && Suggestion.closest(to: word.text, among: ExpectationSpec.eventNames) == nil
      {
        throw expected(what)
      }
      return .event(try parsePattern(after: keyword))
    }
  }
}
