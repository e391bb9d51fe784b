import SceneDiagnostics
import SceneGeometry
import SceneSyntax

/// A scene resolved for running: every name replaced by an index, every default
/// applied, every value checked.
///
/// Built from a ``SceneSpec`` by ``SceneResolver``; the runtime only ever reads it. It
/// keeps the source of every part, so that even a problem found while the scene runs
/// can point at the text that caused it.
public struct SceneGraph: Sendable {
  public var name: String
  public var width: Double
  public var height: Double
  public var fps: Double
  public var duration: Duration
  public var background: Color?
  public var springs: [Spring]
  public var handles: [Handle]
  public var paths: [PathNode]
  public var constraints: [Constraint]
  public var gesture: [GestureTrack]
  public var expectations: [ExpectationSpec]

  public enum Duration: Hashable, Sendable {
    case seconds(Double)
    /// Until the gesture has ended and every handle is at rest, at most `limit` seconds.
    case untilRest(limit: Double)
  }

  /// A spring preset as physical constants.
  public struct Spring: Hashable, Sendable {
    public var name: String
    public var mass: Double
    public var stiffness: Double
    public var damping: Double
    public var restThreshold: Double
    public var source: SourceRef
  }

  public struct Handle: Sendable {
    public var name: String
    public var shape: HandleSpec.Shape
    public var radius: Double
    public var width: Double
    public var height: Double
    public var draggable: Bool
    public var hitRadius: Double
    /// The spring it returns to rest with, as an index into ``SceneGraph/springs``.
    public var spring: Int?
    public var style: Style
    public var spec: HandleSpec
  }

  public struct PathNode: Sendable {
    public var name: String
    public var geometry: PathSpec.Geometry
    /// The measured path, for fixed path data.
    public var measured: MeasuredPath?
    public var style: Style
    public var source: SourceRef
  }

  public struct Constraint: Sendable {
    public enum Kind: Sendable {
      case follow(handle: Int, path: Int, orient: Bool, wrap: Bool, spring: Int?, rest: Double?, hysteresis: Double)
      case elastic(handle: Int, resistance: ElasticSpec.Resistance, returnMotion: Return)
      case gooey(anchor: Int, ball: Int, viscosity: Double, maxDistance: Double, minRadius: Double, spring: Int?, style: GooeySpec.Style, bridgeStyle: Style)
      case animate(handle: Int, path: Int, duration: Double, repeatMode: AnimateSpec.Repeat, easing: Easing, orient: Bool, delay: Double)
    }

    public enum Return: Hashable, Sendable {
      case spring(Int)
      case speed(Double, Easing)
      case duration(Double, Easing)
    }

    public var name: String?
    public var kind: Kind
    public var source: SourceRef
  }

  /// The resolved style: what a shape is drawn with once defaults apply.
  public struct Style: Hashable, Sendable {
    public var fill: Color?
    public var stroke: Color?
    public var strokeWidth: Double
    public var opacity: Double
  }
}
