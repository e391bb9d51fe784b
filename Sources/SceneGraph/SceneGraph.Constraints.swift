import RealModule
import SceneVocabulary

// Adding a constraint kind
// ========================
// One keyword, and one struct (or file) per stage. Every dispatch on a kind is an
// exhaustive `switch` over a closed enum, so after steps 1 to 3 the compiler names each
// remaining place; nothing is matched by strings or `default:` branches, and nothing traps.
//
// 1. Vocabulary: a case in `ConstraintKeyword` (SceneVocabulary/Keywords.swift), with its
//    `positionalKeys` (what the DSL statement takes as bare values). The YAML decoder's
//    error list, the DSL's statement keywords and its emitter all read this enum.
// 2. Syntax: a `…Spec` struct and a case of `ConstraintSpec.Kind`
//    (SceneSyntax/AST/ConstraintSpec.swift). The compiler then asks for: `kindKeyword`;
//    the decoder's arm and allowed keys (DocumentTree/SceneDecoder+Constraints.swift);
//    the encoder's arm, which `fmt` and the DSL emitter share (Formatting/SceneEncoder.swift).
// 3. Graph: a settings struct below (plain values, indices for names, defaults applied)
//    and a case of `Kind`. The compiler then asks for its arms in `keyword`,
//    `movedHandle`, `handles` and `measuredPath` below, and in `SceneGraph.drawnPaths`
//    (SceneGraph+Initializers.swift) if it draws a path (the resolver gives its style).
// 4. Resolve: the arms in SceneResolve/SceneResolver+Constraints.swift: checking the spec
//    (ranges, references, with located errors) and building the struct; and which handle
//    it moves in `checkExclusiveMovers`. Settings that are expressions are compiled once
//    every name is known, in a pass after the lets (`compileDragExpressions` is the model).
// 5. Runtime: one file with an enum conforming to `ConstraintBehavior` whose `Parameters`
//    is the graph's struct; its settings in a parameters array and its state between
//    frames (if any) as a `State` struct in a storage array, both of its own on
//    `Simulation`. The compiler then asks for the arm in `Simulation.init`'s filing of
//    constraints and in each dispatch of ConstraintBehavior.swift. A kind whose `step`
//    does nothing, or that draws a path, says so (`stepsEachFrame`, `drawsPath`); one
//    that draws rewrites its entry of the frame's paths in place in `draw`. A
//    kind that moves a released handle over time puts it in the `gliding` mode and moves it
//    in its `step` (`DragConstraint` with `Glide`, the closed-form motion of one axis).
// 6. Outputs: nothing, unless it draws a path (step 3's `drawnPaths` names and styles it).
// 7. Docs and tests: Grammar.md's tables and EBNF, a scene in Scenes/ with its DSL twin
//    and golden snapshot, and tests of its behaviour against closed forms.
//
// `drag` was added this way: one case in step 1, one struct and arm in each of steps 2 to
// 5, nothing in 6. Events a kind reports go in `SceneEventName` (SceneVocabulary), which
// the expectation parser and checker read.

extension SceneGraph.Constraint {
  /// What a constraint does, with its settings resolved: indices for names, defaults
  /// applied, values checked.
  public enum Kind: Sendable {
    case follow(SceneGraph.Follow)
    case elastic(SceneGraph.Elastic)
    case gooey(SceneGraph.Gooey)
    case animate(SceneGraph.Animate)
    case drag(SceneGraph.Drag)

    /// The keyword that names the kind in both syntaxes.
    public var keyword: ConstraintKeyword {
      switch self {
      case .follow: return .follow
      case .elastic: return .elastic
      case .gooey: return .gooey
      case .animate: return .animate
      case .drag: return .drag
      }
    }

    /// The handle whose position the constraint owns (a gooey link's ball).
    public var movedHandle: Int {
      switch self {
      case .follow(let f): return f.handle
      case .elastic(let e): return e.handle
      case .gooey(let g): return g.ball
      case .animate(let a): return a.handle
      case .drag(let d): return d.handle
      }
    }

    /// Every handle it reads or moves.
    public var handles: [Int] {
      switch self {
      case .follow(let f): return [f.handle]
      case .elastic(let e): return [e.handle]
      case .gooey(let g): return [g.anchor, g.ball]
      case .animate(let a): return [a.handle]
      case .drag(let d): return [d.handle]
      }
    }

    /// The path it measures along every frame, if any.
    public var measuredPath: Int? {
      switch self {
      case .follow(let f): return f.path
      case .animate(let a): return a.path
      case .elastic, .gooey, .drag: return nil
      }
    }
  }
}

extension SceneGraph {
  /// `follow`: a handle kept on a path; dragged, it sits at the nearest point to the finger.
  public struct Follow: Hashable, Sendable {
    public var handle: Int
    public var path: Int
    /// Turn the handle to the path's tangent.
    public var orient: Bool
    /// Go round past the ends (closed paths) rather than stop there.
    public var wrap: Bool
    /// The spring a released handle returns along the path with, if any.
    public var spring: Int?
    /// Where on the path it rests, as a fraction 0…1 of the length.
    public var rest: Double?
    /// How much nearer, in points, another part of the path must be before a drag jumps.
    public var hysteresis: Double
    /// How a released handle glides on along the path, in arc length, if it does.
    public var momentum: Momentum?
    /// Detents a released handle snaps to, chosen from where its glide would end.
    public var detents: [Detent]
    /// The spring it snaps to a detent with, and bounces back from an end with.
    public var snapSpring: SpringModel

    public init(
      handle: Int, path: Int, orient: Bool, wrap: Bool, spring: Int?, rest: Double?,
      hysteresis: Double, momentum: Momentum? = nil, detents: [Detent] = [],
      snapSpring: SpringModel = Drag.defaultSnapSpring
    ) {
      self.handle = handle
      self.path = path
      self.orient = orient
      self.wrap = wrap
      self.spring = spring
      self.rest = rest
      self.hysteresis = hysteresis
      self.momentum = momentum
      self.detents = detents
      self.snapSpring = snapSpring
    }

    /// A named place on the path, as a fraction 0…1 of its length.
    public struct Detent: Hashable, Sendable {
      public var name: String
      public var fraction: Double

      public init(name: String, fraction: Double) {
        self.name = name
        self.fraction = fraction
      }
    }
  }

  /// `elastic`: a handle pulled from its rest resists, and returns when released.
  public struct Elastic: Hashable, Sendable {
    public enum Resistance: Hashable, Sendable {
      case none
      /// Follows the finger at this fraction of its motion.
      case factor(Double)
      /// iOS rubber-banding with a coefficient over a dimension (the scene's size along
      /// each axis when `nil`).
      case rubberband(coefficient: Double, dimension: Double?)
    }

    /// How it returns when released.
    public enum Return: Hashable, Sendable {
      case spring(Int)
      /// At a speed in points per second, along an easing.
      case speed(Double, Easing)
      /// Over a duration in seconds, along an easing.
      case duration(Double, Easing)
    }

    public var handle: Int
    public var resistance: Resistance
    public var returnMotion: Return

    public init(handle: Int, resistance: Resistance, returnMotion: Return) {
      self.handle = handle
      self.resistance = resistance
      self.returnMotion = returnMotion
    }
  }

  /// `gooey`: two circles joined by a stretching bridge that breaks.
  public struct Gooey: Hashable, Sendable {
    /// The circle that stays and shrinks as the link stretches.
    public var anchor: Int
    /// The circle that is dragged away.
    public var ball: Int
    public var viscosity: Double
    public var maxDistance: Double
    public var minRadius: Double
    /// The spring the ball returns with if released before the break.
    public var spring: Int?
    /// The bridge's shape; how it is drawn is its entry in ``SceneGraph/drawnPaths``.
    public var style: GooeyStyle

    public init(
      anchor: Int, ball: Int, viscosity: Double, maxDistance: Double, minRadius: Double,
      spring: Int?, style: GooeyStyle
    ) {
      self.anchor = anchor
      self.ball = ball
      self.viscosity = viscosity
      self.maxDistance = maxDistance
      self.minRadius = minRadius
      self.spring = spring
      self.style = style
    }
  }

  /// `animate`: a handle moved along a path by time, at uniform speed along the path.
  public struct Animate: Hashable, Sendable {
    public var handle: Int
    public var path: Int
    /// Seconds for one pass along the whole path.
    public var duration: Double
    public var repeatMode: RepeatMode
    public var easing: Easing
    public var orient: Bool
    /// Seconds to wait before starting (negative: start part-way through).
    public var delay: Double

    public init(
      handle: Int, path: Int, duration: Double, repeatMode: RepeatMode, easing: Easing,
      orient: Bool, delay: Double
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
}

extension SceneGraph {
  /// Exponential decay of a released handle's motion:
  /// x(t) = x₀ + A·(1 − e^(−t/τ)), with the glide A = `gain`·v₀.
  ///
  /// iOS's deceleration rate r (per millisecond) is τ = −0.001 s / ln r and `gain` = τ, so
  /// the release speed is kept; Framer Motion's inertia is `gain` = power over its time
  /// constant.
  public struct Momentum: Hashable, Sendable {
    /// τ, seconds.
    public var timeConstant: Double
    /// Seconds: the glide is this times the release velocity.
    public var gain: Double

    public init(timeConstant: Double, gain: Double) {
      self.timeConstant = timeConstant
      self.gain = gain
    }

    /// iOS: `rate` of the speed kept per millisecond (0.998 is `normal`).
    public init(decelerationRate rate: Double) {
      let tau = -0.001 / Double.log(rate)
      self.init(timeConstant: tau, gain: tau)
    }

    /// Framer Motion: the glide is `power`·v₀, with time constant `timeConstant` seconds.
    public init(power: Double, timeConstant: Double) {
      self.init(timeConstant: timeConstant, gain: power)
    }

    /// How near its end, in points, a glide stops there (Framer's `restDelta`).
    public static let restDistance = 0.5
  }

  /// `drag`: how a dragged handle moves and what it does when let go.
  public struct Drag: Hashable, Sendable {
    /// Per-axis limits, each an expression of one number read every frame.
    public struct Bounds: Hashable, Sendable {
      public var minX: CompiledExpression?
      public var maxX: CompiledExpression?
      public var minY: CompiledExpression?
      public var maxY: CompiledExpression?

      public init(
        minX: CompiledExpression? = nil, maxX: CompiledExpression? = nil,
        minY: CompiledExpression? = nil, maxY: CompiledExpression? = nil
      ) {
        self.minX = minX
        self.maxX = maxX
        self.minY = minY
        self.maxY = maxY
      }
    }

    /// A named point the handle snaps to.
    public struct SnapPoint: Hashable, Sendable {
      public var name: String
      public var point: CompiledExpression

      public init(name: String, point: CompiledExpression) {
        self.name = name
        self.point = point
      }
    }

    public var handle: Int
    /// The one axis it moves along, if it is held to one.
    public var axis: DragAxis?
    /// Lock to the axis of the first ``lockDistance`` points of movement.
    public var directionLock: Bool
    public var bounds: Bounds
    /// How it follows the finger past a bound.
    public var overdrag: Elastic.Resistance
    public var momentum: Momentum?
    public var snapPoints: [SnapPoint]
    /// Grid cell size per axis from where the handle starts; 0 leaves that axis free.
    public var grid: CompiledExpression?
    public var snapSpring: SpringModel
    public var bounceSpring: SpringModel
    /// Snap at most one target away from the one nearest where it was grabbed, along each
    /// axis it moves on (iOS's `isPagingEnabled`).
    public var paging: Bool

    public init(
      handle: Int, axis: DragAxis?, directionLock: Bool, bounds: Bounds,
      overdrag: Elastic.Resistance, momentum: Momentum?, snapPoints: [SnapPoint],
      grid: CompiledExpression?, snapSpring: SpringModel, bounceSpring: SpringModel,
      paging: Bool = false
    ) {
      self.handle = handle
      self.axis = axis
      self.directionLock = directionLock
      self.bounds = bounds
      self.overdrag = overdrag
      self.momentum = momentum
      self.snapPoints = snapPoints
      self.grid = grid
      self.snapSpring = snapSpring
      self.bounceSpring = bounceSpring
      self.paging = paging
    }

    /// What two fingers do to it (`transform: pinch`); `nil` for nothing.
    public var pinch: PinchTransform?

    /// `transform: pinch`: two fingers move, zoom and (unless `rotate: false`) turn the
    /// held handle, its scale resisting past `minScale…maxScale` and springing back into
    /// them (with ``snapSpring``) when the pinch ends.
    public struct PinchTransform: Hashable, Sendable {
      public var minScale: Double
      public var maxScale: Double
      public var rotates: Bool

      public init(minScale: Double, maxScale: Double, rotates: Bool) {
        self.minScale = minScale
        self.maxScale = maxScale
        self.rotates = rotates
      }
    }

    /// Whether it snaps at all.
    public var snaps: Bool { !snapPoints.isEmpty || grid != nil }

    /// How far, in points, the finger moves before a direction lock chooses its axis.
    public static let lockDistance = 10.0
    /// iOS's `normal` deceleration: the glide by default, and the projection snap targets
    /// are chosen from when the handle has no momentum (as iOS's sheets project a fling).
    public static let defaultMomentum = Momentum(decelerationRate: 0.998)
    /// Snapping by default: SwiftUI's `.smooth` spring, half a second, no bounce.
    public static let defaultSnapSpring = SpringModel(duration: 0.5, bounce: 0)
    /// Bouncing from a bound by default: Framer Motion's bounceStiffness 500 and
    /// bounceDamping 10.
    public static let defaultBounceSpring = SpringModel(stiffness: 500, damping: 10)
  }
}
