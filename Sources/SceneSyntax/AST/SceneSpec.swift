import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

/// A whole scene as written: the AST both front ends build.
///
/// It says what the user wrote, normalised (units applied to typed fields, shorthands
/// expanded, defaults not filled in): names are not yet resolved and expressions not yet
/// checked. The resolver turns it into a graph. Two specs are equal when they mean the
/// same scene; where each part was written (``SourceRef``) does not count.
public struct SceneSpec: Hashable, Sendable {
  public var header: Header
  public var lets: [LetSpec]
  public var springs: [SpringSpec]
  public var handles: [HandleSpec]
  public var paths: [PathSpec]
  public var constraints: [ConstraintSpec]
  /// The gesture script: one track per pointer.
  public var gesture: [GestureTrack]
  public var expectations: [ExpectationSpec]
  /// `inputs:`, in the order written.
  public var inputs: [InputSpec] = []
  /// `states:`: the state machines, in the order written.
  public var machines: [MachineSpec] = []

  public init(
    header: Header = Header(), lets: [LetSpec] = [], springs: [SpringSpec] = [],
    handles: [HandleSpec] = [], paths: [PathSpec] = [], constraints: [ConstraintSpec] = [],
    gesture: [GestureTrack] = [], expectations: [ExpectationSpec] = [],
    inputs: [InputSpec] = [], machines: [MachineSpec] = []
  ) {
    self.inputs = inputs
    self.machines = machines
    self.header = header
    self.lets = lets
    self.springs = springs
    self.handles = handles
    self.paths = paths
    self.constraints = constraints
    self.gesture = gesture
    self.expectations = expectations
  }
}

extension SceneSpec {
  /// The `scene:` header.
  ///
  /// Every field is optional; the resolver supplies defaults.
  public struct Header: Hashable, Sendable {
    public var name: Located<String>?
    /// Width and height in points.
    public var size: Located<Size>?
    /// Frames per second.
    public var fps: Located<Double>?
    public var duration: Located<SceneDuration>?
    /// The longest an `until-rest` scene may run, in seconds.
    public var maxDuration: Located<Double>?
    public var background: Located<Color>?
    public var source: SourceRef

    public init(
      name: Located<String>? = nil, size: Located<Size>? = nil, fps: Located<Double>? = nil,
      duration: Located<SceneDuration>? = nil, maxDuration: Located<Double>? = nil,
      background: Located<Color>? = nil, source: SourceRef = .synthesized
    ) {
      self.name = name
      self.size = size
      self.fps = fps
      self.duration = duration
      self.maxDuration = maxDuration
      self.background = background
      self.source = source
    }
  }

  public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
      self.width = width
      self.height = height
    }
  }

  public enum SceneDuration: Hashable, Sendable {
    /// A fixed length in seconds.
    case seconds(Double)
    /// Until every gesture track has ended and every handle is at rest.
    case untilRest
  }
}

/// `let NAME = expression`: a named expression, evaluated every frame.
public struct LetSpec: Hashable, Sendable {
  public var name: Located<String>
  public var value: Expression

  public init(name: Located<String>, value: Expression) {
    self.name = name
    self.value = value
  }
}

/// A named spring preset.
public struct SpringSpec: Hashable, Sendable {
  public enum Parameters: Hashable, Sendable {
    /// UIKit style: damping ratio ζ and duration T; k = 4π²m/T², c = 2ζ√(km).
    case dampingRatio(Located<Double>, duration: Located<Double>)
    /// SwiftUI style: duration and bounce; ζ = 1 − bounce.
    case bounce(Located<Double>, duration: Located<Double>)
    /// Physical constants.
    case physical(stiffness: Located<Double>, damping: Located<Double>)
  }

  public var name: Located<String>
  public var parameters: Parameters
  /// The moving mass (default 1).
  public var mass: Located<Double>?
  /// How near rest, in points and points per second, counts as at rest.
  public var restThreshold: Located<Double>?

  public init(
    name: Located<String>, parameters: Parameters, mass: Located<Double>? = nil,
    restThreshold: Located<Double>? = nil
  ) {
    self.name = name
    self.parameters = parameters
    self.mass = mass
    self.restThreshold = restThreshold
  }
}

/// Fill, stroke and opacity of something drawn.
public struct Style: Hashable, Sendable {
  public var fill: Located<Color>?
  public var stroke: Located<Color>?
  public var strokeWidth: Located<Double>?
  public var opacity: Located<Double>?

  public init(
    fill: Located<Color>? = nil, stroke: Located<Color>? = nil,
    strokeWidth: Located<Double>? = nil, opacity: Located<Double>? = nil
  ) {
    self.fill = fill
    self.stroke = stroke
    self.strokeWidth = strokeWidth
    self.opacity = opacity
  }

  public var isEmpty: Bool { fill == nil && stroke == nil && strokeWidth == nil && opacity == nil }
}
