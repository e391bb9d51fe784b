/// Prints diagnostics the way clang does.
///
/// ```
/// Scenes/wave.yaml:12:9: error: unknown handle 'bal'; did you mean 'ball'?
///     handle: bal
///             ^~~
/// ```
///
/// The source line is looked up in the files given; a diagnostic whose file is unknown
/// prints without it.
public struct DiagnosticRenderer: Sendable {
  private var files: [String: SourceFile]

  public init(files: [SourceFile] = []) {
    // A loop, not `Dictionary(_:uniquingKeysWith:)`: that one rethrows, which Embedded
    // Swift (the WebAssembly build) cannot compile.
    self.files = [:]
    for file in files { self.files[file.name] = file }
  }

  /// Adds (or replaces) a file whose lines diagnostics may show.
  public mutating func add(_ file: SourceFile) { files[file.name] = file }

  /// The diagnostic and its notes, each ending in a line break.
  public func render(_ diagnostic: Diagnostic) -> String {
    var text = entry(diagnostic.severity, diagnostic.message, diagnostic.span)
    for note in diagnostic.notes { text += entry(.note, note.message, note.span) }
    return text
  }

  /// The most diagnostics rendered for one list; the rest are counted, not shown, so a
  /// file with thousands of errors costs a few kilobytes of output, not megabytes.
  public static let defaultLimit = 100

  /// Every diagnostic in order, each with its notes, up to `limit`, then a line saying
  /// how many more there were.
  public func render(_ diagnostics: [Diagnostic]) -> String {
    render(diagnostics, limit: Self.defaultLimit)
  }

  /// Every diagnostic in order up to `limit`, then a line counting the rest.
  public func render(_ diagnostics: [Diagnostic], limit: Int) -> String {
    var text = diagnostics.prefix(max(limit, 0)).map(render).joined()
    let more = diagnostics.count - max(limit, 0)
    if more > 0 {
      text += "note: \(more) more error\(more == 1 ? "" : "s") not shown; fix these first\n"
    }
    return text
  }

  private func entry(_ severity: Diagnostic.Severity, _ message: String, _ span: SourceSpan?)
    -> String
  {
    // A message quotes what the scene wrote (names, file names): escaped for the terminal.
    let message = TerminalText.escaped(message)
    guard let span else { return "\(severity.rawValue): \(message)\n" }
    var text = "\(span.start.description): \(severity.rawValue): \(message)\n"
    if let snippet = files[span.start.file]?.snippet(for: span) { text += snippet + "\n" }
    return text
  }
}
