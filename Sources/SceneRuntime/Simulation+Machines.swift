import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneVocabulary

/// What the state machines and inputs of a run hold: each machine's state and when it was
/// entered, what has happened since each last looked, and how the properties the states
/// set move now.
struct MachineRuntime: Sendable {
  /// Each machine's state, and the time it entered it.
  var states: [Int]
  var entered: [Double]
  /// How far into the step's events each machine has looked.
  var eventCursors: [Int]
  /// The inputs fired or set since the machines last looked.
  var changedInputs: [Bool]
  var anyInputChanged = false
  /// For each motion: the state target it follows (an index into its
  /// ``SceneGraph/Motion/stateTargets``), or −1 for its own; and how it moves now.
  var motionTargets: [Int]
  var motionSprings: [Int?]
  var motionTweens: [(duration: Double, easing: Easing)?]
  var motionCurves: [TimingCurve?]
  /// For each handle: the rest a state gives it, instead of its own.
  var restOverrides: [CompiledExpression?]
  /// For each constraint: whether a machine's state turns it off now.
  var disabled: [Bool]
  var anyDisabled = false

  init(plan: SimulationPlan) {
    let graph = plan.graph
    states = graph.machines.map { $0.initial }
    entered = Array(repeating: 0, count: graph.machines.count)
    eventCursors = Array(repeating: 0, count: graph.machines.count)
    changedInputs = Array(repeating: false, count: graph.inputs.count)
    motionTargets = Array(repeating: -1, count: plan.motions.count)
    motionSprings = plan.motions.map { $0.spring }
    motionTweens = plan.motions.map { $0.tween }
    motionCurves = plan.motionTweenCurves
    restOverrides = Array(repeating: nil, count: graph.handles.count)
    disabled = Array(repeating: false, count: graph.constraints.count)
  }
}

extension Simulation {
  /// The most transitions one machine may take at one moment: more is a loop.
  public static let transitionLimit = 16

  /// The spring motion `m` follows its target with now, if any.
  @inline(__always)
  func motionSpring(_ m: Int) -> Int? { machinesNow.motionSprings[m] }

  /// The tween motion `m` takes to a new target now, if any.
  @inline(__always)
  func motionTween(_ m: Int) -> (duration: Double, easing: Easing)? { machinesNow.motionTweens[m] }

  /// The timing curve of ``motionTween(_:)``.
  @inline(__always)
  func motionCurve(_ m: Int) -> TimingCurve? { machinesNow.motionCurves[m] }

  /// The expression motion `m` follows now: its own, or its state's.
  func motionTarget(_ m: Int) -> CompiledExpression {
    let active = machinesNow.motionTargets[m]
    return active < 0 ? motions[m].target : motions[m].stateTargets[active].target
  }

  // MARK: - Inputs

  /// Sets input `index` to `value`, as the script's `set` or the preview does.
  ///
  /// A boolean takes 1 for anything but 0, a number is kept within its range; the machines
  /// then look at once. `false` for an input that does not take the value (a trigger, or
  /// not a finite number).
  @discardableResult
  public mutating func setInput(_ index: Int, to value: Double) -> Bool {
    guard graph.inputs.indices.contains(index),
      let accepted = graph.inputs[index].accepted(value)
    else { return false }
    slots[graph.layout.inputSlot(index)] = accepted
    machinesNow.changedInputs[index] = true
    machinesNow.anyInputChanged = true
    inputsChanged()
    return true
  }

  /// Fires trigger input `index`.
  ///
  /// The transitions `on` it may happen, at this moment only. `false` for an input that
  /// is not a trigger.
  @discardableResult
  public mutating func fire(_ index: Int) -> Bool {
    guard graph.inputs.indices.contains(index), graph.inputs[index].kind == .trigger else {
      return false
    }
    machinesNow.changedInputs[index] = true
    machinesNow.anyInputChanged = true
    inputsChanged()
    return true
  }

  /// The value of each input now (0 for a trigger).
  public var inputValues: [Double] {
    graph.inputs.indices.map {
      graph.inputs[$0].kind == .trigger ? 0 : slots[graph.layout.inputSlot($0)]
    }
  }

  /// After an input changes: what reads it (lets, bound handles, paths, targets) sees the
  /// new value, and the machines look.
  private mutating func inputsChanged() {
    writeBuiltinSlots()
    evaluateNodes(initial: false)
    evaluateMachines()
    refreshMotionTargets()
  }

  // MARK: - Machines

  /// The name of the state machine `k` is in.
  public func stateName(ofMachine k: Int) -> String {
    graph.machines[k].states[machinesNow.states[k]].name
  }

  /// Puts every machine in its initial state, as the run starts: its targets and places
  /// are there from the first frame, without moving there and without an event.
  mutating func enterInitialStates() {
    for k in graph.machines.indices {
      writeStateSlots(machine: k, from: nil, to: graph.machines[k].initial)
      applyState(machine: k, from: nil, instantly: true)
    }
  }

  /// Whether a machine waits for a time that has not come (an `after` from its state): the
  /// scene is not at rest while one does.
  var machineTimerIsPending: Bool { nextMachineDeadline(after: time) != nil }

  /// The earliest moment after `moment` at which a machine's `after` transition is due.
  func nextMachineDeadline(after moment: Double) -> Double? {
    var earliest: Double?
    for (k, machine) in graph.machines.enumerated() {
      let state = machinesNow.states[k]
      for transition in machine.transitions where transition.from == state {
        guard case .after(let seconds) = transition.trigger else { continue }
        let due = machinesNow.entered[k] + seconds
        if due > moment && due < (earliest ?? .infinity) { earliest = due }
      }
    }
    return earliest
  }

  /// Lets every machine take the transitions that may be taken now, in the scene's order,
  /// again and again until none moves: a machine sees the `state` events of those after it
  /// on the next round.
  ///
  /// An event, a fired trigger or a set input moves each machine at most once: after a
  /// transition on one, only transitions that wait for nothing, for a time or for a
  /// condition follow it at this moment.
  mutating func evaluateMachines() {
    guard hasMachines, machineFailure == nil else {
      machinesNow.anyInputChanged = false
      return
    }
    let machineCount = graph.machines.count
    var taken = Array(repeating: 0, count: machineCount)
    var usedTrigger = Array(repeating: false, count: machineCount)
    var moved = true
    while moved {
      moved = false
      for k in 0..<machineCount {
        while let t = firstTransition(machine: k, allowingTriggers: !usedTrigger[k]) {
          let transition = graph.machines[k].transitions[t]
          if case .event = transition.trigger { usedTrigger[k] = true }
          if case .input = transition.trigger { usedTrigger[k] = true }
          taken[k] += 1
          if taken[k] > Self.transitionLimit {
            machineFailure = RuntimeError(
              "machine '\(graph.machines[k].name)' took more than \(Self.transitionLimit) transitions at \(time.shortestDescription) s without stopping; its transitions go round in a loop",
              at: transition.source.span)
            return
          }
          enter(machine: k, state: transition.to)
          moved = true
        }
        machinesNow.eventCursors[k] = events.count
      }
    }
    if machinesNow.anyInputChanged {
      for i in machinesNow.changedInputs.indices { machinesNow.changedInputs[i] = false }
      machinesNow.anyInputChanged = false
    }
  }

  /// The first transition of machine `k`, in the order written, that may be taken now.
  func firstTransition(machine k: Int, allowingTriggers: Bool) -> Int? {
    let machine = graph.machines[k]
    let state = machinesNow.states[k]
    for (t, transition) in machine.transitions.enumerated() where transition.from == state {
      let due: Bool
      switch transition.trigger {
      case .immediate:
        due = true
      case .after(let seconds):
        due = time >= machinesNow.entered[k] + seconds
      case .input(let index):
        due = allowingTriggers && machinesNow.changedInputs[index]
      case .event(let kind, let subject, let target):
        due =
          allowingTriggers
          && hasEvent(kind, subject: subject, target: target, since: machinesNow.eventCursors[k])
      }
      guard due else { continue }
      if let condition = transition.condition, evaluate(condition).x == 0 { continue }
      return t
    }
    return nil
  }

  /// Whether an event of `kind` (of `subject` and to `target`, where given) happened at or
  /// after index `start` of this step's events.
  func hasEvent(_ kind: SceneEventName, subject: Int?, target: String?, since start: Int) -> Bool {
    guard start < events.count else { return false }
    for e in start..<events.count {
      let event = events[e]
      if event.kind == kind && (subject == nil || event.subject == subject)
        && (target == nil || event.target == target)
      {
        return true
      }
    }
    return false
  }

  /// Machine `k` goes to `state`: the `state` event, its slots, and what the state sets.
  mutating func enter(machine k: Int, state: Int) {
    let from = machinesNow.states[k]
    let machine = graph.machines[k]
    events.append(
      SceneEvent(.state, k, target: machine.states[state].name, from: machine.states[from].name))
    writeStateSlots(machine: k, from: from, to: state)
    applyState(machine: k, from: from, instantly: false)
  }

  /// Records machine `k`'s new state in the run and in the slots expressions read.
  private mutating func writeStateSlots(machine k: Int, from: Int?, to state: Int) {
    machinesNow.states[k] = state
    machinesNow.entered[k] = time
    let first = graph.machineSlots[k]
    slots[first] = Double(state)
    if let from { slots[first + 1 + from] = 0 }
    slots[first + 1 + state] = 1
  }

  /// What machine `k`'s state sets: its properties' targets and how they go there, and
  /// its handles' places; what the state it left (`from`) set and this one does not goes
  /// back to the handles' own.
  private mutating func applyState(machine k: Int, from: Int?, instantly: Bool) {
    let machine = graph.machines[k]
    let state = machinesNow.states[k]
    let entered = machine.states[state]
    // How values that go back to their own move: by the entered state's way, if it has one.
    let enteredHasWay: Bool
    if case .instant = entered.motion { enteredHasWay = false } else { enteredHasWay = true }
    for m in plan.machineMotions[k] {
      let active = motions[m].stateTargets.firstIndex { $0.machine == k && $0.state == state } ?? -1
      machinesNow.motionTargets[m] = active
      let way: SceneGraph.StateMotion? =
        instantly ? .instant : (active >= 0 || enteredHasWay ? entered.motion : nil)
      switch way {
      case .instant?:
        machinesNow.motionSprings[m] = nil
        machinesNow.motionTweens[m] = nil
        machinesNow.motionCurves[m] = nil
      case .spring(let spring)?:
        machinesNow.motionSprings[m] = spring
        machinesNow.motionTweens[m] = nil
        machinesNow.motionCurves[m] = nil
      case .tween(let duration, let easing)?:
        machinesNow.motionSprings[m] = nil
        machinesNow.motionTweens[m] = (duration, easing)
        machinesNow.motionCurves[m] = TimingCurve(easing)
      case nil:
        machinesNow.motionSprings[m] = motions[m].spring
        machinesNow.motionTweens[m] = motions[m].tween
        machinesNow.motionCurves[m] = motionTweenCurves[m]
      }
    }
    if !plan.machineMotions[k].isEmpty {
      refreshMotionTargets()
      for m in plan.machineMotions[k] where motionSpring(m) == nil && motionTween(m) == nil {
        motionValues[m] = motionTargets[m]
        motionVelocities[m] = 0
      }
    }
    // Places: the left state's, where the entered one does not place the handle, go back.
    if let from {
      for placement in machine.states[from].placements
      where !entered.placements.contains(where: { $0.handle == placement.handle }) {
        machinesNow.restOverrides[placement.handle] = nil
        if let own = restPrograms[placement.handle] {
          place(
            placement.handle, at: evaluate(program: own), restOnly: true,
            motion: enteredHasWay ? entered.motion : nil)
        }
      }
    }
    updateDisabledConstraints()
    for placement in entered.placements {
      machinesNow.restOverrides[placement.handle] = placement.value
      place(
        placement.handle, at: evaluate(placement.value), restOnly: placement.restOnly,
        motion: instantly ? .instant : entered.motion)
    }
  }

  /// Turns off the constraints some machine's state disables, and on again (afresh)
  /// those none does any more.
  private mutating func updateDisabledConstraints() {
    var now = Array(repeating: false, count: machinesNow.disabled.count)
    for (k, machine) in graph.machines.enumerated() {
      for c in machine.states[machinesNow.states[k]].disabled { now[c] = true }
    }
    guard now != machinesNow.disabled else { return }
    let before = machinesNow.disabled
    machinesNow.disabled = now
    machinesNow.anyDisabled = now.contains(true)
    for c in now.indices where before[c] != now[c] {
      let handle = graph.constraints[c].kind.movedHandle
      if now[c] {
        // What the constraint was carrying stops where it is.
        if handles[handle].mode == .gliding { handles[handle].mode = .idle }
        if keywords[c] == .follow { followStates[stateSlots[c]].springingAlongPath = false }
      } else {
        resumeConstraint(c)
      }
    }
  }

  /// Whether constraint `c` is on: no machine's state turns it off.
  @inline(__always)
  func constraintIsOn(_ c: Int) -> Bool {
    !hasMachines || !machinesNow.anyDisabled || !machinesNow.disabled[c]
  }

  /// Sends handle `i` to rest at `point`: by `motion` (the handle's own spring when `nil`,
  /// or when the state moves instantly but the handle only has its rest set), unless a
  /// finger holds it or it follows its expression, when it only goes there once let go.
  private mutating func place(
    _ i: Int, at point: Vector, restOnly: Bool, motion: SceneGraph.StateMotion?
  ) {
    handles[i].rest = point
    switch handles[i].mode {
    case .dragging, .following, .hidden, .animating:
      return
    case .idle, .springing, .tweening, .gliding:
      break
    }
    let own: SceneGraph.StateMotion = handleSprings[i].map { .spring($0) } ?? .instant
    let way: SceneGraph.StateMotion
    switch motion {
    case .spring(let spring)?: way = .spring(spring)
    case .tween(let duration, let easing)?: way = .tween(duration: duration, easing: easing)
    // A rest given at once is still reached by the handle's own spring.
    case .instant?: way = restOnly ? own : .instant
    case nil: way = own
    }
    switch way {
    case .instant:
      handles[i].position = point
      handles[i].velocity = .zero
      handles[i].mode = .idle
      tweens[i] = nil
    case .spring(let spring):
      handles[i].mode = .springing(spring: spring)
    case .tween(let duration, let easing):
      tweens[i] = Tween(
        from: handles[i].position, to: point, duration: duration, curve: TimingCurve(easing))
      handles[i].mode = .tweening(start: time)
    }
    hitGrid.move(i, to: handles[i].position)
    writeHandleSlot(i)
  }

  /// The machines as a frame shows them.
  var machineFrames: [MachineFrame] {
    graph.machines.indices.map {
      MachineFrame(name: graph.machines[$0].name, state: stateName(ofMachine: $0))
    }
  }
}
