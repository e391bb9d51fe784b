import SceneGeometry
import SceneGraph

/// What a constraint kind does to the simulation: the one interface every kind
/// implements, each in its own file.
///
/// A kind is a type with static hooks that work on the simulation in place; the hooks it
/// does not need keep their defaults. ``ConstraintRegistry`` maps each kind of the graph
/// to its type: adding a kind is one new file plus one line there.
protocol ConstraintBehavior {
  /// Puts the constraint's handles where the constraint says they start.
  static func setUp(_ c: Int, in simulation: inout Simulation)
  /// Places a held handle for a drag target; `false` to let it go exactly to the target.
  static func drag(_ c: Int, handle: Int, to target: Vector, in simulation: inout Simulation) -> Bool
  /// The handle was released with a velocity in points per second.
  static func release(_ c: Int, handle: Int, velocity: Vector, in simulation: inout Simulation)
  /// Advances the constraint by `dt` seconds (0 applies new input in no time).
  static func step(_ c: Int, dt: Double, in simulation: inout Simulation)
  /// A path the constraint draws, if any (the gooey bridge).
  static func path(_ c: Int, in simulation: Simulation) -> PathFrame?
}

extension ConstraintBehavior {
  static func setUp(_ c: Int, in simulation: inout Simulation) {}
  static func drag(_ c: Int, handle: Int, to target: Vector, in simulation: inout Simulation) -> Bool { false }
  static func release(_ c: Int, handle: Int, velocity: Vector, in simulation: inout Simulation) {
    simulation.handles[handle].mode = .idle
  }
  static func step(_ c: Int, dt: Double, in simulation: inout Simulation) {}
  static func path(_ c: Int, in simulation: Simulation) -> PathFrame? { nil }
}

/// Which type implements each constraint kind.
enum ConstraintRegistry {
  static func behavior(of kind: SceneGraph.Constraint.Kind) -> any ConstraintBehavior.Type {
    switch kind {
    case .follow: return FollowConstraint.self
    case .elastic: return ElasticConstraint.self
    case .gooey: return GooeyConstraint.self
    case .animate: return AnimateConstraint.self
    }
  }
}
