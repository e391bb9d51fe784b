import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneRuntime
import SceneSyntax

/// Checks a scene's `expect:` lines against its run, frame by frame.
///
/// Value checks are evaluated on the live simulation at their moment (the frame nearest a
/// time, a frame number, or the last frame), so they can read lets and any handle; event
/// checks look at every frame's events afterwards.
struct ExpectationChecker {
  /// A value check compiled against the scene, or the reason it cannot be.
  struct ValueCheck {
    var lhs: CompiledExpression
    var rhs: CompiledExpression
    var tolerance: CompiledExpression?
  }

  let expectations: [ExpectationSpec]
  let fps: Double
  var compiled: [Int: ValueCheck] = [:]
  /// The result of each moment-bound check: `nil` until its frame has been seen.
  var outcomes: [Int: String?] = [:]
  var failures: [Diagnostic] = []
  var events: [(time: Double, event: SceneEvent)] = []

  /// `≈` without `±` allows this much.
  static let defaultTolerance = 1e-9

  init(graph: SceneGraph, fps: Double) {
    expectations = graph.expectations
    self.fps = fps
    for (index, expectation) in expectations.enumerated() {
      guard case .value(_, let lhs, _, let rhs, let tolerance) = expectation.kind else { continue }
      do throws(ResolveError) {
        let table = SymbolTable(graph.symbols)
        let left = try ExpressionCompiler.compile(lhs, symbols: table)
        let right = try ExpressionCompiler.compile(rhs, symbols: table)
        var tol: CompiledExpression?
        if let tolerance { tol = try ExpressionCompiler.compile(tolerance, symbols: table) }
        guard left.resultType == .number, right.resultType == .number, tol?.resultType ?? .number == .number else {
          failures.append(
            .error("an expectation compares numbers; compare a point's .x or .y", at: expectation.source.span))
          continue
        }
        compiled[index] = ValueCheck(lhs: left, rhs: right, tolerance: tol)
      } catch {
        failures.append(error.diagnostic)
      }
    }
  }

  /// Looks at one frame, with the simulation in the state that made it.
  mutating func observe(_ frame: Frame, simulation: Simulation) {
    for event in frame.events { events.append((frame.time, event)) }
    for (index, expectation) in expectations.enumerated() {
      switch expectation.kind {
      case .value(let moment, _, let comparison, _, _):
        guard let check = compiled[index], matches(moment, frame) else { continue }
        let a = simulation.value(of: check.lhs).x
        let b = simulation.value(of: check.rhs).x
        let tolerance = check.tolerance.map { abs(simulation.value(of: $0).x) } ?? (comparison == .approximately ? Self.defaultTolerance : 0)
        let passed: Bool
        switch comparison {
        case .less: passed = a < b + tolerance
        case .lessOrEqual: passed = a <= b + tolerance
        case .greater: passed = a > b - tolerance
        case .greaterOrEqual: passed = a >= b - tolerance
        case .equal, .approximately: passed = abs(a - b) <= tolerance
        }
        outcomes[index] = passed ? .some(nil) : .some("was \(a.shortestDescription) at t = \(frame.time.shortestDescription)")
      case .allAtRest(let moment):
        guard matches(moment, frame) else { continue }
        let moving = frame.handles.filter { $0.state != .idle && $0.state != .hidden }.map(\.name)
        outcomes[index] = moving.isEmpty ? .some(nil) : .some("still moving at t = \(frame.time.shortestDescription): \(moving.joined(separator: ", "))")
      default:
        continue
      }
    }
  }

  /// Whether `frame` is the one a moment names; `.end` matches every frame, so the last one seen wins.
  func matches(_ moment: ExpectationSpec.Moment, _ frame: Frame) -> Bool {
    switch moment {
    case .time(let t): return frame.index == Int((t * fps).rounded())
    case .frame(let n): return frame.index == n
    case .end: return true
    }
  }

  /// Every failed expectation, as diagnostics at its line in the scene file.
  func finish() -> [Diagnostic] {
    var result = failures
    for (index, expectation) in expectations.enumerated() {
      let failure: String?
      switch expectation.kind {
      case .value, .allAtRest:
        guard compiled[index] != nil || { if case .allAtRest = expectation.kind { true } else { false } }() else { continue }
        switch outcomes[index] {
        case nil: failure = "its moment is past the end of the run"
        case .some(let outcome): failure = outcome
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
            failure = ok ? nil : "'\(describe(pattern))' happened at \(times.map(\.shortestDescription).joined(separator: ", ")) s"
          }
        } else {
          failure = nil
        }
      case .noEvent(let pattern):
        let times = occurrences(pattern)
        failure = times.isEmpty ? nil : "'\(describe(pattern))' happened at t = \(times[0].shortestDescription)"
      }
      if let failure {
        result.append(.error("expectation failed: \(expectation.text): \(failure)", at: expectation.source.span))
      }
    }
    return result
  }

  func occurrences(_ pattern: ExpectationSpec.EventPattern) -> [Double] {
    events.filter { $0.event.type == pattern.name && (pattern.subject == nil || $0.event.subject == pattern.subject) }
      .map(\.time)
  }

  func describe(_ pattern: ExpectationSpec.EventPattern) -> String {
    pattern.subject.map { "\(pattern.name) of \($0)" } ?? pattern.name
  }

  func referenceTime(_ timing: ExpectationSpec.Timing) -> Result<(Bool, Double), ReferenceError> {
    let (isBefore, reference): (Bool, ExpectationSpec.Timing.Reference)
    switch timing {
    case .before(let r): (isBefore, reference) = (true, r)
    case .after(let r): (isBefore, reference) = (false, r)
    }
    switch reference {
    case .time(let t): return .success((isBefore, t))
    case .event(let pattern):
      guard let first = occurrences(pattern).first else {
        return .failure(ReferenceError(reason: "the reference '\(describe(pattern))' never happened"))
      }
      return .success((isBefore, first))
    }
  }

  struct ReferenceError: Error { var reason: String }
}

