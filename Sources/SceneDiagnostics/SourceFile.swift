/// The text of one input, kept so diagnostics can show the offending line.
public struct SourceFile: Sendable {
  /// The name diagnostics print (a path as the user gave it, or `<stdin>`).
  public let name: String
  /// The whole text.
  public let text: String
  /// The text of each line, without its line break.
  private let lines: [Substring]

  public init(name: String, text: String) {
    self.name = name
    self.text = text
    // Split on \n, \r\n and lone \r, as YAML and our lexer both count lines.
    var lines: [Substring] = []
    var start = text.startIndex
    var index = text.startIndex
    while index < text.endIndex {
      let c = text[index]
      if c == "\n" || c == "\r" || c == "\r\n" {
        lines.append(text[start..<index])
        index = text.index(after: index)
        start = index
      } else {
        index = text.index(after: index)
      }
    }
    lines.append(text[start..<text.endIndex])
    self.lines = lines
  }

  /// The number of lines (a final line break starts an empty last line).
  public var lineCount: Int { lines.count }

  /// The text of the 1-based line `number`, or `nil` past the end.
  public func line(_ number: Int) -> Substring? {
    guard number >= 1 && number <= lines.count else { return nil }
    return lines[number - 1]
  }

  /// The location of `line`, `column` in this file.
  public func location(line: Int, column: Int) -> SourceLocation {
    SourceLocation(file: name, line: line, column: column)
  }

  /// The source line of `span` and a caret line under it, each indented by four spaces:
  ///
  /// ```
  ///     handle: bal
  ///             ^~~
  /// ```
  ///
  /// Tabs and other control characters show as one space each, so the caret lines up.
  /// `nil` when the span's line is not in this file.
  public func snippet(for span: SourceSpan) -> String? {
    guard let text = line(span.start.line) else { return nil }
    var shown = ""
    var count = 0
    for scalar in text.unicodeScalars {
      shown.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar)
      count += 1
    }
    let column = max(span.start.column, 1)
    let available = max(count - (column - 1), 1)
    let width = min(max(span.length, 1), available)
    let caret = String(repeating: " ", count: column - 1) + "^" + String(repeating: "~", count: width - 1)
    return "    " + shown + "\n    " + caret
  }
}
