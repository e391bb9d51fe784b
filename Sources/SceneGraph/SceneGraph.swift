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
  /// The scene test's `expect:` lines, compiled.
  public var expectations: [Expectation]
  /// Where every value lives in the runtime's state.
  public var layout: SlotLayout
  /// The lets, in declaration order (``SlotLayout/letSlot(_:)`` indexes them).
  public var lets: [Let]
  /// What to evaluate each frame, dependencies first.
  public var evaluationOrder: [Node]
  /// Every point expression of the gesture script, compiled, keyed by the expression.
  public var gestureExpressions: [Expression: CompiledExpression]
  /// What every name an expression may read stands for, for compiling more expressions
  /// against this graph (a scene test's expectations).
  public var symbols: [String: Symbol] = [:]
  /// Where the values only expectations read live, after the scene's own slots.
  public var expectationSlots = ExpectationSlots(layout: SlotLayout(letCount: 0, handleCount: 0))

  /// One thing evaluated each frame.
  public enum Node: Hashable, Sendable {
    case letValue(Int)
    case handle(Int)
    case path(Int)
  }

  public struct Let: Sendable {
    public var name: String
    public var value: CompiledExpression
    public var source: SourceRef
  }

  public enum Duration: Hashable, Sendable {
    case seconds(Double)
    /// Until the gesture has ended and every handle is at rest, at most `limit` seconds.
    case untilRest(limit: Double)

    public var isUntilRest: Bool {
      if case .untilRest = self { return true }
      return false
    }
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
    /// Where it starts; for a bound handle, where it is while it follows its expression.
    public var position: CompiledExpression?
    /// Where it returns to when released, if given.
    public var rest: CompiledExpression?
    /// `true` when its position reads something that can change (the pointer, time, a
    /// handle that moves, a let that does): it follows the expression every frame instead
    /// of keeping a state.
    ///
    /// A position that reads only constants (`width / 2`, a let of
    /// numbers) is evaluated once and the handle is placed there, idle.
    public var isBound = false
    /// `true` when its position changes with time itself (reads `time` or `frame`, directly
    /// or through lets and other handles): such a handle is never at rest.
    public var followsTime = false
  }

  public struct PathNode: Sendable {
    public var name: String
    public var geometry: PathSpec.Geometry
    /// For a segment path: each segment's points, compiled, in order.
    public var segments: [Segment]
    /// The measured path, for fixed path data; prepared for repeated positions
    /// (``MeasuredPath/preparedForRepeatedPositions()``) when a `follow` or `animate`
    /// constraint reads it every frame.
    public var measured: MeasuredPath?
    public var style: Style
    public var source: SourceRef
  }

  public struct Constraint: Sendable {
    public enum Kind: Sendable {
      case follow(
        handle: Int, path: Int, orient: Bool, wrap: Bool, spring: Int?, rest: Double?,
        hysteresis: Double)
      case elastic(handle: Int, resistance: ElasticSpec.Resistance, returnMotion: Return)
      case gooey(
        anchor: Int, ball: Int, viscosity: Double, maxDistance: Double, minRadius: Double,
        spring: Int?, style: GooeySpec.Style, bridgeStyle: Style)
      case animate(
        handle: Int, path: Int, duration: Double, repeatMode: AnimateSpec.Repeat, easing: Easing,
        orient: Bool, delay: Double)
    }

    public enum Return: Hashable, Sendable {
      case spring(Int)
      case speed(Double, Easing)
      case duration(Double, Easing)
    }

    public var name: String?
    public var kind: Kind
    public var source: SourceRef
    /// The name events and frames report it by: its `name`, or for an unnamed gooey
    /// `gooey1`, `gooey2`, … by its place among the gooey constraints (the bridge path
    /// and the `link.*` events carry it); empty for other unnamed constraints.
    public var reportedName = ""
  }

  /// One segment of a segment path with its points compiled.
  public struct Segment: Sendable {
    public enum Kind: Sendable { case move, line, quadratic, cubic, close }
    public var kind: Kind
    public var points: [CompiledExpression]
  }

  /// The resolved style: what a shape is drawn with once defaults apply.
  public struct Style: Hashable, Sendable {
    public var fill: Color?
    public var stroke: Color?
    public var strokeWidth: Double
    public var opacity: Double
  }
}
