import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneSyntax
import SceneVocabulary

/// Resolves a ``SceneSpec`` into a ``SceneGraph``: applies defaults, checks every value
/// against its allowed range, and turns every name into an index, reporting each
/// independent problem with its place and, for names, a suggestion and a note at what
/// was meant.
public struct SceneResolver: Sendable {
  public struct Result: Sendable {
    /// The graph, when there were no errors.
    public var graph: SceneGraph?
    public var errors: [ResolveError]
    /// What is not wrong but likely a mistake (a state nothing leads to).
    public var warnings: [Diagnostic] = []
  }

  /// Names an expression reads without their being defined in the scene.
  public static let builtinNames = SlotLayout.builtinSymbols.keys.sorted()

  var errors: [ResolveError] = []
  var warnings: [Diagnostic] = []
  var handleIndex: [String: Int] = [:]
  var pathIndex: [String: Int] = [:]
  var springIndex: [String: Int] = [:]
  /// The handles a drag with `transform: pinch` holds, found as the drags are resolved.
  var pinchedHandles: [Int] = []
  /// Segment lengths by shape, so copies of one shape are measured once.
  var measurements = MeasurementCache()
  let spec: SceneSpec
  /// The traces the gesture's `replay` steps play, by the file name the scene wrote.
  let traces: [String: TraceFile]
  /// Runs the pieces of long lists of expressions to compile.
  let parallel: ParallelWork

  init(spec: SceneSpec, traces: [String: TraceFile], parallel: ParallelWork = .serial) {
    self.spec = spec
    self.traces = traces
    self.parallel = parallel
  }

  /// Resolves `spec`, binding its `replay` steps to `traces` (keyed by the file name as
  /// the scene wrote it; a trace missing from it plays as an empty one: nothing, in no
  /// time; the pipeline reports why it is missing).
  ///
  /// Long lists of expressions are compiled in pieces that `parallel` may run side by
  /// side; the graph and its errors are the same either way.
  public static func resolve(
    _ spec: SceneSpec, traces: [String: TraceFile] = [:], parallel: ParallelWork = .serial
  ) -> Result {
    var resolver = SceneResolver(spec: spec, traces: traces, parallel: parallel)
    let graph = resolver.resolveScene()
    // In file order, as the loader reports its own diagnostics.
    let errors = SourceOrder.sorted(resolver.errors, by: { $0.span })
    return Result(
      graph: errors.isEmpty ? graph : nil, errors: errors,
      warnings: SourceOrder.sorted(resolver.warnings, by: { $0.span }))
  }

  mutating func error(_ message: String, at source: SourceRef?, notes: [Diagnostic.Note] = []) {
    errors.append(ResolveError(message, at: source?.span, notes: notes))
  }

  // MARK: - The scene

  mutating func resolveScene() -> SceneGraph {
    // A local copy (of references to the same arrays), so the specs can be read by index
    // while `self` records errors.
    let spec = self.spec
    let header = spec.header
    let width = checked(
      header.size.map { Located($0.value.width, at: $0.source) }, default: 400, "scene width",
      in: 1...100_000)
    let height = checked(
      header.size.map { Located($0.value.height, at: $0.source) }, default: 300, "scene height",
      in: 1...100_000)
    let fps = checked(header.fps, default: 60, "fps", in: FrameClock.fpsRange)
    let limit = checked(header.maxDuration, default: 30, "maxDuration", in: 0.001...3600)
    var duration = SceneGraph.Duration.untilRest(limit: limit)
    if let given = header.duration, case .seconds(let seconds) = given.value {
      duration = .seconds(
        checked(Located(seconds, at: given.source), default: 1, "duration", in: 0.001...3600))
    }
    checkNames()
    let springs = spec.springs.map { resolveSpring($0) }
    // By index: a lazy map over the specs copied each whole spec to read its name.
    springIndex = Self.index(spec.springs.count) { spec.springs[$0].name.value }
    handleIndex = Self.index(spec.handles.count) { spec.handles[$0].name.value }
    pathIndex = Self.index(spec.paths.count) { spec.paths[$0].name.value }
    var handles = spec.handles.map { resolveHandle($0) }
    var paths = spec.paths.map { resolvePath($0) }
    var resolvedConstraints: [(constraint: SceneGraph.Constraint, drawnStyle: SceneGraph.Style?)] =
      []
    var resolvedSpecs: [Int] = []
    resolvedConstraints.reserveCapacity(spec.constraints.count)
    resolvedSpecs.reserveCapacity(spec.constraints.count)
    for c in spec.constraints.indices {
      guard
        let resolved = resolveConstraint(
          spec.constraints[c], handles: handles, paths: paths, springs: springs)
      else { continue }
      resolvedConstraints.append(resolved)
      resolvedSpecs.append(c)
    }
    var constraints = resolvedConstraints.map { $0.0 }
    for handle in pinchedHandles { handles[handle].isPinched = true }
    var gooeyCount = 0
    for c in constraints.indices {
      guard case .gooey = constraints[c].kind else {
        constraints[c].reportedName = constraints[c].name ?? ""
        continue
      }
      gooeyCount += 1
      constraints[c].reportedName = constraints[c].name ?? "gooey\(gooeyCount)"
    }
    // A fixed path that a constraint reads every frame gets the dense inverse arc-length
    // table here, once, instead of each time a simulation of the scene starts.
    // Paths of the same shape share one table.
    var tables = InverseTableCache()
    for constraint in constraints {
      if let path = constraint.kind.measuredPath, let measured = paths[path].measured,
        !measured.isPreparedForRepeatedPositions
      {
        paths[path].measured = measured.preparedForRepeatedPositions(sharing: &tables)
      }
    }
    checkExclusiveMovers(spec.constraints)

    // Expressions: compile lets in dependency order so each knows the types before it.
    let layout = SlotLayout(
      letCount: spec.lets.count, handleCount: spec.handles.count, inputCount: spec.inputs.count,
      machineSlotCount: Self.machineSlotCount(spec))
    // Splitting pays for expressions that need the general compiler, not for literals.
    // By index: `count(where:)` copied every handle spec to look at one field.
    var expressions = 0
    for i in spec.handles.indices where !ExpressionCompiler.isLiteral(spec.handles[i].position) {
      expressions += 1
    }
    let hasManyExpressions = parallel.pieces(of: expressions).count > 1
    let order = evaluationOrder(constraints: constraints, splitting: hasManyExpressions)
    var symbols = baseSymbols(layout)
    // Provisional entries, so a let caught in a cycle gives the cycle error, not a cascade
    // of unknown names; compiling in order replaces each with its real type.
    for (i, definition) in spec.lets.enumerated() where symbols[definition.name.value] == nil {
      symbols[definition.name.value] = .number(slot: layout.letSlot(i))
    }
    var lets: [SceneGraph.Let?] = Array(repeating: nil, count: spec.lets.count)
    for case .letNode(let i) in order {
      let definition = spec.lets[i]
      guard
        let compiled = compile(
          definition.value, symbols, expect: nil, what: "let '\(definition.name.value)'")
      else {
        continue
      }
      let slot = layout.letSlot(i)
      symbols[definition.name.value] =
        compiled.resultType == .point ? .point(x: slot, y: slot + 1) : .number(slot: slot)
      lets[i] = SceneGraph.Let(
        name: definition.name.value, value: compiled, source: definition.name.source)
    }
    // Every handle's and path's expressions: by index (a loop over the specs themselves
    // copied each one), in pieces that may be compiled side by side. The arrays are
    // captured, not `spec`: reading `spec.handles[i]` through a captured `spec` copied
    // the whole handle spec for every field read.
    let handleSpecs = spec.handles
    inPieces(handleSpecs.count, worthSplitting: hasManyExpressions) {
      [symbols] resolver, i in
      let position = resolver.compile(
        handleSpecs[i].position, symbols, expect: .point,
        what: "the position of handle '\(handleSpecs[i].name.value)'")
      let rest = handleSpecs[i].rest.flatMap { rest in
        resolver.compile(
          rest, symbols, expect: .point, what: "the rest of handle '\(handleSpecs[i].name.value)'")
      }
      return (position, rest)
    } store: { i, compiled in
      handles[i].position = compiled.0.take()
      if let rest = compiled.1.take() { handles[i].rest = rest }
    }
    let pathSpecs = spec.paths
    var pointPaths = 0
    for i in pathSpecs.indices {
      if case .segments = pathSpecs[i].geometry { pointPaths += 1 }
    }
    inPieces(pathSpecs.count, worthSplitting: parallel.pieces(of: pointPaths).count > 1) {
      [symbols] resolver, i -> [SceneGraph.Segment]? in
      guard case .segments(let segments) = pathSpecs[i].geometry else { return nil }
      let name = pathSpecs[i].name.value
      return segments.map { segment in
        func what() -> String { "a point of path '\(name)'" }
        func points(_ expressions: [Expression]) -> [CompiledExpression] {
          expressions.compactMap { resolver.compile($0, symbols, expect: .point, what: what()) }
        }
        switch segment.kind {
        case .move(let p): return SceneGraph.Segment(kind: .move, points: points([p]))
        case .line(let p): return SceneGraph.Segment(kind: .line, points: points([p]))
        case .quadratic(let c, let p):
          return SceneGraph.Segment(kind: .quadratic, points: points([c, p]))
        case .cubic(let c1, let c2, let p):
          return SceneGraph.Segment(kind: .cubic, points: points([c1, c2, p]))
        case .close: return SceneGraph.Segment(kind: .close, points: [])
        }
      }
    } store: { i, compiled in
      if let compiled = compiled.take() { paths[i].segments = compiled }
    }
    compileMotions(&handles, specs: handleSpecs, symbols: symbols, layout: layout, lets: lets)
    compileTrims(&paths, specs: pathSpecs, symbols: symbols, layout: layout, lets: lets)
    compileDragExpressions(&constraints, specs: resolvedSpecs, symbols: symbols)
    markBoundHandles(&handles, lets: lets, constraints: constraints, order: order, layout: layout)
    let gesture = resolveGesture(symbols: symbols)
    let expectationSlots = SceneGraph.ExpectationSlots(
      layout: layout, childCount: handles.reduce(0) { $0 + $1.children.count })
    let expectations = resolveExpectations(
      symbols: symbols, slots: expectationSlots, constraints: constraints)
    var graph = SceneGraph(
      name: header.name?.value ?? "scene", width: width, height: height, fps: fps,
      duration: duration,
      background: header.background?.value, springs: springs, handles: handles, paths: paths,
      constraints: constraints,
      drawnPaths: SceneGraph.drawnPaths(
        paths: paths, constraints: constraints, styles: resolvedConstraints.map { $0.drawnStyle }),
      gesture: gesture, expectations: expectations, layout: layout,
      lets: lets.compactMap { $0 },
      evaluationOrder: order.map {
        switch $0 {
        case .letNode(let i): return .letValue(i)
        case .handle(let i): return .handle(i)
        case .path(let i): return .path(i)
        }
      })
    graph.expectationSlots = expectationSlots
    graph.inputs = resolveInputs()
    resolveMachines(&graph, symbols: symbols, timed: timedSlots(layout: layout, lets: lets))
    return graph
  }

  /// `body` of every index in `0..<count`, each handed to `store` in order of index.
  ///
  /// A long list is cut into pieces that ``parallel`` may run side by side, each with a
  /// copy of this resolver whose errors join this one's in the order of the pieces, as if
  /// the indices had been taken one by one. `body` may record errors and nothing else.
  /// `store` may take the value (`Optional.take()`), so that it is moved, not copied.
  ///
  /// Only work worth other threads is split: `worthSplitting` is false when the items are
  /// cheap (literal positions compile in a few hundred instructions, less than handing
  /// them over costs); then each value is stored as soon as it is made.
  mutating func inPieces<T: Sendable>(
    _ count: Int, worthSplitting: Bool = true,
    _ body: @Sendable (inout SceneResolver, Int) -> T, store: (Int, inout T) -> Void
  ) {
    guard worthSplitting, parallel.pieces(of: count).count > 1 else {
      for index in 0..<count {
        var value = body(&self, index)
        store(index, &value)
      }
      return
    }
    var base = self
    base.errors = []
    var (values, resolvers) = parallel.map(count, state: { [base] in base }, body)
    for resolver in resolvers { errors += resolver.errors }
    for index in values.indices { store(index, &values[index]) }
  }

  /// The position of each name in `names`; a name given twice keeps its last position,
  /// as assigning in order did.
  static func index(_ count: Int, name: (Int) -> String) -> [String: Int] {
    var index: [String: Int] = [:]
    index.reserveCapacity(count)
    for i in 0..<count { index[name(i)] = i }
    return index
  }

  /// `value` if given and within `range`, else an error (and `fallback` to keep going).
  mutating func checked(
    _ value: Located<Double>?, default fallback: Double, _ what: @autoclosure () -> String,
    in range: ClosedRange<Double>
  ) -> Double {
    guard let value else { return fallback }
    guard range.contains(value.value) else {
      error(
        "\(what()) must be between \(range.lowerBound.shortestDescription) and \(range.upperBound.shortestDescription), found \(value.value.shortestDescription)",
        at: value.source)
      return fallback
    }
    return value.value
  }

  /// Lets, handles, paths and springs may not clash with each other where expressions
  /// would see both, nor with the built-in names.
  mutating func checkNames() {
    var seen: [String: (kind: String, source: SourceRef)] = [:]
    seen.reserveCapacity(spec.lets.count + spec.handles.count)
    func check(_ kind: String, _ name: Located<String>) {
      if Self.isBuiltinName(name.value) {
        error(
          "\(kind) '\(name.value)' hides the built-in name '\(name.value)'; choose another name",
          at: name.source)
      } else if let other = Self.insertIfAbsent(&seen[name.value], (kind, name.source)) {
        error(
          "'\(name.value)' names both a \(other.kind) and a \(kind)", at: name.source,
          notes: [
            Diagnostic.Note(
              "the \(other.kind) '\(name.value)' is defined here", at: other.source.span)
          ])
      }
    }
    for i in spec.lets.indices { check("let", spec.lets[i].name) }
    for i in spec.handles.indices { check("handle", spec.handles[i].name) }
    for input in spec.inputs { check("input", input.name) }
    for machine in spec.machines { check("machine", machine.name) }
  }

  /// Whether `name` is one of ``builtinNames``.
  static func isBuiltinName(_ name: String) -> Bool {
    SlotLayout.builtinSymbols[name] != nil
  }

  /// The value already in `slot`, or `nil` after putting `value` there: with a
  /// dictionary's subscript as `slot`, one lookup where reading then writing took two.
  static func insertIfAbsent<Value>(_ slot: inout Value?, _ value: Value) -> Value? {
    if let existing = slot { return existing }
    slot = value
    return nil
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
