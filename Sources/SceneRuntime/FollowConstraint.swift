import SceneGeometry
import SceneGraph

/// `follow`: the handle stays on a path. Dragged, it sits at the nearest point of the
/// path to the finger, tracked so it carries on across self-crossings; released with a
/// spring, it springs back along the path, in arc length, never leaving it.
enum FollowConstraint: ConstraintBehavior {
  static func setUp(_ c: Int, in sim: inout Simulation) {
    guard case .follow(let h, let path, let orient, _, _, let rest, _) = sim.graph.constraints[c].kind,
      let measured = sim.measuredPaths[path]
    else { return }
    let start = measured.nearest(to: sim.handles[h].position)
    sim.constraints[c].length = start.length
    sim.constraints[c].restLength = rest.map { $0 * measured.length } ?? start.length
    sim.handles[h].position = start.point
    if orient { sim.handles[h].angle = start.position.angle }
  }

  static func drag(_ c: Int, handle h: Int, to target: Vector, in sim: inout Simulation) -> Bool {
    guard case .follow(_, let path, let orient, _, _, _, let hysteresis) = sim.graph.constraints[c].kind,
      let measured = sim.measuredPaths[path]
    else { return false }
    sim.constraints[c].springingAlongPath = false
    let answer = measured.nearest(to: target, continuingFrom: sim.constraints[c].length, hysteresis: hysteresis)
    sim.constraints[c].length = answer.length
    sim.handles[h].position = answer.point
    if orient { sim.handles[h].angle = answer.position.angle }
    return true
  }

  static func release(_ c: Int, handle h: Int, velocity: Vector, in sim: inout Simulation) {
    guard case .follow(_, let path, _, _, let spring, _, _) = sim.graph.constraints[c].kind,
      let spring, let measured = sim.measuredPaths[path]
    else {
      sim.handles[h].mode = .idle
      return
    }
    // The velocity along the path is the release velocity's part along the tangent.
    let tangent = measured.position(atLength: sim.constraints[c].length).tangent
    sim.constraints[c].lengthVelocity = velocity.dot(tangent)
    sim.constraints[c].springingAlongPath = true
    sim.handles[h].mode = .springing(spring: spring)
  }

  static func step(_ c: Int, dt: Double, in sim: inout Simulation) {
    guard case .follow(let h, let path, let orient, let wrap, let spring, _, _) = sim.graph.constraints[c].kind,
      let measured = sim.measuredPaths[path]
    else { return }
    if sim.constraints[c].springingAlongPath, let spring, dt > 0 {
      var displacement = sim.constraints[c].length - sim.constraints[c].restLength
      if wrap && measured.length > 0 {
        // Round a closed path the short way.
        displacement = displacement.truncatingRemainder(dividingBy: measured.length)
        if displacement > measured.length / 2 { displacement -= measured.length }
        if displacement < -measured.length / 2 { displacement += measured.length }
      }
      var velocity = sim.constraints[c].lengthVelocity
      sim.propagators[spring].step(&displacement, &velocity)
      sim.constraints[c].length = measured.normalizedLength(sim.constraints[c].restLength + displacement)
      sim.constraints[c].lengthVelocity = velocity
      if sim.springModels[spring].isAtRest(displacement: displacement, velocity: velocity) {
        sim.constraints[c].length = sim.constraints[c].restLength
        sim.constraints[c].springingAlongPath = false
        sim.constraints[c].lengthVelocity = 0
        sim.handles[h].mode = .idle
        sim.events.append(SceneEvent("rest", sim.handleNames[h]))
      }
    }
    if sim.handles[h].mode != .dragging {
      let position = measured.position(atLength: sim.constraints[c].length)
      sim.handles[h].position = position.point
      if orient { sim.handles[h].angle = position.angle }
    }
    sim.handles[h].rest = measured.position(atLength: sim.constraints[c].restLength).point
  }
}
