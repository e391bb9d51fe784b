import SceneDiagnostics
import SceneGraph
import SceneSyntax
import SceneVocabulary

// MARK: - Gesture

extension SceneResolver {
  /// The gesture script with every step's exact start and end, its easing and its
  /// expressions compiled, and its traces bound.
  mutating func resolveGesture(symbols: [String: Symbol]) -> [SceneGraph.GestureTrack] {
    // Each distinct expression is compiled once: the same point written twice gives one
    // error, at its first place.
    var compiled: [Expression: CompiledExpression?] = [:]
    func point(_ expression: Expression) -> CompiledExpression? {
      if let known = compiled[expression] { return known }
      let result = compile(expression, symbols, expect: .point, what: "a point of the gesture")
      compiled[expression] = result
      return result
    }
    func number(_ expression: Expression, _ what: String) -> CompiledExpression? {
      compile(expression, symbols, expect: .number, what: what)
    }
    var replays: [String: SceneGraph.Replay] = [:]
    var tracks: [SceneGraph.GestureTrack] = []
    let pointers = Set(spec.gesture.map { $0.pointer.value })
    for track in spec.gesture {
      var steps: [SceneGraph.GestureStep] = []
      var time: Int64 = 0
      var complete = true
      for step in track.steps {
        let action: SceneGraph.GestureStep.Action?
        var duration: Int64 = 0
        switch step.kind {
        case .press(let p):
          action = point(p).map { .press($0) }
        case .tap(let p):
          action = point(p).map { .tap($0) }
        case .release(nil):
          action = .release(velocity: nil)
        case .release(let velocity?):
          action = point(velocity).map { .release(velocity: $0) }
        case .wait(let d):
          duration = stepLength(d, default: 0, "a wait")
          action = .wait
        case .drag(let motion, let d, let easing), .move(let motion, let d, let easing):
          duration = stepLength(
            d, default: SceneGraph.GestureTiming.defaultMotionDuration, "a motion's 'over'")
          action = Self.resolve(motion, point).map {
            .motion($0, easing: easing?.value ?? .linear, lift: .none)
          }
        case .fling(let motion, let d, let velocity):
          duration = stepLength(
            d, default: SceneGraph.GestureTiming.defaultFlingDuration, "a fling's 'over'")
          let lift: SceneGraph.GestureStep.Lift? =
            if let velocity { point(velocity).map { .up(velocity: $0) } } else {
              .up(velocity: nil)
            }
          if let m = Self.resolve(motion, point), let lift {
            action = .motion(m, easing: .linear, lift: lift)
          } else {
            action = nil
          }
        case .pinch(let pinch), .rotate(let pinch):
          duration = stepLength(
            pinch.duration, default: SceneGraph.GestureTiming.defaultMotionDuration,
            "a \(step.keyword)'s 'over'")
          // The second finger is the next id: it must not have a script of its own.
          let second = track.pointer.value + 1
          if pointers.contains(second) {
            error(
              "a '\(step.keyword)' of finger \(track.pointer.value) moves fingers \(track.pointer.value) and \(second), but finger \(second) has its own steps",
              at: step.source)
          }
          let center = point(pinch.center)
          let scale = pinch.scale.map { number($0, "the scale of a pinch") }
          let rotation = pinch.rotation.map { number($0, "the angle of a \(step.keyword)") }
          let distance = pinch.distance.map { number($0, "the distance of a \(step.keyword)") }
          if let center, scale != .some(nil), rotation != .some(nil), distance != .some(nil),
            !pointers.contains(second)
          {
            action = .pinch(
              center: center, scale: scale ?? nil, rotation: rotation ?? nil,
              distance: distance ?? nil, easing: pinch.easing?.value ?? .linear)
          } else {
            action = nil
          }
        case .set(let assignments):
          var changes: [SceneGraph.GestureStep.InputChange] = []
          for assignment in assignments {
            guard let input = inputIndex(assignment.input, firing: false) else { continue }
            var value = assignment.value
            // `true` and `false` are a boolean's values, written as words.
            if case .identifier(let word) = value.kind, word == "true" || word == "false",
              symbols[word] == nil
            {
              value = Expression(.number(word == "true" ? 1 : 0, nil), at: value.source)
            }
            if let compiled = number(value, "the value of input '\(assignment.input.value)'") {
              changes.append(SceneGraph.GestureStep.InputChange(input: input, value: compiled))
            }
          }
          action = changes.count == assignments.count ? .setInputs(changes) : nil
        case .fire(let trigger):
          action = inputIndex(trigger, firing: true).map { .fire($0) }
        case .replay(let file):
          let replay = replays[file.value] ?? Self.replay(traces[file.value])
          replays[file.value] = replay
          duration = replay.durationMicroseconds
          action = .replay(replay)
        }
        guard let action else {
          complete = false
          continue
        }
        let resolved = SceneGraph.GestureStep(
          action, start: time, duration: duration, at: step.source)
        steps.append(resolved)
        time = resolved.endMicroseconds
      }
      // A track with an error is not run (the graph is refused anyway).
      if complete {
        tracks.append(SceneGraph.GestureTrack(pointer: track.pointer.value, steps: steps))
      }
    }
    return tracks
  }

  /// The index of the input `name` names: a trigger for `fire`, any other for `set`.
  mutating func inputIndex(_ name: Located<String>, firing: Bool) -> Int? {
    let names = spec.inputs.map { $0.name.value }
    guard let index = names.firstIndex(of: name.value) else {
      error(
        "unknown input '\(name.value)'\(Suggestion.didYouMean(name.value, among: names))",
        at: name.source)
      return nil
    }
    let isTrigger = spec.inputs[index].kind == .trigger
    if firing && !isTrigger {
      error(
        "'fire' fires a trigger, and input '\(name.value)' is not one; 'set' gives it a value",
        at: name.source)
      return nil
    }
    if !firing && isTrigger {
      error(
        "input '\(name.value)' is a trigger, which holds no value; 'fire' it instead",
        at: name.source)
      return nil
    }
    return index
  }

  private static func resolve(
    _ motion: GestureStep.Motion, _ point: (Expression) -> CompiledExpression?
  ) -> SceneGraph.GestureStep.Motion? {
    switch motion {
    case .to(let p): return point(p).map { .to($0) }
    case .by(let v): return point(v).map { .by($0) }
    }
  }

  /// A step's length in whole microseconds: from 0 to an hour; a negative, NaN or endless
  /// step is an error, not a step the player quietly shortens to nothing.
  mutating func stepLength(
    _ given: Located<Double>?, default fallback: Double, _ what: @autoclosure () -> String
  )
    -> Int64
  {
    SceneGraph.GestureTiming.microseconds(checked(given, default: fallback, what(), in: 0...3600))
  }

  /// A trace as the player plays it; a missing trace plays as an empty one.
  static func replay(_ trace: TraceFile?) -> SceneGraph.Replay {
    var replay = SceneGraph.Replay()
    for sample in trace?.samples ?? [] {
      let phase: SceneGraph.Replay.Phase =
        switch sample.phase {
        case .down: .down
        case .move: .move
        case .up: .up
        }
      replay.append(
        time: sample.time, position: sample.position, phase: phase, finger: sample.pointer ?? 0)
    }
    return replay
  }
}
