import SceneDiagnostics
import SceneGraph
import SceneSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way a scene file becomes something to run: read it through its front end
/// (YAML or the DSL), resolve it (names, expressions, expectations), and load and check
/// the traces its gesture replays.
///
/// `scenec run`, `check` and `test` and library users all
/// go through ``load(path:options:)``, so what `check` calls clean is what runs.
public enum ScenePipeline {
  /// What a caller may allow beyond the defaults.
  public struct Options: Sendable {
    /// Folders traces may be read from besides the scene's own (with their subfolders).
    ///
    /// A scene is untrusted input: by default a `replay` reads only beside the scene.
    public var traceFolders: [String]

    public init(traceFolders: [String] = []) { self.traceFolders = traceFolders }
  }

  /// A scene loaded as far as it would go.
  public struct Loaded: Sendable {
    /// The resolved scene, with its traces bound to its `replay` steps, when there were
    /// no errors.
    public var graph: SceneGraph?
    /// The syntax tree the graph was resolved from (for tools that write the scene back,
    /// such as the preview's copy that replays a recording), when the file parsed.
    public var spec: SceneSpec?
    /// The scene's document tree, when the file parsed (see ``SceneLoader/Result/document``).
    public var document: DocumentNode?
    /// The scene file and the traces read, for rendering diagnostics with their lines.
    public var files: [SourceFile]
    /// Every problem found, in the order the stages found them.
    public var diagnostics: [Diagnostic]
    /// Every file the scene was made from: the scene file, then the traces read.
    ///
    /// An output of the run must replace none of them.
    public var inputs: [String] = []
    /// The traces read, by the name each `replay` step gives (for a tool that hands the
    /// scene on, such as `--interactive`'s page).
    public var traces: [String: TraceFile] = [:]

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The diagnostics rendered clang-style, with source lines and carets.
    public func rendered() -> String {
      DiagnosticRenderer(files: files).render(diagnostics)
    }
  }

  /// Loads the scene at `path`.
  ///
  /// - Throws: ``SceneLoader/ReadError`` when the file cannot be read at all (missing, a
  ///   directory, a FIFO); everything wrong inside it is a diagnostic.
  public static func load(path: String, options: Options = Options()) throws(SceneLoader.ReadError)
    -> Loaded
  {
    let read = try SceneLoader.load(path: path)
    return resolve(read, sceneFile: path, options: options)
  }

  /// Resolves a scene already read, reading its traces relative to `sceneFile` (the
  /// folder policy of ``TraceLoader``) and handing them to the portable front door
  /// (``SceneLoading/resolve(_:traces:parallel:)``).
  public static func resolve(
    _ read: SceneLoader.Result, sceneFile: String, options: Options = Options()
  ) -> Loaded {
    var loaded = Loaded(
      graph: nil, files: read.file.map { [$0] } ?? [], diagnostics: read.diagnostics,
      inputs: [sceneFile])
    guard let spec = read.spec else {
      loaded.diagnostics = SceneLoading.resolve(read).diagnostics
      return loaded
    }
    loaded.spec = spec
    loaded.document = read.document
    // Traces are read first, for the resolver to bind, and checked even when the scene has
    // other errors: `check` reports them all.
    let traces = TraceLoader.load(
      for: spec.gesture, sceneFile: sceneFile, folders: options.traceFolders)
    let resolved = SceneLoading.resolve(
      read, traces: traces.traces, missingTracesReported: true, parallel: .allCores)
    loaded.diagnostics = resolved.diagnostics + traces.diagnostics
    loaded.files += traces.files
    loaded.inputs += traces.paths
    loaded.traces = traces.traces
    if !loaded.hasErrors { loaded.graph = resolved.graph }
    return loaded
  }
}
