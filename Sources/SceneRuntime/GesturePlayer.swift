import RealModule
import SceneGeometry
import SceneGraph

/// Plays a scene's gesture script: turns its tracks into pointer events, frame by frame.
///
/// Each track's steps run back to back from time 0, and all tracks run at once. The
/// resolver has fixed every step's start and end (``SceneGraph/GestureStep``); what a
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
  private var tracks: [Track]
  /// The tracks with steps still to play, in track order: a finished track costs nothing
  /// a frame (a scene with a finger per handle once spent 41% of its per-handle time
  /// visiting finished tracks).
  private var unfinished: [Int]
  /// The latest time asked for; events up to it have been returned.
  private var lastTime = -Double.infinity

  /// The time every track's steps are done; `nil` only when the durations add up past the
  /// largest finite time.
  public let endTime: Double?

  /// A player for a graph's resolved tracks.
  public init(tracks: [SceneGraph.GestureTrack]) {
    let made = tracks.map(Track.init)
    self.tracks = made
    unfinished = made.indices.filter { made[$0].index < made[$0].steps.count }
    let total = self.tracks.reduce(0) { max($0, $1.endTime) }
    self.endTime = total.isFinite ? total : nil
  }

  /// How long `tracks` take to play: when the longest track's last step ends.
  public static func duration(of tracks: [SceneGraph.GestureTrack]) -> Double {
    tracks.reduce(0) { max($0, Double($1.endMicroseconds) / 1e6) }
  }

  /// Whether every track has played its last step.
  public var isFinished: Bool { unfinished.isEmpty }

  /// Every event at or before `time` not returned before, in time order (events at the
  /// same time in track order, then in the order they happened).
  ///
  /// `evaluate` gives the value of a point or velocity expression in the current scene; it
  /// is called once for each expression of each step that starts by `time`. A `time` that is
  /// not later than the previous call's (or NaN) returns nothing.
  public mutating func events(through time: Double, evaluate: (CompiledExpression) -> Vector)
    -> [PointerEvent]
  {
    guard time > lastTime else { return [] }
    lastTime = time
    var events: [PointerEvent] = []
    var tracksWithEvents = 0
    var kept = 0
    let playing = unfinished
    for k in unfinished.indices {
      let index = unfinished[k]
      let before = events.count
      tracks[index].advance(through: time, evaluate: evaluate, into: &events)
      if events.count > before { tracksWithEvents += 1 }
      if tracks[index].index < tracks[index].steps.count {
        unfinished[kept] = index
        kept += 1
      }
    }
    unfinished.removeLast(unfinished.count - kept)
    guard tracksWithEvents > 1 else { return events }
    // A finger that goes down or up between two frames meets the others where they are
    // then, not where the frame before left them: each other finger in a motion moves to
    // its place at that moment first (two fingers' pinch starts the same at every rate).
    // Each moment once, and only the fingers that moved: a script of thousands of fingers
    // lifting together between two frames is one moment, not one per finger. A finger
    // strictly inside a motion at a moment has no down or up of its own then.
    var moments: [Double] = []
    for event in events where event.time < time {
      if case .move = event.phase { continue }
      if !moments.contains(event.time) { moments.append(event.time) }
    }
    let movers = moments.isEmpty ? [] : playing.filter { !tracks[$0].playedMotions.isEmpty }
    var meetings: [PointerEvent] = []
    for moment in moments {
      for index in movers {
        placesAsked += 1
        if let place = tracks[index].placeInMotion(at: moment) {
          meetings.append(
            PointerEvent(
              time: moment, pointer: tracks[index].pointer, phase: .move, position: place))
        }
      }
    }
    // Each track's events are in time order already; merge them, keeping ties in order,
    // with the meetings first at their moment.
    let all = meetings + events
    let firstOwn = meetings.count
    return all.indices
      .sorted {
        (all[$0].time, $0 < firstOwn ? 0 : 1, $0) < (all[$1].time, $1 < firstOwn ? 0 : 1, $1)
      }
      .map { all[$0] }
  }

  /// How many tracks still have steps to play (for the tests that count the work).
  var unfinishedCount: Int { unfinished.count }
  /// How many times a finger was asked where it is at another's down or up (for the tests
  /// that count the work).
  private(set) var placesAsked = 0
}

// MARK: - Tracks

extension GesturePlayer {
  /// One pointer's steps and how far it has played them.
  struct Track: Sendable {
    /// A started step's evaluated state.
    enum Active: Sendable {
      case wait
      case motion(Tween, lift: Lift)
      case replay(ReplayState)
      case pinch(PinchMotion)
    }

    /// A started two-finger step, evaluated: where both fingers are at a moment of it.
    struct PinchMotion: Sendable {
      var center: Vector
      var halfDistance: Double
      var scale: Double
      var rotation: Double
      var curve: TimingCurve
      var start: Double
      var duration: Double

      /// The track's finger and the next, at `time`.
      func fingers(at time: Double) -> (Vector, Vector) {
        let u =
          duration > 0 ? curve.value(at: Swift.min(Swift.max((time - start) / duration, 0), 1)) : 1
        let reach = halfDistance * (1 + (scale - 1) * u)
        let angle = rotation * u
        let offset = Vector(Double.cos(angle), Double.sin(angle)) * reach
        return (center - offset, center + offset)
      }
    }

    /// Whether a started motion ends by lifting, with its evaluated velocity (the script's
    /// own when `nil`).
    enum Lift: Sendable {
      case none
      case up(velocity: Vector?)
    }

    struct ReplayState: Sendable {
      /// The next sample not yet played.
      var cursor = 0
      /// Each finger's latest played sample.
      var latest: [Int: Int] = [:]
    }

    let pointer: Int
    let steps: [SceneGraph.GestureStep]
    let endTime: Double
    var index = 0
    var position = Vector.zero
    var active: Active?
    /// The finger's exact path since it last pressed, for its release velocity: when and
    /// where it pressed, and each motion since with its start time; `nil` when the path is
    /// not the script's own (not pressed, or moved by a trace).
    var path: FingerPath?

    init(_ track: SceneGraph.GestureTrack) {
      pointer = track.pointer
      steps = track.steps
      endTime = Double(track.endMicroseconds) / 1e6
    }

    /// The motions played by the latest ``advance(through:evaluate:into:)``, with their
    /// steps' start and end.
    var playedMotions: [(start: Double, end: Double, tween: Tween)] = []

    /// Where the finger is at `time`, if one of the motions it just played spans it.
    func placeInMotion(at time: Double) -> Vector? {
      for motion in playedMotions where motion.start < time && time < motion.end {
        return motion.tween.value(at: time - motion.start)
      }
      return nil
    }

    /// Plays the steps up to `time`, appending their events.
    mutating func advance(
      through time: Double, evaluate: (CompiledExpression) -> Vector,
      into events: inout [PointerEvent]
    ) {
      playedMotions.removeAll(keepingCapacity: true)
      func emit(_ at: Double, _ phase: PointerEvent.Phase, _ position: Vector) {
        events.append(PointerEvent(time: at, pointer: pointer, phase: phase, position: position))
      }
      /// Both fingers of a two-finger step: the track's and the next id.
      func emitBoth(_ at: Double, _ phase: PointerEvent.Phase, _ places: (Vector, Vector)) {
        events.append(PointerEvent(time: at, pointer: pointer, phase: phase, position: places.0))
        events.append(
          PointerEvent(time: at, pointer: pointer + 1, phase: phase, position: places.1))
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
          case .motion(let motion, let easing, let lift):
            let target: Vector
            switch motion {
            case .to(let point): target = evaluate(point)
            case .by(let offset): target = position + evaluate(offset)
            }
            let evaluatedLift: Lift
            switch lift {
            case .none: evaluatedLift = .none
            case .up(let velocity): evaluatedLift = .up(velocity: velocity.map(evaluate))
            }
            let tween = Tween(
              from: position, to: target, duration: step.duration, curve: TimingCurve(easing))
            path?.add(tween, at: step.start)
            active = .motion(tween, lift: evaluatedLift)
          case .setInputs(let changes):
            for change in changes {
              emit(
                step.start, .input(index: change.input, value: evaluate(change.value).x), position)
            }
            finishStep()
            continue
          case .fire(let input):
            emit(step.start, .fire(index: input), position)
            finishStep()
            continue
          case .replay:
            path = nil
            active = .replay(ReplayState())
          case .pinch(let center, let scale, let rotation, let distance, let easing):
            let motion = PinchMotion(
              center: evaluate(center), halfDistance: (distance.map(evaluate)?.x ?? 100) / 2,
              scale: scale.map(evaluate)?.x ?? 1, rotation: rotation.map(evaluate)?.x ?? 0,
              curve: TimingCurve(easing), start: step.start, duration: step.duration)
            emitBoth(step.start, .down, motion.fingers(at: step.start))
            path = nil
            active = .pinch(motion)
          }
        }

        switch active {
        case .wait?, nil:
          guard time >= step.end else { return }
        case .motion(let tween, let lift)?:
          playedMotions.append((step.start, step.end, tween))
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
        case .pinch(let motion)?:
          guard time >= step.end else {
            if time > step.start { emitBoth(time, .move, motion.fingers(at: time)) }
            return
          }
          let last = motion.fingers(at: step.end)
          emitBoth(step.end, .move, last)
          emitBoth(step.end, .up(velocity: .zero), last)
          position = last.0
        case .replay(var state)?:
          guard case .replay(let replay) = step.action else { return }
          play(replay, from: step.start, through: min(time, step.end), state: &state, into: &events)
          guard time >= step.end else {
            active = .replay(state)
            return
          }
          if let own = state.latest[0] { position = replay.positions[own] }
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
      _ replay: SceneGraph.Replay, from start: Double, through time: Double,
      state: inout ReplayState,
      into events: inout [PointerEvent]
    ) {
      while state.cursor < replay.count && start + replay.offsets[state.cursor] <= time {
        let i = state.cursor
        state.cursor += 1
        state.latest[replay.fingers[i]] = i
        let at = start + replay.offsets[i]
        switch replay.phases[i] {
        case .down:
          events.append(
            PointerEvent(
              time: at, pointer: pointer(replay.fingers[i]), phase: .down,
              position: replay.positions[i]))
        case .up:
          events.append(
            PointerEvent(
              time: at, pointer: pointer(replay.fingers[i]), phase: .up(velocity: nil),
              position: replay.positions[i]))
        case .move:
          break
        }
      }
      for key in state.latest.keys.sorted() {
        guard let i = state.latest[key] else { continue }
        let phase = replay.phases[i]
        let at = start + replay.offsets[i]
        // A finger that is up has nothing to move; one that just went down is there already.
        if phase == .up || (phase == .down && at == time) { continue }
        var position = replay.positions[i]
        if at < time, let n = replay.next[i] {
          let nextAt = start + replay.offsets[n]
          if nextAt > at {
            position = position.interpolate(
              to: replay.positions[n], amount: (time - at) / (nextAt - at))
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
