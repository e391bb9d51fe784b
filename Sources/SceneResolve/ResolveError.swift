import SceneDiagnostics

/// A problem found while resolving a scene's names, types and dependencies: the errors of
/// the graph stage, each pointing at the text it concerns.
public struct ResolveError: DiagnosticConvertible, Hashable, Sendable {
  public var message: String
  public var span: SourceSpan?
  public var notes: [Diagnostic.Note]

  public init(_ message: String, at span: SourceSpan?, notes: [Diagnostic.Note] = []) {
    self.message = message
    self.span = span
    self.notes = notes
  }

  public var diagnostic: Diagnostic { .error(message, at: span, notes: notes) }
}
