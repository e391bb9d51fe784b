import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneSyntax
import SceneVocabulary

// MARK: - Inputs and state machines

extension SceneResolver {
  /// How many slots the machines of `spec` take: one for each machine's state number,
  /// then one per state (1 while in it).
  static func machineSlotCount(_ spec: SceneSpec) -> Int {
    spec.machines.reduce(0) { $0 + 1 + $1.states.count }
  }

  /// The first slot of each machine.
  static func machineSlots(_ spec: SceneSpec, layout: SlotLayout) -> [Int] {
    var slots: [Int] = []
    var next = layout.firstMachineSlot
    for machine in spec.machines {
      slots.append(next)
      next += 1 + machine.states.count
    }
    return slots
  }

  /// The member that marks a machine's symbol, which no expression can spell.
  static let machineMarker = "#machine"

  /// What inputs and machines add to the names expressions read: an input (not a trigger,
  /// which holds no value) is a number; a machine `m` has `m.state`, its state's number,
  /// and `m.NAME` for each state, 1 while in it (`m.state == NAME` reads that).
  func addStateSymbols(_ symbols: inout [String: Symbol], layout: SlotLayout) {
    for (i, input) in spec.inputs.enumerated() where input.kind != .trigger {
      if symbols[input.name.value] == nil {
        symbols[input.name.value] = .number(slot: layout.inputSlot(i))
      }
    }
    for (k, machine) in spec.machines.enumerated() {
      let first = Self.machineSlots(spec, layout: layout)[k]
      var members: [String: Symbol] = [
        "state": .number(slot: first), Self.machineMarker: .number(slot: first),
      ]
      for (j, state) in machine.states.enumerated() where members[state.name.value] == nil {
        members[state.name.value] = .number(slot: first + 1 + j)
      }
      if symbols[machine.name.value] == nil {
        symbols[machine.name.value] = .object(members: members, value: nil)
      }
    }
  }

  /// Inputs, with their defaults (or the values given from outside, `overrides`, checked).
  mutating func resolveInputs() -> [SceneGraph.Input] {
    spec.inputs.map { input in
      let kind: SceneGraph.Input.Kind
      let initial: Double
      switch input.kind {
      case .boolean(let value):
        kind = .boolean
        initial = value.value ? 1 : 0
      case .number(let value, let min, let max):
        let range = (min?.value ?? -.infinity)...(max?.value ?? .infinity)
        kind = .number(range: min == nil && max == nil ? nil : range)
        initial = value.value
      case .trigger:
        kind = .trigger
        initial = 0
      }
      return SceneGraph.Input(
        name: input.name.value, kind: kind, initial: initial, source: input.name.source)
    }
  }

  /// The machines of the scene, checked against `graph` (its handles, constraints,
  /// springs and drawn paths); their animated properties' targets are added to the
  /// handles' motions, which are made where a handle had none for the property.
  mutating func resolveMachines(
    _ graph: inout SceneGraph, symbols: [String: Symbol], timed: Set<Int>
  ) {
    let inputIndex = Self.index(spec.inputs.count) { spec.inputs[$0].name.value }
    // Who owns each animated property of a handle: the first machine that sets it.
    var owners: [Int: [SceneGraph.AnimatedProperty: (machine: String, source: SourceRef)]] = [:]
    var placedBy: [Int: (machine: String, source: SourceRef)] = [:]
    for (k, machineSpec) in spec.machines.enumerated() {
      let errorsBefore = errors.count
      let what = "machine '\(machineSpec.name.value)'"
      let stateIndex = Self.index(machineSpec.states.count) {
        machineSpec.states[$0].name.value
      }
      let names = machineSpec.states.map { $0.name.value }
      func state(_ name: Located<String>) -> Int? {
        if let index = stateIndex[name.value] { return index }
        error(
          "unknown state '\(name.value)' of \(what)\(Suggestion.didYouMean(name.value, among: names))",
          at: name.source)
        return nil
      }
      for state in machineSpec.states where state.name.value == "state" {
        error(
          "a state may not be called 'state': '\(machineSpec.name.value).state' is the machine's state",
          at: state.name.source)
      }
      let initial = state(machineSpec.initial)
      var states: [SceneGraph.MachineState] = []
      for (j, stateSpec) in machineSpec.states.enumerated() {
        let stateWhat = "state '\(stateSpec.name.value)' of \(what)"
        var motion = SceneGraph.StateMotion.instant
        if let spring = stateSpec.spring {
          if let index = lookup(spring, in: springIndex, kind: "spring") {
            motion = .spring(index)
          }
        } else if let duration = stateSpec.duration {
          motion = .tween(
            duration: checked(
              duration, default: 0.3, "'duration' of \(stateWhat)", in: 0.001...3600),
            easing: stateSpec.easing?.value ?? .linear)
        }
        var disabled: [Int] = []
        let constraintNames = graph.constraints.map { $0.reportedName }
        for name in stateSpec.disabled {
          if let c = constraintNames.firstIndex(of: name.value), !name.value.isEmpty {
            disabled.append(c)
          } else {
            let named = constraintNames.filter { !$0.isEmpty }
            error(
              named.isEmpty
                ? "unknown constraint '\(name.value)': the scene has no named constraints (give one 'name:')"
                : "unknown constraint '\(name.value)'\(Suggestion.didYouMean(name.value, among: named))",
              at: name.source)
          }
        }
        var placements: [SceneGraph.Placement] = []
        for target in stateSpec.targets {
          guard let handle = lookup(target.handle, in: handleIndex, kind: "handle") else {
            continue
          }
          let property = target.property.value
          let subject = "'\(target.handle.value).\(property)'"
          if property == "position" || property == "rest" {
            guard
              let value = compile(
                target.value, symbols, expect: .point, what: "\(subject) of \(stateWhat)")
            else { continue }
            checkPlacement(
              handle, restOnly: property == "rest", target: target, motion: motion, graph: graph,
              disabled: disabled)
            if let other = placedBy[handle], other.machine != machineSpec.name.value {
              error(
                "\(subject) is placed by machine '\(other.machine)' too; one machine places a handle",
                at: target.property.source,
                notes: [
                  Diagnostic.Note(
                    "machine '\(other.machine)' places it here", at: other.source.span)
                ])
            }
            placedBy[handle] = (machineSpec.name.value, target.property.source)
            placements.append(
              SceneGraph.Placement(
                handle: handle, restOnly: property == "rest", value: value,
                source: target.property.source))
            continue
          }
          guard let animated = Self.settableProperties[property] else {
            error(
              "a state cannot set '\(property)' of a handle\(Self.settableHint(property))",
              at: target.property.source)
            continue
          }
          guard
            let value = compile(
              target.value, symbols, expect: .number, what: "\(subject) of \(stateWhat)")
          else { continue }
          if let owner = gooeyOwner(of: handle, animated, in: graph, disabled: disabled) {
            error(
              "\(subject) is set by the gooey link '\(owner)' while it holds; disable it in this state first, or set another property",
              at: target.property.source)
            continue
          }
          if let other = owners[handle]?[animated], other.machine != machineSpec.name.value {
            error(
              "\(subject) is set by machine '\(other.machine)' too; one machine sets a property",
              at: target.property.source,
              notes: [
                Diagnostic.Note("machine '\(other.machine)' sets it here", at: other.source.span)
              ])
            continue
          }
          owners[handle, default: [:]][animated] = (machineSpec.name.value, target.property.source)
          addStateTarget(
            to: &graph.handles[handle], animated,
            SceneGraph.StateTarget(machine: k, state: j, target: value),
            source: target.property.source, symbols: symbols, timed: timed)
        }
        var made = SceneGraph.MachineState(
          name: stateSpec.name.value, source: stateSpec.name.source, placements: placements,
          motion: motion)
        made.disabled = disabled
        states.append(made)
      }
      var transitions: [SceneGraph.Transition] = []
      for transitionSpec in machineSpec.transitions {
        let from = state(transitionSpec.from)
        let to = state(transitionSpec.to)
        var trigger = SceneGraph.Transition.Trigger.immediate
        var triggerFailed = false
        if let after = transitionSpec.after {
          trigger = .after(
            checked(after, default: 0, "'after' of a transition", in: 0...3600))
        }
        switch transitionSpec.on {
        case .input(let name)?:
          if let index = inputIndex[name.value] {
            trigger = .input(index)
          } else {
            triggerFailed = true
            let candidates = spec.inputs.map { $0.name.value } + ExpectationSpec.eventNames
            error(
              "unknown event or input '\(name.value)'\(Suggestion.didYouMean(name.value, among: candidates))",
              at: name.source)
          }
        case .event(let pattern)?:
          if let event = eventTrigger(pattern, graph: graph) {
            trigger = event
          } else {
            triggerFailed = true
          }
        case nil:
          break
        }
        let condition = transitionSpec.when.flatMap {
          compile($0, symbols, expect: .number, what: "the 'when' of a transition")
        }
        // One that did not resolve would look as if it waited for nothing.
        guard let from, let to, !triggerFailed else { continue }
        transitions.append(
          SceneGraph.Transition(
            from: from, to: to, trigger: trigger, condition: condition,
            source: transitionSpec.source))
      }
      let machine = SceneGraph.Machine(
        name: machineSpec.name.value, states: states, initial: initial ?? 0,
        transitions: transitions, source: machineSpec.name.source)
      checkCycles(machine, spec: machineSpec)
      // A state is unreachable only because a transition to it had an error: no warning.
      if errors.count == errorsBefore { warnUnreachable(machine, spec: machineSpec) }
      graph.machines.append(machine)
    }
    graph.machineSlots = Self.machineSlots(spec, layout: graph.layout)
  }

  /// The properties a state may set, by key.
  static let settableProperties: [String: SceneGraph.AnimatedProperty] = [
    "opacity": .opacity, "rotation": .rotation, "scale": .scale, "scaleX": .scaleX,
    "scaleY": .scaleY, "r": .radius, "width": .width, "height": .height,
    "cornerRadius": .cornerRadius, "strokeWidth": .strokeWidth,
  ]

  /// Why a property cannot be set, or which one was meant.
  static func settableHint(_ property: String) -> String {
    if property == "fill" || property == "stroke" {
      return
        "; give the handle '\(property): { to: \"mix(#a, #b, machine.state == on)\", spring: … }' to change its colour with a state"
    }
    let known = ["position", "rest"] + settableProperties.keys.sorted()
    let suggestion = Suggestion.didYouMean(property, among: known)
    return suggestion.isEmpty
      ? "; it can set \(known.map { "'\($0)'" }.joined(separator: ", "))" : suggestion
  }

  /// The name of the gooey link that sets `property` of `handle`, if one does (an
  /// anchor's radius).
  func gooeyOwner(
    of handle: Int, _ property: SceneGraph.AnimatedProperty, in graph: SceneGraph,
    disabled: [Int]
  ) -> String? {
    guard property == .radius else { return nil }
    for (c, constraint) in graph.constraints.enumerated() where !disabled.contains(c) {
      if case .gooey(let g) = constraint.kind, g.anchor == handle || g.ball == handle {
        return constraint.reportedName
      }
    }
    return nil
  }

  /// A state may place a handle that no constraint carries along a path or through time,
  /// and that does not follow an expression (whose rest it may set).
  mutating func checkPlacement(
    _ handle: Int, restOnly: Bool, target: StateTargetSpec, motion: SceneGraph.StateMotion,
    graph: SceneGraph, disabled: [Int]
  ) {
    let name = target.handle.value
    for (c, constraint) in graph.constraints.enumerated()
    where constraint.kind.movedHandle == handle && !disabled.contains(c) {
      switch constraint.kind {
      case .follow, .animate, .gooey:
        error(
          "handle '\(name)' is moved by its \(constraint.kind.keyword.rawValue) constraint; a state places it only while it disables that constraint",
          at: target.property.source)
        return
      case .drag, .elastic:
        break
      }
    }
    let handleSpec = graph.handles[handle]
    if !restOnly && handleSpec.isBound {
      error(
        "handle '\(name)' follows its position's expression; set its 'rest' instead, where it springs when let go",
        at: target.property.source)
    }
    if restOnly && handleSpec.spring == nil, case .instant = motion,
      !graph.constraints.contains(where: { $0.kind.movedHandle == handle })
    {
      error(
        "handle '\(name)' has no spring to reach its rest with; give it 'spring:', or give the state a spring or a duration",
        at: target.property.source)
    }
  }

  /// Adds `target` to the motion of `property` of `handle`, making one that holds the
  /// handle's own value where it has none.
  mutating func addStateTarget(
    to handle: inout SceneGraph.Handle, _ property: SceneGraph.AnimatedProperty,
    _ target: SceneGraph.StateTarget, source: SourceRef, symbols: [String: Symbol],
    timed: Set<Int>
  ) {
    let reads = target.target.dependencies.contains(where: timed.contains)
    if let m = handle.motions.firstIndex(where: { $0.property == property }) {
      handle.motions[m].stateTargets.append(target)
      if reads { handle.motions[m].followsTime = true }
      return
    }
    let declared: Double
    switch property {
    case .opacity: declared = handle.style.opacity
    case .radius: declared = handle.radius
    case .width: declared = handle.width
    case .height: declared = handle.height
    case .cornerRadius: declared = handle.cornerRadius
    case .strokeWidth: declared = handle.style.strokeWidth
    case .scale, .scaleX, .scaleY: declared = 1
    default: declared = 0
    }
    guard
      let base = compile(
        Expression(.number(declared, nil), at: source), symbols, expect: .number,
        what: "the \(property.key) of handle '\(handle.name)'")
    else { return }
    var motion = SceneGraph.Motion(property: property, target: base, spring: nil, source: source)
    motion.stateTargets = [target]
    motion.followsTime = reads
    handle.motions.append(motion)
    // In the order of ``SceneGraph/AnimatedProperty``, as the frames list them.
    handle.motions.sort { $0.property < $1.property }
  }

  /// The trigger for an event pattern, its subject and target checked against the scene.
  mutating func eventTrigger(_ pattern: EventPattern, graph: SceneGraph)
    -> SceneGraph.Transition.Trigger?
  {
    guard let kind = SceneEventName(rawValue: pattern.name) else { return nil }
    let handleNames = spec.handles.map { $0.name.value }
    let linkNames = graph.constraints.compactMap { constraint -> String? in
      if case .gooey = constraint.kind { return constraint.reportedName }
      return nil
    }
    let errorsBefore = errors.count
    var subject: Int?
    if kind == .state {
      subject = checkStateEvent(pattern)
      guard errors.count == errorsBefore else { return nil }
      return .event(.state, subject: subject, target: pattern.target)
    }
    checkSubject(pattern, handles: handleNames, links: linkNames)
    checkSnapTarget(pattern)
    guard errors.count == errorsBefore else { return nil }
    if let name = pattern.subject {
      if kind.isAboutLink {
        subject = graph.drawnPaths.firstIndex {
          if case .constraint(let c) = $0.origin {
            return graph.constraints[c].reportedName == name
          }
          return false
        }
      } else {
        subject = handleIndex[name]
      }
    }
    // An event the scene can never give would leave the transition waiting for ever.
    if let subject, !kind.isAboutLink, kind == .grab || kind == .release || kind == .tap,
      !graph.handles[subject].draggable
    {
      error(
        "handle '\(pattern.subject ?? "")' is not draggable, so it is never grabbed, released or tapped",
        at: pattern.subjectSource)
      return nil
    }
    if kind.isAboutLink && linkNames.isEmpty {
      error(
        "'\(pattern.name)' is an event of a gooey link, and the scene has none",
        at: pattern.subjectSource)
      return nil
    }
    return .event(kind, subject: subject, target: pattern.target)
  }

  /// Checks the machine and state a `state` event names (`state of refresh to loading`);
  /// the machine's index, if it names one.
  @discardableResult
  mutating func checkStateEvent(_ pattern: EventPattern) -> Int? {
    let machines = spec.machines.map { $0.name.value }
    guard let name = pattern.subject else {
      if let target = pattern.target,
        !spec.machines.contains(where: { $0.states.contains { $0.name.value == target } })
      {
        error("no machine has a state '\(target)'", at: pattern.targetSource)
      }
      return nil
    }
    guard let index = machines.firstIndex(of: name) else {
      error(
        machines.isEmpty
          ? "'state' is an event of a state machine, and the scene has none"
          : "unknown machine '\(name)'\(Suggestion.didYouMean(name, among: machines))",
        at: pattern.subjectSource)
      return nil
    }
    if let target = pattern.target,
      !spec.machines[index].states.contains(where: { $0.name.value == target })
    {
      let names = spec.machines[index].states.map { $0.name.value }
      error(
        "unknown state '\(target)' of machine '\(name)'\(Suggestion.didYouMean(target, among: names))",
        at: pattern.targetSource)
    }
    return index
  }

  /// A cycle of transitions that wait for nothing and have no condition (or the same
  /// one all round) would go round for ever the moment it was entered.
  mutating func checkCycles(_ machine: SceneGraph.Machine, spec: MachineSpec) {
    let count = machine.states.count
    for start in 0..<count {
      // Depth-first along immediate transitions, from `start`, back to `start`.
      var path: [Int] = []
      var visited = Set<Int>()
      func search(_ state: Int, condition: String?) -> Bool {
        for (t, transition) in machine.transitions.enumerated()
        where transition.from == state && transition.isImmediate {
          let text = spec.transitions[t].when?.text
          guard condition == nil || text == nil || text == condition else { continue }
          path.append(t)
          if transition.to == start { return true }
          if transition.to > start && visited.insert(transition.to).inserted,
            search(transition.to, condition: condition ?? text)
          {
            return true
          }
          path.removeLast()
        }
        return false
      }
      guard search(start, condition: nil) else { continue }
      let names =
        [machine.states[start].name] + path.map { machine.states[machine.transitions[$0].to].name }
      error(
        "the transitions \(names.joined(separator: " -> ")) of machine '\(machine.name)' wait for nothing and go round for ever; give one an event ('on'), a time ('after') or a condition ('when')",
        at: spec.transitions[path[0]].source,
        notes: path.dropFirst().map {
          Diagnostic.Note("and this transition", at: spec.transitions[$0].source.span)
        })
      return
    }
  }

  /// States no transition leads to from the initial one.
  mutating func warnUnreachable(_ machine: SceneGraph.Machine, spec: MachineSpec) {
    var reached: Set<Int> = [machine.initial]
    var queue = [machine.initial]
    while let state = queue.popLast() {
      for transition in machine.transitions where transition.from == state {
        if reached.insert(transition.to).inserted { queue.append(transition.to) }
      }
    }
    for (j, state) in machine.states.enumerated() where !reached.contains(j) {
      warnings.append(
        .warning(
          "state '\(state.name)' of machine '\(machine.name)' is never entered: no transition leads to it from '\(machine.states[machine.initial].name)'",
          at: state.source.span))
    }
  }
}
