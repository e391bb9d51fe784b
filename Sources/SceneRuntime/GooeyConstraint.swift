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
    /// What the bridge in the frame was drawn from, or `nil` when it is to be drawn anew.
    var drawnFrom: BridgeInputs?
  }

  /// The circles a bridge is drawn from, as bits: a bridge drawn from the same bits is
  /// the same bridge (comparing as numbers would take −0 for 0).
  struct BridgeInputs: Equatable {
    var anchorX, anchorY, anchorRadius, ballX, ballY, ballRadius: UInt64

    init(anchor: Vector, anchorRadius: Double, ball: Vector, ballRadius: Double) {
      anchorX = anchor.x.bitPattern
      anchorY = anchor.y.bitPattern
      self.anchorRadius = anchorRadius.bitPattern
      ballX = ball.x.bitPattern
      ballY = ball.y.bitPattern
      self.ballRadius = ballRadius.bitPattern
    }
  }

  /// The bridge's shape for `p`'s style.
  static func bridge(_ p: Parameters) -> GooeyBridge.Style {
    p.style == .metaball ? .metaball(maxDistance: p.maxDistance) : .sticky
  }

  static func setUp(_ c: Int, _ p: Parameters, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    sim.gooeyStates[s].anchorRadius = sim.handles[p.anchor].radius
  }

  /// Whole again: the anchor shows at its own radius, and the link may break anew.
  static func resume(_ c: Int, _ p: Parameters, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    sim.gooeyStates[s].broken = false
    sim.gooeyStates[s].releasedBeforeBreak = false
    sim.gooeyStates[s].drawnFrom = nil
    if sim.handles[p.anchor].mode == .hidden { sim.handles[p.anchor].mode = .idle }
    sim.handles[p.anchor].radius = sim.gooeyStates[s].anchorRadius
    step(c, p, dt: 0, in: &sim)
  }

  static func release(
    _ c: Int, _ p: Parameters, handle h: Int, velocity: Vector, in sim: inout Simulation
  ) {
    let s = sim.stateSlots[c]
    if sim.gooeyStates[s].broken {
      sim.events.append(SceneEvent(.dismissed, sim.constraintPaths[c]))
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
      sim.events.append(SceneEvent(.linkBroke, sim.constraintPaths[c]))
    } else {
      sim.handles[p.anchor].radius = max(radius, 0)
    }
  }

  /// Redraws the bridge, unless its circles are exactly as they were for the last one:
  /// most links rest most of the time.
  static func draw(
    _ c: Int, _ p: Parameters, into shown: inout PathFrame, in sim: inout Simulation
  ) {
    let s = sim.stateSlots[c]
    guard !sim.gooeyStates[s].broken else {
      shown.path.subpaths.removeAll(keepingCapacity: true)
      shown.isHidden = true
      sim.gooeyStates[s].drawnFrom = nil
      return
    }
    let anchor = sim.handles[p.anchor]
    let ball = sim.handles[p.ball]
    let inputs = BridgeInputs(
      anchor: anchor.position, anchorRadius: anchor.radius, ball: ball.position,
      ballRadius: ball.radius)
    guard inputs != sim.gooeyStates[s].drawnFrom else { return }
    let drawn = GooeyBridge.write(
      anchor: anchor.position, anchorRadius: anchor.radius, ball: ball.position,
      ballRadius: ball.radius, style: bridge(p), into: &shown.path)
    shown.isHidden = !drawn
    sim.gooeyStates[s].drawnFrom = inputs
  }
}
