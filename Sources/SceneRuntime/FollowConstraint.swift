import SceneGeometry
import SceneGraph

/// `follow`: the handle stays on a path.
///
/// Dragged, it sits at the nearest point of the
/// path to the finger, tracked so it carries on across self-crossings; released with a
/// spring, it springs back along the path, in arc length, never leaving it.
enum FollowConstraint: ConstraintBehavior {
  struct Parameters: Sendable {
    var handle: Int
    var path: Int
    var orient: Bool
    var wrap: Bool
    var spring: Int?
    /// The rest as a fraction of the path's length; `nil` for where it started.
    var rest: Double?
    var hysteresis: Double
  }

  static func parameters(of kind: SceneGraph.Constraint.Kind) -> Parameters? {
    guard
      case .follow(
        let handle, let path, let orient, let wrap, let spring, let rest, let hysteresis) = kind
    else {
      return nil
    }
    return Parameters(
      handle: handle, path: path, orient: orient, wrap: wrap, spring: spring, rest: rest,
      hysteresis: hysteresis)
  }

  static func setUp(_ c: Int, _ p: Parameters, in sim: inout Simulation) {
    guard
      let start = sim.measured(
        p.path, { [point = sim.handles[p.handle].position] in $0.nearest(to: point) }),
      let total = sim.measured(p.path, { $0.length })
    else { return }
    sim.constraints[c].length = start.length
    sim.constraints[c].restLength = p.rest.map { $0 * total } ?? start.length
    sim.handles[p.handle].position = start.point
    if p.orient { sim.handles[p.handle].angle = start.position.angle }
  }

  static func drag(
    _ c: Int, _ p: Parameters, handle h: Int, to target: Vector, in sim: inout Simulation
  ) -> Bool {
    let continuing = sim.constraints[c].length
    guard
      let answer = sim.measured(
        p.path,
        {
          $0.nearest(
            to: target, continuingFrom: continuing, hysteresis: p.hysteresis, wraps: p.wrap)
        })
    else { return false }
    sim.constraints[c].springingAlongPath = false
    sim.constraints[c].length = answer.length
    sim.constraints[c].placedLength = .nan
    sim.handles[h].position = answer.point
    if p.orient { sim.handles[h].angle = answer.position.angle }
    return true
  }

  static func release(
    _ c: Int, _ p: Parameters, handle h: Int, velocity: Vector, in sim: inout Simulation
  ) {
    guard let spring = p.spring,
      let tangent = sim.measured(
        p.path, { [length = sim.constraints[c].length] in $0.position(atLength: length).tangent })
    else {
      sim.handles[h].mode = .idle
      return
    }
    // The velocity along the path is the release velocity's part along the tangent.
    sim.constraints[c].lengthVelocity = velocity.dot(tangent)
    sim.constraints[c].springingAlongPath = true
    sim.handles[h].mode = .springing(spring: spring)
  }

  static func step(_ c: Int, _ p: Parameters, dt: Double, in sim: inout Simulation) {
    let h = p.handle
    let pathMoves = sim.pathIsDynamic[p.path]
    // A handle at rest on a path that does not change stays where it was placed: the
    // inverse arc length, the costly part, runs only when something moved.
    if !pathMoves && !sim.constraints[c].springingAlongPath && sim.constraints[c].restPlaced
      && (sim.handles[h].mode == .dragging
        || sim.constraints[c].placedLength == sim.constraints[c].length)
    {
      return
    }
    guard let total = sim.measured(p.path, { $0.length }) else { return }
    if sim.constraints[c].springingAlongPath, let spring = p.spring, dt > 0 {
      var displacement = sim.constraints[c].length - sim.constraints[c].restLength
      if p.wrap && total > 0 {
        // Round a closed path the short way.
        displacement = displacement.truncatingRemainder(dividingBy: total)
        if displacement > total / 2 { displacement -= total }
        if displacement < -total / 2 { displacement += total }
      }
      var velocity = sim.constraints[c].lengthVelocity
      sim.propagators[spring].step(&displacement, &velocity)
      sim.constraints[c].length =
        sim.measured(
          p.path,
          { [target = sim.constraints[c].restLength + displacement] in
            $0.normalizedLength(target, wraps: p.wrap)
          })
        ?? sim.constraints[c].length
      sim.constraints[c].lengthVelocity = velocity
      if sim.springModels[spring].isAtRest(displacement: displacement, velocity: velocity) {
        sim.constraints[c].length = sim.constraints[c].restLength
        sim.constraints[c].springingAlongPath = false
        sim.constraints[c].lengthVelocity = 0
        sim.handles[h].mode = .idle
        sim.events.append(SceneEvent("rest", sim.handleNames[h]))
      }
    }
    if sim.handles[h].mode != .dragging
      && (pathMoves || sim.constraints[c].placedLength != sim.constraints[c].length)
    {
      let length = sim.constraints[c].length
      if let position = sim.measured(p.path, { $0.position(atLength: length) }) {
        sim.handles[h].position = position.point
        if p.orient { sim.handles[h].angle = position.angle }
        sim.constraints[c].placedLength = length
      }
    }
    if pathMoves || !sim.constraints[c].restPlaced {
      let restLength = sim.constraints[c].restLength
      if let rest = sim.measured(p.path, { $0.position(atLength: restLength).point }) {
        sim.handles[h].rest = rest
        sim.constraints[c].restPlaced = true
      }
    }
  }
}
