import Foundation
import SceneDiagnostics
import SceneFiles
import SceneGeometry
import SceneGraph
import SceneOutputs
import SceneRuntime
import SceneSyntax

/// One page's connection: its own ``PreviewSession``, stepped in real time, fed by the
/// page's messages, and the frames and notices it sends back.
///
/// Everything the page sends passes ``PreviewMessage/parse(_:)`` and a rate limit; a bad
/// message gets an `error` message back and changes nothing. Frames are made on a fixed
/// schedule at the scene's frame rate (and speed); a pointer message makes the frame that
/// is next due at once, when it is due within one frame, so the page sees its input
/// without waiting for the tick.
///
/// Time comes from `C`: the server passes `ContinuousClock`; tests pass a clock they set by
/// hand, so nothing in them depends on how fast the machine is.
public actor PreviewConnection<C: Clock> where C.Duration == Duration {
  /// Where outgoing text goes (the WebSocket's writer, or a test's collector).
  public typealias Send = @Sendable (String) async -> Void

  let hub: PreviewHub
  let send: Send
  var session: PreviewSession?
  var context: OutputContext?
  /// When the next frame is due, on the monotonic clock.
  var deadline: C.Instant
  /// When the last frame was due: pointer times count from it.
  var lastDue: C.Instant
  var limiter = RateLimiter<C.Instant>()
  /// The bucket all the server's pages share, if the connection is one of several.
  let shared: SharedRateLimiter<C.Instant>?
  let clock: C
  /// Frames sent, and pointer messages received (for tests and the benchmark).
  public private(set) var framesSent = 0
  public private(set) var messagesRefused = 0

  public init(
    hub: PreviewHub, clock: C, shared: SharedRateLimiter<C.Instant>? = nil,
    send: @escaping Send
  ) {
    self.hub = hub
    self.clock = clock
    self.shared = shared
    self.send = send
    deadline = clock.now
    lastDue = deadline
  }

  // MARK: - Scene updates

  /// A new scene (or the first): the session restarts with it, and the page is told.
  public func receive(_ update: PreviewHub.Update) async {
    switch update {
    case .scene(let graph, let warnings):
      do {
        if session == nil {
          session = try PreviewSession(graph: graph)
        } else {
          try session?.reload(graph)
        }
      } catch {
        await send(Self.diagnostics(DiagnosticText.render(error)))
        return
      }
      context = OutputContext(graph: graph, fps: graph.fps)
      await send(Self.sceneMessage(graph: graph, context: context))
      await send(Self.diagnostics(warnings))
      await sendTunables()
      await sendState()
      schedule(from: clock.now)
    case .problems(let text):
      await send(Self.diagnostics(text))
    case .tuned(let graph):
      guard session != nil else { return }
      do {
        let frames = try session?.rerun(with: graph) ?? []
        context = OutputContext(graph: graph, fps: graph.fps)
        await send(Self.sceneMessage(graph: graph, context: context))
        if let context { await send(Self.history(frames, context: context)) }
      } catch {
        await send(Self.diagnostics(DiagnosticText.render(error)))
      }
      await sendTunables()
      await sendState()
    }
  }

  /// The scene's tunable numbers, for the page's sliders.
  func sendTunables() async {
    let numbers = await hub.tunables
    let unsaved = await hub.hasUnsavedTuning
    let changes = await hub.tunedChanges
    await send(
      Self.object([
        "type": "tunables", "unsaved": unsaved, "changes": changes,
        "numbers": numbers.map { number -> [String: any Sendable] in
          [
            "path": number.path, "value": number.value, "min": number.minimum,
            "max": number.maximum, "step": number.step, "unit": number.unit, "text": number.text,
            "line": number.line,
          ]
        },
      ]))
  }

  /// The frames of a take made again, for the page's graph.
  ///
  /// The latest of them, at most ``historyBytes`` of their text. `merge` adds them to the
  /// page's history (frames it missed) rather than replacing it: then the earliest, at most
  /// ``mergeBytes``, since a page that asks again and again without reading must not make
  /// its queue of waiting messages large.
  static func history(_ frames: [Frame], context: OutputContext, merge: Bool = false) -> String {
    let limit = merge ? mergeBytes : historyBytes
    var entries: [String] = []
    var total = 0
    for frame in merge ? frames : frames.reversed() {
      var entry = TextBytes(capacity: 256)
      SceneJSON.appendFrame(frame, context: context, to: &entry)
      total += entry.count + 1  // and its comma
      if total > limit { break }
      entries.append(entry.string)
    }
    if !merge { entries.reverse() }
    let kind = merge ? "{\"type\":\"history\",\"merge\":true" : "{\"type\":\"history\""
    return kind + ",\"frames\":[" + entries.joined(separator: ",") + "]}"
  }

  /// The most frame text a history message holds.
  static var historyBytes: Int { 4 << 20 }
  /// The most frame text a reply to a page's request for missed frames holds: with the
  /// 64 messages a page may leave waiting, 16 MiB at worst.
  static var mergeBytes: Int { 256 << 10 }

  // MARK: - Messages from the page

  /// One text message from the page.
  public func receive(text: String) async { await receive(text: text, at: clock.now) }

  /// One text message from the page, arrived at `now`.
  public func receive(text: String, at now: C.Instant) async {
    guard limiter.allow(at: now) else {
      messagesRefused += 1
      if limiter.shouldWarn(at: now) {
        await send(
          Self.error(
            "too many messages: some were dropped (at most \(Int(RateLimit.perSecond)) a second)")
        )
      }
      return
    }
    guard shared?.allow(at: now) ?? true else {
      messagesRefused += 1
      if limiter.shouldWarn(at: now) {
        await send(
          Self.error(
            "too many messages from all pages together: some were dropped (at most \(Int(RateLimit.serverPerSecond)) a second)"
          ))
      }
      return
    }
    let message: PreviewMessage
    do {
      message = try PreviewMessage.parse(text)
    } catch {
      messagesRefused += 1
      await send(Self.error(error.description))
      return
    }
    await handle(message, at: now)
  }

  func handle(_ message: PreviewMessage, at now: C.Instant) async {
    guard session != nil else {
      await send(Self.error("no scene is loaded yet: fix the errors shown"))
      return
    }
    switch message {
    case .pointer(let phase, let id, let x, let y):
      let elapsed = max(0, seconds(lastDue.duration(to: now)))
      session?.pointer(phase, id: id, at: Point(x, y), afterLastFrame: elapsed)
      // The frame that plays it goes out now if it is due within one frame.
      if session?.isPaused == false, now.duration(to: deadline) <= interval {
        await advance(at: now)
      }
    case .control(let control):
      await apply(control, at: now)
    case .speed(let value):
      session?.setSpeed(value)
      schedule(from: now)
      await sendState()
    case .save(let trace, let scene, let confirm):
      await save(traceName: trace, sceneName: scene, confirm: confirm)
    case .tune(let index, let value):
      if let last = lastTune, last.duration(to: now) < Self.coalescing {
        waitingTune = (index, value)
        return
      }
      await tune(index, to: value, at: now)
    case .saveTuning:
      do {
        let summary = try await hub.saveTuning()
        await send(Self.object(["type": "tuning-saved", "message": summary]))
      } catch {
        await send(Self.error(error.message))
      }
      await sendTunables()
    case .seek(let index):
      if let last = lastSeek, last.duration(to: now) < Self.coalescing {
        waitingSeek = index
        return
      }
      await seek(to: index, at: now)
    case .frames(let from, let to):
      if let last = lastFramesRequest, last.duration(to: now) < Self.coalescing {
        waitingFrames = (from, to)
        return
      }
      await sendFrames(from: from, to: to, at: now)
    case .input(let name, let value):
      let elapsed = max(0, seconds(lastDue.duration(to: now)))
      if let problem = session?.setInput(named: name, to: value, afterLastFrame: elapsed) {
        messagesRefused += 1
        await send(Self.error(problem))
        return
      }
      if session?.isPaused == false, now.duration(to: deadline) <= interval {
        await advance(at: now)
      }
    }
  }

  // MARK: - Tuning and the timeline

  /// Tunes and seeks come as fast as a slider moves, and each makes frames again: at most
  /// one of each is done every `coalescing`; the latest that waited is done at a tick.
  static var coalescing: Duration { .milliseconds(50) }
  var lastTune: C.Instant?
  var waitingTune: (index: Int, value: Double)?
  var lastSeek: C.Instant?
  var waitingSeek: Int?

  func tune(_ index: Int, to value: Double, at now: C.Instant) async {
    waitingTune = nil
    if let problem = await hub.tune(index, to: value) {
      // A refused number ran nothing, so it does not make the next one wait.
      await send(Self.error(problem))
      await sendTunables()
      return
    }
    lastTune = now
  }

  func seek(to index: Int, at now: C.Instant) async {
    lastSeek = now
    waitingSeek = nil
    do {
      let frame = try session?.seek(to: index)
      // The state first: a message after a frame would make the frame stale.
      await sendState()
      if let frame { await send(frameMessage(frame)) }
    } catch {
      await send(Self.diagnostics(DiagnosticText.render(error)))
      await sendState()
    }
  }

  var lastFramesRequest: C.Instant?
  var waitingFrames: (from: Int, to: Int)?

  /// Frames of the take the page missed, made again, merged into its history.
  func sendFrames(from: Int, to: Int, at now: C.Instant) async {
    lastFramesRequest = now
    waitingFrames = nil
    guard let session, let context else { return }
    do {
      let frames = try session.framesOfTake(from: from, to: to)
      await send(Self.history(frames, context: context, merge: true))
    } catch {
      await send(Self.diagnostics(DiagnosticText.render(error)))
    }
  }

  /// Does the tune, the seek and the frames request that waited, once their time has come.
  func doWaiting(at now: C.Instant) async {
    if let (index, value) = waitingTune,
      lastTune.map({ $0.duration(to: now) >= Self.coalescing }) ?? true
    {
      await tune(index, to: value, at: now)
    }
    if let index = waitingSeek, lastSeek.map({ $0.duration(to: now) >= Self.coalescing }) ?? true {
      await seek(to: index, at: now)
    }
    if let (from, to) = waitingFrames,
      lastFramesRequest.map({ $0.duration(to: now) >= Self.coalescing }) ?? true
    {
      await sendFrames(from: from, to: to, at: now)
    }
  }

  // MARK: - Saving

  /// The files the server asked the page to confirm replacing, with the token that
  /// confirms exactly them, for exactly this recording.
  struct PendingConfirmation {
    var token: String
    var traceName: String
    var sceneName: String?
    var trace: TraceFile
  }

  var pendingConfirmation: PendingConfirmation?

  func save(traceName: String, sceneName: String?, confirm: String?) async {
    guard let recorded = session?.recordedTrace else {
      await send(Self.error("nothing recorded yet: press Record, play, then Stop"))
      return
    }
    var confirmed = false
    if let confirm {
      guard let pending = pendingConfirmation, pending.token == confirm,
        pending.traceName == traceName, pending.sceneName == sceneName, pending.trace == recorded
      else {
        pendingConfirmation = nil
        await send(
          Self.error(
            "that confirmation is not for these files or this recording: save again to be asked anew"
          ))
        return
      }
      confirmed = true
    }
    pendingConfirmation = nil
    do {
      switch try await hub.save(
        recorded, traceName: traceName, sceneName: sceneName, confirmed: confirmed)
      {
      case .saved(let targets, let summary):
        await send(
          Self.object(["type": "saved", "files": targets.map(\.path), "message": summary]))
      case .needsConfirmation(let existing):
        let token = UUID().uuidString
        pendingConfirmation = PendingConfirmation(
          token: token, traceName: traceName, sceneName: sceneName, trace: recorded)
        let names = existing.map { target in
          "'\(target.name)'" + (target.real == target.path ? "" : " (a link to '\(target.real)')")
        }
        await send(
          Self.object([
            "type": "confirm", "token": token, "files": existing.map(\.real),
            "message": names.joined(separator: " and ")
              + (existing.count == 1 ? " exists. Replace it?" : " exist. Replace them?"),
          ]))
      }
    } catch {
      await send(Self.object(["type": "error", "message": error.message]))
    }
  }

  func apply(_ control: PreviewMessage.Control, at now: C.Instant) async {
    // A frame a control makes goes after the state message: a message after a frame
    // makes the frame stale in the page's outbox, and a paused page would never get it.
    var frameAfterState: Frame?
    var stepAfterState = false
    do {
      switch control {
      case .pause: session?.isPaused = true
      case .resume: session?.isPaused = false
      case .toggle: session?.isPaused.toggle()
      case .step:
        session?.isPaused = true
        stepAfterState = true
      case .restart: try session?.restart()
      case .script: try session?.playScript()
      case .record: try session?.startRecording()
      case .stopRecording: session?.stopRecording()
      case .replay: frameAfterState = try session?.replayTake()
      case .showGuides: showsGuides = true
      case .hideGuides: showsGuides = false
      }
    } catch {
      await send(Self.diagnostics(DiagnosticText.render(error)))
    }
    schedule(from: now)
    await sendState()
    if stepAfterState { await makeFrame() }
    if let frameAfterState { await send(frameMessage(frameAfterState)) }
  }

  // MARK: - Frames

  /// The wall-clock time between frames at the session's speed.
  var interval: Duration { .seconds(session?.frameInterval ?? 1.0 / 60) }

  /// The next frame is due now (and the ones after every `interval`).
  func schedule(from now: C.Instant) {
    deadline = now
    lastDue = now
  }

  /// Makes the frame that is due by `now`, if one is; returns when the next is due.
  @discardableResult
  public func tick() async -> C.Instant { await tick(at: clock.now) }

  /// Makes the frame that is due by `now`, if one is; returns when the next is due.
  @discardableResult
  public func tick(at now: C.Instant) async -> C.Instant {
    if waitingTune != nil || waitingSeek != nil || waitingFrames != nil {
      await doWaiting(at: now)
    }
    guard let session, !session.isPaused else { return now.advanced(by: interval) }
    guard now >= deadline else { return deadline }
    await advance(at: now)
    return deadline
  }

  /// Makes the next frame now (on time, or early by at most one interval when input came)
  /// and moves the schedule on by one interval.
  func advance(at now: C.Instant) async {
    if deadline.duration(to: now) > interval * 4 { deadline = now }  // Fell far behind: skip ahead.
    lastDue = deadline
    deadline = deadline.advanced(by: interval)
    await makeFrame()
  }

  /// Whether `text` is a frame message (the only kind a newer one makes stale).
  static func isFrame(_ text: String) -> Bool { text.hasPrefix(framePrefix) }

  static var framePrefix: String { "{\"type\":\"frame\"," }

  func makeFrame() async {
    guard var current = session, context != nil else { return }
    do {
      let frame = try current.frame()
      session = current
      await send(frameMessage(frame))
      if let notice = session?.takeRecordingNotice() {
        await send(Self.object(["type": "notice", "message": notice]))
        await sendState()
      }
    } catch {
      session?.isPaused = true
      await send(Self.diagnostics(DiagnosticText.render(error)))
      await sendState()
    }
  }

  /// Whether the page asked for the scene's guides with each frame.
  var showsGuides = false

  /// A frame's message (counted as sent), with the guides when the page shows them.
  func frameMessage(_ frame: Frame) -> String {
    guard let context else { return Self.object(["type": "frame"]) }
    var entry = TextBytes(capacity: 256)
    entry.append(Self.framePrefix)
    entry.append("\"frame\":")
    SceneJSON.appendFrame(frame, context: context, to: &entry)
    if showsGuides, let guides = session?.guides {
      entry.append(",\"guides\":")
      Self.appendGuides(guides, to: &entry)
    }
    entry.append("}")
    framesSent += 1
    return entry.string
  }

  /// The guides as the page draws them: per handle `h` (its index), `hit` (its grab
  /// radius), `rest`, `bounds` (`[minX, maxX, minY, maxY]`, `null` where open), `snap`
  /// (`[name, x, y]`), `grid` (`[cellX, cellY, originX, originY]`), `detents` and `to` (where
  /// a released handle is going).
  static func appendGuides(_ guides: SceneGuides, to text: inout TextBytes) {
    func number(_ value: Double) {
      if value.isFinite { text.append(value, precision: 3) } else { text.append("null") }
    }
    func point(_ p: Vector) {
      text.append("[")
      number(p.x)
      text.append(",")
      number(p.y)
      text.append("]")
    }
    func named(_ key: String, _ items: [(name: String, point: Vector)]) {
      guard !items.isEmpty else { return }
      text.append(",\"\(key)\":[")
      for (k, item) in items.enumerated() {
        text.append(k == 0 ? "[" : ",[")
        text.appendQuoted(item.name)
        text.append(",")
        number(item.point.x)
        text.append(",")
        number(item.point.y)
        text.append("]")
      }
      text.append("]")
    }
    text.append("[")
    for (k, g) in guides.handles.enumerated() {
      text.append(k == 0 ? "{\"h\":" : ",{\"h\":")
      text.append(String(g.handle))
      if let r = g.hitRadius {
        text.append(",\"hit\":")
        number(r)
      }
      if let rest = g.rest {
        text.append(",\"rest\":")
        point(rest)
      }
      if let b = g.bounds {
        text.append(",\"bounds\":[")
        number(b.minX)
        text.append(",")
        number(b.maxX)
        text.append(",")
        number(b.minY)
        text.append(",")
        number(b.maxY)
        text.append("]")
      }
      named("snap", g.snapPoints)
      if let grid = g.grid {
        text.append(",\"grid\":[")
        number(grid.cell.x)
        text.append(",")
        number(grid.cell.y)
        text.append(",")
        number(grid.origin.x)
        text.append(",")
        number(grid.origin.y)
        text.append("]")
      }
      named("detents", g.detents)
      if let to = g.destination {
        text.append(",\"to\":")
        point(to)
      }
      text.append("}")
    }
    text.append("]")
  }

  func sendState() async {
    guard let session else { return }
    let names = PreviewHub.saveNames(sceneFile: hub.sceneFile)
    await send(
      Self.object([
        "type": "state", "paused": session.isPaused, "speed": session.speed,
        "recording": session.isRecording, "playingScript": session.isPlayingScript,
        "canSave": session.recordedTrace != nil, "inputs": session.inputValues,
        "traceName": names.trace, "sceneName": names.scene,
        "frame": session.nextFrame - 1, "furthest": session.furthestFrame,
        "replaying": session.isReplaying,
      ]))
  }

  // MARK: - Text

  static func sceneMessage(graph: SceneGraph, context: OutputContext?) -> String {
    guard let context else { return object(["type": "scene"]) }
    // Each handle's rest threshold (its spring's), for the band the page's graph draws.
    let thresholds = graph.handles.map { handle in
      handle.spring.map { graph.springs[$0].restThreshold }.map { "\($0)" } ?? "null"
    }
    return "{\"type\":\"scene\",\"scene\":"
      + SceneJSON.header(context: context, frameCount: 0) + "]},\"restThresholds\":["
      + thresholds.joined(separator: ",") + "]}"
  }

  static func diagnostics(_ text: String) -> String {
    object(["type": "diagnostics", "text": text])
  }

  static func error(_ message: String) -> String { object(["type": "error", "message": message]) }

  /// A small JSON object, keys sorted.
  static func object(_ fields: [String: any Sendable]) -> String {
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: fields, options: [.sortedKeys, .fragmentsAllowed])
    else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
  let (s, attoseconds) = duration.components
  return Double(s) + Double(attoseconds) * 1e-18
}

/// How many messages the pages may send.
///
/// At most ``perSecond`` messages a second on average from one page, in bursts of up to
/// ``burst``: a pointer at 240 Hz with several fingers fits; a flood does not. All pages
/// together get at most ``serverPerSecond`` (bursts of ``serverBurst``), so opening many
/// sockets does not multiply the flood.
public enum RateLimit {
  public static let perSecond = 1000.0
  public static let burst = 2000.0
  public static let serverPerSecond = 2000.0
  public static let serverBurst = 4000.0
}

/// A token bucket: `perSecond` tokens a second, at most `burst` saved.
struct RateLimiter<Instant: InstantProtocol> where Instant.Duration == Duration {
  let perSecond: Double
  let burst: Double
  var tokens: Double
  var last: Instant?
  var lastWarning: Instant?

  init(perSecond: Double = RateLimit.perSecond, burst: Double = RateLimit.burst) {
    self.perSecond = perSecond
    self.burst = burst
    tokens = burst
  }

  mutating func allow(at now: Instant) -> Bool {
    if let last, last < now {
      tokens = min(burst, tokens + seconds(last.duration(to: now)) * perSecond)
    }
    if last.map({ $0 < now }) ?? true { last = now }
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }

  /// Whether to tell the page about dropped messages: once a second at most.
  mutating func shouldWarn(at now: Instant) -> Bool {
    if let lastWarning, lastWarning.duration(to: now) < .seconds(1) { return false }
    lastWarning = now
    return true
  }
}

/// The server-wide bucket every page's messages also draw from.
public final class SharedRateLimiter<Instant: InstantProtocol>: @unchecked Sendable
where Instant.Duration == Duration {
  private let lock = NSLock()
  private var limiter: RateLimiter<Instant>

  public init(
    perSecond: Double = RateLimit.serverPerSecond, burst: Double = RateLimit.serverBurst
  ) {
    limiter = RateLimiter(perSecond: perSecond, burst: burst)
  }

  func allow(at now: Instant) -> Bool { lock.withLock { limiter.allow(at: now) } }
}

/// A run-time error as the terminal and the page show it.
enum DiagnosticText {
  static func render(_ error: RuntimeError) -> String {
    DiagnosticRenderer(files: []).render(error.diagnostic)
  }
}
