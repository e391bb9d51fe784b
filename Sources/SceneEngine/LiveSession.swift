import SceneGeometry
import SceneGraph
import SceneRuntime
import SceneSyntax

/// A live run of a scene: its simulation, its live pointers, its take (to go back to any
/// frame, replay it, or make it again with tuned numbers), its recording.
///
/// The preview's server keeps one per page; the WebAssembly engine keeps one per page
/// too, in the page. The server ticks it at the scene's frame rate in real time (``frame()``) and hands it
/// each pointer message as it arrives, with how long after the last frame it came
/// (``pointer(_:id:at:afterLastFrame:)``). Live input plays exactly as a recorded trace
/// replays (``GesturePlayer``): a finger goes down and lifts at its own time, and moves
/// once per frame, at the frame's time, to where it is then. So a recording of a session
/// (``recordedTrace``) replayed by `scenec test` drives the engine through the same calls
/// at the same times, and gives the same frames.
public struct LiveSession: Sendable {
  /// What a pointer did: went down, moved, lifted, or was cancelled (lifted where it is).
  public enum PointerPhase: String, Equatable, Sendable {
    case down, move, up, cancel
  }

  public private(set) var graph: SceneGraph
  private var simulation: Simulation
  private let clock: FrameClock
  /// The index of the next frame ``frame()`` makes.
  public private(set) var nextFrame = 0
  public var isPaused = false
  /// Scene seconds per wall-clock second, 0.1 to 2.
  public private(set) var speed = 1.0
  /// The scene's own gesture, while it plays.
  private var script: GesturePlayer?
  /// Downs and lifts since the last frame, with their scene times, in order.
  private var pending: [PointerEvent] = []
  /// Each live finger that is down (by the engine's pointer id), and where it is now.
  private var fingers: [Int: Point] = [:]
  /// Samples of the recording in progress, if one is.
  private var recording: [TraceFile.Sample]?
  /// The last finished recording.
  public private(set) var recordedTrace: TraceFile?
  /// Why the last recording stopped by itself, to tell the page once.
  public private(set) var recordingNotice: String?

  /// What live input did in one frame: the downs, lifts and inputs played before it, and
  /// where the fingers moved at its time.
  struct FrameInput: Sendable {
    var pending: [PointerEvent] = []
    var moves: [PointerEvent] = []
  }
  /// The live input of each frame since the last restart (frames without any are left
  /// out): with the scene's own gesture, all a run needs to be made again, exactly.
  private var tape: [Int: FrameInput] = [:]
  /// The last frame of this take, where the timeline ends.
  ///
  /// Frames up to it replay from the tape when the session was sent back in time
  /// (``seek(to:)``).
  public private(set) var furthestFrame = -1
  /// The live fingers down in the engine, as the frames made so far have moved them.
  private var engineFingers: [Int: Point] = [:]
  /// Whether the scene's own gesture has played since the take began.
  private var scriptFromStart = false

  /// The run as it was before some frames, to go back in time without starting over.
  struct Checkpoint: Sendable {
    var frame: Int
    var simulation: Simulation
    var script: GesturePlayer?
    var engineFingers: [Int: Point]
  }
  private var checkpoints: [Checkpoint] = []
  /// Frames between checkpoints, at first; when there would be more than
  /// ``maximumCheckpoints``, every other one goes, so memory stays bounded on long takes.
  package static let checkpointInterval = 60
  package static let maximumCheckpoints = 64
  /// The longest take run again when the scene is tuned (10 minutes at 60 fps): a longer
  /// one restarts instead.
  public static let maximumRerunFrames = 36_000

  /// Live pointers while the scene's own gesture plays are offset by this, so the two
  /// never share an id.
  public static let scriptPointerOffset = 100

  public init(graph: SceneGraph) throws(RuntimeError) {
    self.graph = graph
    simulation = try Simulation(graph: graph)
    clock = FrameClock(fps: graph.fps)
    maximumRecordingSeconds = Self.recordingLimit(fps: graph.fps)
  }

  public var isRecording: Bool { recording != nil }
  public var isPlayingScript: Bool { script != nil }
  /// The scene time of the last frame made (0 before the first).
  public var time: Double { nextFrame == 0 ? 0 : clock.time(ofFrame: nextFrame - 1) }
  /// Wall-clock seconds between frames at the current speed.
  public var frameInterval: Double { 1 / (graph.fps * speed) }

  public mutating func setSpeed(_ value: Double) {
    speed = min(max(value, 0.1), 2)
  }

  // MARK: - Input

  /// A pointer message from the page, `elapsed` wall-clock seconds after the last frame.
  ///
  /// A down or a lift plays at its own scene time (the last frame's time plus `elapsed` at
  /// the current speed, no later than the next frame, in whole microseconds); a move only
  /// says where the finger is, for the next frame.
  public mutating func pointer(
    _ phase: PointerPhase, id rawID: Int, at point: Point, afterLastFrame elapsed: Double
  ) {
    if isReplaying && phase == .down { takeOver() }
    guard !isReplaying else { return }
    let id = rawID + (script == nil ? 0 : Self.scriptPointerOffset)
    let next = clock.time(ofFrame: nextFrame)
    var at = min(time + max(0, elapsed) * speed, next)
    at = (at * 1e6).rounded() / 1e6
    if let last = pending.last?.time { at = max(at, last) }
    at = max(at, time)
    // A trace needs each pointer's samples strictly in time: a lift (or a new press) in the
    // same frame as the finger's last move, or right after its own press, goes one
    // microsecond later. A frame lasts thousands of microseconds, so it stays in its frame.
    if nextFrame > 0 && at <= time { at = Self.microsecondAfter(time) }
    if let same = pending.last(where: { $0.pointer == id }), at <= same.time {
      at = Self.microsecondAfter(same.time)
    }
    // And before the next frame, where the fingers move: a press or a lift at the very
    // time of a move would tie with it.
    if nextFrame > 0 && at >= next { at = max(Self.microsecondBefore(next), time) }
    switch phase {
    case .down:
      guard fingers[id] == nil else { return }
      fingers[id] = point
      pending.append(PointerEvent(time: at, pointer: id, phase: .down, position: point))
    case .move:
      guard fingers[id] != nil else { return }
      fingers[id] = point
    case .up, .cancel:
      guard fingers.removeValue(forKey: id) != nil else { return }
      pending.append(
        PointerEvent(time: at, pointer: id, phase: .up(velocity: nil), position: point))
    }
  }

  /// Sets input `name` (fires it, for a trigger) `elapsed` wall-clock seconds after the
  /// last frame.
  ///
  /// It happens at its own scene time in the next frame, as a press does. Returns why
  /// not, when the scene has no such input or it cannot take the value.
  public mutating func setInput(
    named name: String, to value: Double, afterLastFrame elapsed: Double
  )
    -> String?
  {
    guard let index = graph.inputs.firstIndex(where: { $0.name == name }) else {
      return "the scene has no input '\(name)'"
    }
    if isReplaying { takeOver() }
    let input = graph.inputs[index]
    let phase: PointerEvent.Phase
    if input.kind == .trigger {
      phase = .fire(index: index)
    } else {
      guard input.accepted(value) != nil else { return "input '\(name)' cannot be \(value)" }
      phase = .input(index: index, value: value)
    }
    let next = clock.time(ofFrame: nextFrame)
    var at = min(time + max(0, elapsed) * speed, next)
    at = max((at * 1e6).rounded() / 1e6, pending.last?.time ?? 0, time)
    pending.append(PointerEvent(time: at, pointer: 0, phase: phase, position: .zero))
    return nil
  }

  /// The scene's guides as it stands now: hit radii, rests, bounds, snap targets, detents
  /// and where released handles are going.
  public var guides: SceneGuides { simulation.guides() }

  /// Each input's value now (0 for a trigger).
  public var inputValues: [Double] { simulation.inputValues }

  /// The state each machine is in now.
  public var machineStates: [String] {
    graph.machines.indices.map { simulation.stateName(ofMachine: $0) }
  }

  /// `t` less one microsecond, on the microsecond grid.
  package static func microsecondBefore(_ t: Double) -> Double {
    var previous = ((t * 1e6).rounded() - 1) / 1e6
    while previous >= t { previous = ((previous * 1e6).rounded() - 1) / 1e6 }
    return previous
  }

  /// `t` plus one microsecond, on the microsecond grid times are kept on.
  package static func microsecondAfter(_ t: Double) -> Double {
    var next = ((t * 1e6).rounded() + 1) / 1e6
    while next <= t { next = ((next * 1e6).rounded() + 1) / 1e6 }
    return next
  }

  // MARK: - Controls

  /// Back to the start: a new run of the same plan, no fingers, no script, a new take.
  public mutating func restart() throws(RuntimeError) {
    simulation = try Simulation(plan: simulation.plan)
    nextFrame = 0
    pending = []
    fingers = [:]
    script = nil
    if recording != nil { recording = [] }
    newTake()
  }

  /// Restarts with a new graph (the scene was edited and reloaded).
  public mutating func reload(_ newGraph: SceneGraph) throws(RuntimeError) {
    let fresh = try Simulation(graph: newGraph)
    graph = newGraph
    maximumRecordingSeconds = Self.recordingLimit(fps: newGraph.fps)
    simulation = fresh
    nextFrame = 0
    pending = []
    fingers = [:]
    script = nil
    recording = nil
    newTake()
  }

  private mutating func newTake() {
    tape = [:]
    furthestFrame = -1
    engineFingers = [:]
    checkpoints = []
    scriptFromStart = false
  }

  /// Restarts and plays the scene's own gesture script.
  public mutating func playScript() throws(RuntimeError) {
    try restart()
    recording = nil
    script = GesturePlayer(tracks: graph.gesture)
    scriptFromStart = true
  }

  // MARK: - The timeline

  /// Whether the next frame replays the take (after ``seek(to:)``) rather than live input.
  public var isReplaying: Bool { nextFrame <= furthestFrame }

  /// Goes back (or forward) to frame `index` of this take, and returns it: made again from
  /// the nearest checkpoint before it, with the same input at the same times, so it is the
  /// frame the take made (and the frame `scenec test` would make of a recording of it).
  ///
  /// The session pauses there; resumed, it plays the rest of the take, until the user
  /// presses or sets an input, which takes over from that frame (``takeOver()``).
  public mutating func seek(to index: Int) throws(RuntimeError) -> Frame? {
    guard furthestFrame >= 0 else { return nil }
    let target = min(max(index, 0), furthestFrame)
    stopRecording()
    isPaused = true
    if target < nextFrame {
      guard let start = checkpoints.last(where: { $0.frame <= target }) else { return nil }
      simulation = start.simulation
      script = start.script
      engineFingers = start.engineFingers
      nextFrame = start.frame
      pending = []
      fingers = [:]
    }
    var frame: Frame?
    while nextFrame <= target { frame = try self.frame() }
    return frame
  }

  /// Frames `from...to` of this take (at most ``maximumFramesPerRequest``, none past the
  /// furthest made), made again from checkpoints on a copy: the session does not move.
  public func framesOfTake(from: Int, to: Int) throws(RuntimeError) -> [Frame] {
    let first = max(from, 0)
    let last = min(to, furthestFrame, first + Self.maximumFramesPerRequest - 1)
    guard first <= last else { return [] }
    var copy = self
    copy.recording = nil
    guard let frame = try copy.seek(to: first) else { return [] }
    var frames = [frame]
    frames.reserveCapacity(last - first + 1)
    while copy.nextFrame <= last { frames.append(try copy.frame()) }
    return frames
  }

  /// The most frames ``framesOfTake(from:to:)`` makes at once: a minute at 60 fps.
  public static let maximumFramesPerRequest = 3600

  /// Plays this take again from its first frame: "replay my last gesture".
  public mutating func replayTake() throws(RuntimeError) -> Frame? {
    let first = try seek(to: 0)
    isPaused = false
    return first
  }

  /// Live input after going back in time: the rest of the take is dropped, the fingers
  /// the take still held are lifted where they are, and the session is live again.
  private mutating func takeOver() {
    tape = tape.filter { $0.key < nextFrame }
    checkpoints.removeAll { $0.frame > nextFrame }
    furthestFrame = nextFrame - 1
    liftReplayedFingers()
  }

  /// Lifts, just after the last frame, the fingers a replayed take left down: no real
  /// finger holds them.
  private mutating func liftReplayedFingers() {
    fingers = [:]
    for (id, point) in engineFingers.sorted(by: { $0.key < $1.key }) {
      let at = nextFrame == 0 ? 0 : Self.microsecondAfter(max(time, pending.last?.time ?? time))
      pending.append(
        PointerEvent(time: at, pointer: id, phase: .up(velocity: nil), position: point))
    }
  }

  /// Makes this take again with a tuned scene, up to where it is.
  ///
  /// The scene has the same structure (only numbers changed); the take gets the same input
  /// at the same times, and the scene's own gesture again if it was playing. Returns the
  /// frames made, for the page's graphs.
  ///
  /// A take longer than ``maximumRerunFrames`` restarts instead, and returns none.
  public mutating func rerun(with newGraph: SceneGraph) throws(RuntimeError) -> [Frame] {
    let made = nextFrame
    guard made <= Self.maximumRerunFrames else {
      try reload(newGraph)
      return []
    }
    let fresh = try Simulation(graph: newGraph)
    let kept = (recording: recording, pending: pending, furthest: furthestFrame)
    graph = newGraph
    simulation = fresh
    script = scriptFromStart ? GesturePlayer(tracks: newGraph.gesture) : nil
    recording = nil
    pending = []
    engineFingers = [:]
    checkpoints = []
    nextFrame = 0
    var frames: [Frame] = []
    frames.reserveCapacity(made)
    while nextFrame < made {
      let input = tape[nextFrame] ?? FrameInput()
      frames.append(try step(pending: input.pending, recordedMoves: input.moves))
    }
    furthestFrame = kept.furthest
    recording = kept.recording
    pending = kept.pending
    return frames
  }

  private mutating func checkpoint() {
    guard checkpoints.last.map({ $0.frame < nextFrame }) ?? true else { return }
    checkpoints.append(
      Checkpoint(
        frame: nextFrame, simulation: simulation, script: script, engineFingers: engineFingers))
    if checkpoints.count > Self.maximumCheckpoints {
      // Every other one goes (the first stays): twice the interval, half the memory.
      checkpoints = checkpoints.enumerated().filter { $0.offset % 2 == 0 }.map { $0.element }
    }
  }

  /// How many checkpoints the take holds (for tests: memory stays bounded).
  package var checkpointCount: Int { checkpoints.count }

  /// Restarts and records the live pointers from the first frame.
  public mutating func startRecording() throws(RuntimeError) {
    try restart()
    recording = []
  }

  /// The longest recording, in scene seconds: one that still replays under `scenec test`.
  ///
  /// Its copy runs the recording and up to 30 s of settling, and must stay within the
  /// default frame cap (``SceneRunner/defaultMaxFrames``) at the scene's frame rate; and
  /// never more than 10 minutes.
  public var maximumRecordingSeconds: Double

  /// ``maximumRecordingSeconds`` for a scene at `fps`.
  public static func recordingLimit(fps: Double) -> Double {
    min(600, Double(SceneRunner.defaultMaxFrames) / fps - 30)
  }

  /// The most samples a recording keeps: what a trace may hold, less room for the lifts
  /// that end it.
  public static let maximumRecordingSamples = TraceFile.maximumSamples - 64

  /// The notice of a recording that stopped at its limit, taken once.
  public mutating func takeRecordingNotice() -> String? {
    defer { recordingNotice = nil }
    return recordingNotice
  }

  /// Ends the recording; an empty one keeps the previous.
  ///
  /// A finger still down is lifted in the recording just after the last frame, where it
  /// is, so a saved trace is always a whole gesture that lets the scene come to rest.
  public mutating func stopRecording() {
    guard var samples = recording else { return }
    recording = nil
    let down = Set(samples.compactMap { $0.pointer }).filter { id in
      samples.last(where: { $0.pointer == id })?.phase != .up
    }
    for id in down.sorted() {
      guard let last = samples.last(where: { $0.pointer == id }) else { continue }
      let after = Self.microsecondAfter(max(time, samples.last?.time ?? 0))
      samples.append(
        TraceFile.Sample(time: after, position: last.position, phase: .up, pointer: id))
    }
    if !samples.isEmpty { recordedTrace = TraceFile(samples: samples) }
  }

  // MARK: - Frames

  /// The next frame: plays the input received since the last, then steps to the frame's
  /// time, as ``SceneRunner`` does for a script.
  public mutating func frame() throws(RuntimeError) -> Frame {
    if isReplaying {
      let input = tape[nextFrame] ?? FrameInput()
      let frame = try step(pending: input.pending, recordedMoves: input.moves)
      if !isReplaying { liftReplayedFingers() }
      return frame
    }
    let live = pending
    pending = []
    return try step(pending: live, recordedMoves: nil)
  }

  /// Plays `live` (downs, lifts, inputs) with the scene's own gesture, then the fingers'
  /// moves (`recordedMoves`, or the live fingers' when `nil`), and steps to the next
  /// frame's time.
  private mutating func step(pending live: [PointerEvent], recordedMoves: [PointerEvent]?)
    throws(RuntimeError) -> Frame
  {
    let pending = live
    if nextFrame % Self.checkpointInterval == 0 { checkpoint() }
    let t = clock.time(ofFrame: nextFrame)
    var events: [PointerEvent] = []
    if var player = script {
      events = player.events(through: t) { [simulation] in simulation.value(of: $0) }
      script = player
    }
    // Script events and live ones, each already in time order: merged, script first on a tie.
    if !pending.isEmpty {
      events =
        (events.enumerated().map { ($0.element, 0, $0.offset) }
        + pending.enumerated().map { ($0.element, 1, $0.offset) })
        .sorted { ($0.0.time, $0.1, $0.2) < ($1.0.time, $1.1, $1.2) }
        .map { $0.0 }
    }
    for event in events {
      apply(event)
      record(event)
    }
    for event in pending {
      switch event.phase {
      case .down: engineFingers[event.pointer] = event.position
      case .up: engineFingers.removeValue(forKey: event.pointer)
      case .move, .input, .fire: break
      }
    }
    // Every live finger that is down moves at the frame's time, as a replay plays it;
    // except one pressed at that very time (the first frame's), which is already there.
    let pressedNow = Set(
      events.filter { event in
        // An input set at that time is not a finger's.
        if case .input = event.phase { return false }
        if case .fire = event.phase { return false }
        return event.time >= t
      }.map { $0.pointer })
    let moves =
      recordedMoves
      ?? fingers.keys.sorted().filter { !pressedNow.contains($0) }.compactMap { id in
        fingers[id].map { PointerEvent(time: t, pointer: id, phase: .move, position: $0) }
      }
    for move in moves {
      apply(move)
      record(move)
      engineFingers[move.pointer] = move.position
    }
    if recordedMoves == nil && !(pending.isEmpty && moves.isEmpty) {
      tape[nextFrame] = FrameInput(pending: pending, moves: moves)
    }
    let frame = nextFrame == 0 ? try simulation.currentFrame() : try simulation.step(to: t)
    nextFrame += 1
    furthestFrame = max(furthestFrame, nextFrame - 1)
    if let samples = recording,
      t >= maximumRecordingSeconds || samples.count >= Self.maximumRecordingSamples
    {
      // Past this a saved trace could not be replayed: stop here (with every finger
      // lifted in the recording, as Stop does).
      stopRecording()
      let minutes = maximumRecordingSeconds / 60
      let limit =
        minutes.rounded() == minutes
        ? "\(Int(minutes)) min" : "\(maximumRecordingSeconds.shortestDescription) s"
      recordingNotice =
        "the recording stopped at its limit of \(limit) of scene time (a longer one could not be replayed by scenec test); it can be saved"
    }
    return frame
  }

  private mutating func apply(_ event: PointerEvent) {
    simulation.apply(event, atItsTime: nextFrame > 0)
  }

  private mutating func record(_ event: PointerEvent) {
    guard recording != nil, script == nil else { return }
    let phase: TraceFile.Sample.Phase
    switch event.phase {
    case .down: phase = .down
    case .move: phase = .move
    case .up: phase = .up
    // A trace holds fingers; an input set by hand is not one of them.
    case .input, .fire: return
    }
    recording?.append(
      TraceFile.Sample(
        time: event.time, position: event.position, phase: phase, pointer: event.pointer))
  }
}
