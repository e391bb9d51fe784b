import SceneDiagnostics
import SceneVocabulary

/// `inputs:` a named value the scene reads and the script, the command line or the
/// preview sets: a boolean, a number, or a trigger.
public struct InputSpec: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// `loading: false`: read as 1 or 0.
    case boolean(Located<Bool>)
    /// `progress: 0`, or `{ value: 0, min: 0, max: 100 }`: the range bounds what may be set.
    case number(Located<Double>, min: Located<Double>?, max: Located<Double>?)
    /// `refresh: trigger`: no value; firing it lets transitions `on` it happen once.
    case trigger
  }

  public var name: Located<String>
  public var kind: Kind

  public init(name: Located<String>, kind: Kind) {
    self.name = name
    self.kind = kind
  }
}

/// One of `states:`: a state machine, with its states and the transitions between them.
public struct MachineSpec: Hashable, Sendable {
  public var name: Located<String>
  /// The state it starts in.
  public var initial: Located<String>
  public var states: [StateSpec]
  public var transitions: [TransitionSpec]

  public init(
    name: Located<String>, initial: Located<String>, states: [StateSpec],
    transitions: [TransitionSpec]
  ) {
    self.name = name
    self.initial = initial
    self.states = states
    self.transitions = transitions
  }
}

/// A state of a machine, and what entering it does: the targets it sets and how its
/// properties move there.
public struct StateSpec: Hashable, Sendable {
  public var name: Located<String>
  /// `set: { handle: { property: value } }`, in the order written.
  public var targets: [StateTargetSpec]
  /// The spring that carries the targets (and, leaving another state's, the values going
  /// back); without one or a tween they change at once.
  public var spring: Reference?
  /// A tween instead of a spring.
  public var duration: Located<Double>?
  public var easing: Located<Easing>?
  /// The constraints that are off while the machine is in this state (by name).
  public var disabled: [Reference] = []

  public init(
    name: Located<String>, targets: [StateTargetSpec] = [], spring: Reference? = nil,
    duration: Located<Double>? = nil, easing: Located<Easing>? = nil
  ) {
    self.name = name
    self.targets = targets
    self.spring = spring
    self.duration = duration
    self.easing = easing
  }
}

/// A property of a handle a state gives a target: `c: { rest: (187.5, 110) }`.
public struct StateTargetSpec: Hashable, Sendable {
  public var handle: Located<String>
  /// `position`, `rest`, or an animated number property (`opacity`, `scale`, …).
  public var property: Located<String>
  public var value: Expression

  public init(handle: Located<String>, property: Located<String>, value: Expression) {
    self.handle = handle
    self.property = property
    self.value = value
  }
}

/// A transition `from → to`: taken, while in `from`, on an event, an input or a trigger
/// (`on`), after a time in the state (`after`), and only if a condition holds (`when`);
/// with none of them, at once.
public struct TransitionSpec: Hashable, Sendable {
  /// What a transition waits for.
  public enum Trigger: Hashable, Sendable {
    /// An event of the scene: `release of c`, `link.broke`, `state of other to open`.
    case event(EventPattern)
    /// An input: a trigger fired, or a boolean or number set (to anything).
    case input(Located<String>)
  }

  public var from: Located<String>
  public var to: Located<String>
  public var on: Trigger?
  public var when: Expression?
  /// Seconds after entering `from`.
  public var after: Located<Double>?
  public var source: SourceRef

  public init(
    from: Located<String>, to: Located<String>, on: Trigger? = nil, when: Expression? = nil,
    after: Located<Double>? = nil, at source: SourceRef = .synthesized
  ) {
    self.from = from
    self.to = to
    self.on = on
    self.when = when
    self.after = after
    self.source = source
  }
}
