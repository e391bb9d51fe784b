import SceneGeometry
import SceneGraph
import SceneVocabulary

/// `animate`: time moves the handle along a path at uniform speed along the path (exact
/// arc length, not the curve parameter), once, looping or ping-ponging, eased per pass.
enum AnimateConstraint: ConstraintBehavior {
  typealias Parameters = SceneGraph.Animate

  /// How far the animation has got, kept between frames.
  struct State: Sendable {
    /// How many passes have completed, for `loop` events.
    var passes = 0.0
    /// Where on the path the handle was last placed: the next frame's place is close by.
    var cursor = MeasuredPath.Cursor()
  }

  static func setUp(_ c: Int, _ p: Parameters, in sim: inout Simulation) {
    sim.handles[p.handle].mode = .animating
    step(c, p, dt: 0, in: &sim)
  }

  static func release(
    _ c: Int, _ p: Parameters, handle h: Int, velocity: Vector, in sim: inout Simulation
  ) {
    sim.handles[h].mode = .animating
  }

  static func step(_ c: Int, _ p: Parameters, dt: Double, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    let h = p.handle
    // A negative delay starts part-way through.
    let passes = max(sim.time - p.delay, 0) / p.duration
    let whole = passes.rounded(.down)
    var fraction: Double
    switch p.repeatMode {
    case .once:
      fraction = min(passes, 1)
      if passes >= 1 && sim.handles[h].mode == .animating {
        sim.handles[h].mode = .idle
        sim.events.append(SceneEvent(.rest, h))
      }
    case .loop:
      fraction = passes - whole
    case .pingPong:
      // Parity of a Double: no Int conversion to trap however long a simulation runs.
      fraction =
        whole.truncatingRemainder(dividingBy: 2) == 0 ? passes - whole : 1 - (passes - whole)
    }
    if p.repeatMode != .once && whole > sim.animateStates[s].passes {
      sim.animateStates[s].passes = whole
      sim.events.append(SceneEvent(.loop, h))
    }
    guard sim.hasMeasurement[p.path] else { return }
    let length = TimingCurve(p.easing).value(at: fraction) * sim.measuredPaths[p.path].length
    let position = sim.measuredPaths.withUnsafeBufferPointer {
      $0[p.path].position(atLength: length, cursor: &sim.animateStates[s].cursor)
    }
    sim.handles[h].position = position.point
    if p.orient { sim.handles[h].angle = position.angle }
  }
}
