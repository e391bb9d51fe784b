import SceneDiagnostics

/// A syntax error in an expression or an expectation: what was expected, what was found,
/// and where.
///
/// The parsers stop at the first error, so there is only ever one; ``span`` points at
/// the offending token (or just past the end of the text when the text ended too soon).
public struct ExpressionError: DiagnosticConvertible, Hashable, Sendable {
  /// What was expected and what was found: `expected an expression, found ')'`.
  public var message: String
  /// The offending text in the file.
  public var span: SourceSpan

  public init(_ message: String, at span: SourceSpan) {
    self.message = message
    self.span = span
  }

  public var diagnostic: Diagnostic { .error(message, at: span) }
}
