import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneRuntime
import SceneVocabulary

/// Checks a scene's `expect:` lines against its run, frame by frame.
///
/// Value checks are evaluated on the live simulation at their moment (the frame nearest a
/// time, or a frame number, as it is seen; the last frame once, when the run is over), so
/// they can read lets and any handle; event checks look at every frame's events afterwards.
struct ExpectationChecker {
  let expectations: [SceneGraph.Expectation]
  let slots: SceneGraph.ExpectationSlots
  let clock: FrameClock
  /// The result of each moment-bound check: `nil` until its frame has been seen.
  var outcomes: [Int: String?] = [:]
  var events: [(time: Double, event: SceneEvent)] = []
  /// The latest frame seen and the one before it: the second gives the velocity of
  /// handles whose motion the engine does not integrate (bound, animated, tweened).
  var latest: Frame?
  var previous: Frame?
  /// Whether the run stopped at its `maxDuration` instead of coming to rest.
  var stoppedAtLimit = false

  /// `≈` without `±` allows this much.
  static let defaultTolerance = 1e-9

  init(graph: SceneGraph, fps: Double) {
    expectations = graph.expectations
    slots = graph.expectationSlots
    clock = FrameClock(fps: fps)
  }

  /// Looks at one frame, with the simulation in the state that made it.
  mutating func observe(_ frame: Frame, simulation: Simulation) {
    for event in frame.events { events.append((frame.time, event)) }
    previous = latest
    latest = frame
    for index in expectations.indices where matches(moment(of: index), frame) {
      check(index, frame, simulation)
    }
  }

  /// Checks the expectations of the run's end, with the simulation as it finished.
  mutating func finishRun(_ simulation: Simulation, stoppedAtLimit: Bool) {
    self.stoppedAtLimit = stoppedAtLimit
    guard let latest else { return }
    for index in expectations.indices where moment(of: index) == .end {
      check(index, latest, simulation)
    }
  }

  /// The moment a value or rest check is bound to; `nil` for event checks.
  func moment(of index: Int) -> ExpectationMoment? {
    switch expectations[index].kind {
    case .value(let moment, _, _, _, _), .allAtRest(let moment): return moment
    case .event, .noEvent: return nil
    }
  }

  /// Checks expectation `index` at `frame`.
  mutating func check(_ index: Int, _ frame: Frame, _ simulation: Simulation) {
    switch expectations[index].kind {
    case .value(_, let lhs, let comparison, let rhs, let tolerance):
      let state = expectationState(frame, simulation: simulation)
      let a = state.withUnsafeBufferPointer { lhs.evaluate($0).x }
      let b = state.withUnsafeBufferPointer { rhs.evaluate($0).x }
      let allowed =
        tolerance.map { t in abs(state.withUnsafeBufferPointer { t.evaluate($0).x }) }
        ?? (comparison == .approximately ? Self.defaultTolerance : 0)
      let passed: Bool
      switch comparison {
      case .less: passed = a < b + allowed
      case .lessOrEqual: passed = a <= b + allowed
      case .greater: passed = a > b - allowed
      case .greaterOrEqual: passed = a >= b - allowed
      case .equal, .approximately: passed = abs(a - b) <= allowed
      }
      outcomes[index] =
        passed
        ? .some(nil)
        : .some("was \(a.shortestDescription) at t = \(frame.time.shortestDescription)")
    case .allAtRest:
      // The same test that ends an until-rest run, so the two never disagree.
      let moving = simulation.movingHandleNames
      outcomes[index] =
        moving.isEmpty
        ? .some(nil)
        : .some(
          "still moving at t = \(frame.time.shortestDescription): \(moving.joined(separator: ", "))"
        )
    case .event, .noEvent:
      break
    }
  }

  /// The simulation's values followed by the expectation-only ones: each handle's radius,
  /// velocity, speed and state, then the state names' numbers.
  func expectationState(_ frame: Frame, simulation: Simulation) -> [Double] {
    var state = simulation.slotValues
    state.reserveCapacity(slots.count)
    for (i, handle) in frame.handles.enumerated() {
      let velocity =
        simulation.integratedVelocity(ofHandle: i)
        ?? previous.map { before in
          Vector(handle.x - before.handles[i].x, handle.y - before.handles[i].y) * clock.fps
        } ?? .zero
      state += [
        handle.radius, velocity.x, velocity.y, velocity.length,
        Double(HandleState.allCases.firstIndex(of: handle.state) ?? 0),
      ]
    }
    state += HandleState.allCases.indices.map(Double.init)
    return state
  }

  /// Whether `frame` is the one a moment names while the run goes on; the end is checked
  /// once, by ``finishRun(_:stoppedAtLimit:)``.
  func matches(_ moment: ExpectationMoment?, _ frame: Frame) -> Bool {
    switch moment {
    case .time(let t)?: return clock.frame(nearest: t) == frame.index
    case .frame(let n)?: return frame.index == n
    case .end?, nil: return false
    }
  }

  /// Every failed expectation, as diagnostics at its line in the scene file.
  func finish() -> [Diagnostic] {
    var result: [Diagnostic] = []
    for (index, expectation) in expectations.enumerated() {
      let failure: String?
      switch expectation.kind {
      case .value, .allAtRest:
        switch outcomes[index] {
        case nil: failure = "its moment is past the end of the run"
        case .some(let outcome?):
          failure =
            stoppedAtLimit && { if case .allAtRest = expectation.kind { true } else { false } }()
            ? outcome + " (the run stopped at its maxDuration)" : outcome
        case .some(nil): failure = nil
        }
      case .event(let pattern, let timing):
        let times = occurrences(pattern)
        if times.isEmpty {
          failure = "'\(describe(pattern))' never happened"
        } else if let timing {
          switch referenceTime(timing) {
          case .failure(let error): failure = error.reason
          case .success(let (isBefore, reference)):
            let ok = times.contains { isBefore ? $0 < reference : $0 > reference }
            failure =
              ok
              ? nil
              : "'\(describe(pattern))' happened at \(times.map(\.shortestDescription).joined(separator: ", ")) s"
          }
        } else {
          failure = nil
        }
      case .noEvent(let pattern):
        let times = occurrences(pattern)
        failure =
          times.isEmpty
          ? nil : "'\(describe(pattern))' happened at t = \(times[0].shortestDescription)"
      }
      if let failure {
        result.append(
          .error("expectation failed: \(expectation.text): \(failure)", at: expectation.source.span)
        )
      }
    }
    return result
  }

  func occurrences(_ pattern: EventPattern) -> [Double] {
    events.filter {
      $0.event.type == pattern.name
        && (pattern.subject == nil || $0.event.subject == pattern.subject)
        && (pattern.target == nil || $0.event.target == pattern.target)
    }
    .map(\.time)
  }

  func describe(_ pattern: EventPattern) -> String {
    (pattern.subject.map { "\(pattern.name) of \($0)" } ?? pattern.name)
      + (pattern.target.map { " to \($0)" } ?? "")
  }

  func referenceTime(_ timing: EventTiming) -> Result<(Bool, Double), ReferenceError> {
    let (isBefore, reference): (Bool, EventTiming.Reference)
    switch timing {
    case .before(let r): (isBefore, reference) = (true, r)
    case .after(let r): (isBefore, reference) = (false, r)
    }
    switch reference {
    case .time(let t): return .success((isBefore, t))
    case .event(let pattern):
      guard let first = occurrences(pattern).first else {
        return .failure(
          ReferenceError(reason: "the reference '\(describe(pattern))' never happened"))
      }
      return .success((isBefore, first))
    }
  }

  struct ReferenceError: Error { var reason: String }
}
