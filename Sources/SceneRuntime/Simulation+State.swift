import SceneGeometry
import SceneGraph

/// The moving parts of one handle.
struct HandleRuntime: Sendable {
  enum Mode: Sendable, Equatable {
    case idle
    case dragging
    /// Springing towards its rest with a preset.
    case springing(spring: Int)
    /// Tweening back to rest, started at `start` seconds; the tween is the handle's entry
    /// in `Simulation.tweens`, kept apart so every handle's state stays small for the
    /// loops that visit them all each frame.
    case tweening(start: Double)
    /// Following a bound expression.
    case following
    /// Moved by time along a path.
    case animating
    /// Gliding, bouncing or snapping after a release, moved by its constraint (`drag`,
    /// `follow` with momentum or detents).
    case gliding
    case hidden
  }

  var position = Vector.zero
  var angle = 0.0
  var radius: Double
  /// Points per second, for springs and for the velocity a release hands on.
  var velocity = Vector.zero
  var rest = Vector.zero
  var mode = Mode.idle

  init(radius: Double) { self.radius = radius }

  var state: HandleState {
    switch mode {
    case .idle: return .idle
    case .dragging: return .dragging
    case .springing, .tweening, .gliding: return .settling
    case .following, .animating: return .animating
    case .hidden: return .hidden
    }
  }
}

/// One pointer: where it is, whether it is down, what it holds, and its recent track
/// for velocity estimation.
struct PointerRuntime: Sendable {
  var id: Int
  var position: Vector
  var pressPosition: Vector
  var isDown: Bool
  var grabbed: Int?
  /// When it last went down, counted in presses: fingers in the order they went down.
  var pressOrder = 0
  var grabOffset = Vector.zero
  var releaseVelocity = Vector.zero
  /// When it last went down, and whether it has since gone further than a tap may.
  var pressTime = 0.0
  var wandered = false
  /// Recent (time, position) samples while down, newest last; at most 32.
  var samples: [(time: Double, position: Vector)] = []

  init(id: Int, position: Vector, pressPosition: Vector, isDown: Bool) {
    self.id = id
    self.position = position
    self.pressPosition = pressPosition
    self.isDown = isDown
  }

  /// Pressed anew at `point`: what ``init(id:position:pressPosition:isDown:)`` makes,
  /// keeping the samples' storage, so a press after a press allocates nothing.
  mutating func press(at point: Vector) {
    position = point
    pressPosition = point
    isDown = true
    grabbed = nil
    grabOffset = .zero
    releaseVelocity = .zero
    wandered = false
    samples.removeAll(keepingCapacity: true)
  }

  mutating func record(time: Double, position: Vector) {
    if let last = samples.last, last.time == time {
      samples[samples.count - 1].position = position
    } else {
      samples.append((time, position))
      if samples.count > 32 { samples.removeFirst(samples.count - 32) }
    }
  }

  /// The mean velocity over the last 100 ms of samples, like UIPanGestureRecognizer;
  /// zero when the pointer did not move in that time.
  func estimatedVelocity(at now: Double) -> Vector {
    guard let last = samples.last,
      // The earliest sample in the window, found without making the window.
      let first = samples.first(where: { now - $0.time <= 0.1 + 1e-9 }), last.time > first.time
    else { return .zero }
    let velocity = (last.position - first.position) / (last.time - first.time)
    return velocity.isFinite ? velocity : .zero
  }
}

/// Two fingers down together: the first two in the order they went down, and how they
/// stood when the second joined (or when the pair formed), for `pinch.scale`,
/// `pinch.rotation` and `pinch.center`.
struct Pinch: Sendable {
  var fingers: (Int, Int)
  /// The distance between the two when it began, and the point halfway between them.
  var startDistance: Double
  var startCenter = Vector.zero
  /// The direction from the first to the second when last seen, and the turn since the
  /// start, accumulated one move at a time so it can pass half a turn.
  var lastAngle: Double
  var rotation = 0.0
}
