/// A syntax error in SVG path data: where it is and what was expected there.
///
/// ``offset`` counts Unicode scalars from the start of the data, so it points at the
/// offending character (or at the end of the data) independently of any encoding.
///
/// ```swift
/// do { _ = try Path(svgPathData: "M0 0 L1 x") } catch {
///   error.description   // "offset 8: expected a number, found 'x'"
/// }
/// ```
public struct PathDataError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 0-based position of the error, in Unicode scalars of the path data.
  public let offset: Int
  /// What was expected and what was found: `expected a number, found 'x'`.
  public let message: String

  public init(offset: Int, message: String) {
    self.offset = offset
    self.message = message
  }

  public var description: String { "offset \(offset): \(message)" }

  /// Two lines showing the path data, indented by two spaces, and a caret under the error.
  ///
  /// Control characters (newlines, tabs) print as single spaces so the caret stays in
  /// line with the scalar it points at; at the end of the data it points one past the
  /// last character.
  public func caretSnippet(in source: String) -> String {
    var line = String.UnicodeScalarView()
    for scalar in source.unicodeScalars {
      line.append(scalar.value < 0x20 ? " " : scalar)
    }
    return "  " + String(line) + "\n  " + String(repeating: " ", count: max(0, offset)) + "^"
  }
}
