/// One message about the input: an error or warning, where it is, and notes that point
/// elsewhere ("'ball' is defined here").
///
/// Every stage reports its problems as values of its own error type; each converts to a
/// `Diagnostic` (``DiagnosticConvertible``), and one ``DiagnosticRenderer`` prints them
/// all clang-style.
public struct Diagnostic: Hashable, Sendable, Error {
  public enum Severity: String, Hashable, Sendable {
    case error, warning, note
  }

  /// A secondary message at another place.
  public struct Note: Hashable, Sendable {
    public var message: String
    public var span: SourceSpan?

    public init(_ message: String, at span: SourceSpan? = nil) {
      self.message = message
      self.span = span
    }
  }

  public var severity: Severity
  public var message: String
  /// Where the problem is; `nil` for problems with no place (an unreadable file).
  public var span: SourceSpan?
  public var notes: [Note]

  public init(
    _ severity: Severity = .error, _ message: String, at span: SourceSpan?, notes: [Note] = []
  ) {
    self.severity = severity
    self.message = message
    self.span = span
    self.notes = notes
  }

  public static func error(_ message: String, at span: SourceSpan?, notes: [Note] = [])
    -> Diagnostic
  {
    Diagnostic(.error, message, at: span, notes: notes)
  }

  public static func warning(_ message: String, at span: SourceSpan?, notes: [Note] = [])
    -> Diagnostic
  {
    Diagnostic(.warning, message, at: span, notes: notes)
  }
}

/// An error type of some stage that can be shown to the user as a ``Diagnostic``.
public protocol DiagnosticConvertible: Error {
  var diagnostic: Diagnostic { get }
}

extension Diagnostic: DiagnosticConvertible {
  public var diagnostic: Diagnostic { self }
}
