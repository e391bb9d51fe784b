import SceneGeometry
import SceneGraph

/// `gooey`: two circles joined by a bridge. The anchor shrinks as the ball is pulled
/// away (r = r0 − d / viscosity); the link breaks past `maxDistance` or below
/// `minRadius`, hiding anchor and bridge. Released before the break the ball springs
/// back (`link.restored` when it arrives); after it, the release is `dismissed`.
enum GooeyConstraint: ConstraintBehavior {
  static func setUp(_ c: Int, in sim: inout Simulation) {
    guard case .gooey(let anchor, _, _, _, _, _, _, _) = sim.graph.constraints[c].kind else { return }
    sim.constraints[c].anchorRadius = sim.graph.handles[anchor].radius
  }

  static func release(_ c: Int, handle h: Int, velocity: Vector, in sim: inout Simulation) {
    guard case .gooey(_, _, _, _, _, let spring, _, _) = sim.graph.constraints[c].kind else { return }
    if sim.constraints[c].broken {
      sim.events.append(SceneEvent("dismissed", sim.constraintName(c)))
      sim.handles[h].mode = .idle
      return
    }
    sim.constraints[c].releasedBeforeBreak = true
    if let spring {
      sim.handles[h].velocity = velocity
      sim.handles[h].mode = .springing(spring: spring)
    } else {
      sim.handles[h].mode = .idle
    }
  }

  static func step(_ c: Int, dt: Double, in sim: inout Simulation) {
    guard case .gooey(let anchor, let ball, let viscosity, let maxDistance, let minRadius, _, _, _) =
      sim.graph.constraints[c].kind, !sim.constraints[c].broken
    else { return }
    let distance = sim.handles[ball].position.distance(to: sim.handles[anchor].position)
    let radius = sim.constraints[c].anchorRadius - distance / viscosity
    if distance > maxDistance || radius < minRadius {
      sim.constraints[c].broken = true
      sim.handles[anchor].mode = .hidden
      sim.events.append(SceneEvent("link.broke", sim.constraintName(c)))
    } else {
      sim.handles[anchor].radius = max(radius, 0)
    }
  }

  static func path(_ c: Int, in sim: Simulation) -> PathFrame? {
    guard case .gooey(let anchor, let ball, _, let maxDistance, _, _, let style, _) = sim.graph.constraints[c].kind
    else { return nil }
    let bridge =
      sim.constraints[c].broken
      ? nil
      : GooeyBridge.path(
        anchor: sim.handles[anchor].position, anchorRadius: sim.handles[anchor].radius,
        ball: sim.handles[ball].position, ballRadius: sim.handles[ball].radius,
        style: style == .metaball ? .metaball(maxDistance: maxDistance) : .sticky)
    return PathFrame(name: sim.constraintName(c), path: bridge ?? Path(), isHidden: bridge == nil)
  }
}
