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
//    it moves in `checkExclusiveMovers`.
// 5. Runtime: one file with an enum conforming to `ConstraintBehavior` whose `Parameters`
//    is the graph's struct; its state between frames (if any) as a `State` struct in a
//    storage array of its own on `Simulation`. The compiler then asks for the arm in
//    `Simulation.init`'s state slots and in each dispatch of ConstraintBehavior.swift.
// 6. Outputs: nothing, unless it draws a path (step 3's `drawnPaths` names and styles it).
// 7. Docs and tests: Grammar.md's tables and EBNF, a scene in Scenes/ with its DSL twin
//    and golden snapshot, and tests of its behaviour against closed forms.

extension SceneGraph.Constraint {
  /// What a constraint does, with its settings resolved: indices for names, defaults
  /// applied, values checked.
  public enum Kind: Sendable {
    case follow(SceneGraph.Follow)
    case elastic(SceneGraph.Elastic)
    case gooey(SceneGraph.Gooey)
    case animate(SceneGraph.Animate)

    /// The keyword that names the kind in both syntaxes.
    public var keyword: ConstraintKeyword {
      switch self {
      case .follow: return .follow
      case .elastic: return .elastic
      case .gooey: return .gooey
      case .animate: return .animate
      }
    }

    /// The handle whose position the constraint owns (a gooey link's ball).
    public var movedHandle: Int {
      switch self {
      case .follow(let f): return f.handle
      case .elastic(let e): return e.handle
      case .gooey(let g): return g.ball
      case .animate(let a): return a.handle
      }
    }

    /// Every handle it reads or moves.
    public var handles: [Int] {
      switch self {
      case .follow(let f): return [f.handle]
      case .elastic(let e): return [e.handle]
      case .gooey(let g): return [g.anchor, g.ball]
      case .animate(let a): return [a.handle]
      }
    }

    /// The path it measures along every frame, if any.
    public var measuredPath: Int? {
      switch self {
      case .follow(let f): return f.path
      case .animate(let a): return a.path
      case .elastic, .gooey: return nil
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

    public init(
      handle: Int, path: Int, orient: Bool, wrap: Bool, spring: Int?, rest: Double?,
      hysteresis: Double
    ) {
      self.handle = handle
      self.path = path
      self.orient = orient
      self.wrap = wrap
      self.spring = spring
      self.rest = rest
      self.hysteresis = hysteresis
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
