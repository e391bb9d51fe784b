import SceneGeometry
import SceneGraph
import SceneVocabulary

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
  /// The handles' children that change, in the order of the handles and of their children
  /// (a child that never changes is drawn from the scene alone).
  public var children: [ChildFrame] = []
  /// The paths whose opacity, fill, stroke or line width change, in the scene's order.
  public var pathStyles: [PathStyleFrame] = []
  /// Each state machine and the state it is in, in the scene's order (none without
  /// machines).
  public var machines: [MachineFrame] = []
  /// Each input's value, in the scene's order (a trigger's is 0; none without inputs).
  public var inputs: [Double] = []
}

/// A state machine in a frame: its name and the name of the state it is in.
public struct MachineFrame: Sendable, Equatable {
  public var name: String
  public var state: String

  public init(name: String, state: String) {
    self.name = name
    self.state = state
  }
}

/// A path's style where it changes: its `opacity`, `fill`, `stroke` and `strokeWidth` in
/// one frame, as drawn (the bits of `look.animated` say which change).
public struct PathStyleFrame: Sendable, Equatable {
  /// The path, by index in the frame's paths (and the graph's).
  public var path: Int
  /// Its values, in the fields a handle's have.
  public var look: HandleFrame

  public init(path: Int, look: HandleFrame) {
    self.path = path
    self.look = look
  }
}

/// A handle's child that changes: where it is in its handle's coordinates, how it looks,
/// and what text it shows, in one frame.
public struct ChildFrame: Sendable, Equatable {
  /// Its handle, by index in the frame's handles (and the graph's).
  public var handle: Int
  /// Its index among its handle's children.
  public var child: Int
  /// Its values: `x` and `y` in its handle's coordinates, `animated` the bits of what
  /// changes (``SceneGraph/AnimatedProperty/offsetX`` and `offsetY` for its place,
  /// ``SceneGraph/AnimatedProperty/textValue`` for its text).
  public var look: HandleFrame
  /// Its text, with its numbers written in (empty unless the child is text).
  public var text = ""

  public init(handle: Int, child: Int, look: HandleFrame, text: String = "") {
    self.handle = handle
    self.child = child
    self.look = look
    self.text = text
  }
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
  /// Which of its properties the scene animates, as bits `1 << AnimatedProperty.rawValue`.
  ///
  /// A frame reports only those. Kept beside `state`, in the same few bytes every frame
  /// reads (at the end it cost the JSON lines a second cache line a handle).
  public var animated: UInt32 = 0
  /// Its turn in radians, added to `angle` where it is drawn (0 unless animated).
  public var rotation: Double = 0
  /// The factor its size is drawn at (1 unless animated).
  public var scale: Double = 1
  /// Its opacity, when animated (otherwise its style's).
  public var opacity: Double = 1
  /// Its fill and stroke, when animated (otherwise its style's).
  public var fill = Color(red: 0, green: 0, blue: 0, alpha: 0)
  public var stroke = Color(red: 0, green: 0, blue: 0, alpha: 0)
  /// A rect's size and corner radius, and the line width, when animated (otherwise the
  /// scene's; an animated `r` is ``radius``).
  public var width = 0.0
  public var height = 0.0
  public var cornerRadius = 0.0
  public var strokeWidth = 0.0
  public init(
    name: String, x: Double, y: Double, angle: Double, radius: Double, state: HandleState
  ) {
    self.name = name
    self.x = x
    self.y = y
    self.angle = angle
    self.radius = radius
    self.state = state
  }

  /// Its size along its own x and y, on top of ``scale`` (1 unless animated).
  public var scaleX = 1.0
  public var scaleY = 1.0

  /// A child of a handle as it stands in the scene, before anything changes it.
  public static func resting(_ child: SceneGraph.Handle) -> HandleFrame {
    var look = HandleFrame(
      name: child.name, x: child.offset.x, y: child.offset.y, angle: 0, radius: child.radius,
      state: .idle)
    look.rotation = child.rotation
    look.scale = child.scale
    look.scaleX = child.scaleX
    look.scaleY = child.scaleY
    return look
  }

  /// A number property as drawn.
  ///
  /// This frame's value where the scene animates it, else the value the scene declares for
  /// the handle (rotation 0, scale 1). Not for the colours, whose value is not a number.
  public func drawn(_ property: SceneGraph.AnimatedProperty, declared: SceneGraph.Handle?)
    -> Double
  {
    let animated = self.animated != 0 && animates(property)
    switch property {
    case .opacity: return animated ? opacity : declared?.style.opacity ?? 1
    case .rotation: return rotation
    case .scale: return scale
    case .scaleX: return scaleX
    case .scaleY: return scaleY
    case .radius: return radius
    case .width: return animated ? width : declared?.width ?? 0
    case .height: return animated ? height : declared?.height ?? 0
    case .cornerRadius: return animated ? cornerRadius : declared?.cornerRadius ?? 0
    case .strokeWidth: return animated ? strokeWidth : declared?.style.strokeWidth ?? 0
    case .offsetX: return animated ? x : declared?.offset.x ?? 0
    case .offsetY: return animated ? y : declared?.offset.y ?? 0
    case .fill, .stroke, .trimStart, .trimEnd, .textValue: return property.neutral
    }
  }

  /// Whether the scene animates `property` for this handle.
  public func animates(_ property: SceneGraph.AnimatedProperty) -> Bool {
    animated & (1 << UInt32(property.rawValue)) != 0
  }

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
///
/// A typed value: its kind, and its subject by index, named only where a frame is written
/// (``subjectName(in:)``, ``Frame/namedEvents``).
public struct SceneEvent: Sendable, Hashable {
  public var kind: SceneEventName
  /// Its subject: for a handle's event (``SceneEventName/isAboutHandle``) the handle's index
  /// in the frame's handles; for a gooey link's, its bridge's index in the frame's paths
  /// (which is named as the constraint is).
  public var subject: Int
  /// The snap target a `snap` event names, or the state a `state` event enters; `nil`
  /// for every other event.
  public var target: String?
  /// The state a `state` event leaves; `nil` for every other event.
  public var from: String?

  public init(_ kind: SceneEventName, _ subject: Int, target: String? = nil, from: String? = nil) {
    self.kind = kind
    self.subject = subject
    self.target = target
    self.from = from
  }

  /// Its name, such as `grab` or `link.broke`.
  public var type: String { kind.rawValue }

  /// The name of its subject in `frame`: a handle's name, or a gooey constraint's.
  public func subjectName(in frame: Frame) -> String {
    if kind.isAboutHandle {
      return subject < frame.handles.count ? frame.handles[subject].name : ""
    }
    if kind == .state {
      return subject < frame.machines.count ? frame.machines[subject].name : ""
    }
    return subject < frame.paths.count ? frame.paths[subject].name : ""
  }
}

/// An event as frames write it, by names: its type, its subject's name and its target.
public struct NamedEvent: Sendable, Hashable {
  public var type: String
  public var subject: String
  public var target: String?

  public init(_ type: String, _ subject: String, target: String? = nil) {
    self.type = type
    self.subject = subject
    self.target = target
  }
}

extension Frame {
  /// Its events by name, in order.
  public var namedEvents: [NamedEvent] {
    events.map { NamedEvent($0.type, $0.subjectName(in: self), target: $0.target) }
  }
}
