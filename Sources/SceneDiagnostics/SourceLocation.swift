/// A place in a source file: 1-based line and column, columns counted in Unicode scalars.
///
/// Every AST node carries one, and the later stages keep them, so that any error, even
/// one found while the scene runs, points back at the text the user wrote. Prints as
/// `file:line:col`.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The file's name, as a number: see ``SourceFileName``.
  public var fileName: SourceFileName
  // Stored in 32 bits, so a location is 12 bytes of plain data (inputs are far smaller
  // than 4 GB; a larger number is kept as the largest).
  private var storedLine: UInt32
  private var storedColumn: UInt32

  public init(file: String, line: Int, column: Int) {
    self.init(file: SourceFileName(file), line: line, column: column)
  }

  /// A location in a file whose name is already stored: what a reader making a location
  /// for every node uses, as storing the name takes a lock.
  public init(file: SourceFileName, line: Int, column: Int) {
    self.fileName = file
    self.storedLine = UInt32(clamping: line)
    self.storedColumn = UInt32(clamping: column)
  }

  /// The file's name as the user gave it (for example `Scenes/wave.yaml`).
  public var file: String {
    get { fileName.description }
    set { fileName = SourceFileName(newValue) }
  }

  /// The 1-based line.
  public var line: Int {
    get { Int(storedLine) }
    set { storedLine = UInt32(clamping: newValue) }
  }

  /// The 1-based column, in Unicode scalars.
  public var column: Int {
    get { Int(storedColumn) }
    set { storedColumn = UInt32(clamping: newValue) }
  }

  /// The file's name is printed with ``TerminalText/escaped(_:)``: a name is untrusted.
  public var description: String { "\(TerminalText.escaped(file)):\(line):\(column)" }

  /// The same file and line, `count` scalars further right.
  public func advanced(by count: Int) -> SourceLocation {
    SourceLocation(file: fileName, line: line, column: column + count)
  }

  public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
    if a.fileName != b.fileName { return a.fileName < b.fileName }
    return (a.storedLine, a.storedColumn) < (b.storedLine, b.storedColumn)
  }
}

/// A run of text on one line: where it starts and how many Unicode scalars it covers.
///
/// Diagnostics underline it: a caret under the first scalar and tildes under the rest.
/// A span that would run past its line is cut at the line's end when shown.
public struct SourceSpan: Hashable, Sendable, Comparable, CustomStringConvertible {
  public var start: SourceLocation
  private var storedLength: UInt32

  public init(_ start: SourceLocation, length: Int = 1) {
    self.start = start
    self.storedLength = UInt32(clamping: length)
  }

  /// The number of scalars covered; at least 1 when shown.
  public var length: Int {
    get { Int(storedLength) }
    set { storedLength = UInt32(clamping: newValue) }
  }

  public var description: String { start.description }

  public static func < (a: SourceSpan, b: SourceSpan) -> Bool { a.start < b.start }
}
