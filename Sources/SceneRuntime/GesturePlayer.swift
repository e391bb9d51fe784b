import SceneGeometry
import SceneSyntax

/// Plays a scene's gesture script: turns its tracks into pointer events, frame by frame.
///
/// Each track's steps run back to back from time 0, and all tracks run at once. Step
/// durations are static, so every step's start and end time is known up front; what a
/// step does there is evaluated when it starts: the first ``events(through:evaluate:)``
/// call whose time reaches the start evaluates the step's points and velocities against
/// the scene as it is then, and the step keeps those values to its end.
///
/// The player has no frame rate. A motion (`drag`, `move`, `fling`) emits one `.move` at
/// each time it is asked for that lies inside the step, at the eased point for that time,
/// and one exactly at the step's end once asked past it; a `replay` is resampled the same
/// way, with its downs and ups at their own times. Two players asked at different rates
/// agree exactly at the times both were asked. Every event is returned once, in time
/// order; asking for the same time again, or an earlier one, returns nothing.
public struct GesturePlayer: Sendable {
  /// A `drag` or `move` without `over`: 0.3 s.
  public static let defaultMotionDuration = 0.3
  /// A `fling` without `over`: 0.1 s.
  public static let defaultFlingDuration = 0.1

  private var tracks: [Track]
  /// The latest time asked for; events up to it have been returned.
  private var lastTime = -Double.infinity

  /// The time every track's steps are done; `nil` only when the durations add up past the
  /// largest finite time.
  public let endTime: Double?

  /// A player for `tracks`, with the traces their `replay` steps play.
  ///
  /// `traces` is keyed by the file as the script wrote it. A trace missing from it plays as
  /// an empty one: nothing, in no time.
  public init(tracks: [GestureTrack], traces: [String: TraceFile] = [:]) {
    self.tracks = tracks.map { Track($0, traces: traces) }
    let total = self.tracks.reduce(0) { max($0, $1.endTime) }
    self.endTime = total.isFinite ? total : nil
  }

  /// How long `tracks` take to play: when the longest track's last step ends.
  public static func duration(of tracks: [GestureTrack], traces: [String: TraceFile] = [:])
    -> Double
  {
    tracks.reduce(0) { max($0, Track($1, traces: traces).endTime) }
  }

  /// Whether every track has played its last step.
  public var isFinished: Bool { tracks.allSatisfy { $0.index >= $0.steps.count } }

  /// Every event at or before `time` not returned before, in time order (events at the
  /// same time in track order, then in the order they happened).
  ///
  /// `evaluate` gives the value of a point or velocity expression in the current scene; it
  /// is called once for each expression of each step that starts by `time`. A `time` that is
  /// not later than the previous call's (or NaN) returns nothing.
  public mutating func events(through time: Double, evaluate: (Expression) -> Vector)
    -> [PointerEvent]
  {
    guard time > lastTime else { return [] }
    lastTime = time
    var events: [PointerEvent] = []
    for index in tracks.indices {
      tracks[index].advance(through: time, evaluate: evaluate, into: &events)
    }
    guard tracks.count > 1 else { return events }
    // Each track's events are in time order already; merge them, keeping ties in order.
    return events.enumerated()
      .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
      .map(\.element)
  }
}

// MARK: - Steps

extension GesturePlayer {
  /// A step with its static timing, and its expressions still unevaluated.
  struct Step: Sendable {
    enum Action: Sendable {
      case press(Expression)
      case tap(Expression)
      case release(velocity: Expression?)
      case wait
      /// A drag, move or fling; `lift` is a fling's release at the end.
      case motion(GestureStep.Motion, curve: TimingCurve, lift: Lift<Expression>)
      case replay(Replay)
    }

    var action: Action
    /// When the step starts and ends, in whole microseconds since the script began: sums
    /// of step lengths stay exact, so a step written to land on a frame lands on it
    /// (`wait 0.1s` then `wait 50ms` ends at 0.15 s, frame 9 at 60 fps, not just after).
    var startMicroseconds: Int64
    var endMicroseconds: Int64

    /// The start in seconds, the double nearest the exact time.
    var start: Double { Double(startMicroseconds) / 1e6 }
    var end: Double { Double(endMicroseconds) / 1e6 }
    var duration: Double { Double(endMicroseconds - startMicroseconds) / 1e6 }

    init(_ action: Action, start: Int64, duration: Int64) {
      self.action = action
      self.startMicroseconds = start
      let (end, overflow) = start.addingReportingOverflow(duration)
      self.endMicroseconds = overflow ? Int64.max : end
    }
  }

  /// Whether a motion ends by lifting the finger, and with what velocity.
  enum Lift<Velocity: Sendable>: Sendable {
    case none
    case up(velocity: Velocity?)
  }

  /// A trace ready to play: times relative to its first sample, never decreasing, and for
  /// each sample the index of the same finger's next one.
  struct Replay: Sendable {
    var samples: [TraceFile.Sample] = []
    var offsets: [Double] = []
    /// The finger of each sample in the trace (its id, or 0).
    var keys: [Int] = []
    var next: [Int?] = []

    init(_ trace: TraceFile?) {
      guard let trace else { return }
      var first: Double?
      var last = 0.0
      var latest: [Int: Int] = [:]
      for sample in trace.samples where sample.time.isFinite {
        let base = first ?? sample.time
        first = base
        let offset = sample.time - base
        guard offset.isFinite else { continue }
        last = max(last, offset)
        let key = sample.pointer ?? 0
        if let previous = latest[key] { next[previous] = samples.count }
        latest[key] = samples.count
        samples.append(sample)
        offsets.append(last)
        keys.append(key)
        next.append(nil)
      }
    }

    var duration: Double { offsets.last ?? 0 }
  }

  /// The longest step the player times exactly: a day, far past any scene's limit.
  static let longestStepMicroseconds: Int64 = 86_400_000_000

  /// A duration as played, in whole microseconds: negative, NaN and infinite ones are 0
  /// (the resolver refuses them with an error first), and none is longer than a day.
  static func clamped(_ duration: Double?, default value: Double) -> Int64 {
    let d = duration ?? value
    guard d.isFinite && d > 0 else { return 0 }
    return Int64(min((d * 1e6).rounded(), Double(longestStepMicroseconds)))
  }
}

// MARK: - Tracks

extension GesturePlayer {
  /// One pointer's steps and how far it has played them.
  struct Track: Sendable {
    /// A started step's evaluated state.
    enum Active: Sendable {
      case wait
      case motion(Tween, lift: Lift<Vector>)
      case replay(ReplayState)
    }

    struct ReplayState: Sendable {
      /// The next sample not yet played.
      var cursor = 0
      /// Each finger's latest played sample.
      var latest: [Int: Int] = [:]
    }

    let pointer: Int
    let steps: [Step]
    let endTime: Double
    var index = 0
    var position = Vector.zero
    var active: Active?
    /// The finger's exact path since it last pressed, for its release velocity: when and
    /// where it pressed, and each motion since with its start time; `nil` when the path is
    /// not the script's own (not pressed, or moved by a trace).
    var path: FingerPath?

    init(_ track: GestureTrack, traces: [String: TraceFile]) {
      pointer = track.pointer.value
      var steps: [Step] = []
      var time: Int64 = 0
      for step in track.steps {
        let next: Step
        switch step.kind {
        case .press(let point):
          next = Step(.press(point), start: time, duration: 0)
        case .tap(let point):
          next = Step(.tap(point), start: time, duration: 0)
        case .release(let velocity):
          next = Step(.release(velocity: velocity), start: time, duration: 0)
        case .wait(let duration):
          next = Step(
            .wait, start: time, duration: GesturePlayer.clamped(duration.value, default: 0))
        case .drag(let motion, let duration, let easing),
          .move(let motion, let duration, let easing):
          let curve = TimingCurve(easing?.value ?? .linear)
          next = Step(
            .motion(motion, curve: curve, lift: .none), start: time,
            duration: GesturePlayer.clamped(
              duration?.value, default: GesturePlayer.defaultMotionDuration))
        case .fling(let motion, let duration, let velocity):
          next = Step(
            .motion(motion, curve: TimingCurve(.linear), lift: .up(velocity: velocity)),
            start: time,
            duration: GesturePlayer.clamped(
              duration?.value, default: GesturePlayer.defaultFlingDuration))
        case .replay(let file):
          let replay = Replay(traces[file.value])
          // Rounded up, so the trace's last sample is inside the step.
          let length = min(
            (replay.duration * 1e6).rounded(.up), Double(GesturePlayer.longestStepMicroseconds))
          next = Step(.replay(replay), start: time, duration: Int64(length))
        }
        steps.append(next)
        time = next.endMicroseconds
      }
      self.steps = steps
      self.endTime = Double(time) / 1e6
    }

    /// Plays the steps up to `time`, appending their events.
    mutating func advance(
      through time: Double, evaluate: (Expression) -> Vector, into events: inout [PointerEvent]
    ) {
      func emit(_ at: Double, _ phase: PointerEvent.Phase, _ position: Vector) {
        events.append(PointerEvent(time: at, pointer: pointer, phase: phase, position: position))
      }

      while index < steps.count {
        let step = steps[index]
        guard step.start <= time else { return }

        if active == nil {
          switch step.action {
          case .press(let point):
            position = evaluate(point)
            emit(step.start, .down, position)
            path = FingerPath(pressTime: step.start, pressPosition: position)
            finishStep()
            continue
          case .tap(let point):
            position = evaluate(point)
            emit(step.start, .down, position)
            emit(step.start, .up(velocity: .zero), position)
            path = nil
            finishStep()
            continue
          case .release(let velocity):
            emit(
              step.start, .up(velocity: velocity.map(evaluate) ?? path?.velocity(at: step.start)),
              position)
            path = nil
            finishStep()
            continue
          case .wait:
            active = .wait
          case .motion(let motion, let curve, let lift):
            let target: Vector
            switch motion {
            case .to(let point): target = evaluate(point)
            case .by(let offset): target = position + evaluate(offset)
            }
            let evaluatedLift: Lift<Vector>
            switch lift {
            case .none: evaluatedLift = .none
            case .up(let velocity): evaluatedLift = .up(velocity: velocity.map(evaluate))
            }
            let tween = Tween(from: position, to: target, duration: step.duration, curve: curve)
            path?.add(tween, at: step.start)
            active = .motion(tween, lift: evaluatedLift)
          case .replay:
            path = nil
            active = .replay(ReplayState())
          }
        }

        switch active {
        case .wait?, nil:
          guard time >= step.end else { return }
        case .motion(let tween, let lift)?:
          guard time >= step.end else {
            // Strictly inside the step: the eased point now. At the start, the finger is
            // still where the previous step left it.
            if time > step.start { emit(time, .move, tween.value(at: time - step.start)) }
            return
          }
          position = tween.to
          emit(step.end, .move, position)
          if case .up(let velocity) = lift {
            emit(step.end, .up(velocity: velocity ?? path?.velocity(at: step.end)), position)
            path = nil
          }
        case .replay(var state)?:
          guard case .replay(let replay) = step.action else { return }
          play(replay, from: step.start, through: min(time, step.end), state: &state, into: &events)
          guard time >= step.end else {
            active = .replay(state)
            return
          }
          if let own = state.latest[0] { position = replay.samples[own].position }
        }
        finishStep()
      }
    }

    /// A scripted finger's exact path since its press, so its release velocity is the
    /// mean over the last 100 ms of the motion itself, not of the frames that sampled it:
    /// the same at every frame rate.
    struct FingerPath: Sendable {
      var pressTime: Double
      var pressPosition: Vector
      /// Motions since the press, oldest first, each with its start time.
      var motions: [(start: Double, tween: Tween)] = []

      /// How far back a release looks, as a pan gesture recogniser does.
      static let window = 0.1

      mutating func add(_ tween: Tween, at start: Double) {
        // Motions that ended before the window of any later release are no longer read.
        if let last = motions.last, last.start + last.tween.duration < start - Self.window {
          motions.removeAll()
          pressPosition = last.tween.to
          pressTime = max(pressTime, last.start + last.tween.duration)
        }
        motions.append((start, tween))
      }

      /// Where the finger is at `time`.
      func position(at time: Double) -> Vector {
        guard let motion = motions.last(where: { $0.start <= time }) else { return pressPosition }
        return motion.tween.value(at: time - motion.start)
      }

      /// The mean velocity over the last 100 ms before `time` (or since the press).
      func velocity(at time: Double) -> Vector {
        let from = max(time - Self.window, pressTime)
        guard time > from else { return .zero }
        let velocity = (position(at: time) - position(at: from)) / (time - from)
        return velocity.isFinite ? velocity : .zero
      }
    }

    mutating func finishStep() {
      index += 1
      active = nil
    }

    /// Plays a trace that started at `start` up to `time`: its downs and ups at their own
    /// times, then a move at `time` for each finger that is down, on the straight line
    /// between its samples around `time`.
    func play(
      _ replay: Replay, from start: Double, through time: Double, state: inout ReplayState,
      into events: inout [PointerEvent]
    ) {
      while state.cursor < replay.samples.count && start + replay.offsets[state.cursor] <= time {
        let i = state.cursor
        state.cursor += 1
        state.latest[replay.keys[i]] = i
        let sample = replay.samples[i]
        let at = start + replay.offsets[i]
        switch sample.phase {
        case .down:
          events.append(
            PointerEvent(
              time: at, pointer: pointer(replay.keys[i]), phase: .down, position: sample.position))
        case .up:
          events.append(
            PointerEvent(
              time: at, pointer: pointer(replay.keys[i]), phase: .up(velocity: nil),
              position: sample.position))
        case .move:
          break
        }
      }
      for key in state.latest.keys.sorted() {
        guard let i = state.latest[key] else { continue }
        let sample = replay.samples[i]
        let at = start + replay.offsets[i]
        // A finger that is up has nothing to move; one that just went down is there already.
        if sample.phase == .up || (sample.phase == .down && at == time) { continue }
        var position = sample.position
        if at < time, let n = replay.next[i] {
          let nextAt = start + replay.offsets[n]
          if nextAt > at {
            position = sample.position.interpolate(
              to: replay.samples[n].position, amount: (time - at) / (nextAt - at))
          }
        }
        events.append(
          PointerEvent(time: time, pointer: pointer(key), phase: .move, position: position))
      }
    }

    /// The pointer a trace's finger plays as: the track's, offset by the finger's id.
    func pointer(_ key: Int) -> Int {
      let (sum, overflow) = pointer.addingReportingOverflow(key)
      return overflow ? key : sum
    }
  }
}
