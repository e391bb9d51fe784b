import SceneGeometry
import SceneGraph

/// Runs a scene from start to end at a fixed time step, with its gesture script playing
/// the pointers: the driver behind `scenec run` and scene tests.
///
/// Frame `n` is at time `n / fps` exactly. A fixed-length scene has frames 0 through
/// `duration × fps`; an `until-rest` scene stops at the first frame after the gesture has
/// ended where every handle is at rest, or at its limit.
public struct SceneRunner: Sendable {
  public private(set) var simulation: Simulation
  var player: GesturePlayer
  public let fps: Double
  /// The run's time step, made once from `fps`.
  let clock: FrameClock
  /// The last frame index that may be produced.
  public let lastFrame: Int
  let untilRest: Bool
  var next = 0
  var finished = false
  /// Whether an `until-rest` run reached its `maxDuration` with the gesture still playing
  /// or handles still moving (``Simulation/movingHandleNames``) instead of coming to rest.
  public private(set) var stoppedAtLimit = false
  /// Whether the gesture script has played to its end.
  public var gestureIsFinished: Bool { player.isFinished }

  /// The most frames a run may have unless the caller allows more.
  public static let defaultMaxFrames = 100_000

  /// - Parameters:
  ///   - graph: The resolved scene.
  ///   - fps: Overrides the scene's frame rate.
  ///   - duration: Overrides the scene's length, in seconds.
  ///   - maxFrames: The most frames the run may have.
  /// - Throws: ``RuntimeError`` when the run would exceed `maxFrames`, or the scene's
  ///   initial state is not finite.
  public init(
    graph: SceneGraph, fps: Double? = nil, duration: Double? = nil,
    maxFrames: Int = SceneRunner.defaultMaxFrames
  ) throws(RuntimeError) {
    try self.init(
      graph: graph, fps: fps, duration: duration, maxFrames: maxFrames,
      sharingFrameConstantParts: true)
  }

  /// A run whose simulation shares its programs' frame-constant parts or not, for tests
  /// (see ``SimulationPlan/init(graph:sharingFrameConstantParts:)``).
  init(
    graph: SceneGraph, fps: Double? = nil, duration: Double? = nil, maxFrames: Int,
    sharingFrameConstantParts: Bool
  ) throws(RuntimeError) {
    try self.init(
      plan: SimulationPlan(graph: graph, sharingFrameConstantParts: sharingFrameConstantParts),
      fps: fps, duration: duration, maxFrames: maxFrames)
  }

  /// A run of a scene whose plan is already made (another run of it made it): nothing is
  /// worked out again.
  public init(
    plan: SimulationPlan, fps: Double? = nil, duration: Double? = nil,
    maxFrames: Int = SceneRunner.defaultMaxFrames
  ) throws(RuntimeError) {
    let graph = plan.graph
    simulation = try Simulation(plan: plan)
    player = GesturePlayer(tracks: graph.gesture)
    self.fps = fps ?? graph.fps
    guard FrameClock.fpsRange.contains(self.fps) else {
      throw RuntimeError(
        "fps must be \(FrameClock.fpsRangeDescription), found \(self.fps.shortestDescription)",
        at: nil)
    }
    let seconds: Double
    if let duration {
      seconds = duration
      untilRest = false
    } else {
      switch graph.duration {
      case .seconds(let s):
        seconds = s
        untilRest = false
      case .untilRest(let limit):
        seconds = limit
        untilRest = true
      }
    }
    clock = FrameClock(fps: self.fps)
    let frames = clock.lastFrame(after: seconds)
    guard frames.isFinite, frames <= Double(maxFrames) else {
      throw RuntimeError(
        "the scene would run \(frames.isFinite ? frames.shortestDescription : "too many") frames; the limit is \(maxFrames) (raise it with --max-frames)",
        at: nil)
    }
    lastFrame = Int(frames)
  }

  /// The next frame, or `nil` when the run is over.
  public mutating func nextFrame() throws(RuntimeError) -> Frame? {
    guard !finished, next <= lastFrame else { return nil }
    let time = clock.time(ofFrame: next)
    let events = Self.play(&player, through: time, reading: simulation.expressionReader)
    for event in events { simulation.apply(event, atItsTime: next > 0) }
    let frame = next == 0 ? try simulation.currentFrame() : try simulation.step(to: time)
    next += 1
    if untilRest && player.isFinished && simulation.isAtRest {
      finished = true
    } else if untilRest && next > lastFrame {
      stoppedAtLimit = true
    }
    return frame
  }

  /// The player's events through `time`, its expressions read by `reader` (see
  /// ``ExpressionReader``), which is gone before the simulation changes.
  private static func play(
    _ player: inout GesturePlayer, through time: Double, reading reader: ExpressionReader
  ) -> [PointerEvent] {
    player.events(through: time, evaluate: reader.evaluate)
  }

  /// Every frame of the run.
  public static func frames(
    of graph: SceneGraph, fps: Double? = nil, duration: Double? = nil
  ) throws(RuntimeError) -> [Frame] {
    var runner = try SceneRunner(graph: graph, fps: fps, duration: duration)
    var frames: [Frame] = []
    while let frame = try runner.nextFrame() { frames.append(frame) }
    return frames
  }
}

extension Simulation {
  /// `true` when no pointer is down and every handle is at rest (``isAtRest(handle:)``).
  public var isAtRest: Bool {
    pointersDown == 0 && handles.indices.allSatisfy { isAtRest(handle: $0) }
      && (pathMotions.isEmpty || motionsAreAtRest(pathMotions))
      && (!hasMachines || !machineTimerIsPending)
  }

  /// Whether handle `i` is at rest: idle or hidden, or following an expression that does
  /// not read time (with no pointer down it has nothing left to follow); and its animated
  /// properties still (``motionsAreAtRest(handle:)``).
  ///
  /// Springs, tweens,
  /// drags and `animate` are motion; so is an expression of `time`, which never settles.
  public func isAtRest(handle i: Int) -> Bool {
    let still: Bool
    switch handles[i].mode {
    case .idle, .hidden: still = true
    case .following: still = !handleFollowsTime[i]
    case .dragging, .springing, .tweening, .animating, .gliding: still = false
    }
    return still && (motionRanges[i].isEmpty || motionsAreAtRest(handle: i))
      && pinchTransformIsAtRest(i)
  }

  /// The names of the handles not at rest, in scene order.
  public var movingHandleNames: [String] {
    handles.indices.filter { !isAtRest(handle: $0) }.map { handleNames[$0] }
  }
}
