import SceneDiagnostics
import SceneVocabulary

/// A built-in behaviour that ties handles to paths, rests or each other.
public struct ConstraintSpec: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case follow(FollowSpec)
    case elastic(ElasticSpec)
    case gooey(GooeySpec)
    case animate(AnimateSpec)
    case drag(DragSpec)
  }

  /// An optional name, for events and messages (`link.broke` of `link`).
  public var name: Located<String>?
  public var kind: Kind
  public var source: SourceRef

  public init(name: Located<String>? = nil, kind: Kind, at source: SourceRef = .synthesized) {
    self.name = name
    self.kind = kind
    self.source = source
  }

  /// The keyword that names its kind in both syntaxes.
  public var kindKeyword: ConstraintKeyword {
    switch kind {
    case .follow: return .follow
    case .elastic: return .elastic
    case .gooey: return .gooey
    case .animate: return .animate
    case .drag: return .drag
    }
  }

  /// The key that names each kind in both syntaxes.
  public var keyword: String { kindKeyword.rawValue }

  /// The handle it moves (a handle may be moved by only one constraint).
  public var movedHandle: Reference {
    switch kind {
    case .follow(let f): return f.handle
    case .animate(let a): return a.handle
    case .elastic(let e): return e.handle
    case .gooey(let g): return g.ball
    case .drag(let d): return d.handle
    }
  }
}

/// `follow`: a handle kept on a path; dragged, it sits at the nearest point to the finger.
public struct FollowSpec: Hashable, Sendable {
  public typealias Ends = PathEnds

  public var handle: Reference
  public var path: Reference
  /// Turn the handle to the path's tangent.
  public var orient: Located<Bool>?
  /// What happens past the ends: stop there, or go round (closed paths).
  public var ends: Located<Ends>?
  /// With a spring, a released handle springs back along the path to its rest.
  public var spring: Reference?
  /// Where on the path it rests, as a fraction 0…1 of the path's length.
  public var rest: Located<Double>?
  /// How much nearer, in points, another part of the path must be before a drag jumps
  /// to it.
  public var hysteresis: Located<Double>?
  /// A released handle glides on along the path, in arc length.
  public var momentum: MomentumSpec?
  /// Detents: named fractions 0…1 of the path's length a released handle snaps to.
  public var snap: [DetentSpec]

  public init(
    handle: Reference, path: Reference, orient: Located<Bool>? = nil, ends: Located<Ends>? = nil,
    spring: Reference? = nil, rest: Located<Double>? = nil, hysteresis: Located<Double>? = nil,
    momentum: MomentumSpec? = nil, snap: [DetentSpec] = []
  ) {
    self.handle = handle
    self.path = path
    self.orient = orient
    self.ends = ends
    self.spring = spring
    self.rest = rest
    self.hysteresis = hysteresis
    self.momentum = momentum
    self.snap = snap
  }
}

/// `elastic`: a handle pulled out of its rest resists, and returns when released.
public struct ElasticSpec: Hashable, Sendable {
  public enum Resistance: Hashable, Sendable {
    case none
    /// Follows the finger at this fraction of its motion (the seed's 0.7).
    case factor(Located<Double>)
    /// iOS rubber-banding: (1 − 1/(x·c/d + 1))·d with coefficient c (0.55) over dimension d
    /// (the scene's size along each axis when not given); written `rubberband` alone, c is 0.55.
    case rubberband(coefficient: Located<Double>, dimension: Located<Double>?)
  }

  public enum Return: Hashable, Sendable {
    case spring(Reference)
    /// At a speed in points per second with an easing (the seed: 900, ease-out).
    case speed(Located<Double>, easing: Located<Easing>?)
    /// Over a duration in seconds with an easing.
    case duration(Located<Double>, easing: Located<Easing>?)
  }

  public var handle: Reference
  public var resistance: Resistance?
  public var returnMotion: Return?

  public init(handle: Reference, resistance: Resistance? = nil, returnMotion: Return? = nil) {
    self.handle = handle
    self.resistance = resistance
    self.returnMotion = returnMotion
  }
}

/// `gooey`: two circles joined by a stretching bridge that breaks.
public struct GooeySpec: Hashable, Sendable {
  public typealias Style = GooeyStyle

  /// The circle that stays and shrinks as the link stretches.
  public var anchor: Reference
  /// The circle that is dragged away.
  public var ball: Reference
  /// The anchor's radius shrinks by distance / viscosity.
  public var viscosity: Located<Double>?
  /// The link breaks beyond this distance between centres.
  public var maxDistance: Located<Double>?
  /// The link also breaks when the anchor's radius falls below this.
  public var minRadius: Located<Double>?
  /// The spring the ball returns with if released before the break.
  public var spring: Reference?
  public var style: Located<Style>?
  /// How the bridge is drawn (the anchor's style when not given).
  public var bridgeStyle: SceneSyntax.Style

  public init(
    anchor: Reference, ball: Reference, viscosity: Located<Double>? = nil,
    maxDistance: Located<Double>? = nil, minRadius: Located<Double>? = nil,
    spring: Reference? = nil, style: Located<Style>? = nil,
    bridgeStyle: SceneSyntax.Style = SceneSyntax.Style()
  ) {
    self.anchor = anchor
    self.ball = ball
    self.viscosity = viscosity
    self.maxDistance = maxDistance
    self.minRadius = minRadius
    self.spring = spring
    self.style = style
    self.bridgeStyle = bridgeStyle
  }
}

/// `animate`: a handle moved along a path by time, at uniform speed along the path.
public struct AnimateSpec: Hashable, Sendable {
  public typealias Repeat = RepeatMode

  public var handle: Reference
  public var path: Reference
  /// Seconds for one pass along the whole path.
  public var duration: Located<Double>
  public var repeatMode: Located<Repeat>?
  public var easing: Located<Easing>?
  public var orient: Located<Bool>?
  /// Seconds to wait before starting (negative: start part-way through).
  public var delay: Located<Double>?

  public init(
    handle: Reference, path: Reference, duration: Located<Double>,
    repeatMode: Located<Repeat>? = nil, easing: Located<Easing>? = nil,
    orient: Located<Bool>? = nil, delay: Located<Double>? = nil
  ) {
    self.handle = handle
    self.path = path
    self.duration = duration
    self.repeatMode = repeatMode
    self.easing = easing
    self.orient = orient
    self.delay = delay
  }
}

/// How a released handle glides on: exact exponential decay,
/// x(t) = x₀ + A·(1 − e^(−t/τ)), in the vocabulary of iOS or of Framer Motion.
public enum MomentumSpec: Hashable, Sendable {
  /// No glide: the handle stops where it is released.
  case none
  /// iOS's `normal` (0.998) or `fast` (0.99): A = v₀·τ with τ = −1 ms / ln(rate).
  case preset(Located<DecelerationPreset>)
  /// A deceleration rate per millisecond, 0 < rate < 1, as iOS's `decelerationRate`.
  case rate(Located<Double>)
  /// Framer Motion's inertia: A = power·v₀ over a time constant τ (0.8 and 700 ms).
  case power(Located<Double>?, timeConstant: Located<Double>?)
}

/// A named detent along a `follow`ed path: a fraction 0…1 of its length.
public struct DetentSpec: Hashable, Sendable {
  public var name: Located<String>
  public var fraction: Located<Double>

  public init(name: Located<String>, fraction: Located<Double>) {
    self.name = name
    self.fraction = fraction
  }
}

/// A named point a `drag`ged handle snaps to.
public struct SnapPointSpec: Hashable, Sendable {
  public var name: Located<String>
  public var point: Expression

  public init(name: Located<String>, point: Expression) {
    self.name = name
    self.point = point
  }
}

/// `drag`: how a dragged handle moves, and what it does when let go: momentum, snap
/// points, bounds it rubber-bands past, one axis or a direction lock.
public struct DragSpec: Hashable, Sendable {
  /// Per-axis limits, each an expression of one number; any may be missing.
  public struct Bounds: Hashable, Sendable {
    public var minX: Expression?
    public var maxX: Expression?
    public var minY: Expression?
    public var maxY: Expression?

    public init(
      minX: Expression? = nil, maxX: Expression? = nil, minY: Expression? = nil,
      maxY: Expression? = nil
    ) {
      self.minX = minX
      self.maxX = maxX
      self.minY = minY
      self.maxY = maxY
    }
  }

  public var handle: Reference
  /// Move along this axis only.
  public var axis: Located<DragAxis>?
  /// Lock to the axis of the first 10 points of movement.
  public var lock: Located<Bool>?
  public var bounds: Bounds?
  /// How it resists being pulled past its bounds (the same words as `elastic`).
  public var overdrag: ElasticSpec.Resistance?
  public var momentum: MomentumSpec?
  /// Named points it snaps to, chosen from where its momentum would end.
  public var snap: [SnapPointSpec]
  /// Snap to a grid of this cell size from where the handle starts (0: that axis free).
  public var grid: Expression?
  /// The spring it snaps with.
  public var spring: Reference?
  /// The spring it bounces back from a bound with.
  public var bounce: Reference?
  /// At most one target away from where it was grabbed, per release (iOS's paging).
  public var paging: Located<Bool>?
  /// What a second finger does: `pinch` moves, zooms and turns it with the two.
  public var transform: Located<DragTransform>?
  /// With `transform: pinch`, whether the fingers' turn turns it too (`rotate: false`
  /// zooms and moves only).
  public var rotate: Located<Bool>?
  /// With `transform: pinch`, the scales it may rest at (`zoom: { min, max }`).
  public var zoomMin: Located<Double>?
  public var zoomMax: Located<Double>?
  /// Where `zoom` was written.
  public var zoomSource: SourceRef?

  public init(
    handle: Reference, axis: Located<DragAxis>? = nil, lock: Located<Bool>? = nil,
    bounds: Bounds? = nil, overdrag: ElasticSpec.Resistance? = nil,
    momentum: MomentumSpec? = nil, snap: [SnapPointSpec] = [], grid: Expression? = nil,
    spring: Reference? = nil, bounce: Reference? = nil, paging: Located<Bool>? = nil
  ) {
    self.handle = handle
    self.axis = axis
    self.lock = lock
    self.bounds = bounds
    self.overdrag = overdrag
    self.momentum = momentum
    self.snap = snap
    self.grid = grid
    self.spring = spring
    self.bounce = bounce
    self.paging = paging
  }
}
