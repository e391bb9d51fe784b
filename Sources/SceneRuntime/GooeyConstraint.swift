import SceneGeometry
import SceneGraph
import SceneVocabulary

/// `gooey`: two circles joined by a bridge.
///
/// The anchor shrinks as the ball is pulled
/// away (r = r0 − d / viscosity); the link breaks past `maxDistance` or below
/// `minRadius`, hiding anchor and bridge. Released before the break the ball springs
/// back (`link.restored` when it arrives); after it, the release is `dismissed`.
enum GooeyConstraint: ConstraintBehavior {
  typealias Parameters = SceneGraph.Gooey
  static var drawsPath: Bool { true }

  /// Whether the link holds, kept between frames.
  struct State: Sendable {
    /// Whether the link has broken, and the anchor's radius when whole.
    var broken = false
    var anchorRadius = 0.0
    var releasedBeforeBreak = false
  }

  /// The bridge's shape for `p`'s style.
  static func bridge(_ p: Parameters) -> GooeyBridge.Style {
    p.style == .metaball ? .metaball(maxDistance: p.maxDistance) : .sticky
  }

  static func setUp(_ c: Int, _ p: Parameters, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    sim.gooeyStates[s].anchorRadius = sim.handles[p.anchor].radius
  }

  static func release(
    _ c: Int, _ p: Parameters, handle h: Int, velocity: Vector, in sim: inout Simulation
  ) {
    let s = sim.stateSlots[c]
    if sim.gooeyStates[s].broken {
      sim.events.append(SceneEvent("dismissed", sim.constraintNames[c]))
      sim.handles[h].mode = .idle
      return
    }
    sim.gooeyStates[s].releasedBeforeBreak = true
    if let spring = p.spring {
      sim.handles[h].velocity = velocity
      sim.handles[h].mode = .springing(spring: spring)
    } else {
      sim.handles[h].mode = .idle
    }
  }

  static func step(_ c: Int, _ p: Parameters, dt: Double, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    guard !sim.gooeyStates[s].broken else { return }
    let distance = sim.handles[p.ball].position.distance(to: sim.handles[p.anchor].position)
    let radius = sim.gooeyStates[s].anchorRadius - distance / p.viscosity
    if distance > p.maxDistance || radius < p.minRadius {
      sim.gooeyStates[s].broken = true
      sim.handles[p.anchor].mode = .hidden
      sim.events.append(SceneEvent("link.broke", sim.constraintNames[c]))
    } else {
      sim.handles[p.anchor].radius = max(radius, 0)
    }
  }

  static func path(_ c: Int, _ p: Parameters, in sim: Simulation) -> PathFrame? {
    let s = sim.stateSlots[c]
    let bridge =
      sim.gooeyStates[s].broken
      ? nil
      : GooeyBridge.path(
        anchor: sim.handles[p.anchor].position, anchorRadius: sim.handles[p.anchor].radius,
        ball: sim.handles[p.ball].position, ballRadius: sim.handles[p.ball].radius, style: bridge(p)
      )
    return PathFrame(name: sim.constraintNames[c], path: bridge ?? Path(), isHidden: bridge == nil)
  }
}
