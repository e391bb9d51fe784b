import SceneGeometry
import SceneGraph
import SceneVocabulary

/// What a constraint kind does to the simulation: the one interface every kind
/// implements, each in its own file.
///
/// A kind is a type with static hooks that work on the simulation in place; the hooks it
/// does not need keep their defaults. Each kind reads its settings from `Parameters`, the
/// graph's own struct for the kind (``SceneGraph/Follow`` and the others), kept in an
/// array per kind (``Simulation/followParameters`` and the others) without the
/// constraint's names and source locations, so a call never copies those, nor the whole
/// `Kind` enum, out of an array.
///
/// The dispatches below are exhaustive `switch`es over the constraint's keyword, and
/// `Simulation.init` files each ``SceneGraph/Constraint/Kind`` by an exhaustive `switch`: a
/// new kind does not compile until each names its behaviour (the recipe is in
/// `SceneGraph.Constraints.swift`). Dispatching by `switch` rather than through
/// `any ConstraintBehavior.Type` keeps every call static, so nothing per constraint per
/// frame goes through an existential.
protocol ConstraintBehavior {
  associatedtype Parameters: Sendable
  /// Puts the constraint's handles where the constraint says they start.
  static func setUp(_ c: Int, _ p: Parameters, in simulation: inout Simulation)
  /// Places a held handle for a drag target; `false` to let it go exactly to the target.
  static func drag(
    _ c: Int, _ p: Parameters, handle: Int, to target: Vector, in simulation: inout Simulation
  ) -> Bool
  /// The handle was released with a velocity in points per second.
  static func release(
    _ c: Int, _ p: Parameters, handle: Int, velocity: Vector, in simulation: inout Simulation)
  /// Advances the constraint by `dt` seconds (0 applies new input in no time).
  static func step(_ c: Int, _ p: Parameters, dt: Double, in simulation: inout Simulation)
  /// Redraws the path the constraint draws (the gooey bridge) into `shown`, its entry
  /// in the frame, in place: the entry keeps its name, and its path's storage is reused.
  /// Mutating, so that a kind can remember what it drew and skip an unchanged redraw.
  static func draw(
    _ c: Int, _ p: Parameters, into shown: inout PathFrame, in simulation: inout Simulation)
  /// The constraint is on again after a state turned it off: it starts afresh from where
  /// its handles are now.
  static func resume(_ c: Int, _ p: Parameters, in simulation: inout Simulation)
  /// Whether ``step(_:_:dt:in:)`` does anything: kinds that only react to drags and
  /// releases are left out of the per-frame loop.
  static var stepsEachFrame: Bool { get }
  /// Whether the kind draws a path: only those kinds have an entry in the frame's paths,
  /// redrawn by ``draw(_:_:into:in:)`` each frame.
  static var drawsPath: Bool { get }
}

extension ConstraintBehavior {
  static func setUp(_ c: Int, _ p: Parameters, in simulation: inout Simulation) {}
  static func drag(
    _ c: Int, _ p: Parameters, handle: Int, to target: Vector, in simulation: inout Simulation
  ) -> Bool {
    false
  }
  static func release(
    _ c: Int, _ p: Parameters, handle: Int, velocity: Vector, in simulation: inout Simulation
  ) {
    simulation.handles[handle].mode = .idle
  }
  static func step(_ c: Int, _ p: Parameters, dt: Double, in simulation: inout Simulation) {}
  static func draw(
    _ c: Int, _ p: Parameters, into shown: inout PathFrame, in simulation: inout Simulation
  ) {}
  static func resume(_ c: Int, _ p: Parameters, in simulation: inout Simulation) {}
  static var stepsEachFrame: Bool { true }
  static var drawsPath: Bool { false }
}

// MARK: - Dispatch

extension Simulation {
  mutating func setUpConstraint(_ c: Int) {
    let s = stateSlots[c]
    switch keywords[c] {
    case .follow: FollowConstraint.setUp(c, followParameters[s], in: &self)
    case .elastic: ElasticConstraint.setUp(c, elasticParameters[s], in: &self)
    case .gooey: GooeyConstraint.setUp(c, gooeyParameters[s], in: &self)
    case .animate: AnimateConstraint.setUp(c, animateParameters[s], in: &self)
    case .drag: DragConstraint.setUp(c, dragParameters[s], in: &self)
    }
  }

  mutating func resumeConstraint(_ c: Int) {
    let s = stateSlots[c]
    switch keywords[c] {
    case .follow: FollowConstraint.resume(c, followParameters[s], in: &self)
    case .elastic: ElasticConstraint.resume(c, elasticParameters[s], in: &self)
    case .gooey: GooeyConstraint.resume(c, gooeyParameters[s], in: &self)
    case .animate: AnimateConstraint.resume(c, animateParameters[s], in: &self)
    case .drag: DragConstraint.resume(c, dragParameters[s], in: &self)
    }
  }

  mutating func dragConstraint(_ c: Int, handle: Int, to target: Vector) -> Bool {
    let s = stateSlots[c]
    switch keywords[c] {
    case .follow:
      return FollowConstraint.drag(c, followParameters[s], handle: handle, to: target, in: &self)
    case .elastic:
      return ElasticConstraint.drag(c, elasticParameters[s], handle: handle, to: target, in: &self)
    case .gooey:
      return GooeyConstraint.drag(c, gooeyParameters[s], handle: handle, to: target, in: &self)
    case .animate:
      return AnimateConstraint.drag(c, animateParameters[s], handle: handle, to: target, in: &self)
    case .drag:
      return DragConstraint.drag(c, dragParameters[s], handle: handle, to: target, in: &self)
    }
  }

  mutating func releaseConstraint(_ c: Int, handle: Int, velocity: Vector) {
    let s = stateSlots[c]
    switch keywords[c] {
    case .follow:
      FollowConstraint.release(
        c, followParameters[s], handle: handle, velocity: velocity, in: &self)
    case .elastic:
      ElasticConstraint.release(
        c, elasticParameters[s], handle: handle, velocity: velocity, in: &self)
    case .gooey:
      GooeyConstraint.release(c, gooeyParameters[s], handle: handle, velocity: velocity, in: &self)
    case .animate:
      AnimateConstraint.release(
        c, animateParameters[s], handle: handle, velocity: velocity, in: &self)
    case .drag:
      DragConstraint.release(c, dragParameters[s], handle: handle, velocity: velocity, in: &self)
    }
  }

  /// Inlined into ``stepConstraints(dt:)``'s loop, with the steps it dispatches to: out of
  /// line, the stress scene took 236.6 M instructions instead of 232.5 M.
  @inline(__always)
  mutating func stepConstraint(_ c: Int, dt: Double) {
    let s = stateSlots[c]
    switch keywords[c] {
    case .follow: FollowConstraint.step(c, followSteps[s], dt: dt, in: &self)
    case .elastic: ElasticConstraint.step(c, elasticParameters[s], dt: dt, in: &self)
    case .gooey: GooeyConstraint.step(c, gooeyParameters[s], dt: dt, in: &self)
    case .animate: AnimateConstraint.step(c, animateParameters[s], dt: dt, in: &self)
    case .drag: DragConstraint.step(c, dragParameters[s], dt: dt, in: &self)
    }
  }

  mutating func drawConstraint(_ c: Int, into shown: inout PathFrame) {
    if !constraintIsOn(c) {
      shown.path.subpaths.removeAll(keepingCapacity: true)
      shown.isHidden = true
      if keywords[c] == .gooey { gooeyStates[stateSlots[c]].drawnFrom = nil }
      return
    }
    let s = stateSlots[c]
    switch keywords[c] {
    case .follow: FollowConstraint.draw(c, followParameters[s], into: &shown, in: &self)
    case .elastic: ElasticConstraint.draw(c, elasticParameters[s], into: &shown, in: &self)
    case .gooey: GooeyConstraint.draw(c, gooeyParameters[s], into: &shown, in: &self)
    case .animate: AnimateConstraint.draw(c, animateParameters[s], into: &shown, in: &self)
    case .drag: DragConstraint.draw(c, dragParameters[s], into: &shown, in: &self)
    }
  }
}
