import SceneDiagnostics
import SceneVocabulary

/// An object of the scene: a point with an optional shape, that constraints, springs,
/// expressions and the finger move.
public struct HandleSpec: Hashable, Sendable {
  public typealias Shape = HandleShape

  public var name: Located<String>
  /// Where it starts, or for a bound handle where it is while the pointer is down:
  /// an expression that evaluates to a point.
  public var position: Expression
  public var shape: Located<Shape>?
  /// The radius of a circle.
  public var radius: Located<Double>?
  /// The size of a rect, drawn centred on the position and turned by its angle.
  public var width: Located<Double>?
  public var height: Located<Double>?
  /// Whether a press inside ``hitRadius`` grabs it.
  public var draggable: Located<Bool>?
  /// How far from its centre a press still grabs it.
  public var hitRadius: Located<Double>?
  /// Where it returns to on release; an expression evaluating to a point.
  public var rest: Expression?
  /// The spring preset it returns to rest with.
  public var spring: Reference?
  public var style: Style
  /// A rect's corner radius; `nil` for square corners.
  public var cornerRadius: Located<Double>?
  /// What of its look changes, its children and its text, kept apart in one box: most
  /// handles have none of it, and a spec is copied whole (inline, all of it made a spec
  /// 1.8 KB, and copying the specs a tenth of resolving a large scene).
  private var moving: MovingLookBox?

  /// Its turn, in radians, added to the angle a path gives it; `nil` for none.
  public var rotation: AnimatedValue? {
    get { moving?.look.rotation ?? nil }
    set { changeLook { $0.rotation = newValue } }
  }
  /// Its size, as a factor of `r`, `width` and `height`; `nil` for 1.
  public var scale: AnimatedValue? {
    get { moving?.look.scale ?? nil }
    set { changeLook { $0.scale = newValue } }
  }
  /// Its size along its own x, on top of ``scale``; `nil` for 1.
  public var scaleX: AnimatedValue? {
    get { moving?.look.scaleX ?? nil }
    set { changeLook { $0.scaleX = newValue } }
  }
  /// Its size along its own y, on top of ``scale``; `nil` for 1.
  public var scaleY: AnimatedValue? {
    get { moving?.look.scaleY ?? nil }
    set { changeLook { $0.scaleY = newValue } }
  }
  /// Its opacity when it changes (an expression, or a spring towards one); a constant
  /// opacity is ``Style/opacity``.
  public var animatedOpacity: AnimatedValue? {
    get { moving?.look.animatedOpacity ?? nil }
    set { changeLook { $0.animatedOpacity = newValue } }
  }
  /// Its fill when it changes: a mix of two colours by a fraction that is an expression,
  /// or a spring towards one; a constant colour is ``Style/fill``.
  public var animatedFill: ColorMix? {
    get { moving?.look.animatedFill ?? nil }
    set { changeLook { $0.animatedFill = newValue } }
  }
  /// Its stroke when it changes, as ``animatedFill``.
  public var animatedStroke: ColorMix? {
    get { moving?.look.animatedStroke ?? nil }
    set { changeLook { $0.animatedStroke = newValue } }
  }
  /// Sizes that change, by key (`r`, `width`, `height`, `cornerRadius`, `strokeWidth`); a
  /// constant size is in its own field.
  public var animatedSizes: [String: AnimatedValue] {
    get { moving?.look.animatedSizes ?? [:] }
    set { changeLook { $0.animatedSizes = newValue } }
  }
  /// Shapes drawn with it in its own coordinates (`children:`), in the order written.
  ///
  /// They move, turn, scale and fade with it. A child's ``position`` is its place relative to
  /// the handle's, before the handle's turn and scale; a child has no children.
  public var children: [HandleSpec] {
    get { moving?.look.children ?? [] }
    set { changeLook { $0.children = newValue } }
  }
  /// What a `text` child shows.
  public var text: TextSpec? {
    get { moving?.look.text ?? nil }
    set { changeLook { $0.text = newValue } }
  }

  /// Whether any of its look changes, or it has children or text: `false` for most
  /// handles, which the resolver then passes by.
  public var movesItsLook: Bool { moving != nil }

  /// Changes what of its look changes, boxing it anew (a box is never shared while changed).
  private mutating func changeLook(_ change: (inout MovingLook) -> Void) {
    var look = moving?.look ?? MovingLook()
    change(&look)
    moving = look == MovingLook() ? nil : .boxed(look)
  }

  public init(
    name: Located<String>, position: Expression, shape: Located<Shape>? = nil,
    radius: Located<Double>? = nil, width: Located<Double>? = nil, height: Located<Double>? = nil,
    draggable: Located<Bool>? = nil, hitRadius: Located<Double>? = nil, rest: Expression? = nil,
    spring: Reference? = nil, style: Style = Style(), rotation: AnimatedValue? = nil,
    scale: AnimatedValue? = nil, animatedOpacity: AnimatedValue? = nil,
    animatedFill: ColorMix? = nil, animatedStroke: ColorMix? = nil
  ) {
    self.name = name
    self.position = position
    self.shape = shape
    self.radius = radius
    self.width = width
    self.height = height
    self.draggable = draggable
    self.hitRadius = hitRadius
    self.rest = rest
    self.spring = spring
    self.style = style
    if rotation != nil || scale != nil || animatedOpacity != nil || animatedFill != nil
      || animatedStroke != nil
    {
      moving = .boxed(
        MovingLook(
          rotation: rotation, scale: scale, animatedOpacity: animatedOpacity,
          animatedFill: animatedFill, animatedStroke: animatedStroke))
    }
  }
}

/// A property of a handle that may change while the scene runs (`rotation`, `scale`,
/// `opacity`): an expression evaluated every frame, or, with a spring, the value a spring
/// follows (`{ to: EXPR, spring: NAME }`).
public struct AnimatedValue: Hashable, Sendable {
  /// The value, or the target the spring follows: a number.
  public var value: Expression
  /// The spring that carries the property towards `value`, if any.
  public var spring: Reference?
  /// With a spring: while this is true (not 0) the property is `value` itself, as a finger
  /// holds it; when it turns false the spring carries it on, with the speed it had.
  public var held: Expression?
  /// Where the property's value was written.
  public var source: SourceRef
  /// A tween instead of a spring: each time the target changes, the property goes from
  /// where it is to the new target over `duration` along `easing` (linear if none).
  public var duration: Located<Double>?
  public var easing: Located<Easing>?

  public init(
    value: Expression, spring: Reference? = nil, held: Expression? = nil, source: SourceRef
  ) {
    self.value = value
    self.spring = spring
    self.held = held
    self.source = source
  }
}

/// A colour that changes while the scene runs: `mix(FROM, TO, FRACTION)`, the colour
/// `FRACTION` of the way from `FROM` to `TO` in OKLab (0 is `FROM`, 1 is `TO`), where the
/// fraction is an animated value (an expression, or a spring towards one).
public struct ColorMix: Hashable, Sendable {
  public var from: Color
  public var to: Color
  public var fraction: AnimatedValue

  public init(from: Color, to: Color, fraction: AnimatedValue) {
    self.from = from
    self.to = to
    self.fraction = fraction
  }

  /// `mix(#rrggbb, #rrggbb, FRACTION)`, as `fmt` writes it.
  public var text: String { "mix(\(from), \(to), \(fraction.value.text))" }
}

/// The text a `text` child shows: words, and numbers that are expressions
/// (`"{round(progress * 100)}%"`), re-evaluated every frame.
public struct TextSpec: Hashable, Sendable {
  /// A run of the text: words as written, or a number written from an expression.
  public enum Piece: Hashable, Sendable {
    case literal(String)
    /// `{EXPR}` (at most two decimals, trailing zeros dropped) or `{EXPR:N}` (exactly `N`
    /// decimals, 0 to 6).
    case value(Expression, decimals: Int?)
  }

  public var pieces: [Piece]
  /// The text as written, so `fmt` writes it back untouched.
  public var written: WrittenText
  public var source: SourceRef
  /// Its size in points (17 when not given).
  public var fontSize: Located<Double>?
  public var fontWeight: Located<FontWeight>?
  public var align: Located<TextAlign>?

  public init(pieces: [Piece], written: String, source: SourceRef) {
    self.pieces = pieces
    self.written = WrittenText(written)
    self.source = source
  }

  /// Whether any of it is an expression (its frames then carry it).
  public var isDynamic: Bool {
    pieces.contains {
      if case .value = $0 { return true }
      return false
    }
  }
}

/// What of a handle's look changes, its children and its text (see ``HandleSpec``).
struct MovingLook: Hashable, Sendable {
  var rotation: AnimatedValue?
  var scale: AnimatedValue?
  var scaleX: AnimatedValue?
  var scaleY: AnimatedValue?
  var animatedOpacity: AnimatedValue?
  var animatedFill: ColorMix?
  var animatedStroke: ColorMix?
  var animatedSizes: [String: AnimatedValue] = [:]
  var children: [HandleSpec] = []
  var text: TextSpec?
}

/// A ``MovingLook`` on the heap, shared by copies of its spec.
indirect enum MovingLookBox: Hashable, Sendable {
  case boxed(MovingLook)

  var look: MovingLook {
    switch self {
    case .boxed(let look): look
    }
  }
}
