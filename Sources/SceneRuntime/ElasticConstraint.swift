import SceneGeometry
import SceneGraph
import SceneSyntax

/// `elastic`: a handle pulled from its rest resists (a linear factor, iOS rubber-banding,
/// or not at all) and returns when released, by a spring or by a tween.
enum ElasticConstraint: ConstraintBehavior {
  struct Parameters: Sendable {
    enum Resistance: Sendable {
      case none
      case factor(Double)
      /// The coefficient, and the dimension (the scene's size along each axis when `nil`).
      case rubberband(coefficient: Double, dimension: Double?)
    }

    enum Return: Sendable {
      case spring(Int)
      case speed(Double, Easing)
      case duration(Double, Easing)
    }

    var handle: Int
    var resistance: Resistance
    var returnMotion: Return
  }

  static func parameters(of kind: SceneGraph.Constraint.Kind) -> Parameters? {
    guard case .elastic(let handle, let resistance, let returnMotion) = kind else { return nil }
    let plain: Parameters.Resistance =
      switch resistance {
      case .none: .none
      case .factor(let factor): .factor(factor.value)
      case .rubberband(let coefficient, let dimension):
        .rubberband(coefficient: coefficient.value, dimension: dimension?.value)
      }
    let motion: Parameters.Return =
      switch returnMotion {
      case .spring(let spring): .spring(spring)
      case .speed(let speed, let easing): .speed(speed, easing)
      case .duration(let duration, let easing): .duration(duration, easing)
      }
    return Parameters(handle: handle, resistance: plain, returnMotion: motion)
  }

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
