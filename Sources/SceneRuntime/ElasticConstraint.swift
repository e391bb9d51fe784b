import SceneGeometry
import SceneGraph

/// `elastic`: a handle pulled from its rest resists (a linear factor, iOS rubber-banding,
/// or not at all) and returns when released, by a spring or by a tween.
enum ElasticConstraint: ConstraintBehavior {
  typealias Parameters = SceneGraph.Elastic
  static var stepsEachFrame: Bool { false }

  static func drag(
    _ c: Int, _ p: Parameters, handle h: Int, to target: Vector, in sim: inout Simulation
  ) -> Bool {
    let rest = sim.handles[h].rest
    let offset = target - rest
    switch p.resistance {
    case .none:
      sim.handles[h].position = target
    case .factor(let factor):
      sim.handles[h].position = rest + offset * factor
    case .rubberband(let coefficient, let dimension):
      // iOS: (1 − 1 / (x·c/d + 1))·d, per axis, keeping the sign of the pull.
      func band(_ x: Double, _ d: Double) -> Double {
        guard d > 0 else { return 0 }
        return (x < 0 ? -1 : 1) * (1 - 1 / (abs(x) * coefficient / d + 1)) * d
      }
      let dx = dimension ?? sim.graph.width
      let dy = dimension ?? sim.graph.height
      sim.handles[h].position = rest + Vector(band(offset.x, dx), band(offset.y, dy))
    }
    return true
  }

  static func release(
    _ c: Int, _ p: Parameters, handle h: Int, velocity: Vector, in sim: inout Simulation
  ) {
    sim.handles[h].rest = sim.restPosition(of: h) ?? sim.handles[h].rest
    let from = sim.handles[h].position
    let to = sim.handles[h].rest
    switch p.returnMotion {
    case .spring(let spring):
      sim.handles[h].velocity = velocity
      sim.handles[h].mode = .springing(spring: spring)
    case .speed(let speed, let easing):
      sim.tweens[h] = Tween(from: from, to: to, speed: speed, curve: TimingCurve(easing))
      sim.handles[h].mode = .tweening(start: sim.time)
    case .duration(let duration, let easing):
      sim.tweens[h] = Tween(from: from, to: to, duration: duration, curve: TimingCurve(easing))
      sim.handles[h].mode = .tweening(start: sim.time)
    }
  }
}
