import SceneDiagnostics
import SceneGraph
import SceneSyntax

// MARK: - Expressions and dependency order

extension SceneResolver {
  /// One thing evaluated each frame, in ``SceneGraph/evaluationOrder``.
  enum NodeID: Hashable {
    case letNode(Int)
    case handle(Int)
    case path(Int)
  }

  /// The symbols of the built-ins and handles; lets are added as their types become known.
  func baseSymbols(_ layout: SlotLayout) -> [String: Symbol] {
    var symbols = SlotLayout.builtinSymbols
    symbols.reserveCapacity(symbols.count + spec.handles.count + spec.lets.count)
    for i in spec.handles.indices {
      symbols[spec.handles[i].name.value] = .handle(slot: layout.handleSlot(i))
    }
    addStateSymbols(&symbols, layout: layout)
    return symbols
  }

  /// Works out which handles follow their position expression every frame
  /// (``SceneGraph/Handle/isBound``) and which of those move with time by themselves
  /// (``SceneGraph/Handle/followsTime``), from what each slot can do: `width` and `height`
  /// never change; `time` and `frame` change with time; the pointer's values change with
  /// input; a let or handle changes as what it reads does, and a handle that can be
  /// dragged or is moved by a constraint changes too.
  func markBoundHandles(
    _ handles: inout [SceneGraph.Handle], lets: [SceneGraph.Let?],
    constraints: [SceneGraph.Constraint],
    order: [NodeID], layout: SlotLayout
  ) {
    enum Change: Int, Comparable {
      case never, withInput, withTime
      static func < (a: Change, b: Change) -> Bool { a.rawValue < b.rawValue }
    }
    var change = [Change](repeating: .withInput, count: layout.count)
    change[SlotLayout.width] = .never
    change[SlotLayout.height] = .never
    change[SlotLayout.time] = .withTime
    change[SlotLayout.frame] = .withTime
    var moved = [Bool](repeating: false, count: handles.count)
    for c in constraints.indices {
      // By index and field, not `kind.handles`: that copied every constraint and built
      // an array for each.
      moved[constraints[c].kind.movedHandle] = true
      switch constraints[c].kind {
      case .gooey(let g): moved[g.anchor] = true
      case .animate(let a):
        for k in 0..<3 { change[layout.handleSlot(a.handle) + k] = .withTime }
      case .follow, .elastic, .drag: break
      }
    }
    func reads(_ expression: CompiledExpression?) -> Change {
      expression?.dependencies.reduce(Change.never) { max($0, change[$1]) } ?? .never
    }
    for node in order {
      switch node {
      case .letNode(let i):
        let slot = layout.letSlot(i)
        change[slot] = reads(lets[i]?.value)
        change[slot + 1] = change[slot]
      case .handle(let i):
        let position = reads(handles[i].position)
        handles[i].isBound = position > .never
        handles[i].followsTime = position == .withTime && !moved[i]
        let slot = layout.handleSlot(i)
        guard change[slot] != .withTime else { continue }  // Animated.
        let own: Change = moved[i] || handles[i].draggable ? max(position, .withInput) : position
        for k in 0..<3 { change[slot + k] = own }
      case .path:
        break
      }
    }
  }

  /// The names an expression reads (the root of every member chain), in first-use order.
  static func names(in expression: Expression) -> [String] {
    var names: [String] = []
    collectNames(in: expression, into: &names)
    return names
  }

  private static func collectNames(in e: Expression, into names: inout [String]) {
    switch e.kind {
    case .number: break
    case .identifier(let name): if !names.contains(name) { names.append(name) }
    case .member(let base, _): collectNames(in: base, into: &names)
    case .point(let a, let b), .binary(_, let a, let b):
      collectNames(in: a, into: &names)
      collectNames(in: b, into: &names)
    case .unary(_, let a): collectNames(in: a, into: &names)
    case .conditional(let a, let b, let c):
      collectNames(in: a, into: &names)
      collectNames(in: b, into: &names)
      collectNames(in: c, into: &names)
    case .call(_, let arguments):
      for argument in arguments { collectNames(in: argument, into: &names) }
    }
  }

  /// The evaluation order of lets, handles and segment paths, or the errors for every
  /// dependency cycle (each reported once, with the whole cycle and where each part is).
  mutating func evaluationOrder(constraints: [SceneGraph.Constraint], splitting: Bool = true)
    -> [NodeID]
  {
    // The first of each name (a loop: `Dictionary(_:uniquingKeysWith:)` rethrows, which
    // the WebAssembly build's Embedded Swift cannot compile).
    var firstLets: [String: Int] = [:]
    for (index, name) in spec.lets.enumerated() where firstLets[name.name.value] == nil {
      firstLets[name.name.value] = index
    }
    let letIndex = firstLets
    // Nodes are numbered densely (lets, then handles, then paths), so the search below
    // indexes arrays rather than hashing: on a 10,000-handle scene the dictionaries were
    // most of its cost.
    let letCount = spec.lets.count
    let handleBase = letCount
    let pathBase = letCount + spec.handles.count
    let nodeCount = pathBase + spec.paths.count
    func node(_ number: Int) -> NodeID {
      if number < handleBase { return .letNode(number) }
      if number < pathBase { return .handle(number - handleBase) }
      return .path(number - pathBase)
    }
    // The edges of every node in one array, node by node: node n reads
    // `targets[starts[n]..<starts[n + 1]]`. An array per node cost an allocation each.
    var targets: [Int] = []
    var starts: [Int] = [0]
    starts.reserveCapacity(nodeCount + 1)
    let handleIndex = handleIndex
    @Sendable func addReads(
      of expression: Expression, except excluded: Int = -1, to targets: inout [Int]
    ) {
      if case .number = expression.kind { return }  // The commonest case, reading nothing.
      for name in Self.names(in: expression) {
        if let i = letIndex[name] {
          targets.append(i)
        } else if let i = handleIndex[name], handleBase + i != excluded {
          targets.append(handleBase + i)
        }
      }
    }
    /// The edges of `count` nodes, each made by `edges` into one array, in pieces that
    /// ``parallel`` may run side by side; appended to `targets` and `starts` in order.
    let work = splitting ? parallel : .serial
    func addEdges(_ count: Int, _ edges: @Sendable (Int, inout [Int]) -> Void) {
      let pieces = work.pieces(of: count)
      guard pieces.count > 1 else {
        for i in 0..<count {
          edges(i, &targets)
          starts.append(targets.count)
        }
        return
      }
      let made = work.map(pieces.count) { piece in
        var targets: [Int] = []
        var ends: [Int] = []
        ends.reserveCapacity(pieces[piece].count)
        for i in pieces[piece] {
          edges(i, &targets)
          ends.append(targets.count)
        }
        return (targets, ends)
      }
      for (pieceTargets, ends) in made {
        let base = targets.count
        targets += pieceTargets
        starts += ends.lazy.map { base + $0 }
      }
    }
    // The paths constraints measure, by the handle they move, in constraint order.
    var pathCounts = [Int](repeating: 0, count: spec.handles.count + 1)
    for constraint in constraints where constraint.kind.measuredPath != nil {
      pathCounts[constraint.kind.movedHandle + 1] += 1
    }
    for h in 0..<spec.handles.count { pathCounts[h + 1] += pathCounts[h] }
    var measuredPaths = [Int](repeating: 0, count: pathCounts[spec.handles.count])
    var filled = pathCounts
    for constraint in constraints {
      guard let path = constraint.kind.measuredPath else { continue }
      let h = constraint.kind.movedHandle
      measuredPaths[filled[h]] = pathBase + path
      filled[h] += 1
    }
    let spec = spec
    for i in spec.lets.indices {
      addReads(of: spec.lets[i].value, to: &targets)
      starts.append(targets.count)
    }
    addEdges(spec.handles.count) { [measuredPaths, pathCounts] i, targets in
      // A position that names its own handle does not depend on itself.
      addReads(of: spec.handles[i].position, except: handleBase + i, to: &targets)
      if let rest = spec.handles[i].rest { addReads(of: rest, to: &targets) }
      targets += measuredPaths[pathCounts[i]..<pathCounts[i + 1]]
    }
    addEdges(spec.paths.count) { i, targets in
      guard case .segments(let segments) = spec.paths[i].geometry else { return }
      for segment in segments {
        switch segment.kind {
        case .move(let p), .line(let p): addReads(of: p, to: &targets)
        case .quadratic(let c, let p):
          addReads(of: c, to: &targets)
          addReads(of: p, to: &targets)
        case .cubic(let c1, let c2, let p):
          addReads(of: c1, to: &targets)
          addReads(of: c2, to: &targets)
          addReads(of: p, to: &targets)
        case .close: break
        }
      }
    }
    // Depth-first search in declaration order, so the order and the messages are stable.
    let onStack: UInt8 = 1
    let done: UInt8 = 2
    var state = [UInt8](repeating: 0, count: nodeCount)
    var order: [NodeID] = []
    order.reserveCapacity(nodeCount)
    var reported: Set<Set<NodeID>> = []
    // An explicit stack of (node, next edge to follow) instead of recursion: a chain of
    // 60,000 lets each reading the one before must not overflow the thread's stack.
    var path: [Int] = []
    var pathIndex = [Int](repeating: -1, count: nodeCount)
    var frames: [(node: Int, next: Int)] = []
    for root in 0..<nodeCount where state[root] == 0 {
      state[root] = onStack
      pathIndex[root] = path.count
      path.append(root)
      frames.append((root, 0))
      while let top = frames.last {
        let edge = starts[top.node] + top.next
        guard edge < starts[top.node + 1] else {
          frames.removeLast()
          path.removeLast()
          pathIndex[top.node] = -1
          state[top.node] = done
          order.append(node(top.node))
          continue
        }
        frames[frames.count - 1].next += 1
        let next = targets[edge]
        switch state[next] {
        case done:
          continue
        case onStack:
          let start = pathIndex[next]
          guard start >= 0 else { continue }
          let cycle = path[start...].map(node)
          if reported.insert(Set(cycle)).inserted { reportCycle(cycle) }
        default:
          state[next] = onStack
          pathIndex[next] = path.count
          path.append(next)
          frames.append((next, 0))
        }
      }
    }
    return order
  }

  func describe(_ node: NodeID) -> (String, SourceRef) {
    switch node {
    case .letNode(let i): return (spec.lets[i].name.value, spec.lets[i].name.source)
    case .handle(let i): return (spec.handles[i].name.value, spec.handles[i].name.source)
    case .path(let i): return (spec.paths[i].name.value, spec.paths[i].name.source)
    }
  }

  /// How many parts of a cycle its message names; a longer cycle is summarised, so a
  /// 60,000-let loop gives one short error, not a megabyte.
  static let cyclePartsShown = 8

  mutating func reportCycle(_ cycle: [NodeID]) {
    let parts = cycle.prefix(Self.cyclePartsShown + 1).map(describe)
    let chain: String
    if cycle.count > Self.cyclePartsShown {
      chain =
        parts.prefix(Self.cyclePartsShown).map { "'\($0.0)'" }.joined(separator: " → ")
        + " → … → '\(parts[0].0)' (\(cycle.count) parts)"
    } else {
      chain = (parts + [parts[0]]).map { "'\($0.0)'" }.joined(separator: " → ")
    }
    error(
      parts.count == 1 ? "'\(parts[0].0)' depends on itself" : "dependency cycle: \(chain)",
      at: parts[0].1,
      notes: parts.dropFirst().prefix(Self.cyclePartsShown - 1).map {
        Diagnostic.Note("'\($0.0)' is defined here", at: $0.1.span)
      })
  }

  /// Compiles `expression`, reporting a type or name error; `nil` on error.
  mutating func compile(
    _ expression: Expression, _ symbols: [String: Symbol],
    expect type: CompiledExpression.ValueType?, what: @autoclosure () -> String
  )
    -> CompiledExpression?
  {
    do {
      let compiled = try ExpressionCompiler.compile(expression, symbols: SymbolTable(symbols))
      if let type, compiled.resultType != type {
        error(
          "\(what()) must be \(type == .point ? "a point (x, y)" : "a number"), found \(compiled.resultType == .point ? "a point" : "a number")",
          at: expression.source)
        return nil
      }
      return compiled
    } catch {
      errors.append(error)
      return nil
    }
  }
}
