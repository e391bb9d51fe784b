import SceneGeometry

/// One thing a finger did at one moment: went down, moved, or lifted.
///
/// The gesture player turns a scene's gesture script (or a recorded trace) into these; the
/// runtime feeds them to the scene in time order. Times are seconds from the start of the
/// scene, positions are scene coordinates, and `pointer` tells fingers apart (0 for a
/// one-finger script).
public struct PointerEvent: Hashable, Sendable {
  /// What the finger did.
  public enum Phase: Hashable, Sendable {
    /// The finger touched down.
    case down
    /// The finger moved (or, while up, hovered) to `position`.
    case move
    /// The finger lifted. The velocity in points per second is the script's when it gave
    /// one; `nil` asks the runtime to estimate it from the recent moves.
    case up(velocity: Vector?)
    /// Not the finger's own: its script set input `index` (of ``SceneGraph/inputs``) to
    /// `value` at this moment (`set`). The finger stays as it is.
    case input(index: Int, value: Double)
    /// Not the finger's own: its script fired trigger input `index` at this moment.
    case fire(index: Int)
  }

  /// Seconds from the start of the scene.
  public var time: Double
  /// Which finger.
  public var pointer: Int
  public var phase: Phase
  /// Where the finger is, in scene coordinates.
  public var position: Vector

  public init(time: Double, pointer: Int, phase: Phase, position: Vector) {
    self.time = time
    self.pointer = pointer
    self.phase = phase
    self.position = position
  }
}

extension PointerEvent: CustomStringConvertible {
  /// `0.25 #0 move (10, 20)`, `0.5 #1 up (3, 4) v=(100, 0)`: for test failures and logs.
  public var description: String {
    let head = "\(time.shortestDescription) #\(pointer)"
    switch phase {
    case .down: return "\(head) down \(position)"
    case .move: return "\(head) move \(position)"
    case .up(let velocity?): return "\(head) up \(position) v=\(velocity)"
    case .up(nil): return "\(head) up \(position)"
    case .input(let index, let value): return "\(head) set input \(index) = \(value)"
    case .fire(let index): return "\(head) fire input \(index)"
    }
  }
}
