import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

extension SceneGraph {
  /// An input: a value the script, the command line or the preview sets, which expressions
  /// read at its slot (``SlotLayout/inputSlot(_:)``).
  public struct Input: Sendable {
    public enum Kind: Hashable, Sendable {
      /// Read as 1 or 0.
      case boolean
      /// A number, kept within `range` when set.
      case number(range: ClosedRange<Double>?)
      /// No value: fired, it lets the transitions `on` it happen, once.
      case trigger
    }

    public var name: String
    public var kind: Kind
    /// Its value before anything sets it (0 for a trigger).
    public var initial: Double
    public var source: SourceRef

    public init(name: String, kind: Kind, initial: Double, source: SourceRef) {
      self.name = name
      self.kind = kind
      self.initial = initial
      self.source = source
    }

    /// `value` as this input holds it: a boolean is 1 for anything but 0; a number is
    /// kept within its range; `nil` for a value that is not a finite number, or for a
    /// trigger, which holds none.
    public func accepted(_ value: Double) -> Double? {
      guard value.isFinite else { return nil }
      switch kind {
      case .boolean: return value != 0 ? 1 : 0
      case .number(let range?): return min(max(value, range.lowerBound), range.upperBound)
      case .number(nil): return value
      case .trigger: return nil
      }
    }
  }

  /// A state machine: in one of its states at a time, moving between them by its
  /// transitions.
  public struct Machine: Sendable {
    public var name: String
    public var states: [MachineState]
    /// The state it starts in, as an index into ``states``.
    public var initial: Int
    /// In the order written: the first that may be taken is.
    public var transitions: [Transition]
    public var source: SourceRef

    public init(
      name: String, states: [MachineState], initial: Int, transitions: [Transition],
      source: SourceRef
    ) {
      self.name = name
      self.states = states
      self.initial = initial
      self.transitions = transitions
      self.source = source
    }
  }

  /// How the values a state sets get there.
  public enum StateMotion: Sendable {
    /// They change at once.
    case instant
    /// A spring carries each from where it is, at the speed it has (an index into
    /// ``SceneGraph/springs``).
    case spring(Int)
    /// A tween from where each is, over `duration` seconds along `easing`.
    case tween(duration: Double, easing: Easing)
  }

  /// A state, and what entering it does.
  public struct MachineState: Sendable {
    public var name: String
    public var source: SourceRef
    /// The handles' positions and rests it sets (its animated properties' targets are
    /// their motions' ``Motion/stateTargets``).
    public var placements: [Placement]
    public var motion: StateMotion
    /// The constraints off while the machine is in it (indices into
    /// ``SceneGraph/constraints``).
    public var disabled: [Int] = []

    public init(name: String, source: SourceRef, placements: [Placement], motion: StateMotion) {
      self.name = name
      self.source = source
      self.placements = placements
      self.motion = motion
    }
  }

  /// A handle's place a state sets: where it goes to rest (`rest`), or where it goes and
  /// stays (`position`, which also becomes its rest).
  public struct Placement: Sendable {
    public var handle: Int
    /// `true` for `rest`: the handle keeps what it is doing (followed, held) and springs
    /// there when let go; `false` for `position`: it goes there now.
    public var restOnly: Bool
    public var value: CompiledExpression
    public var source: SourceRef

    public init(handle: Int, restOnly: Bool, value: CompiledExpression, source: SourceRef) {
      self.handle = handle
      self.restOnly = restOnly
      self.value = value
      self.source = source
    }
  }

  /// An animated property's target while a machine is in a state (`set:`).
  public struct StateTarget: Sendable {
    public var machine: Int
    public var state: Int
    public var target: CompiledExpression

    public init(machine: Int, state: Int, target: CompiledExpression) {
      self.machine = machine
      self.state = state
      self.target = target
    }
  }

  /// A transition of a machine.
  public struct Transition: Sendable {
    public enum Trigger: Sendable {
      /// As soon as its state is entered (and its condition holds).
      case immediate
      /// On an event: its kind, its subject's index (a handle, a gooey bridge's drawn
      /// path, a machine) or any, and a snap target or state name or any.
      case event(SceneEventName, subject: Int?, target: String?)
      /// When input `index` is fired (a trigger) or set.
      case input(Int)
      /// `seconds` after its state was entered, exactly.
      case after(Double)
    }

    public var from: Int
    public var to: Int
    public var trigger: Trigger
    /// Taken only while this is not 0.
    public var condition: CompiledExpression?
    public var source: SourceRef

    public init(
      from: Int, to: Int, trigger: Trigger, condition: CompiledExpression?, source: SourceRef
    ) {
      self.from = from
      self.to = to
      self.trigger = trigger
      self.condition = condition
      self.source = source
    }

    /// Whether it waits for nothing that happens at a moment (no event, input or time),
    /// so that it can be taken the moment its state is entered.
    public var isImmediate: Bool {
      if case .immediate = trigger { return true }
      if case .after(let seconds) = trigger { return seconds == 0 }
      return false
    }
  }
}

extension SceneGraph {
  /// Gives input `name` the value `text` from the start instead of its default.
  ///
  /// As `scenec run --input loading=true` does: `true` or `false` for a boolean, a number
  /// within its range for a number. A message saying what is wrong, or `nil` when set.
  public mutating func setDefault(ofInput name: String, to text: String) -> String? {
    guard let index = inputs.firstIndex(where: { $0.name == name }) else {
      let names = inputs.map { $0.name }
      if names.isEmpty { return "the scene has no inputs; '\(name)' is not one" }
      let suggestion = Suggestion.didYouMean(name, among: names)
      return "unknown input '\(name)'"
        + (suggestion.isEmpty ? "; the inputs are \(names.joined(separator: ", "))" : suggestion)
    }
    switch inputs[index].kind {
    case .trigger:
      return "input '\(name)' is a trigger, which holds no value"
    case .boolean:
      guard text == "true" || text == "false" else {
        return "input '\(name)' is true or false, found '\(text)'"
      }
      inputs[index].initial = text == "true" ? 1 : 0
    case .number(let range):
      guard let value = Double(text), value.isFinite else {
        return "input '\(name)' is a number, found '\(text)'"
      }
      if let range, !range.contains(value) {
        return
          "input '\(name)' must be between \(range.lowerBound.shortestDescription) and \(range.upperBound.shortestDescription), found \(text)"
      }
      inputs[index].initial = value
    }
    return nil
  }
}
