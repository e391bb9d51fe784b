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
///
/// - Complexity: linear in frames plus expectations plus the frames inside each window:
///   a frame visits only the checks bound to it (found by its index) and the windows open
///   at it (entered in order of their start, left once past their end); an event check
///   looks up its occurrences by kind and subject. 100,000 window checks over 601 frames
///   once took 99 s, visiting every check every frame.
struct ExpectationChecker {
  let expectations: [SceneGraph.Expectation]
  let slots: SceneGraph.ExpectationSlots
  let clock: FrameClock
  /// The checks bound to each frame index (`at 1.2s`, `at frame 30`).
  let checksByFrame: [Int: [Int]]
  /// The windowed checks, in order of their window's start.
  let windowsByStart: [Int]
  /// How many of ``windowsByStart`` have been opened.
  var windowsOpened = 0
  /// The windowed checks open at the latest frame.
  var openWindows: [Int] = []
  /// Each event's times by what a pattern can name: its kind, with or without its subject
  /// and target.
  var eventTimes: [EventKey: [Double]] = [:]
  /// How many times a check was visited while frames were observed (for the tests that
  /// count it).
  private(set) var visits = 0
  /// The result of each moment-bound check: `nil` until its frame has been seen.
  var outcomes: [Int: String?] = [:]
  /// The latest frame seen and the one before it: the second gives the velocity of
  /// handles whose motion the engine does not integrate (bound, animated, tweened).
  var latest: Frame?
  var previous: Frame?
  /// Whether the run stopped at its `maxDuration` instead of coming to rest.
  var stoppedAtLimit = false
  /// For each `max`/`min` check, the extreme so far: the value, when, and the right side
  /// and tolerance read at that frame.
  var extremes: [Int: (value: Double, time: Double, bound: Double, allowed: Double)] = [:]
  /// For each `always`/`never` check that has seen a frame of its window: `nil` while it
  /// holds, else why it failed (the first frame that broke it).
  var windowOutcomes: [Int: String?] = [:]

  /// `≈` without `±` allows this much.
  static let defaultTolerance = 1e-9

  init(graph: SceneGraph, fps: Double) {
    expectations = graph.expectations
    slots = graph.expectationSlots
    let clock = FrameClock(fps: fps)
    self.clock = clock
    var byFrame: [Int: [Int]] = [:]
    var windowed: [(start: Double, index: Int)] = []
    for (index, expectation) in graph.expectations.enumerated() {
      switch expectation.kind {
      case .value(let moment, _, _, _, _), .allAtRest(let moment):
        switch moment {
        case .time(let t):
          if let frame = clock.frame(nearest: t) { byFrame[frame, default: []].append(index) }
        case .frame(let n): byFrame[n, default: []].append(index)
        case .end: break
        }
      case .extreme(_, _, let window, _, _, _), .throughout(_, _, _, _, _, let window):
        windowed.append((window.start, index))
      case .event, .noEvent:
        break
      }
    }
    checksByFrame = byFrame
    // Stable: windows that start together keep the order they were written in.
    windowsByStart = windowed.enumerated().sorted {
      ($0.element.start, $0.offset) < ($1.element.start, $1.offset)
    }.map(\.element.index)
  }

  /// What an event pattern can name: a kind, and optionally a subject and a target.
  struct EventKey: Hashable {
    var type: String
    var subject: String?
    var target: String?
  }

  /// Looks at one frame, with the simulation in the state that made it.
  mutating func observe(_ frame: Frame, simulation: Simulation) {
    for event in frame.namedEvents {
      for subject in [nil, event.subject] {
        for target in event.target == nil ? [nil] : [nil, event.target] {
          eventTimes[EventKey(type: event.type, subject: subject, target: target), default: []]
            .append(frame.time)
        }
      }
    }
    previous = latest
    latest = frame
    for index in checksByFrame[frame.index] ?? [] {
      visits += 1
      check(index, frame, simulation)
    }
    // Open the windows that start by this frame; drop those that ended before it.
    while windowsOpened < windowsByStart.count,
      let window = window(of: windowsByStart[windowsOpened]), window.start - 1e-9 <= frame.time
    {
      openWindows.append(windowsByStart[windowsOpened])
      windowsOpened += 1
    }
    var state: [Double]?
    var kept = 0
    for index in openWindows {
      visits += 1
      guard let window = window(of: index) else { continue }
      if let end = window.end, frame.time > end + 1e-9 { continue }  // Closed for good.
      openWindows[kept] = index
      kept += 1
      guard window.contains(frame.time) else { continue }
      let values = state ?? expectationState(frame, simulation: simulation)
      state = values
      observeWindow(index, frame, values)
    }
    openWindows.removeLast(openWindows.count - kept)
  }

  /// The window of a `max`, `min`, `always` or `never` check; `nil` for the others.
  func window(of index: Int) -> ExpectationWindow? {
    switch expectations[index].kind {
    case .extreme(_, _, let window, _, _, _), .throughout(_, _, _, _, _, let window): return window
    case .value, .allAtRest, .event, .noEvent: return nil
    }
  }

  /// Takes in one frame of a windowed check's window.
  mutating func observeWindow(_ index: Int, _ frame: Frame, _ state: [Double]) {
    func value(_ expression: CompiledExpression) -> Double {
      state.withUnsafeBufferPointer { expression.evaluate($0).x }
    }
    switch expectations[index].kind {
    case .extreme(let extreme, let expression, _, let comparison, let rhs, let tolerance):
      let v = value(expression)
      if let best = extremes[index] {
        let better = extreme == .max ? v > best.value : v < best.value
        guard better || (v.isNaN && !best.value.isNaN) else { return }
      }
      extremes[index] = (
        v, frame.time, value(rhs), allowance(tolerance.map(value), comparison)
      )
    case .throughout(let quantifier, let lhs, let comparison, let rhs, let tolerance, _):
      if case .some(.some) = windowOutcomes[index] { return }  // Already failed.
      let a = value(lhs)
      let holds = Self.compare(
        a, comparison, value(rhs), allowed: allowance(tolerance.map(value), comparison))
      let failed = quantifier == .always ? !holds : holds
      windowOutcomes[index] =
        failed
        ? .some(
          "\(quantifier == .always ? "did not hold" : "held") at t = \(frame.time.shortestDescription), where the left side was \(a.shortestDescription)"
        ) : .some(nil)
    case .value, .allAtRest, .event, .noEvent:
      break
    }
  }

  /// How far a comparison may miss: the tolerance given, else 1e-9 for `≈` and 0 otherwise.
  func allowance(_ tolerance: Double?, _ comparison: Comparison) -> Double {
    tolerance.map(abs) ?? (comparison == .approximately ? Self.defaultTolerance : 0)
  }

  /// `a` compared with `b`, widened by `allowed` (`<` stays strict at its edge).
  static func compare(_ a: Double, _ comparison: Comparison, _ b: Double, allowed: Double) -> Bool {
    switch comparison {
    case .less: return a < b + allowed
    case .lessOrEqual: return a <= b + allowed
    case .greater: return a > b - allowed
    case .greaterOrEqual: return a >= b - allowed
    case .equal, .approximately: return abs(a - b) <= allowed
    case .notEqual: return abs(a - b) > allowed
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
    case .event, .noEvent, .extreme, .throughout: return nil
    }
  }

  /// Checks expectation `index` at `frame`.
  mutating func check(_ index: Int, _ frame: Frame, _ simulation: Simulation) {
    switch expectations[index].kind {
    case .value(_, let lhs, let comparison, let rhs, let tolerance):
      let state = expectationState(frame, simulation: simulation)
      let a = state.withUnsafeBufferPointer { lhs.evaluate($0).x }
      let b = state.withUnsafeBufferPointer { rhs.evaluate($0).x }
      let allowed = allowance(
        tolerance.map { t in state.withUnsafeBufferPointer { t.evaluate($0).x } }, comparison)
      let passed = Self.compare(a, comparison, b, allowed: allowed)
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
    case .event, .noEvent, .extreme, .throughout:
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
      let graphHandles = simulation.graph.handles
      let declared = i < graphHandles.count ? graphHandles[i] : nil
      state += [
        handle.radius, velocity.x, velocity.y, velocity.length,
        Double(HandleState.allCases.firstIndex(of: handle.state) ?? 0),
      ]
      for property in [
        SceneGraph.AnimatedProperty.rotation, .scale, .opacity, .width, .height, .cornerRadius,
        .strokeWidth, .scaleX, .scaleY,
      ] {
        state.append(handle.drawn(property, declared: declared))
      }
    }
    state += HandleState.allCases.indices.map(Double.init)
    // Each child, as drawn: its frame's values where it changes, the scene's elsewhere.
    let graphHandles = simulation.graph.handles
    var changing = frame.children.makeIterator()
    var next = changing.next()
    for (i, handle) in graphHandles.enumerated() {
      for (c, child) in handle.children.enumerated() {
        var look = HandleFrame.resting(child)
        if let frame = next, frame.handle == i, frame.child == c {
          look = frame.look
          next = changing.next()
        }
        state += [
          look.drawn(.offsetX, declared: child), look.drawn(.offsetY, declared: child),
          look.rotation, look.scale, look.scaleX, look.scaleY,
          look.drawn(.opacity, declared: child), look.drawn(.radius, declared: child),
          look.drawn(.width, declared: child), look.drawn(.height, declared: child),
          look.drawn(.cornerRadius, declared: child), look.drawn(.strokeWidth, declared: child),
        ]
      }
    }
    return state
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
      case .extreme(let extreme, _, _, let comparison, _, _):
        if let found = extremes[index] {
          failure =
            Self.compare(found.value, comparison, found.bound, allowed: found.allowed)
            ? nil
            : "the \(extreme == .max ? "maximum" : "minimum") was \(found.value.shortestDescription), at t = \(found.time.shortestDescription)"
        } else {
          failure = "no frame of the run is in its window"
        }
      case .throughout:
        switch windowOutcomes[index] {
        case nil: failure = "no frame of the run is in its window"
        case .some(let outcome): failure = outcome
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
    eventTimes[EventKey(type: pattern.name, subject: pattern.subject, target: pattern.target)]
      ?? []
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
