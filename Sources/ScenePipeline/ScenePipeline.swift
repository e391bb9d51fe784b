import SceneDiagnostics
import SceneGraph
import SceneResolve
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

  /// Resolves a scene already read, reading its traces relative to `sceneFile`.
  public static func resolve(
    _ read: SceneLoader.Result, sceneFile: String, options: Options = Options()
  ) -> Loaded {
    var loaded = Loaded(
      graph: nil, files: read.file.map { [$0] } ?? [], diagnostics: read.diagnostics,
      inputs: [sceneFile])
    guard let spec = read.spec else {
      if let partial = read.partialSpec {
        loaded.diagnostics = SourceOrder.sorted(
          loaded.diagnostics + partialErrors(partial, failedNames: read.failedNames),
          by: \.span)
      }
      return loaded
    }
    loaded.spec = spec
    loaded.document = read.document
    // Traces are read first, for the resolver to bind, and checked even when the scene has
    // other errors: `check` reports them all.
    let traces = TraceLoader.load(
      for: spec.gesture, sceneFile: sceneFile, folders: options.traceFolders)
    let resolved = SceneResolver.resolve(spec, traces: traces.traces, parallel: .allCores)
    loaded.diagnostics += resolved.errors.map(\.diagnostic) + resolved.warnings
    loaded.files += traces.files
    loaded.inputs += traces.paths
    loaded.diagnostics += traces.diagnostics
    if !loaded.hasErrors { loaded.graph = resolved.graph }
    return loaded
  }

  /// The resolver's errors in what decoded of a scene with errors, less those that only
  /// repeat a failed definition (`unknown handle 'ball'` where `ball` did not decode).
  static func partialErrors(_ spec: SceneSpec, failedNames: Set<String>) -> [Diagnostic] {
    let resolved = SceneResolver.resolve(spec, traces: [:], parallel: .serial)
    return resolved.errors.map(\.diagnostic).filter { diagnostic in
      !failedNames.contains { diagnostic.message.contains("'\($0)'") }
        // A replay's trace is read only once the scene has no other errors.
        && !diagnostic.message.contains("trace")
    }
  }
}
