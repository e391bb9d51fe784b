import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

// MARK: - Inputs and state machines

extension SceneDecoder {
  /// The keys of a machine, of one of its states, and of a transition.
  static let machineKeys = ["initial", "states", "transitions"]
  static let stateKeys = ["set", "spring", "duration", "ease", "disable"]
  static let transitionKeys = ["from", "to", "on", "when", "after"]
  static let inputRangeKeys = ["value", "min", "max"]

  /// `inputs:`: `NAME: false`, `NAME: 0`, `NAME: { value: 0, min: 0, max: 1 }` or
  /// `NAME: trigger`.
  mutating func decodeInputs(_ node: DocumentNode) -> [InputSpec] {
    decodeNamed(node, what: "input", splitting: false) { $0.decodeInput($1, $2) }
  }

  mutating func decodeInput(_ name: Located<String>, _ node: DocumentNode) -> InputSpec? {
    let what = "input '\(name.value)'"
    switch node.value {
    case .scalar(let s) where !s.isQuoted && (s.text == "true" || s.text == "false"):
      return InputSpec(name: name, kind: .boolean(Located(s.text == "true", at: node.source)))
    case .scalar(let s) where !s.isQuoted && s.text == "trigger":
      return InputSpec(name: name, kind: .trigger)
    case .scalar(let s) where !s.isQuoted && Double(s.text) != nil:
      return number(node, what: what).map {
        InputSpec(name: name, kind: .number($0, min: nil, max: nil))
      }
    case .mapping:
      guard let f = fields(of: node, what: what, allowed: Self.inputRangeKeys) else {
        return nil
      }
      let value = f["value"].flatMap { number($0, what: "'value' of \(what)") }
      let min = f["min"].flatMap { number($0, what: "'min' of \(what)") }
      let max = f["max"].flatMap { number($0, what: "'max' of \(what)") }
      if f["value"] == nil && !f.misspelt.contains("value") {
        error("\(what) needs 'value', the number it starts at", at: node.source)
      }
      guard let value else { return nil }
      if let min, let max, min.value > max.value {
        error(
          "\(what) has 'min' \(min.value.shortestDescription) above 'max' \(max.value.shortestDescription)",
          at: max.source)
        return nil
      }
      if let min, value.value < min.value {
        error("\(what) starts below its 'min'", at: value.source)
        return nil
      }
      if let max, value.value > max.value {
        error("\(what) starts above its 'max'", at: value.source)
        return nil
      }
      return InputSpec(name: name, kind: .number(value, min: min, max: max))
    default:
      error(
        "expected true, false, a number, { value, min, max } or trigger for \(what), found \(node.kindDescription)",
        at: node.source)
      return nil
    }
  }

  /// `states:`: machines by name.
  mutating func decodeMachines(_ node: DocumentNode) -> [MachineSpec] {
    decodeNamed(node, what: "machine", splitting: false) { $0.decodeMachine($1, $2) }
  }

  mutating func decodeMachine(_ name: Located<String>, _ node: DocumentNode) -> MachineSpec? {
    let what = "machine '\(name.value)'"
    guard let f = fields(of: node, what: what, allowed: Self.machineKeys) else { return nil }
    let initial = required(f, "initial", of: what, at: name.source) {
      $0.reference($1, what: "'initial' of \(what)")
    }
    var states: [StateSpec] = []
    if let statesNode = f["states"] {
      states = decodeNamed(statesNode, what: "state", splitting: false) {
        $0.decodeState($1, $2, of: name.value)
      }
    } else if !f.misspelt.contains("states") {
      error("\(what) needs 'states', its states by name", at: name.source)
    }
    var transitions: [TransitionSpec] = []
    if let list = f["transitions"], let items = sequence(list, what: "'transitions' of \(what)") {
      for item in items {
        if let transition = decodeTransition(item, of: what) { transitions.append(transition) }
      }
    }
    guard let initial else { return nil }
    return MachineSpec(name: name, initial: initial, states: states, transitions: transitions)
  }

  /// A state: nothing (`idle:`), or `{ set, spring | duration [ease] }`.
  mutating func decodeState(_ name: Located<String>, _ node: DocumentNode, of machine: String)
    -> StateSpec?
  {
    if case .scalar(let s) = node.value, s.isNull { return StateSpec(name: name) }
    let what = "state '\(name.value)' of machine '\(machine)'"
    let stateWhat = what
    guard let f = fields(of: node, what: what, allowed: Self.stateKeys) else { return nil }
    var state = StateSpec(name: name)
    state.spring = f["spring"].flatMap { reference($0, what: "'spring' of \(what)") }
    if f["spring"] != nil && f["duration"] != nil {
      error(
        "\(what) gives both 'spring' and 'duration'; its targets move by one or the other",
        at: f.keySource("duration") ?? name.source)
    } else {
      state.duration = f["duration"].flatMap { shortTime($0, what: "'duration'", plausible: 10) }
    }
    state.easing = f["ease"].flatMap { easing($0, what: "'ease' of \(what)") }
    if f["ease"] != nil && f["duration"] == nil {
      error("\(what) gives 'ease' without 'duration'", at: f.keySource("ease") ?? name.source)
    }
    if let disable = f["disable"] { state.disabled = constraintNames(disable, of: stateWhat) }
    if let set = f["set"], let handles = mapping(set, what: "'set' of \(what) (handles)") {
      for handle in unique(handles, what: "handle") {
        guard identifier(handle.key, at: handle.keySource, what: "handle"),
          let properties = mapping(
            handle.value, what: "the properties of '\(handle.key)' to set (such as { rest: … })")
        else { continue }
        for property in unique(properties, what: "property") {
          guard
            let value = expression(
              property.value, what: "'\(handle.key).\(property.key)' of \(what)")
          else { continue }
          state.targets.append(
            StateTargetSpec(
              handle: Located(handle.key, at: handle.keySource),
              property: Located(property.key, at: property.keySource), value: value))
        }
      }
    }
    return state
  }

  /// `disable: NAME`, `disable: [A, B]`, or the DSL's `disable=[A, B]` (one scalar).
  mutating func constraintNames(_ node: DocumentNode, of what: String) -> [Reference] {
    switch node.value {
    case .sequence(let items):
      return items.compactMap { reference($0, what: "a constraint 'disable' of \(what) turns off") }
    case .scalar(let s) where !s.isQuoted && s.text.hasPrefix("[") && s.text.hasSuffix("]"):
      let inner = s.text.dropFirst().dropLast()
      var names: [Reference] = []
      for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
        let name = part.trimmingCharacters(in: " ")
        guard Self.isIdentifier(String(name)) else {
          error(
            "expected constraint names in 'disable' of \(what), found '\(s.text)'", at: node.source)
          return []
        }
        names.append(Located(String(name), at: node.source))
      }
      return names
    default:
      return reference(node, what: "a constraint 'disable' of \(what) turns off").map { [$0] } ?? []
    }
  }

  /// `{ from, to, on, when, after }`.
  mutating func decodeTransition(_ item: DocumentNode, of machine: String) -> TransitionSpec? {
    let what = "a transition of \(machine)"
    guard let f = fields(of: item, what: what, allowed: Self.transitionKeys) else { return nil }
    let from = required(f, "from", of: what, at: item.source) {
      $0.reference($1, what: "'from'")
    }
    let to = required(f, "to", of: what, at: item.source) { $0.reference($1, what: "'to'") }
    var transition = TransitionSpec(
      from: from ?? Located(""), to: to ?? Located(""), at: item.source)
    if let on = f["on"], let s = scalar(on, what: "an event or an input for 'on'") {
      do {
        transition.on = try ExpectationParser.parseTrigger(
          s.text, at: on.source.span, verbatim: s.isVerbatim)
      } catch {
        diagnostics.append(error.diagnostic)
        return nil
      }
    }
    transition.when = f["when"].flatMap { expression($0, what: "'when'") }
    transition.after = f["after"].flatMap { shortTime($0, what: "'after'", plausible: 600) }
    if f["on"] != nil && f["after"] != nil {
      error(
        "a transition waits for 'on' or 'after', not both", at: f.keySource("after") ?? item.source)
      return nil
    }
    guard from != nil, to != nil else { return nil }
    if f["when"] != nil && transition.when == nil { return nil }
    return transition
  }

  /// `set: { NAME: VALUE, … }` of a gesture.
  mutating func decodeInputAssignments(_ node: DocumentNode, at keySource: SourceRef)
    -> GestureStep?
  {
    guard let entries = mapping(node, what: "the inputs to set (such as { loading: true })")
    else { return nil }
    var assignments: [GestureStep.InputAssignment] = []
    for entry in unique(entries, what: "input") {
      guard identifier(entry.key, at: entry.keySource, what: "input"),
        let value = expression(entry.value, what: "input '\(entry.key)'")
      else { continue }
      assignments.append(
        GestureStep.InputAssignment(input: Located(entry.key, at: entry.keySource), value: value))
    }
    guard !assignments.isEmpty, assignments.count == entries.count else {
      if entries.isEmpty { error("'set' names no input", at: keySource) }
      return nil
    }
    return GestureStep(.set(assignments), at: keySource)
  }
}
