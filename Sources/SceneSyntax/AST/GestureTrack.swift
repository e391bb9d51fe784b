import SceneDiagnostics
import SceneVocabulary

/// The script of one pointer: steps played one after another.
public struct GestureTrack: Hashable, Sendable {
  /// The pointer's id (0 for a one-finger script).
  public var pointer: Located<Int>
  public var steps: [GestureStep]

  public init(pointer: Located<Int>, steps: [GestureStep]) {
    self.pointer = pointer
    self.steps = steps
  }
}

/// One step of a gesture script.
public struct GestureStep: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// Put the finger down at a point (a handle's name is its position).
    case press(Expression)
    /// Move a finger that is down, over a time, with an easing.
    case drag(Motion, duration: Located<Double>?, easing: Located<Easing>?)
    /// Move the pointer while it is up (hover).
    case move(Motion, duration: Located<Double>?, easing: Located<Easing>?)
    /// Keep still, finger down or up, for a time in seconds.
    case wait(Located<Double>)
    /// Lift the finger; the velocity is estimated from the last 100 ms unless given.
    case release(velocity: Expression?)
    /// Press and release at a point without moving.
    case tap(Expression)
    /// A quick drag then release that keeps its velocity.
    case fling(Motion, duration: Located<Double>?, velocity: Expression?)
    /// Play a recorded trace (CSV or JSON lines of t, x, y, phase), relative to the file.
    case replay(Located<String>)
    /// Two fingers about a centre: down, spread or closed by a scale and turned, up.
    case pinch(Pinch)
    /// Two fingers about a centre turned by an angle: a pinch of scale 1.
    case rotate(Pinch)
    /// Sets inputs at this moment, taking no time: `set: { loading: true }`.
    case set([InputAssignment])
    /// Fires a trigger input at this moment, taking no time.
    case fire(Located<String>)
  }

  /// `name: value` of a `set` step.
  public struct InputAssignment: Hashable, Sendable {
    public var input: Located<String>
    /// A number, or `true`/`false` for a boolean (1 and 0).
    public var value: Expression

    public init(input: Located<String>, value: Expression) {
      self.input = input
      self.value = value
    }
  }

  /// A two-finger step: the fingers go down `distance` apart on a level line through
  /// `center`, move so that their distance is multiplied by `scale` and their line turned
  /// by `rotation`, along `easing`, over `duration`, and lift.
  public struct Pinch: Hashable, Sendable {
    public var center: Expression
    public var scale: Expression?
    public var rotation: Expression?
    public var distance: Expression?
    public var duration: Located<Double>?
    public var easing: Located<Easing>?

    public init(
      center: Expression, scale: Expression? = nil, rotation: Expression? = nil,
      distance: Expression? = nil, duration: Located<Double>? = nil,
      easing: Located<Easing>? = nil
    ) {
      self.center = center
      self.scale = scale
      self.rotation = rotation
      self.distance = distance
      self.duration = duration
      self.easing = easing
    }
  }

  /// Where a drag, move or fling goes.
  public enum Motion: Hashable, Sendable {
    case to(Expression)
    case by(Expression)
  }

  public var kind: Kind
  public var source: SourceRef
  /// `hold` where a `wait` was written so (the same step), for `fmt` to write it back so;
  /// ignored by `==`.
  public var writtenKeyword = WrittenText("")

  public init(_ kind: Kind, at source: SourceRef = .synthesized) {
    self.kind = kind
    self.source = source
  }

  /// The key that names each kind in both syntaxes (`wait` also accepts `hold`).
  public var keyword: String { stepKeyword.rawValue }

  /// The keyword that names it (a `wait` written `hold` is `hold`).
  public var stepKeyword: GestureStepKeyword {
    switch kind {
    case .press: return .press
    case .drag: return .drag
    case .move: return .move
    case .wait: return writtenKeyword.text == "hold" ? .hold : .wait
    case .release: return .release
    case .tap: return .tap
    case .fling: return .fling
    case .replay: return .replay
    case .pinch: return .pinch
    case .rotate: return .rotate
    case .set: return .set
    case .fire: return .fire
    }
  }
}
