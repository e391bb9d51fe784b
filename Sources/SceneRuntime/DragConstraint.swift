import RealModule
import SceneGeometry
import SceneGraph
import SceneVocabulary

/// `drag`: how a dragged handle follows the finger (one axis, a direction lock, bounds it
/// rubber-bands past) and what it does when let go: glides on with momentum, bounces back
/// from a bound, or snaps to the target its glide would end nearest.
///
/// Each axis moves on its own (``Glide``): a glide and a spring are both separable, so a
/// 2D fling is two 1D ones with the same time constant, and per-axis snapping falls out.
enum DragConstraint: ConstraintBehavior {
  typealias Parameters = SceneGraph.Drag

  struct State: Sendable {
    /// Whether a pointer holds the handle (the first drag after a grab starts a hold).
    var held = false
    /// Where the handle was when grabbed: the axis lock keeps its other coordinate.
    var grabbedAt = Vector.zero
    /// The axis a direction lock chose, once the finger has moved far enough.
    var lockedAxis: DragAxis?
    /// Where the handle started, which a snap grid counts from.
    var home = Vector.zero
    var x = Glide(still: 0)
    var y = Glide(still: 0)
    var moving = false
    /// The snap target it is going to, named in the `snap` event when it arrives.
    var target: String?
  }

  /// The bounds now, as numbers (infinite where none is given).
  struct Limits {
    var minX = -Double.infinity
    var maxX = Double.infinity
    var minY = -Double.infinity
    var maxY = Double.infinity

    func clamped(_ point: Vector) -> Vector {
      Vector(min(max(point.x, minX), maxX), min(max(point.y, minY), maxY))
    }
  }

  static func limits(_ p: Parameters, in sim: Simulation) -> Limits {
    func value(_ expression: CompiledExpression?, _ fallback: Double) -> Double {
      guard let expression else { return fallback }
      let v = sim.evaluate(expression).x
      return v.isFinite ? v : fallback
    }
    var limits = Limits(
      minX: value(p.bounds.minX, -.infinity), maxX: value(p.bounds.maxX, .infinity),
      minY: value(p.bounds.minY, -.infinity), maxY: value(p.bounds.maxY, .infinity))
    // Crossed bounds (min above max) hold the handle at their middle.
    if limits.minX > limits.maxX { (limits.minX, limits.maxX) = (limits.maxX, limits.minX) }
    if limits.minY > limits.maxY { (limits.minY, limits.maxY) = (limits.maxY, limits.minY) }
    return limits
  }

  static func setUp(_ c: Int, _ p: Parameters, in sim: inout Simulation) {
    sim.dragStates[sim.stateSlots[c]].home = sim.handles[p.handle].position
  }

  static func drag(
    _ c: Int, _ p: Parameters, handle h: Int, to target: Vector, in sim: inout Simulation
  ) -> Bool {
    let s = sim.stateSlots[c]
    if !sim.dragStates[s].held {
      sim.dragStates[s].held = true
      sim.dragStates[s].grabbedAt = sim.handles[h].position
      sim.dragStates[s].lockedAxis = nil
      sim.dragStates[s].moving = false
      sim.dragStates[s].target = nil
    }
    let origin = sim.dragStates[s].grabbedAt
    var point = target
    if p.directionLock && sim.dragStates[s].lockedAxis == nil {
      let offset = target - origin
      if max(abs(offset.x), abs(offset.y)) > SceneGraph.Drag.lockDistance {
        sim.dragStates[s].lockedAxis = abs(offset.x) >= abs(offset.y) ? .x : .y
      } else {
        point = origin
      }
    }
    switch p.axis ?? sim.dragStates[s].lockedAxis {
    case .x?: point.y = origin.y
    case .y?: point.x = origin.x
    case nil: break
    }
    let limits = limits(p, in: sim)
    point.x = resisted(
      point.x, limits.minX, limits.maxX, p.overdrag, dimension: sim.graph.width)
    point.y = resisted(
      point.y, limits.minY, limits.maxY, p.overdrag, dimension: sim.graph.height)
    sim.handles[h].position = point
    return true
  }

  /// `value` past `lower…upper` pulled back by the resistance: iOS's rubber band,
  /// a factor of the overshoot, or a hard stop.
  static func resisted(
    _ value: Double, _ lower: Double, _ upper: Double, _ resistance: SceneGraph.Elastic.Resistance,
    dimension sceneSize: Double
  ) -> Double {
    let bound: Double
    if value > upper {
      bound = upper
    } else if value < lower {
      bound = lower
    } else {
      return value
    }
    let excess = value - bound
    switch resistance {
    case .none:
      return bound
    case .factor(let factor):
      return bound + excess * factor
    case .rubberband(let coefficient, let dimension):
      let d = dimension ?? sceneSize
      guard d > 0 else { return bound }
      // iOS: (1 − 1 / (x·c/d + 1))·d, keeping the sign of the pull.
      return bound + (excess < 0 ? -1 : 1) * (1 - 1 / (abs(excess) * coefficient / d + 1)) * d
    }
  }

  static func release(
    _ c: Int, _ p: Parameters, handle h: Int, velocity: Vector, in sim: inout Simulation
  ) {
    let s = sim.stateSlots[c]
    sim.dragStates[s].held = false
    let position = sim.handles[h].position
    var velocity = velocity
    // A held axis does not move; nor does anything before a direction lock chose one.
    let axis = p.axis ?? sim.dragStates[s].lockedAxis
    let movesX = axis != .y && !(p.directionLock && axis == nil)
    let movesY = axis != .x && !(p.directionLock && axis == nil)
    if !movesX { velocity.x = 0 }
    if !movesY { velocity.y = 0 }
    let limits = limits(p, in: sim)
    var targetX: Double?
    var targetY: Double?
    sim.dragStates[s].target = nil
    if p.snaps {
      let projection = p.momentum ?? SceneGraph.Drag.defaultMomentum
      let projected = limits.clamped(position + velocity * projection.gain)
      if let chosen = snapTarget(
        p, projected: projected, movesX: movesX, movesY: movesY,
        home: sim.dragStates[s].home, grabbed: sim.dragStates[s].grabbedAt, in: sim)
      {
        sim.dragStates[s].target = chosen.name
        if movesX, let x = chosen.x { targetX = x }
        if movesY, let y = chosen.y { targetY = y }
      }
    }
    func axisMotion(
      _ value: Double, _ speed: Double, moves: Bool, target: Double?, _ lower: Double,
      _ upper: Double
    ) -> Glide {
      guard moves else { return Glide(still: value) }
      if let target {
        return Glide(
          springFrom: value, velocity: speed, to: target, model: p.snapSpring, at: sim.time,
          judgingRest: false)
      }
      if value > upper || value < lower {
        // Released past a bound: back to it, with the release speed.
        return Glide(
          springFrom: value, velocity: speed, to: value > upper ? upper : lower,
          model: p.bounceSpring, at: sim.time, judgingRest: false)
      }
      guard let momentum = p.momentum else { return Glide(still: value) }
      return Glide(
        glideFrom: value, velocity: speed, momentum: momentum,
        lower: lower.isFinite ? lower : nil, upper: upper.isFinite ? upper : nil,
        bounce: p.bounceSpring, at: sim.time)
    }
    sim.dragStates[s].x = axisMotion(
      position.x, velocity.x, moves: movesX, target: targetX, limits.minX, limits.maxX)
    sim.dragStates[s].y = axisMotion(
      position.y, velocity.y, moves: movesY, target: targetY, limits.minY, limits.maxY)
    // Rest is judged on both axes together, from the start.
    let x = sim.dragStates[s].x.advance(to: sim.time)
    let y = sim.dragStates[s].y.advance(to: sim.time)
    if Glide.restsTogether(x, y) {
      sim.dragStates[s].x.settle()
      sim.dragStates[s].y.settle()
    }
    let moving = sim.dragStates[s].x.isMoving || sim.dragStates[s].y.isMoving
    sim.dragStates[s].moving = moving
    if moving {
      sim.handles[h].mode = .gliding
    } else {
      // At rest from the release (no momentum, or nowhere to go): said as `elastic` says
      // it, with `rest` in the release's frame (then `snap`, if it is at a target).
      sim.handles[h].mode = .idle
      sim.events.append(SceneEvent(.rest, h))
      arrive(c, handle: h, in: &sim)
    }
  }

  /// The snap target nearest `projected` along the axes the handle moves on.
  ///
  /// A target is a named point or the nearest grid point; `nil` coordinates are axes
  /// it leaves free. With ``SceneGraph/Drag/paging``, only the target nearest where the
  /// handle was grabbed (`grabbed`) and its nearest neighbour on each side along each
  /// moving axis may be chosen (on a grid, the cell it was grabbed in and the next on each
  /// side), so a release moves it at most one page, as iOS's paging does.
  static func snapTarget(
    _ p: Parameters, projected: Vector, movesX: Bool, movesY: Bool, home: Vector,
    grabbed: Vector, in sim: Simulation
  ) -> (name: String, x: Double?, y: Double?)? {
    typealias Candidate = (name: String, x: Double?, y: Double?)
    func distance(_ candidate: Candidate, from point: Vector) -> Double {
      let dx = movesX ? (candidate.x.map { $0 - point.x } ?? 0) : 0
      let dy = movesY ? (candidate.y.map { $0 - point.y } ?? 0) : 0
      return dx * dx + dy * dy
    }
    func nearest(_ candidates: [Candidate], to point: Vector) -> Candidate? {
      var best: Candidate?
      var bestDistance = Double.infinity
      for candidate in candidates {
        let d = distance(candidate, from: point)
        guard d.isFinite, d < bestDistance else { continue }
        bestDistance = d
        best = candidate
      }
      return best
    }
    var points: [Candidate] = p.snapPoints.map { target in
      let point = sim.evaluate(target.point)
      return (target.name, point.x, point.y)
    }
    if p.paging, let start = nearest(points, to: grabbed) {
      var allowed = [start]
      let axes: [(Bool, (Candidate) -> Double?)] = [(movesX, { $0.x }), (movesY, { $0.y })]
      for (moves, along) in axes where moves {
        guard let origin = along(start) else { continue }
        for side in [-1.0, 1.0] {
          // The nearest target beyond the start on this side along this axis.
          let beyond = points.filter { candidate in
            along(candidate).map { ($0 - origin) * side > 1e-9 } ?? false
          }
          let next = beyond.min { a, b in
            abs((along(a) ?? 0) - origin) < abs((along(b) ?? 0) - origin)
          }
          if let next { allowed.append(next) }
        }
      }
      points = allowed
    }
    var candidates = points
    if let grid = p.grid {
      let cell = sim.evaluate(grid)
      func snapped(_ value: Double, _ origin: Double, _ size: Double, from start: Double)
        -> Double?
      {
        guard size > 0, size.isFinite else { return nil }
        var index = ((value - origin) / size).rounded()
        if p.paging {
          let first = ((start - origin) / size).rounded()
          index = min(max(index, first - 1), first + 1)
        }
        guard abs(index) < 1e9 else { return nil }
        return origin + index * size
      }
      let x = snapped(projected.x, home.x, cell.x, from: grabbed.x)
      let y = snapped(projected.y, home.y, cell.y, from: grabbed.y)
      // Every grid point answers to one name, which `expect:` lines can write.
      if x != nil || y != nil { candidates.append(("grid", x, y)) }
    }
    return nearest(candidates, to: projected)
  }

  static func step(_ c: Int, _ p: Parameters, dt: Double, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    let h = p.handle
    guard sim.dragStates[s].moving, sim.handles[h].mode == .gliding else { return }
    let x = sim.dragStates[s].x.advance(to: sim.time)
    let y = sim.dragStates[s].y.advance(to: sim.time)
    sim.handles[h].position = Vector(x.value, y.value)
    sim.handles[h].velocity = Vector(x.velocity, y.velocity)
    if Glide.restsTogether(x, y) {
      // Both axes at once, exactly where they rest.
      sim.dragStates[s].x.settle()
      sim.dragStates[s].y.settle()
      let end = (
        sim.dragStates[s].x.advance(to: sim.time), sim.dragStates[s].y.advance(to: sim.time)
      )
      sim.handles[h].position = Vector(end.0.value, end.1.value)
      sim.dragStates[s].moving = false
      sim.handles[h].velocity = .zero
      sim.handles[h].mode = .idle
      sim.events.append(SceneEvent(.rest, h))
      arrive(c, handle: h, in: &sim)
    }
  }

  static func arrive(_ c: Int, handle h: Int, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    sim.reportSnap(of: h, to: sim.dragStates[s].target)
    sim.dragStates[s].target = nil
  }
}
