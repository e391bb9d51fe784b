import SceneDiagnostics

/// A problem found while a scene runs, pointing at the part of the scene file that caused
/// it: a computation that degenerated to a non-finite value, rather than writing NaN.
public struct RuntimeError: DiagnosticConvertible, Hashable, Sendable {
  public var message: String
  public var span: SourceSpan?

  public init(_ message: String, at span: SourceSpan?) {
    self.message = message
    self.span = span
  }

  public var diagnostic: Diagnostic { .error(message, at: span) }
}
