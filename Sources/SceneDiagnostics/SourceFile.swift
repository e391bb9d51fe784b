/// The text of one input, kept so diagnostics can show the offending line.
public struct SourceFile: Sendable {
  /// The name diagnostics print (a path as the user gave it, or `<stdin>`).
  public let name: String
  /// The same name as locations carry it.
  public let fileName: SourceFileName
  /// The whole text.
  public let text: String
  /// Where each line starts and ends (before its line break), as UTF-8 offsets into
  /// `text`; lines are cut out only when asked for, as most never are.
  private let lines: [Range<Int>]

  public init(name: String, text: String) {
    self.name = name
    self.fileName = SourceFileName(name)
    self.text = text
    // Split on \n, \r\n and lone \r, as YAML and our lexer both count lines. These are
    // ASCII and always grapheme clusters of their own (`\r\n` being one), so scanning the
    // bytes cuts exactly where splitting the characters would, without the cost of
    // walking grapheme clusters.
    var lines: [Range<Int>] = []
    func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
      var start = 0
      _ = LineBreaks.scan(bytes) { offset, length in
        lines.append(start..<offset)
        start = offset + length
      }
      lines.append(start..<bytes.count)
    }
    // A native string's bytes are contiguous; any other is copied once.
    if text.utf8.withContiguousStorageIfAvailable(scan) == nil {
      Array(text.utf8).withUnsafeBufferPointer(scan)
    }
    self.lines = lines
  }

  /// The number of lines (a final line break starts an empty last line).
  public var lineCount: Int { lines.count }

  /// The text of the 1-based line `number`, or `nil` past the end.
  public func line(_ number: Int) -> Substring? {
    guard number >= 1 && number <= lines.count else { return nil }
    let range = lines[number - 1]
    let utf8 = text.utf8
    let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
    let end = utf8.index(start, offsetBy: range.count)
    return text[start..<end]
  }

  /// The location of `line`, `column` in this file.
  public func location(line: Int, column: Int) -> SourceLocation {
    SourceLocation(file: fileName, line: line, column: column)
  }

  /// The source line of `span` and a caret line under it, each indented by four spaces.
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
    let column = max(span.start.column, 1)
    // A long line shows only a window around the caret, so a diagnostic costs the same
    // however long its line is (one flow line with thousands of errors would otherwise
    // print the whole line for each).
    let first = max(column - 1 - Self.contextBefore, 0)
    let last = column - 1 + max(span.length, 1) + Self.contextAfter
    var shown = first > 0 ? "…" : ""
    var count = 0
    var index = 0
    var clippedEnd = false
    for scalar in text.unicodeScalars {
      defer { index += 1 }
      if index < first { continue }
      if index >= last {
        clippedEnd = true
        break
      }
      // One column each, so the caret stays under its place: nothing that could control
      // the terminal is printed.
      shown.unicodeScalars.append(TerminalText.needsEscape(scalar) ? " " : scalar)
      count += 1
    }
    if clippedEnd { shown += "…" }
    let caretColumn = column - 1 - first + (first > 0 ? 1 : 0)
    let available = max(count - (column - 1 - first), 1)
    let width = min(max(span.length, 1), available)
    let caret =
      String(repeating: " ", count: caretColumn) + "^" + String(repeating: "~", count: width - 1)
    return "    " + shown + "\n    " + caret
  }

  /// How many scalars a snippet shows before the caret, and after the span's end.
  static let contextBefore = 60
  static let contextAfter = 60

}
