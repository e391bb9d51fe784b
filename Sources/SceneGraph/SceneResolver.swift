import SceneDiagnostics
import SceneGeometry
import SceneSyntax

/// Resolves a ``SceneSpec`` into a ``SceneGraph``: applies defaults, checks every value
/// against its allowed range, and turns every name into an index, reporting each
/// independent problem with its place and, for names, a suggestion and a note at what
/// was meant.
public struct SceneResolver {
  public struct Result: Sendable {
    /// The graph, when there were no errors.
    public var graph: SceneGraph?
    public var errors: [ResolveError]
  }

  /// Names an expression reads without their being defined in the scene.
  public static let builtinNames = ["width", "height", "time", "frame", "pointer", "drag", "velocity"]

  var errors: [ResolveError] = []
  var handleIndex: [String: Int] = [:]
  var pathIndex: [String: Int] = [:]
  var springIndex: [String: Int] = [:]
  let spec: SceneSpec

  init(spec: SceneSpec) { self.spec = spec }

  public static func resolve(_ spec: SceneSpec) -> Result {
    var resolver = SceneResolver(spec: spec)
    let graph = resolver.resolveScene()
    // In file order, as the loader reports its own diagnostics.
    let errors = resolver.errors.enumerated().sorted { a, b in
      switch (a.element.span, b.element.span) {
      case (let x?, let y?) where x.start != y.start: return x.start < y.start
      case (nil, _?): return true
      case (_?, nil): return false
      default: return a.offset < b.offset
      }
    }.map(\.element)
    return Result(graph: errors.isEmpty ? graph : nil, errors: errors)
  }

  mutating func error(_ message: String, at source: SourceRef?, notes: [Diagnostic.Note] = []) {
    errors.append(ResolveError(message, at: source?.span, notes: notes))
  }

  // MARK: - The scene

  mutating func resolveScene() -> SceneGraph {
    let header = spec.header
    let width = checked(header.size.map { Located($0.value.width, at: $0.source) }, default: 400, "scene width", in: 1...100_000)
    let height = checked(header.size.map { Located($0.value.height, at: $0.source) }, default: 300, "scene height", in: 1...100_000)
    let fps = checked(header.fps, default: 60, "fps", in: 1...1000)
    let limit = checked(header.maxDuration, default: 30, "maxDuration", in: 0.001...3600)
    var duration = SceneGraph.Duration.untilRest(limit: limit)
    if let given = header.duration, case .seconds(let seconds) = given.value {
      duration = .seconds(checked(Located(seconds, at: given.source), default: 1, "duration", in: 0.001...3600))
    }
    checkNames()
    let springs = spec.springs.map { resolveSpring($0) }
    for (i, spring) in spec.springs.enumerated() { springIndex[spring.name.value] = i }
    for (i, handle) in spec.handles.enumerated() { handleIndex[handle.name.value] = i }
    for (i, path) in spec.paths.enumerated() { pathIndex[path.name.value] = i }
    let handles = spec.handles.map { resolveHandle($0) }
    let paths = spec.paths.map { resolvePath($0) }
    let constraints = spec.constraints.compactMap { resolveConstraint($0, handles: handles, paths: paths) }
    checkExclusiveMovers(spec.constraints)
    return SceneGraph(
      name: header.name?.value ?? "scene", width: width, height: height, fps: fps, duration: duration,
      background: header.background?.value, springs: springs, handles: handles, paths: paths,
      constraints: constraints, gesture: spec.gesture, expectations: spec.expectations)
  }

  /// `value` if given and within `range`, else an error (and `fallback` to keep going).
  mutating func checked(
    _ value: Located<Double>?, default fallback: Double, _ what: String, in range: ClosedRange<Double>
  ) -> Double {
    guard let value else { return fallback }
    guard range.contains(value.value) else {
      error(
        "\(what) must be between \(range.lowerBound.shortestDescription) and \(range.upperBound.shortestDescription), found \(value.value.shortestDescription)",
        at: value.source)
      return fallback
    }
    return value.value
  }

  /// Lets, handles, paths and springs may not clash with each other where expressions
  /// would see both, nor with the built-in names.
  mutating func checkNames() {
    var seen: [String: (String, SourceRef)] = [:]
    let named: [(String, Located<String>)] =
      spec.lets.map { ("let", $0.name) } + spec.handles.map { ("handle", $0.name) }
    for (kind, name) in named {
      if Self.builtinNames.contains(name.value) {
        error("\(kind) '\(name.value)' hides the built-in name '\(name.value)'; choose another name", at: name.source)
      } else if let (otherKind, otherSource) = seen[name.value] {
        error(
          "'\(name.value)' names both a \(otherKind) and a \(kind)", at: name.source,
          notes: [Diagnostic.Note("the \(otherKind) '\(name.value)' is defined here", at: otherSource.span)])
      } else {
        seen[name.value] = (kind, name.source)
      }
    }
  }

  // MARK: - References

  /// The index of the `kind` named by `reference`, or an error with a suggestion.
  mutating func lookup(_ reference: Reference, in table: [String: Int], kind: String) -> Int? {
    if let index = table[reference.value] { return index }
    error(
      "unknown \(kind) '\(reference.value)'\(Suggestion.didYouMean(reference.value, among: table.keys.sorted()))",
      at: reference.source)
    return nil
  }
}
