/// One token of a DSL line: the scalars `start..<end` of the line's scalars.
///
/// Tokens are raw runs of text; what a token means (a name, a value, an attribute) depends
/// on the statement, so the parser classifies them, not the lexer.
struct DSLToken: Hashable, Sendable {
  /// The index of the token's first scalar in its line.
  var start: Int
  /// The index just past the token's last scalar.
  var end: Int
}

/// A lexical error on one line, at scalar indices of that line.
struct DSLLexError: Error, Hashable, Sendable {
  /// A secondary place, such as the bracket a stray closer does not match.
  struct Note: Hashable, Sendable {
    var message: String
    var start: Int
    var length: Int
  }

  var message: String
  var start: Int
  var length: Int
  var notes: [Note] = []
}

/// The lexical layer of the `.scene` DSL: lines, tokens, strings and identifiers.
///
/// Everything works on arrays of Unicode scalars, because columns in diagnostics count
/// scalars; an index `i` in a line is column `i + 1`. See ``DSLParser`` for the grammar.
enum DSLLexer {
  /// The lines of `text`, without their line breaks.
  ///
  /// Lines end at `\n`, `\r\n` and a lone `\r`, as ``SourceFile`` splits them, so line
  /// numbers agree; a final line break starts an empty last line.
  static func lines(of text: String) -> [[Unicode.Scalar]] {
    if let lines = text.utf8.withContiguousStorageIfAvailable(asciiLines) ?? nil { return lines }
    var lines: [[Unicode.Scalar]] = []
    var current: [Unicode.Scalar] = []
    var afterCarriageReturn = false
    for scalar in text.unicodeScalars {
      if scalar == "\n" && afterCarriageReturn {
        // The second half of a \r\n, whose \r already ended the line.
        afterCarriageReturn = false
        continue
      }
      afterCarriageReturn = scalar == "\r"
      if scalar == "\n" || scalar == "\r" {
        lines.append(current)
        current.removeAll(keepingCapacity: true)
      } else {
        current.append(scalar)
      }
    }
    lines.append(current)
    return lines
  }

  /// ``lines(of:)`` of ASCII text, read from its bytes without decoding; `nil` when a byte
  /// is not ASCII.
  private static func asciiLines(_ bytes: UnsafeBufferPointer<UInt8>) -> [[Unicode.Scalar]]? {
    var lines: [[Unicode.Scalar]] = []
    func line(_ range: Range<Int>) -> [Unicode.Scalar] {
      [Unicode.Scalar](ascii: UnsafeBufferPointer(rebasing: bytes[range]))
    }
    var start = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      guard byte < 0x80 else { return nil }
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
        lines.append(line(start..<index))
        // A \r\n is one break.
        if byte == UInt8(ascii: "\r") && index + 1 < bytes.count
          && bytes[index + 1] == UInt8(ascii: "\n")
        {
          index += 1
        }
        start = index + 1
      }
      index += 1
    }
    lines.append(line(start..<bytes.count))
    return lines
  }

  // MARK: - Continued lines

  /// A physical line's part of a statement continued over several: where it starts in the
  /// joined line, its line number, and how many scalars before its first were dropped (its
  /// indentation), so a place in the joined line maps back to its own line and column.
  struct Segment: Hashable, Sendable {
    var joinedStart: Int
    var line: Int
    var dropped: Int
  }

  /// Joins every line that ends in a continuation (a `\` as its last character outside a
  /// comment, trailing spaces aside) with the line after it, whose indentation is dropped.
  ///
  /// The joined text replaces the first line, and the lines it took become empty (blank,
  /// so blocks and line numbers are as they were); the result gives each joined line's
  /// segments. A physical line over ``maximumLineLength`` is never joined, so the lexer
  /// still refuses it at its own line.
  static func joinContinuations(_ lines: inout [[Unicode.Scalar]]) -> [Int: [Segment]] {
    var segments: [Int: [Segment]] = [:]
    var index = 0
    while index < lines.count {
      guard lines[index].count <= maximumLineLength,
        let marker = continuation(of: lines[index]), index + 1 < lines.count
      else {
        index += 1
        continue
      }
      let first = index
      var joined = Array(lines[index][..<marker])
      var parts = [Segment(joinedStart: 0, line: index + 1, dropped: 0)]
      var next = index + 1
      var continues = true
      while continues && next < lines.count && lines[next].count <= maximumLineLength {
        let line = lines[next]
        var start = 0
        while start < line.count && isSpace(line[start]) { start += 1 }
        let end: Int
        if let marker = continuation(of: line) {
          end = marker
        } else {
          end = line.count
          continues = false
        }
        parts.append(Segment(joinedStart: joined.count, line: next + 1, dropped: start))
        joined += line[start..<max(start, end)]
        lines[next] = []
        next += 1
      }
      lines[first] = joined
      segments[first] = parts
      index = next
    }
    return segments
  }

  /// Where the continuation `\` of `line` is, if it has one: the last character but
  /// trailing spaces, outside a comment (a `#` where a token may start, outside strings
  /// and brackets) and not the escaped half of a `\\` in a string.
  static func continuation(of line: [Unicode.Scalar]) -> Int? {
    var last = line.count - 1
    while last >= 0 && isSpace(line[last]) { last -= 1 }
    guard last >= 0, line[last] == "\\" else { return nil }
    var index = 0
    var inString = false
    var depth = 0
    while index <= last {
      let scalar = line[index]
      if inString {
        if scalar == "\\" {
          if index == last { return index }
          index += 2
          continue
        }
        if scalar == "\"" { inString = false }
      } else {
        switch scalar {
        case "\"": inString = true
        case "(", "[", "{": depth += 1
        case ")", "]", "}": depth = max(0, depth - 1)
        case "#" where depth == 0 && (index == 0 || isSpace(line[index - 1])): return nil
        case "\\" where index == last: return index
        default: break
        }
      }
      index += 1
    }
    return nil
  }

  /// Whether `scalar` separates tokens (outside brackets and strings).
  static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

  /// Whether `scalar` may start an identifier: a letter or `_`.
  static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
    // ASCII first: asking Unicode's properties costs a table lookup for every scalar.
    if scalar.isASCII {
      return scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
    return scalar.properties.isAlphabetic
  }

  /// Whether `scalar` may continue an identifier: a letter, an ASCII digit, `_`, `-` or `.`.
  static func isIdentifierContinue(_ scalar: Unicode.Scalar) -> Bool {
    isIdentifierStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
  }

  /// The index just past the identifier starting at `start`, or `start` when there is none.
  static func identifierEnd(_ line: [Unicode.Scalar], from start: Int, limit: Int? = nil) -> Int {
    let limit = min(limit ?? line.count, line.count)
    guard start < limit, isIdentifierStart(line[start]) else { return start }
    var index = start + 1
    while index < limit && isIdentifierContinue(line[index]) { index += 1 }
    return index
  }

  /// Whether `token` is exactly one identifier (a keyword, a name or a flag).
  static func isIdentifier(_ line: [Unicode.Scalar], _ token: DSLToken) -> Bool {
    token.end > token.start && identifierEnd(line, from: token.start, limit: token.end) == token.end
  }

  /// The index of the `=` when `token` is an attribute `key=value` (an identifier followed
  /// directly by `=`), else `nil`.
  static func attributeEquals(_ line: [Unicode.Scalar], _ token: DSLToken) -> Int? {
    let keyEnd = identifierEnd(line, from: token.start, limit: token.end)
    guard keyEnd > token.start, keyEnd < token.end, line[keyEnd] == "=" else { return nil }
    return keyEnd
  }

  /// The tokens of `line` from index `start` up to the end of the line or a comment.
  ///
  /// A token is a maximal run of scalars up to a space or tab at bracket depth 0; `(`, `[`
  /// and `{` open a bracket that the matching closer ends, and double-quoted strings are
  /// skipped whole (a backslash skips the scalar after it). A `#` where a token would start
  /// begins a comment that runs to the end of the line; elsewhere it is an ordinary
  /// character, so `fill=#ff8800` and `f(a, #b)` need no quotes.
  /// The longest line read, in characters (Unicode scalars).
  static let maximumLineLength = 65_536
  /// The most words (a keyword, values, attributes) one line may hold.
  static let maximumTokensPerLine = 4_096

  static func tokens(
    of line: [Unicode.Scalar], from start: Int = 0, physicalLines: Int = 1
  ) throws(DSLLexError) -> [DSLToken] {
    var tokens: [DSLToken] = []
    var index = start
    var openers: [Int] = []
    let count = line.count
    // A statement continued over several lines may hold as many words as they do.
    let maximumTokens = maximumTokensPerLine * max(physicalLines, 1)
    // Absurd lines are refused before any work is spent on them (each physical line of a
    // continued statement was checked before it was joined).
    if physicalLines == 1 && count > maximumLineLength {
      throw DSLLexError(
        message: "line is \(count) characters long; a line may have at most \(maximumLineLength)",
        start: maximumLineLength, length: 1)
    }
    while true {
      while index < count && isSpace(line[index]) { index += 1 }
      if index >= count || line[index] == "#" { break }
      let tokenStart = index
      if tokens.count == maximumTokens {
        throw DSLLexError(
          message:
            physicalLines == 1
            ? "more than \(maximumTokensPerLine) words on one line; split it into several statements"
            : "more than \(maximumTokens) words in one statement of \(physicalLines) lines; split it into several statements",
          start: tokenStart, length: 1)
      }
      openers.removeAll(keepingCapacity: true)
      while index < count {
        let scalar = line[index]
        if openers.isEmpty && isSpace(scalar) { break }
        switch scalar {
        case "(", "[", "{":
          openers.append(index)
        case ")", "]", "}":
          guard let opener = openers.last else {
            throw DSLLexError(message: "unexpected '\(scalar)'", start: index, length: 1)
          }
          let expected = closer(of: line[opener])
          guard scalar == expected else {
            throw DSLLexError(
              message: "unclosed '\(line[opener])'", start: opener, length: 1,
              notes: [
                .init(
                  message: "expected '\(expected)' here, found '\(scalar)'", start: index, length: 1
                )
              ])
          }
          openers.removeLast()
        case "\"":
          index = try closingQuote(line, openingAt: index)
        default:
          break
        }
        index += 1
      }
      if let opener = openers.last {
        throw DSLLexError(message: "unclosed '\(line[opener])'", start: opener, length: 1)
      }
      tokens.append(DSLToken(start: tokenStart, end: index))
    }
    return tokens
  }

  /// The closer that ends a bracket opened by `opener`.
  private static func closer(of opener: Unicode.Scalar) -> Unicode.Scalar {
    switch opener {
    case "(": return ")"
    case "[": return "]"
    default: return "}"
    }
  }

  /// The index of the quote that closes the string opened at `opening`.
  static func closingQuote(_ line: [Unicode.Scalar], openingAt opening: Int) throws(DSLLexError)
    -> Int
  {
    var index = opening + 1
    while index < line.count {
      switch line[index] {
      case "\\": index += 2
      case "\"": return index
      default: index += 1
      }
    }
    throw DSLLexError(message: "unterminated string", start: opening, length: 1)
  }

  /// The text of the string literal `opening...closing` with its escapes applied, and
  /// whether it had any: `\"`, `\\`, `\n`, `\t` and `\u{hex}` (1 to 8 hex digits).
  static func decodeString(
    _ line: [Unicode.Scalar], opening: Int, closing: Int
  ) throws(DSLLexError) -> (text: String, hadEscapes: Bool) {
    var text = String.UnicodeScalarView()
    var hadEscapes = false
    var index = opening + 1
    while index < closing {
      let scalar = line[index]
      guard scalar == "\\" else {
        // As YAML refuses them: a raw control character (other than a tab) is almost
        // always a mistake, and would reach the terminal in a name or a title.
        if scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          throw DSLLexError(
            message:
              "control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) is not allowed in a string; write it as \\u{\(hex)}",
            start: index, length: 1)
        }
        text.append(scalar)
        index += 1
        continue
      }
      hadEscapes = true
      let escape = index + 1 < closing ? line[index + 1] : "\\"
      switch escape {
      case "\"", "\\":
        text.append(escape)
        index += 2
      case "n":
        text.append("\n")
        index += 2
      case "t":
        text.append("\t")
        index += 2
      case "u":
        let (scalar, end) = try unicodeEscape(line, backslash: index, closing: closing)
        text.append(scalar)
        index = end
      default:
        throw DSLLexError(
          message: "unknown escape '\\\(escape)' in string", start: index, length: 2)
      }
    }
    return (String(text), hadEscapes)
  }

  /// The scalar of the `\u{hex}` escape at `backslash`, and the index just past its `}`.
  private static func unicodeEscape(
    _ line: [Unicode.Scalar], backslash: Int, closing: Int
  ) throws(DSLLexError) -> (Unicode.Scalar, Int) {
    var index = backslash + 2
    var value: UInt32 = 0
    var digits = 0
    if index < closing && line[index] == "{" {
      index += 1
      while index < closing, digits < 8, let digit = hexValue(line[index]) {
        value = value * 16 + digit
        digits += 1
        index += 1
      }
      if digits > 0, index < closing, line[index] == "}", let scalar = Unicode.Scalar(value) {
        return (scalar, index + 1)
      }
    }
    let length = max(min(index + 1, closing) - backslash, 2)
    throw DSLLexError(
      message: "invalid unicode escape; write \\u{…} with 1 to 8 hex digits of a valid scalar",
      start: backslash, length: length)
  }

  /// The value of a hex digit, or `nil`.
  private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
    switch scalar {
    case "0"..."9": return scalar.value - 48
    case "a"..."f": return scalar.value - 87
    case "A"..."F": return scalar.value - 55
    default: return nil
    }
  }

  /// The scalars `start..<end` of `line` as a `String`.
  static func string(_ line: [Unicode.Scalar], _ start: Int, _ end: Int) -> String {
    String(scalars: line[start..<end])
  }
}
