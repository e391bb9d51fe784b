import SceneDiagnostics
import SceneVocabulary

extension SceneGraph {
  /// A scene test's `expect:` line, resolved: its expressions compiled against the scene
  /// (with the members only expectations may read), its event subjects checked, its
  /// moment in range.
  public struct Expectation: Sendable {
    public init(kind: Kind, text: String, source: SourceRef) {
      self.kind = kind
      self.text = text
      self.source = source
    }

    public enum Kind: Sendable {
      /// A comparison at a moment, with an optional tolerance.
      case value(
        at: ExpectationMoment, CompiledExpression, Comparison, CompiledExpression,
        tolerance: CompiledExpression?)
      /// An event happens, optionally before or after a time or another event.
      case event(EventPattern, EventTiming?)
      /// An event never happens.
      case noEvent(EventPattern)
      /// Every handle is at rest at the moment.
      case allAtRest(at: ExpectationMoment)
      /// The largest or smallest value over a window, compared.
      case extreme(
        Extreme, CompiledExpression, ExpectationWindow, Comparison, CompiledExpression,
        tolerance: CompiledExpression?)
      /// A comparison on every frame of a window (`always`), or on none (`never`).
      case throughout(
        Quantifier, CompiledExpression, Comparison, CompiledExpression,
        tolerance: CompiledExpression?, ExpectationWindow)
    }

    public var kind: Kind
    /// The line as written back by `fmt`, for messages.
    public var text: String
    public var source: SourceRef
  }

  /// The slots only expectations read, after the scene's own (``SlotLayout/count``): for
  /// each handle its radius, velocity, speed, state, rotation, scale, opacity, width, height,
  /// corner radius and stroke width (as drawn: the scene's own where not animated), then one
  /// slot per state name
  /// holding that state's number, so `ball.state == idle` compares numbers.
  public struct ExpectationSlots: Hashable, Sendable {
    /// Members each handle gets in expectations, in slot order.
    public static let handleMembers = [
      "r", "vx", "vy", "speed", "state", "rotation", "scale", "opacity", "width", "height",
      "cornerRadius", "strokeWidth", "scaleX", "scaleY",
    ]
    /// The state names, numbered in this order.
    public static let stateNames = ["idle", "dragging", "animating", "settling", "hidden"]

    /// Members each child of a handle gets in expectations (`card.stamp.opacity`), in slot
    /// order: its place in its handle's coordinates and its look, as drawn.
    public static let childMembers = [
      "x", "y", "rotation", "scale", "scaleX", "scaleY", "opacity", "r", "width", "height",
      "cornerRadius", "strokeWidth",
    ]

    public let base: Int
    public let handleCount: Int
    /// How many children the handles have in all, numbered in the order of the handles and
    /// of their children.
    public let childCount: Int

    public init(layout: SlotLayout, childCount: Int = 0) {
      base = layout.count
      handleCount = layout.handleCount
      self.childCount = childCount
    }

    /// The first of child `k`'s expectation slots (``childMembers``, in order).
    public func childSlot(_ k: Int) -> Int {
      stateSlot(Self.stateNames.count) + Self.childMembers.count * k
    }

    /// The first of handle `i`'s expectation slots (``handleMembers``, in order).
    public func handleSlot(_ i: Int) -> Int { base + Self.handleMembers.count * i }
    /// The slot holding state name number `i`.
    public func stateSlot(_ i: Int) -> Int { base + Self.handleMembers.count * handleCount + i }
    /// Every slot an expectation may read.
    public var count: Int { childSlot(childCount) }
  }
}
