import SceneGeometry
import SceneGraph

/// `gooey`: two circles joined by a bridge.
///
/// The anchor shrinks as the ball is pulled
/// away (r = r0 − d / viscosity); the link breaks past `maxDistance` or below
/// `minRadius`, hiding anchor and bridge. Released before the break the ball springs
/// back (`link.restored` when it arrives); after it, the release is `dismissed`.
enum GooeyConstraint: ConstraintBehavior {
  struct Parameters: Sendable {
    var anchor: Int
    var ball: Int
    var viscosity: Double
    var maxDistance: Double
    var minRadius: Double
    var spring: Int?
    var style: GooeyBridge.Style
  }

  static func parameters(of kind: SceneGraph.Constraint.Kind) -> Parameters? {
    guard
      case .gooey(
        let anchor, let ball, let viscosity, let maxDistance, let minRadius, let spring, let style,
        _) = kind
    else { return nil }
    return Parameters(
      anchor: anchor, ball: ball, viscosity: viscosity, maxDistance: maxDistance,
      minRadius: minRadius, spring: spring,
      style: style == .metaball ? .metaball(maxDistance: maxDistance) : .sticky)
  }

  static func setUp(_ c: Int, _ p: Parameters, in sim: inout Simulation) {
    sim.constraints[c].anchorRadius = sim.handles[p.anchor].radius
  }

  static func release(
    _ c: Int, _ p: Parameters, handle h: Int, velocity: Vector, in sim: inout Simulation
  ) {
    if sim.constraints[c].broken {
      sim.events.append(SceneEvent("dismissed", sim.constraintNames[c]))
      sim.handles[h].mode = .idle
      return
    }
    sim.constraints[c].releasedBeforeBreak = true
    if let spring = p.spring {
      sim.handles[h].velocity = velocity
      sim.handles[h].mode = .springing(spring: spring)
    } else {
      sim.handles[h].mode = .idle
    }
  }

  static func step(_ c: Int, _ p: Parameters, dt: Double, in sim: inout Simulation) {
    guard !sim.constraints[c].broken else { return }
    let distance = sim.handles[p.ball].position.distance(to: sim.handles[p.anchor].position)
    let radius = sim.constraints[c].anchorRadius - distance / p.viscosity
    if distance > p.maxDistance || radius < p.minRadius {
      sim.constraints[c].broken = true
      sim.handles[p.anchor].mode = .hidden
      sim.events.append(SceneEvent("link.broke", sim.constraintNames[c]))
    } else {
      sim.handles[p.anchor].radius = max(radius, 0)
    }
  }

  static func path(_ c: Int, _ p: Parameters, in sim: Simulation) -> PathFrame? {
    let bridge =
      sim.constraints[c].broken
      ? nil
      : GooeyBridge.path(
        anchor: sim.handles[p.anchor].position, anchorRadius: sim.handles[p.anchor].radius,
        ball: sim.handles[p.ball].position, ballRadius: sim.handles[p.ball].radius, style: p.style)
    return PathFrame(name: sim.constraintNames[c], path: bridge ?? Path(), isHidden: bridge == nil)
  }
}
