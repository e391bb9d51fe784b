import SceneGeometry

/// Everything a scene shows at one moment: the value every output is made from.
public struct Frame: Sendable, Equatable {
  /// The frame's number, from 0.
  public var index: Int
  /// Seconds since the scene started: `index / fps` when driven at a fixed step.
  public var time: Double
  public var handles: [HandleFrame]
  public var paths: [PathFrame]
  public var pointers: [PointerFrame]
  /// What happened since the previous frame, in the order it happened.
  public var events: [SceneEvent]
}

/// What a handle is doing in a frame.
public enum HandleState: String, Sendable, Equatable, CaseIterable {
  /// At rest, or simply placed.
  case idle
  /// Held by a pointer.
  case dragging
  /// Moved by time (an `animate` constraint) or by a bound expression.
  case animating
  /// Returning to rest after a release (a spring or a tween).
  case settling
  /// Not shown (a gooey anchor after its link broke).
  case hidden
}

public struct HandleFrame: Sendable, Equatable {
  public var name: String
  public var x: Double
  public var y: Double
  /// Radians, as atan2(dy, dx) in y-down coordinates.
  public var angle: Double
  /// The radius of a circle; 0 for other shapes.
  public var radius: Double
  public var state: HandleState
}

public struct PathFrame: Sendable, Equatable {
  public var name: String
  public var path: Path
  public var isHidden: Bool
}

public struct PointerFrame: Sendable, Equatable {
  public var id: Int
  public var x: Double
  public var y: Double
  public var isDown: Bool
}

/// Something that happened: `grab`, `release`, `rest`, `link.broke`, `link.restored`,
/// `dismissed`, `loop`, `snap`, with the handle or constraint it concerns.
public struct SceneEvent: Sendable, Hashable {
  public var type: String
  public var subject: String
  /// The snap target a `snap` event names; `nil` for every other event.
  public var target: String?

  public init(_ type: String, _ subject: String, target: String? = nil) {
    self.type = type
    self.subject = subject
    self.target = target
  }
}
