import SceneDiagnostics

/// A front end of the syntax stage as a value: how scene text in one syntax becomes the
/// document tree both front ends build.
///
/// The DSL's is here (``dsl``), all Swift; YAML's needs libyaml, so it lives in
/// `SceneYAML`, and a shell that can link C registers it beside this one. A WebAssembly
/// build of the engine has the DSL alone.
public struct SceneFrontEnd: Sendable {
  /// What a front end read: the tree, if the text parsed, and every problem found.
  public struct Parsed: Sendable {
    public var document: DocumentNode?
    public var diagnostics: [Diagnostic]

    public init(document: DocumentNode?, diagnostics: [Diagnostic]) {
      self.document = document
      self.diagnostics = diagnostics
    }
  }

  /// The syntax's name: `yaml`, `dsl`.
  public let name: String
  /// File extensions that pick this front end, without the dot, in lower case.
  public let fileExtensions: [String]
  /// Whether a key written twice in one mapping is an error for the decoder to report
  /// (YAML, whose readers would silently keep one; the DSL reports its own).
  public let keysAreUnique: Bool
  private let reader: @Sendable (SourceFile, ParallelWork) -> Parsed

  public init(
    name: String, fileExtensions: [String], keysAreUnique: Bool,
    read: @escaping @Sendable (SourceFile, ParallelWork) -> Parsed
  ) {
    self.name = name
    self.fileExtensions = fileExtensions
    self.keysAreUnique = keysAreUnique
    self.reader = read
  }

  /// The document tree of `file`, splitting long lists over `parallel`.
  public func read(_ file: SourceFile, parallel: ParallelWork = .serial) -> Parsed {
    reader(file, parallel)
  }

  /// Whether a file called `fileName` is in this syntax, by its extension.
  public func accepts(fileName: String) -> Bool {
    guard let dot = fileName.lastIndex(of: ".") else { return false }
    let ext = String(fileName[fileName.index(after: dot)...]).lowercased()
    return fileExtensions.contains(ext)
  }

  /// The DSL (`.scene` files): its own lexer and parser, no C.
  public static let dsl = SceneFrontEnd(
    name: "dsl", fileExtensions: ["scene"], keysAreUnique: false
  ) { file, parallel in
    let parsed = DSLParser.parse(file, parallel: parallel)
    return Parsed(document: parsed.document, diagnostics: parsed.diagnostics)
  }
}
