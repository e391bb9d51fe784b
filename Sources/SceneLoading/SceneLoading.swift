import SceneDiagnostics
import SceneGraph
import SceneResolve
import SceneSyntax

/// The portable front door: scene text to a runnable graph.
///
/// It uses no file system, no Foundation and no C. The caller chooses the front end and
/// hands in the traces a `replay` reads; `ScenePipeline` is the shell that reads files, applies the folder
/// policy and registers YAML, and a WebAssembly build calls this directly.
public enum SceneLoading {
  /// A scene read and decoded, as far as it would go.
  public struct Read: Sendable {
    /// The text read, for rendering diagnostics (nil if the file could not be read).
    public var file: SourceFile?
    /// The scene, when there were no errors.
    public var spec: SceneSpec?
    public var diagnostics: [Diagnostic]
    /// The comment lines at the top of the file, which `fmt` keeps.
    public var header: String?
    /// What did decode, when there were errors but the rest can still be resolved (for
    /// `check`, which reports name errors with the others); never to be run.
    public var partialSpec: SceneSpec?
    /// The names whose definitions failed: references to them are not reported again.
    public var failedNames: Set<String> = []
    /// The document tree the scene was decoded from, with every value's place (for tools
    /// that edit the file's text in place, such as the preview's tuning).
    public var document: DocumentNode?

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    public init(
      file: SourceFile?, spec: SceneSpec?, diagnostics: [Diagnostic], header: String? = nil
    ) {
      self.file = file
      self.spec = spec
      self.diagnostics = diagnostics
      self.header = header
    }
  }

  /// Reads `file` through `frontEnd` and decodes it.
  public static func read(
    _ file: SourceFile, frontEnd: SceneFrontEnd, parallel: ParallelWork = .serial
  ) -> Read {
    // A byte-order mark is not text: editors do not show it, so columns count from after
    // it (and libyaml, told the encoding, would read it as content).
    if file.text.unicodeScalars.first == "\u{FEFF}" {
      return read(
        SourceFile(name: file.name, text: String(file.text.unicodeScalars.dropFirst())),
        frontEnd: frontEnd, parallel: parallel)
    }
    let parsed = frontEnd.read(file, parallel: parallel)
    var diagnostics = parsed.diagnostics
    guard let document = parsed.document else {
      if diagnostics.isEmpty {
        diagnostics.append(
          .error("the scene is empty", at: SourceSpan(file.location(line: 1, column: 1))))
      }
      return Read(file: file, spec: nil, diagnostics: diagnostics, header: header(of: file.text))
    }
    let decoded = SceneDecoder.decode(
      document, keysAreUnique: frontEnd.keysAreUnique, parallel: parallel)
    diagnostics += decoded.diagnostics
    let failed = diagnostics.contains { $0.severity == .error }
    var result = Read(
      file: file, spec: failed ? nil : decoded.spec,
      diagnostics: SourceOrder.sorted(diagnostics, by: { $0.span }), header: header(of: file.text))
    result.document = document
    // Errors the decoder found leave the rest of the scene decoded: resolved too, its name
    // errors are reported in the same run (a syntax error of the DSL's or YAML's reader
    // leaves no tree, and nothing to resolve).
    if failed && !decoded.lostSection {
      result.partialSpec = decoded.spec
      result.failedNames = decoded.failedNames
    }
    return result
  }

  /// The comment lines at the very top of `text` (each starting with `#`), without a
  /// trailing blank line; `nil` if the file does not start with a comment.
  public static func header(of text: String) -> String? {
    // Line by line, stopping at the first that is not a comment: splitting the whole
    // text first would cost as much as reading the scene.
    var lines: [Substring] = []
    var rest = text[...]
    while true {
      let end = rest.firstIndex(of: "\n") ?? rest.endIndex
      let line = rest[..<end]
      let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
      guard trimmed.hasPrefix("#") else { break }
      lines.append(trimmed)
      guard end < rest.endIndex else { break }
      rest = rest[rest.index(after: end)...]
    }
    return lines.isEmpty ? nil : lines.joined(separator: "\n")
  }

  /// A scene resolved as far as it would go.
  public struct Resolved: Sendable {
    /// The resolved scene, with its traces bound to its `replay` steps, when there were
    /// no errors.
    public var graph: SceneGraph?
    /// The syntax tree the graph was resolved from, when the file parsed.
    public var spec: SceneSpec?
    /// Every problem found, in the order the stages found them.
    public var diagnostics: [Diagnostic]

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
  }

  /// Resolves a scene read, binding `traces` (keyed by the file name each `replay` step
  /// writes) to its replays.
  ///
  /// A replay whose trace is not among them is a located error, unless
  /// `missingTracesReported` says the caller has reported it already (the shell, which
  /// says why it could not read the file).
  public static func resolve(
    _ read: Read, traces: [String: TraceFile] = [:], missingTracesReported: Bool = false,
    parallel: ParallelWork = .serial
  ) -> Resolved {
    guard let spec = read.spec else {
      var diagnostics = read.diagnostics
      if let partial = read.partialSpec {
        diagnostics = SourceOrder.sorted(
          diagnostics + partialErrors(partial, failedNames: read.failedNames),
          by: { $0.span })
      }
      return Resolved(graph: nil, spec: nil, diagnostics: diagnostics)
    }
    let resolved = SceneResolver.resolve(spec, traces: traces, parallel: parallel)
    var diagnostics =
      read.diagnostics + resolved.errors.map { $0.diagnostic } + resolved.warnings
    if !missingTracesReported {
      diagnostics += missingTraces(in: spec.gesture, given: traces)
    }
    let failed = diagnostics.contains { $0.severity == .error }
    return Resolved(graph: failed ? nil : resolved.graph, spec: spec, diagnostics: diagnostics)
  }

  /// An error at each `replay` step (the first naming each file) whose trace is not in
  /// `traces`.
  static func missingTraces(in gesture: [GestureTrack], given traces: [String: TraceFile])
    -> [Diagnostic]
  {
    var seen: Set<String> = []
    var missing: [Diagnostic] = []
    for track in gesture {
      for step in track.steps {
        guard case .replay(let name) = step.kind, traces[name.value] == nil,
          seen.insert(name.value).inserted
        else { continue }
        missing.append(
          .error(
            "no trace was given for the replay of '\(name.value)' (this loader reads no files)",
            at: name.source.span))
      }
    }
    return missing
  }

  /// The resolver's errors in what decoded of a scene with errors, less those that only
  /// repeat a failed definition (`unknown handle 'ball'` where `ball` did not decode).
  static func partialErrors(_ spec: SceneSpec, failedNames: Set<String>) -> [Diagnostic] {
    let resolved = SceneResolver.resolve(spec, traces: [:], parallel: .serial)
    return resolved.errors.map { $0.diagnostic }.filter { diagnostic in
      !failedNames.contains { diagnostic.message.containsText("'\($0)'") }
        // A replay's trace is read only once the scene has no other errors.
        && !diagnostic.message.containsText("trace")
    }
  }
}
