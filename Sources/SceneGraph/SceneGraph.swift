import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

/// A scene resolved for running: every name replaced by an index, every default
/// applied, every value checked.
///
/// Built from a scene's syntax tree by the resolver (module `SceneResolve`); the runtime,
/// the outputs and the tests only ever read it, and none of them sees the syntax. It keeps
/// the source of every part, so that even a problem found while the scene runs can point
/// at the text that caused it.
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
  /// Every path a frame draws, in the order of a frame's paths.
  ///
  /// The scene's paths, then those constraints make (each gooey bridge), with the names
  /// and styles they are drawn under. Outputs find a frame's path by its index here.
  public var drawnPaths: [DrawnPath] = []
  public var gesture: [GestureTrack]
  /// The scene test's `expect:` lines, compiled.
  public var expectations: [Expectation]
  /// Where every value lives in the runtime's state.
  public var layout: SlotLayout
  /// The lets, in declaration order (``SlotLayout/letSlot(_:)`` indexes them).
  public var lets: [Let]
  /// What to evaluate each frame, dependencies first.
  public var evaluationOrder: [Node]
  /// `inputs:`, in the order written (``SlotLayout/inputSlot(_:)`` indexes them).
  public var inputs: [Input] = []
  /// `states:`, in the order written: machine `k`'s slots start at `machineSlots[k]`.
  public var machines: [Machine] = []
  public var machineSlots: [Int] = []
  /// Where the values only expectations read live, after the scene's own slots.
  public var expectationSlots = ExpectationSlots(layout: SlotLayout(letCount: 0, handleCount: 0))

  /// One thing evaluated each frame.
  public enum Node: Hashable, Sendable {
    case letValue(Int)
    case handle(Int)
    case path(Int)
  }

  public struct Let: Sendable {
    public init(name: String, value: CompiledExpression, source: SourceRef) {
      self.name = name
      self.value = value
      self.source = source
    }

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
    public init(
      name: String, mass: Double, stiffness: Double, damping: Double, restThreshold: Double,
      source: SourceRef
    ) {
      self.name = name
      self.mass = mass
      self.stiffness = stiffness
      self.damping = damping
      self.restThreshold = restThreshold
      self.source = source
    }

    public var name: String
    public var mass: Double
    public var stiffness: Double
    public var damping: Double
    public var restThreshold: Double
    public var source: SourceRef
  }

  public struct Handle: Sendable {
    public var name: String
    /// Where its name was written.
    public var nameSource: SourceRef
    public var shape: HandleShape
    public var radius: Double
    public var width: Double
    public var height: Double
    /// A rect's corner radius (0: square corners).
    public var cornerRadius: Double = 0
    public var draggable: Bool
    public var hitRadius: Double
    /// Whether a press grabs it where its shapes are drawn (its own and its children's,
    /// moved, turned and scaled as drawn) rather than within ``hitRadius``: a group
    /// without a `hitRadius`.
    public var hitsShapes = false
    /// The spring it returns to rest with, as an index into ``SceneGraph/springs``.
    public var spring: Int?
    public var style: Style
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
    /// Its properties that change while the scene runs (`rotation`, `scale`, `opacity`),
    /// at most one of each, in the order of ``AnimatedProperty``.
    public var motions: [Motion] = []
    /// The shapes drawn with it in its own coordinates (its `children`), in order: each
    /// a ``Handle`` whose ``offset`` (or `x` and `y` motions) places it relative to this
    /// handle before its turn and scale, and which neither drags nor springs.
    public var children: [Handle] = []
    /// A child's place, turn, scales and text, boxed: a handle has none of them, and the
    /// handles are copied whole while a scene resolves.
    private var childLook: ChildLookBox?
    /// A child's place in its parent's coordinates, when constant.
    public var offset: Vector {
      get { childLook?.look.offset ?? Vector(0, 0) }
      set { changeChildLook { $0.offset = newValue } }
    }
    /// A child's turn (radians) and scales when constant (a handle's are motions).
    public var rotation: Double {
      get { childLook?.look.rotation ?? 0 }
      set { changeChildLook { $0.rotation = newValue } }
    }
    public var scale: Double {
      get { childLook?.look.scale ?? 1 }
      set { changeChildLook { $0.scale = newValue } }
    }
    public var scaleX: Double {
      get { childLook?.look.scaleX ?? 1 }
      set { changeChildLook { $0.scaleX = newValue } }
    }
    public var scaleY: Double {
      get { childLook?.look.scaleY ?? 1 }
      set { changeChildLook { $0.scaleY = newValue } }
    }
    /// What a `text` child shows.
    public var text: TextLook? {
      get { childLook?.look.text }
      set { changeChildLook { $0.text = newValue } }
    }

    private mutating func changeChildLook(_ change: (inout ChildLook) -> Void) {
      var look = childLook?.look ?? ChildLook()
      change(&look)
      childLook = .boxed(look)
    }
    /// Whether a drag with `transform: pinch` sets its scale and turn.
    public var isPinched = false

    /// The properties of its look that change while the scene runs, in the order of its
    /// motions (a pinch's `scale` and `rotation` after them): what a frame reports for it.
    public var changingProperties: [AnimatedProperty] {
      motions.map { $0.property } + (isPinched ? [.rotation, .scale] : [])
    }
  }

  /// A child's place, turn, scales and text (see ``Handle/offset``).
  struct ChildLook: Sendable {
    var offset = Vector(0, 0)
    var rotation = 0.0
    var scale = 1.0
    var scaleX = 1.0
    var scaleY = 1.0
    var text: TextLook?
  }

  /// A ``ChildLook`` on the heap.
  indirect enum ChildLookBox: Sendable {
    case boxed(ChildLook)

    var look: ChildLook {
      switch self {
      case .boxed(let look): look
      }
    }
  }

  /// The text a `text` child shows, and how.
  public struct TextLook: Sendable {
    /// A run of the text: words, or the number of the child's `k`-th ``AnimatedProperty/textValue``
    /// motion, written with `decimals` (`nil`: at most two, trailing zeros dropped).
    public enum Piece: Sendable {
      case literal(String)
      case value(Int, decimals: Int?)
    }

    public var pieces: [Piece]
    public var fontSize: Double
    public var fontWeight: FontWeight
    public var align: TextAlign

    public init(pieces: [Piece], fontSize: Double, fontWeight: FontWeight, align: TextAlign) {
      self.pieces = pieces
      self.fontSize = fontSize
      self.fontWeight = fontWeight
      self.align = align
    }

    /// How far below its position its baseline lies: 0.35 of its size.
    ///
    /// About half the height of a capital in common sans-serif fonts, so that the position
    /// is the middle of a line of capitals. Every renderer puts the baseline there (not at a font's own
    /// "middle", which SVG and canvas measure differently).
    public var baselineDrop: Double { fontSize * 0.35 }

    /// Whether it has numbers to write every frame.
    public var isDynamic: Bool {
      pieces.contains {
        if case .value = $0 { return true }
        return false
      }
    }

    /// The text with `values` (the child's text values, in order) written in.
    public func text(_ values: (Int) -> Double) -> String {
      var text = ""
      for piece in pieces {
        switch piece {
        case .literal(let words): text += words
        case .value(let k, let decimals): text += Self.number(values(k), decimals: decimals)
        }
      }
      return text
    }

    /// `value` with exactly `decimals` decimals, or with `nil` rounded to two and without
    /// trailing zeros; never `-0`.
    public static func number(_ value: Double, decimals: Int?) -> String {
      guard value.isFinite else { return value.isNaN ? "NaN" : value < 0 ? "-∞" : "∞" }
      let places = min(max(decimals ?? 2, 0), 6)
      var scale = 1.0
      for _ in 0..<places { scale *= 10 }
      let scaled = (abs(value) * scale).rounded()
      guard scaled < 1.8e19 else {
        // Beyond what a text shows usefully: the whole number, still with the decimals asked.
        let whole = abs(value).rounded()
        let digits = whole < 9e18 ? String(Int64(whole)) : whole.description
        let zeros = decimals.map { $0 > 0 ? "." + String(repeating: "0", count: places) : "" } ?? ""
        return (value < 0 ? "-" : "") + digits + zeros
      }
      let units = UInt64(scaled)
      let whole = units / UInt64(scale)
      var fraction = places > 0 ? String(units % UInt64(scale)) : ""
      fraction = String(repeating: "0", count: max(places - fraction.count, 0)) + fraction
      if decimals == nil {
        while fraction.hasSuffix("0") { fraction.removeLast() }
      }
      let sign = value < 0 && units > 0 ? "-" : ""
      return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
  }

  /// A handle property that changes while the scene runs: the value of an expression every
  /// frame, or a spring that follows it.
  public struct Motion: Sendable {
    public var property: AnimatedProperty
    /// The value, or the spring's target.
    public var target: CompiledExpression
    /// The spring that follows `target`, as an index into ``SceneGraph/springs``.
    public var spring: Int?
    /// With a spring: while this is not 0 the property is `target` itself, and the spring
    /// takes over from there, at the speed it had, when it turns 0.
    public var held: CompiledExpression?
    /// `true` when the target changes with time by itself (reads `time` or `frame`): the
    /// handle is then never at rest.
    public var followsTime = false
    /// For `fill` and `stroke`: the colours the value (a fraction, 0 to 1) mixes, in OKLab.
    public var colors: (from: OKLab, to: OKLab)?
    /// A tween instead of a spring: each change of `target` starts one, from where the
    /// property is to the new target, over `duration` seconds along `easing`.
    public var tween: (duration: Double, easing: Easing)?
    public var source: SourceRef
    /// Its targets while machines are in given states (`set:`), which take the place of
    /// ``target`` then; the machine's state says how it moves there.
    public var stateTargets: [StateTarget] = []

    public init(
      property: AnimatedProperty, target: CompiledExpression, spring: Int?, source: SourceRef
    ) {
      self.property = property
      self.target = target
      self.spring = spring
      self.source = source
    }
  }

  /// The properties of a handle that may change while the scene runs.
  public enum AnimatedProperty: Int, Sendable, CaseIterable, Comparable {
    /// For `fill` and `stroke` the value is the fraction of the way between two colours.
    case opacity, rotation, scale, fill, stroke, radius, width, height, cornerRadius,
      strokeWidth
    /// A path's `trim`: the fractions of its length where what is drawn starts and ends.
    case trimStart, trimEnd
    /// A child's place in its parent's coordinates, when it changes.
    case offsetX, offsetY
    /// A number a child's text writes (``TextLook/Piece/value(_:decimals:)``).
    case textValue
    /// Its size along its own x and y, on top of `scale`.
    case scaleX, scaleY

    /// The key that names it in a scene and in a frame.
    public var key: String {
      switch self {
      case .opacity: "opacity"
      case .rotation: "rotation"
      case .scale: "scale"
      case .fill: "fill"
      case .stroke: "stroke"
      case .radius: "r"
      case .width: "width"
      case .height: "height"
      case .cornerRadius: "cornerRadius"
      case .strokeWidth: "strokeWidth"
      case .trimStart: "start of the trim"
      case .trimEnd: "end of the trim"
      case .offsetX: "x"
      case .offsetY: "y"
      case .textValue: "text"
      case .scaleX: "scaleX"
      case .scaleY: "scaleY"
      }
    }

    /// Its value when the scene does not animate it.
    public var neutral: Double {
      switch self {
      case .opacity, .scale, .scaleX, .scaleY, .trimEnd: 1
      default: 0
      }
    }

    /// How close to its target, and how slow, a spring on it must be to be at rest: a
    /// thousandth (of full opacity, of the scale, of a radian, of the way between colours,
    /// of a point).
    public var restThreshold: Double { 1e-3 }

    /// The value drawn for `value`: an opacity or a colour's fraction within 0…1, a scale
    /// or a size not below 0.
    public func clamped(_ value: Double) -> Double {
      switch self {
      case .opacity, .fill, .stroke, .trimStart, .trimEnd: Swift.min(Swift.max(value, 0), 1)
      case .rotation, .offsetX, .offsetY, .textValue: value
      case .scale, .scaleX, .scaleY, .radius, .width, .height, .cornerRadius, .strokeWidth:
        Swift.max(value, 0)
      }
    }

    /// Whether a spring on it is at rest within ``restThreshold`` of its target in points
    /// (a size) rather than in its own unit.
    public var isSize: Bool {
      switch self {
      case .radius, .width, .height, .cornerRadius, .strokeWidth, .offsetX, .offsetY: true
      default: false
      }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  }

  public struct PathNode: Sendable {
    public init(
      name: String, isDynamic: Bool, segments: [SceneGraph.Segment], measured: MeasuredPath?,
      style: SceneGraph.Style, source: SourceRef
    ) {
      self.name = name
      self.isDynamic = isDynamic
      self.segments = segments
      self.measured = measured
      self.style = style
      self.source = source
    }

    public var name: String
    /// Whether its points are expressions evaluated every frame (segments), rather than
    /// fixed path data.
    public var isDynamic: Bool
    /// For a segment path: each segment's points, compiled, in order.
    public var segments: [Segment]
    /// The measured path, for fixed path data; prepared for repeated positions
    /// (``MeasuredPath/preparedForRepeatedPositions()``) when a `follow` or `animate`
    /// constraint reads it every frame.
    public var measured: MeasuredPath?
    public var style: Style
    public var source: SourceRef
    /// Its `trim`'s start and end, where the scene gives them (``AnimatedProperty/trimStart``
    /// and ``AnimatedProperty/trimEnd``).
    public var motions: [Motion] = []
  }

  /// A constraint: its kind's settings (one struct per kind, in
  /// `SceneGraph.Constraints.swift`), and how it is named and was written.
  public struct Constraint: Sendable {
    public var name: String?
    public var kind: Kind
    public var source: SourceRef
    /// The name events and frames report it by: its `name`, or for an unnamed gooey
    /// `gooey1`, `gooey2`, … by its place among the gooey constraints (the bridge path
    /// and the `link.*` events carry it); empty for other unnamed constraints.
    public var reportedName = ""

    public init(name: String?, kind: Kind, source: SourceRef) {
      self.name = name
      self.kind = kind
      self.source = source
    }
  }

  /// A path frames draw, and where it comes from.
  public struct DrawnPath: Hashable, Sendable {
    public enum Origin: Hashable, Sendable {
      /// The scene's path at this index of ``SceneGraph/paths``.
      case path(Int)
      /// The path a constraint makes (a gooey bridge), by its index.
      case constraint(Int)
    }

    public var name: String
    public var style: Style
    public var origin: Origin

    public init(name: String, style: Style, origin: Origin) {
      self.name = name
      self.style = style
      self.origin = origin
    }
  }

  /// One segment of a segment path with its points compiled.
  public struct Segment: Sendable {
    public init(kind: Kind, points: [CompiledExpression]) {
      self.kind = kind
      self.points = points
    }

    public enum Kind: Sendable { case move, line, quadratic, cubic, close }
    public var kind: Kind
    public var points: [CompiledExpression]
  }

  /// The resolved style: what a shape is drawn with once defaults apply.
  public struct Style: Hashable, Sendable {
    public init(fill: Color?, stroke: Color?, strokeWidth: Double, opacity: Double) {
      self.fill = fill
      self.stroke = stroke
      self.strokeWidth = strokeWidth
      self.opacity = opacity
    }

    public var fill: Color?
    public var stroke: Color?
    public var strokeWidth: Double
    public var opacity: Double
  }
}
