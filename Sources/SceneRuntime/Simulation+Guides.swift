import SceneGeometry
import SceneGraph
import SceneVocabulary

/// What a scene does not draw but a person tuning it wants to see: where each handle can
/// be grabbed, where it rests, the bounds and snap targets of its drag, the detents of its
/// path, and where a released handle is going.
///
/// Worked out from the running simulation, so expressions (bounds that follow a let, a
/// rest that moves) are shown as they are now.
public struct SceneGuides: Sendable, Equatable {
  public struct Handle: Sendable, Equatable {
    public var handle: Int
    /// How far from its centre a press grabs it; `nil` for a handle that is not
    /// draggable, or one grabbed on its drawn shapes.
    public var hitRadius: Double?
    /// Where it returns to when let go, if it has a rest.
    public var rest: Vector?
    /// Its drag's bounds (infinite where none is given), and how far past them a drag
    /// may pull it (the overdrag's rubber-band dimension, or its factor's reach).
    public var bounds: (minX: Double, maxX: Double, minY: Double, maxY: Double)?
    /// The named points it snaps to, and a grid's cell and origin.
    public var snapPoints: [(name: String, point: Vector)] = []
    public var grid: (cell: Vector, origin: Vector)?
    /// Its path's detents, as points.
    public var detents: [(name: String, point: Vector)] = []
    /// Where a released handle's glide or snap ends, while it is on its way.
    public var destination: Vector?

    public static func == (a: Handle, b: Handle) -> Bool {
      a.handle == b.handle && a.hitRadius == b.hitRadius && a.rest == b.rest
        && a.bounds.map { [$0.minX, $0.maxX, $0.minY, $0.maxY] }
          == b.bounds.map { [$0.minX, $0.maxX, $0.minY, $0.maxY] }
        && a.snapPoints.map { $0.name } == b.snapPoints.map { $0.name }
        && a.snapPoints.map { $0.point } == b.snapPoints.map { $0.point }
        && a.grid.map { [$0.cell, $0.origin] } == b.grid.map { [$0.cell, $0.origin] }
        && a.detents.map { $0.name } == b.detents.map { $0.name }
        && a.detents.map { $0.point } == b.detents.map { $0.point }
        && a.destination == b.destination
    }
  }

  /// The handles that have anything to show, in scene order.
  public var handles: [Handle]
}

extension Glide {
  /// Where this axis comes to rest: a glide's end (or the bound it bounces back to), a
  /// spring's rest, or where it stands.
  var destination: Double {
    switch phase {
    case .still(let value): return value
    case .decay(_, let origin, let amplitude, _, let crossing, let bound, _):
      return crossing == nil ? origin + amplitude : bound
    case .spring(_, let rest, _, _, _): return rest
    }
  }
}

extension Simulation {
  /// The guides of every handle that has any, as the scene stands now.
  public func guides() -> SceneGuides {
    let graph = plan.graph
    var byHandle: [Int: SceneGuides.Handle] = [:]
    func guide(_ h: Int) -> SceneGuides.Handle {
      byHandle[h] ?? SceneGuides.Handle(handle: h)
    }
    for (h, spec) in graph.handles.enumerated() {
      var g = guide(h)
      if spec.draggable && !spec.hitsShapes { g.hitRadius = spec.hitRadius }
      if spec.rest != nil { g.rest = handles[h].rest }
      if g.hitRadius != nil || g.rest != nil { byHandle[h] = g }
    }
    for c in plan.keywords.indices {
      let slot = plan.stateSlots[c]
      switch plan.keywords[c] {
      case .drag:
        let p = plan.dragParameters[slot]
        var g = guide(p.handle)
        let limits = DragConstraint.limits(p, in: self)
        if p.bounds.minX != nil || p.bounds.maxX != nil || p.bounds.minY != nil
          || p.bounds.maxY != nil
        {
          g.bounds = (limits.minX, limits.maxX, limits.minY, limits.maxY)
        }
        g.snapPoints = p.snapPoints.map { ($0.name, evaluate($0.point)) }
        if let grid = p.grid { g.grid = (evaluate(grid), dragStates[slot].home) }
        let state = dragStates[slot]
        if !state.held && (state.x.isMoving || state.y.isMoving) {
          g.destination = Vector(state.x.destination, state.y.destination)
        }
        byHandle[p.handle] = g
      case .follow:
        let p = plan.followParameters[slot]
        guard !p.detents.isEmpty, p.path < measuredPaths.count else { continue }
        var g = guide(p.handle)
        let path = measuredPaths[p.path]
        g.detents = p.detents.map { ($0.name, path.point(atLength: $0.fraction * path.length)) }
        byHandle[p.handle] = g
      case .elastic, .gooey, .animate:
        continue
      }
    }
    return SceneGuides(handles: byHandle.keys.sorted().compactMap { byHandle[$0] })
  }
}
