import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneSyntax
import SceneVocabulary

// MARK: - Expectations

extension SceneResolver {
  /// The latest moment an expectation may name: the longest a scene may run.
  static let latestExpectationTime = 3600.0

  /// Compiles every `expect:` line against the scene, so that `scenec check` reports a bad
  /// name, member, event subject or moment at its place, before anything runs.
  mutating func resolveExpectations(
    symbols: [String: Symbol], slots: SceneGraph.ExpectationSlots,
    constraints: [SceneGraph.Constraint]
  ) -> [SceneGraph.Expectation] {
    guard !spec.expectations.isEmpty else { return [] }
    let table = expectationSymbols(symbols, slots: slots)
    let handleNames = spec.handles.map { $0.name.value }
    let linkNames = constraints.compactMap { constraint -> String? in
      if case .gooey = constraint.kind { return constraint.reportedName }
      return nil
    }
    var result: [SceneGraph.Expectation] = []
    for expectation in spec.expectations {
      let errorsBefore = errors.count
      let kind: SceneGraph.Expectation.Kind
      switch expectation.kind {
      case .value(let moment, let lhs, let comparison, let rhs, let tolerance):
        checkMoment(moment, of: expectation)
        let left = compileNumber(stateNumber(lhs, comparedWith: rhs), table)
        let right = compileNumber(stateNumber(rhs, comparedWith: lhs), table)
        let tol = tolerance.flatMap { compileTolerance($0, table) }
        guard let left, let right, tolerance == nil || tol != nil else { continue }
        kind = .value(at: moment, left, comparison, right, tolerance: tol)
      case .event(let pattern, let timing):
        checkSubject(pattern, handles: handleNames, links: linkNames)
        checkSnapTarget(pattern)
        if case .before(.event(let reference))? = timing {
          checkSubject(reference, handles: handleNames, links: linkNames)
          checkSnapTarget(reference)
        }
        if case .after(.event(let reference))? = timing {
          checkSubject(reference, handles: handleNames, links: linkNames)
          checkSnapTarget(reference)
        }
        kind = .event(pattern, timing)
      case .noEvent(let pattern):
        checkSubject(pattern, handles: handleNames, links: linkNames)
        checkSnapTarget(pattern)
        kind = .noEvent(pattern)
      case .allAtRest(let moment):
        checkMoment(moment, of: expectation)
        kind = .allAtRest(at: moment)
      case .extreme(let extreme, let value, let window, let comparison, let rhs, let tolerance):
        checkWindow(window, of: expectation)
        let compiled = compileNumber(value, table)
        let right = compileNumber(stateNumber(rhs, comparedWith: value), table)
        let tol = tolerance.flatMap { compileTolerance($0, table) }
        guard let compiled, let right, tolerance == nil || tol != nil else { continue }
        kind = .extreme(extreme, compiled, window, comparison, right, tolerance: tol)
      case .throughout(let quantifier, let lhs, let comparison, let rhs, let tolerance, let window):
        checkWindow(window, of: expectation)
        let left = compileNumber(stateNumber(lhs, comparedWith: rhs), table)
        let right = compileNumber(stateNumber(rhs, comparedWith: lhs), table)
        let tol = tolerance.flatMap { compileTolerance($0, table) }
        guard let left, let right, tolerance == nil || tol != nil else { continue }
        kind = .throughout(quantifier, left, comparison, right, tolerance: tol, window)
      }
      guard errors.count == errorsBefore else { continue }
      result.append(
        SceneGraph.Expectation(kind: kind, text: expectation.text, source: expectation.source))
    }
    return result
  }

  /// `NAME` compared with `machine.state`, as the number of that machine's state `NAME`.
  ///
  /// So `refresh.state == loading` (or `loading == refresh.state`) compares numbers (an
  /// unknown state is a located error with a suggestion). Any other `rhs` as it is.
  mutating func stateNumber(_ rhs: Expression, comparedWith lhs: Expression) -> Expression {
    guard case .member(let base, "state") = lhs.kind, case .identifier(let name) = rhs.kind,
      case .identifier(let machineName) = base.kind,
      let machine = spec.machines.first(where: { $0.name.value == machineName })
    else { return rhs }
    if let index = machine.states.firstIndex(where: { $0.name.value == name }) {
      return Expression(.number(Double(index), nil), at: rhs.source)
    }
    let names = machine.states.map { $0.name.value }
    error(
      "unknown state '\(name)' of machine '\(machineName)'\(Suggestion.didYouMean(name, among: names))",
      at: rhs.source)
    return Expression(.number(-1, nil), at: rhs.source)
  }

  /// The scene's names, with each handle's expectation-only members (`r`, `vx`, `vy`,
  /// `speed`, `state`, `rotation`, `scale`, `opacity`, `width`, `height`, `cornerRadius`,
  /// `strokeWidth`, `scaleX`, `scaleY`) and the state names as numbers, unless the scene uses the name.
  func expectationSymbols(_ symbols: [String: Symbol], slots: SceneGraph.ExpectationSlots)
    -> [String: Symbol]
  {
    var table = symbols
    var child = 0
    for (i, handle) in spec.handles.enumerated() {
      defer { child += handle.children.count }
      guard case .object(var members, let value)? = table[handle.name.value]?.expanded else {
        continue
      }
      for (k, member) in SceneGraph.ExpectationSlots.handleMembers.enumerated() {
        members[member] = .number(slot: slots.handleSlot(i) + k)
      }
      // Its children by name (`card.stamp.opacity`; `card.stamp` is its place), unless a
      // member of the handle has the name.
      for (c, spec) in handle.children.enumerated() where members[spec.name.value] == nil {
        let first = slots.childSlot(child + c)
        var childMembers: [String: Symbol] = [:]
        for (k, member) in SceneGraph.ExpectationSlots.childMembers.enumerated() {
          childMembers[member] = .number(slot: first + k)
        }
        members[spec.name.value] = .object(
          members: childMembers, value: .point(x: first, y: first + 1))
      }
      table[handle.name.value] = .object(members: members, value: value)
    }
    for (i, state) in SceneGraph.ExpectationSlots.stateNames.enumerated() where table[state] == nil
    {
      table[state] = .number(slot: slots.stateSlot(i))
    }
    return table
  }

  mutating func compileNumber(_ expression: Expression, _ symbols: [String: Symbol])
    -> CompiledExpression?
  {
    do {
      let compiled = try ExpressionCompiler.compile(expression, symbols: SymbolTable(symbols))
      guard compiled.resultType == .number else {
        error("an expectation compares numbers; compare a point's .x or .y", at: expression.source)
        return nil
      }
      // A side that never changes is known now: one that is never a number (`1/0`) would
      // make the check pass or fail for no reason the scene shows.
      if let value = compiled.constantValue?.x, !value.isFinite {
        error(
          "this is always \(value.shortestDescription), not a finite number; an expectation compares finite numbers",
          at: expression.source)
        return nil
      }
      return compiled
    } catch {
      errors.append(error)
      return nil
    }
  }

  /// A tolerance: a number, never negative where it is known before the run.
  mutating func compileTolerance(_ expression: Expression, _ symbols: [String: Symbol])
    -> CompiledExpression?
  {
    guard let compiled = compileNumber(expression, symbols) else { return nil }
    if let value = compiled.constantValue?.x, value < 0 {
      error(
        "a tolerance must not be negative, found \(value.shortestDescription)",
        at: expression.source)
      return nil
    }
    return compiled
  }

  /// A moment must be a time the run can reach: from 0 to an hour.
  mutating func checkMoment(_ moment: ExpectationSpec.Moment, of expectation: ExpectationSpec) {
    guard case .time(let t) = moment, !(t >= 0 && t <= Self.latestExpectationTime) else { return }
    error(
      "an expectation's time must be between 0 and \(Self.latestExpectationTime.shortestDescription) s, found \(t.shortestDescription) s",
      at: expectation.source)
  }

  /// A window must lie within the times a run can reach, and not end before it starts.
  mutating func checkWindow(_ window: ExpectationWindow, of expectation: ExpectationSpec) {
    let latest = Self.latestExpectationTime
    for t in [window.start] + (window.end.map { [$0] } ?? []) where !(t >= 0 && t <= latest) {
      error(
        "an expectation's time must be between 0 and \(latest.shortestDescription) s, found \(t.shortestDescription) s",
        at: expectation.source)
      return
    }
    if let end = window.end, end < window.start {
      error(
        "a window must not end before it starts: \(window.start.shortestDescription)s..\(end.shortestDescription)s",
        at: expectation.source)
    }
  }

  /// A snap target named in an expectation must be one a `drag` or `follow` of that
  /// handle (or of any handle, without `of`) has.
  mutating func checkSnapTarget(_ pattern: ExpectationSpec.EventPattern) {
    guard let target = pattern.target, pattern.name == SceneEventName.snap.rawValue else { return }
    var names: [String] = []
    for constraint in spec.constraints {
      let handle: String
      let targets: [String]
      switch constraint.kind {
      case .drag(let d):
        handle = d.handle.value
        targets = d.snap.map { $0.name.value } + (d.grid == nil ? [] : ["grid"])
      case .follow(let f):
        handle = f.handle.value
        targets = f.snap.map { $0.name.value }
      case .elastic, .gooey, .animate:
        continue
      }
      if pattern.subject == nil || pattern.subject == handle { names += targets }
    }
    guard !names.contains(target) else { return }
    let whose = pattern.subject.map { "handle '\($0)'" } ?? "the scene"
    error(
      names.isEmpty
        ? "'\(target)' is not a snap target: \(whose) has none"
        : "unknown snap target '\(target)' of \(whose)\(Suggestion.didYouMean(target, among: names))",
      at: pattern.targetSource)
  }

  /// The subject of an event pattern must be a handle (`grab`, `release`, `rest`, `loop`)
  /// or a `gooey` link (`link.broke`, `link.restored`, `dismissed`) of the scene.
  mutating func checkSubject(
    _ pattern: ExpectationSpec.EventPattern, handles: [String], links: [String]
  ) {
    if pattern.name == SceneEventName.tap.rawValue && spec.machines.isEmpty {
      error(
        "'tap' events are reported only in scenes with states (a 'states:' section)",
        at: pattern.subjectSource)
      return
    }
    guard let subject = pattern.subject else { return }
    if pattern.name == SceneEventName.state.rawValue {
      checkStateEvent(pattern)
      return
    }
    let isLinkEvent = ExpectationSpec.constraintEventNames.contains(pattern.name)
    let candidates = isLinkEvent ? links : handles
    guard !candidates.contains(subject) else { return }
    let what = isLinkEvent ? "gooey link" : "handle"
    if candidates.isEmpty {
      error(
        "'\(pattern.name)' is an event of a \(what), and the scene has none named '\(subject)'",
        at: pattern.subjectSource)
    } else {
      error(
        "unknown \(what) '\(subject)' in '\(pattern.name) of \(subject)'\(Suggestion.didYouMean(subject, among: candidates))",
        at: pattern.subjectSource)
    }
  }
}
