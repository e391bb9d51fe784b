/// A place in a source file: 1-based line and column, columns counted in Unicode scalars.
///
/// Every AST node carries one, and the later stages keep them, so that any error, even
/// one found while the scene runs, points back at the text the user wrote. Prints as
/// `file:line:col`.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The file's name as the user gave it (for example `Scenes/wave.yaml`).
  public var file: String
  /// The 1-based line.
  public var line: Int
  /// The 1-based column, in Unicode scalars.
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  public var description: String { "\(file):\(line):\(column)" }

  /// The same file and line, `count` scalars further right.
  public func advanced(by count: Int) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column + count)
  }

  public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
    (a.file, a.line, a.column) < (b.file, b.line, b.column)
  }
}

/// A run of text on one line: where it starts and how many Unicode scalars it covers.
///
/// Diagnostics underline it: a caret under the first scalar and tildes under the rest.
/// A span that would run past its line is cut at the line's end when shown.
public struct SourceSpan: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var start: SourceLocation
  /// The number of scalars covered; at least 1 when shown.
  public var length: Int

  public init(_ start: SourceLocation, length: Int = 1) {
    self.start = start
    self.length = length
  }

  public var description: String { start.description }

  public static func < (a: SourceSpan, b: SourceSpan) -> Bool { a.start < b.start }
}
