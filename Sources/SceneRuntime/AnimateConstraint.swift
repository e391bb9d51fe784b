import SceneGeometry
import SceneGraph

/// `animate`: time moves the handle along a path at uniform speed along the path (exact
/// arc length, not the curve parameter), once, looping or ping-ponging, eased per pass.
enum AnimateConstraint: ConstraintBehavior {
  static func setUp(_ c: Int, in sim: inout Simulation) {
    guard case .animate(let h, _, _, _, _, _, _) = sim.graph.constraints[c].kind else { return }
    sim.handles[h].mode = .animating
    step(c, dt: 0, in: &sim)
  }

  static func release(_ c: Int, handle h: Int, velocity: Vector, in sim: inout Simulation) {
    sim.handles[h].mode = .animating
  }

  static func step(_ c: Int, dt: Double, in sim: inout Simulation) {
    guard case .animate(let h, let path, let duration, let repeatMode, let easing, let orient, let delay) =
      sim.graph.constraints[c].kind, let measured = sim.measuredPaths[path]
    else { return }
    // A negative delay starts part-way through.
    let passes = max(sim.time - delay, 0) / duration
    let whole = passes.rounded(.down)
    var fraction: Double
    switch repeatMode {
    case .once:
      fraction = min(passes, 1)
      if passes >= 1 && sim.handles[h].mode == .animating {
        sim.handles[h].mode = .idle
        sim.events.append(SceneEvent("rest", sim.handleNames[h]))
      }
    case .loop:
      fraction = passes - whole
    case .pingPong:
      fraction = Int(whole) % 2 == 0 ? passes - whole : 1 - (passes - whole)
    }
    if repeatMode != .once && Int(whole) > sim.constraints[c].passes {
      sim.constraints[c].passes = Int(whole)
      sim.events.append(SceneEvent("loop", sim.handleNames[h]))
    }
    let position = measured.position(atLength: TimingCurve(easing).value(at: fraction) * measured.length)
    sim.handles[h].position = position.point
    if orient { sim.handles[h].angle = position.angle }
  }
}
