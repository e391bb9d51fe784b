import SceneGeometry
import SceneGraph
import SceneResolve
import SceneSyntax
import SceneTestSupport
import SceneVocabulary
import Testing

@testable import SceneRuntime

@Suite struct GesturePlayerTests {
  /// A finished track costs nothing: the player stops visiting it.
  ///
  /// Counted: the tracks left to visit after each frame.
  @Test func finishedTracksAreNoLongerVisited() {
    // 100 fingers; finger k presses at once and lifts after k hundredths of a second.
    let tracks = (0..<100).map { k in
      Self.track(
        k,
        [
          .press(Self.point(Double(k), 0)), .wait(Self.seconds(Double(k) / 100)),
          .release(velocity: nil),
        ])
    }
    var player = GesturePlayer(tracks: Self.resolved(tracks))
    var left: [Int] = []
    for frame in 0...120 {
      _ = player.events(through: Double(frame) / 100, evaluate: Self.constant)
      left.append(player.unfinishedCount)
    }
    #expect(left.first == 99 && left[50] == 49 && left[99] == 0 && left.last == 0)
    #expect(player.isFinished)
  }

  /// Fingers that go down or up together between two frames make one moment: each
  /// moving finger is asked where it is once, not once for every other finger's event.
  ///
  /// Counted: the places asked. 200 fingers each drag for 0.2 s and lift, and 200 others
  /// press halfway through, at 0.1 s: two moments (0.1 s and 0.2 s, both between frames),
  /// 200 moving fingers, 400 places; one per event and finger would be 160,000.
  @Test func fingersMeetAtEachMomentOnce() {
    let draggers = (0..<200).map { k in
      Self.track(
        k,
        [
          .press(Self.point(Double(k), 0)), Self.drag(by: 10, 0, over: 0.2),
          .release(velocity: nil),
        ])
    }
    let pressers = (200..<400).map { k in
      Self.track(k, [.wait(Self.seconds(0.1)), .press(Self.point(Double(k), 50))])
    }
    var player = GesturePlayer(tracks: Self.resolved(draggers + pressers))
    var events: [PointerEvent] = []
    for frame in 0...3 {
      events += player.events(through: Double(frame) * 0.07, evaluate: Self.constant)
    }
    #expect(player.placesAsked == 400)
    // Each dragging finger moved to its place at 0.1 s before the presses there.
    let atMoment = events.filter { abs($0.time - 0.1) < 1e-12 }
    #expect(atMoment.count == 400)
    #expect(atMoment.prefix(200).allSatisfy { if case .move = $0.phase { true } else { false } })
  }

  // MARK: - Building scripts

  static func point(_ x: Double, _ y: Double) -> Expression {
    Expression(.point(Expression(.number(x, nil)), Expression(.number(y, nil))))
  }

  static func name(_ name: String) -> Expression { Expression(.identifier(name)) }

  static func seconds(_ value: Double) -> Located<Double> { Located(value) }

  static func track(_ pointer: Int, _ steps: [GestureStep.Kind]) -> GestureTrack {
    GestureTrack(pointer: Located(pointer), steps: steps.map { GestureStep($0) })
  }

  static func track(_ steps: [GestureStep.Kind]) -> GestureTrack { track(0, steps) }

  static func drag(by x: Double, _ y: Double, over: Double? = nil, ease: Easing? = nil)
    -> GestureStep.Kind
  {
    .drag(.by(point(x, y)), duration: over.map(seconds), easing: ease.map { Located($0) })
  }

  /// Evaluates the constant points `(x, y)` of these scripts; a name is not constant.
  static func constant(_ expression: CompiledExpression) -> Vector {
    guard let value = expression.constantValue else { return Vector(.nan, .nan) }
    return Vector(value.x, value.y)
  }

  /// The names the scripts may use: handles `start` and `handle`, in that order.
  static let handleNames = ["start", "handle"]

  /// The graph's tracks for scripts written as syntax, through the real resolver (so step
  /// times, defaults and traces are bound exactly as for a scene).
  static func resolved(_ tracks: [GestureTrack], traces: [String: TraceFile] = [:])
    -> [SceneGraph.GestureTrack]
  {
    let spec = SceneSpec(
      handles: handleNames.map { HandleSpec(name: Located($0), position: point(0, 0)) },
      gesture: tracks)
    let result = SceneResolver.resolve(spec, traces: traces)
    #expect(result.errors.isEmpty, "\(result.errors)")
    return result.graph?.gesture ?? []
  }

  /// The handle a compiled name reads (by its slots), for scripts that use names.
  static func handleName(of expression: CompiledExpression) -> String? {
    let layout = SlotLayout(letCount: 0, handleCount: handleNames.count)
    return handleNames.indices.first { expression.dependencies.contains(layout.handleSlot($0)) }
      .map { handleNames[$0] }
  }

  /// Plays `tracks` as the runtime does: one call per frame at n / fps, up to `until`.
  static func play(
    _ tracks: [GestureTrack], traces: [String: TraceFile] = [:], fps: Double, until: Double
  ) -> [PointerEvent] {
    var player = GesturePlayer(tracks: resolved(tracks, traces: traces))
    var events: [PointerEvent] = []
    var n = 0
    while Double(n) / fps <= until {
      events += player.events(through: Double(n) / fps, evaluate: constant)
      n += 1
    }
    return events
  }

  static func down(_ t: Double, _ p: Vector, _ pointer: Int = 0) -> PointerEvent {
    PointerEvent(time: t, pointer: pointer, phase: .down, position: p)
  }

  static func move(_ t: Double, _ p: Vector, _ pointer: Int = 0) -> PointerEvent {
    PointerEvent(time: t, pointer: pointer, phase: .move, position: p)
  }

  static func up(_ t: Double, _ p: Vector, _ v: Vector? = nil, _ pointer: Int = 0) -> PointerEvent {
    PointerEvent(time: t, pointer: pointer, phase: .up(velocity: v), position: p)
  }

  // MARK: - Frame rates

  /// press (100, 100); drag by (60, 0) over 0.1 s; wait 0.1 s; release.
  static let script = [
    track([
      .press(point(100, 100)), drag(by: 60, 0, over: 0.1), .wait(seconds(0.1)),
      .release(velocity: nil),
    ])
  ]

  /// Where the linear drag of ``script`` is at `t`: the tween's own arithmetic.
  static func dragged(_ t: Double) -> Vector { Vector(100 + 60 * (t / 0.1), 100 + 0 * (t / 0.1)) }

  @Test func scriptAt60fps() {
    let events = Self.play(Self.script, fps: 60, until: 0.5)
    let moves = (1...5).map { n in Self.move(Double(n) / 60, Self.dragged(Double(n) / 60)) }
    #expect(
      events
        == [Self.down(0, Vector(100, 100))] + moves + [
          Self.move(0.1, Vector(160, 100)),  // 6/60 is the drag's end, exactly.
          // Held still for the last 100 ms: the script's own motion says zero.
          Self.up(0.2, Vector(160, 100), .zero),
        ])
  }

  @Test func scriptAt30fps() {
    let events = Self.play(Self.script, fps: 30, until: 0.5)
    #expect(
      events == [
        Self.down(0, Vector(100, 100)),
        Self.move(1 / 30, Self.dragged(1 / 30)),
        Self.move(2 / 30, Self.dragged(2 / 30)),
        Self.move(0.1, Vector(160, 100)),
        Self.up(0.2, Vector(160, 100), .zero),
      ])
  }

  @Test func frameRatesAgreeAtSharedTimes() {
    let script = [
      Self.track([
        .press(Self.point(10, 20)), Self.drag(by: 90, -45, over: 0.35, ease: .easeInOut),
        .wait(Self.seconds(0.05)),
        .fling(.to(Self.point(0, 0)), duration: nil, velocity: Self.point(-900, 0)),
      ])
    ]
    let fast = Self.play(script, fps: 60, until: 1)
    let slow = Self.play(script, fps: 30, until: 1)
    let fastMoves = Dictionary(
      fast.filter { $0.phase == .move }.map { ($0.time, $0) }, uniquingKeysWith: { _, last in last }
    )
    var shared = 0
    for event in slow where event.phase == .move {
      guard let other = fastMoves[event.time] else { continue }
      #expect(other == event)
      shared += 1
    }
    #expect(shared == slow.filter { $0.phase == .move }.count)
    // The step ends fall between frames at both rates and are played at their own times.
    #expect(fast.last == slow.last)
    #expect(slow.last == Self.up(0.35 + 0.05 + 0.1, Vector(0, 0), Vector(-900, 0)))
  }

  // MARK: - Steps

  @Test func easingIsAppliedToDrags() {
    let script = [
      Self.track([.press(Self.point(0, 0)), Self.drag(by: 100, 0, over: 0.5, ease: .easeIn)])
    ]
    let events = Self.play(script, fps: 60, until: 1)
    let curve = TimingCurve(.easeIn)
    let moves = events.filter { $0.phase == .move }
    #expect(moves.count == 30)
    for event in moves {
      let p = curve.value(at: event.time / 0.5)
      #expect(
        event.position == Vector(100 * p, 0 * p) || (p == 1 && event.position == Vector(100, 0)))
    }
    // Ease-in starts slowly: a fifth of the time covers well under a fifth of the way.
    #expect(moves[5].time == 0.1 && moves[5].position.x < 10)
    #expect(moves.last == Self.move(0.5, Vector(100, 0)))
  }

  @Test func targetsAreEvaluatedWhenTheirStepStarts() {
    // A handle that moves while the finger drags towards it.
    var handle = Vector(200, 0)
    var calls: [String] = []
    var player = GesturePlayer(
      tracks: Self.resolved([
        Self.track([
          .wait(Self.seconds(0.01)),
          .press(Self.name("start")),
          .drag(.to(Self.name("handle")), duration: Self.seconds(0.2), easing: nil),
          .drag(.to(Self.name("handle")), duration: Self.seconds(0.1), easing: nil),
        ])
      ]))
    func evaluate(_ expression: CompiledExpression) -> Vector {
      guard let name = Self.handleName(of: expression) else { return .zero }
      calls.append(name)
      return name == "handle" ? handle : Vector(100, 0)
    }
    #expect(player.events(through: 0, evaluate: evaluate) == [])
    #expect(calls.isEmpty)
    // The press starts at 0.01, between frames: evaluated at the next frame, played at 0.01.
    let first = player.events(through: 1 / 60, evaluate: evaluate)
    #expect(calls == ["start", "handle"])
    #expect(first[0] == Self.down(0.01, Vector(100, 0)))
    #expect(first.count == 2 && first[1].time == 1 / 60)
    handle = Vector(300, 0)
    var n = 2
    var events: [PointerEvent] = []
    while Double(n) / 60 <= 0.5 {
      events += player.events(through: Double(n) / 60, evaluate: evaluate)
      n += 1
    }
    // The first drag went where the handle was at its start; the second where it was at its.
    #expect(calls == ["start", "handle", "handle"])
    // Step times add up exactly: 0.01 + 0.2 is 0.21, not 0.21000000000000002.
    #expect(events.contains(Self.move(0.21, Vector(200, 0))))
    #expect(events.last == Self.move(0.31, Vector(300, 0)))
    #expect(player.isFinished)
  }

  @Test func twoPointersPlayTogether() {
    let tracks = [
      Self.track(
        0, [.press(Self.point(0, 0)), Self.drag(by: -50, 0, over: 0.05), .release(velocity: nil)]),
      Self.track(
        1,
        [
          .press(Self.point(100, 0)), Self.drag(by: 50, 0, over: 0.05), .wait(Self.seconds(0.05)),
          .release(velocity: nil),
        ]
      ),
    ]
    let events = Self.play(tracks, fps: 60, until: 0.2)
    #expect(
      events == [
        Self.down(0, Vector(0, 0), 0),
        Self.down(0, Vector(100, 0), 1),
        Self.move(1 / 60, Vector(-50 * ((1 / 60) / 0.05), 0), 0),
        Self.move(1 / 60, Vector(100 + 50 * ((1 / 60) / 0.05), 0), 1),
        Self.move(2 / 60, Vector(-50 * ((2 / 60) / 0.05), 0), 0),
        Self.move(2 / 60, Vector(100 + 50 * ((2 / 60) / 0.05), 0), 1),
        // 3/60 is the drags' end: track 0 moves and lifts, then track 1 moves.
        // Each lifts with the mean velocity of its own script over the last 100 ms (or
        // since its press): 50 points in 0.05 s, and 50 points in 0.1 s.
        Self.move(0.05, Vector(-50, 0), 0),
        Self.up(0.05, Vector(-50, 0), Vector(-1000, 0), 0),
        Self.move(0.05, Vector(150, 0), 1),
        Self.up(0.1, Vector(150, 0), Vector(500, 0), 1),
      ])
    var player = GesturePlayer(tracks: Self.resolved(tracks))
    #expect(player.endTime == 0.1)
    #expect(GesturePlayer.duration(of: Self.resolved(tracks)) == 0.1)
    _ = player.events(through: 0.05, evaluate: Self.constant)
    #expect(!player.isFinished)
    _ = player.events(through: 0.1, evaluate: Self.constant)
    #expect(player.isFinished)
  }

  @Test func tap() {
    let events = Self.play(
      [Self.track([.tap(Self.point(10, 20)), .wait(Self.seconds(0.5)), .tap(Self.point(30, 40))])],
      fps: 60,
      until: 1)
    #expect(
      events == [
        Self.down(0, Vector(10, 20)), Self.up(0, Vector(10, 20), .zero),
        Self.down(0.5, Vector(30, 40)), Self.up(0.5, Vector(30, 40), .zero),
      ])
  }

  @Test func flingKeepsItsVelocity() {
    let tracks = [
      Self.track([
        .press(Self.point(0, 0)),
        .fling(.by(Self.point(40, 0)), duration: nil, velocity: Self.point(800, 0)),
        .press(Self.point(0, 0)),
        .fling(.to(Self.point(0, 90)), duration: Self.seconds(0), velocity: nil),
      ])
    ]
    let events = Self.play(tracks, fps: 60, until: 1)
    #expect(
      events == [
        Self.down(0, .zero),
        Self.move(1 / 60, Vector(40 * ((1 / 60) / 0.1), 0)),
        Self.move(2 / 60, Vector(40 * ((2 / 60) / 0.1), 0)),
        Self.move(3 / 60, Vector(40 * ((3 / 60) / 0.1), 0)),
        Self.move(4 / 60, Vector(40 * ((4 / 60) / 0.1), 0)),
        Self.move(5 / 60, Vector(40 * ((5 / 60) / 0.1), 0)),
        Self.move(0.1, Vector(40, 0)),
        Self.up(0.1, Vector(40, 0), Vector(800, 0)),
        // A fling over 0 s jumps in no time after the press: no time to measure a speed in.
        Self.down(0.1, .zero),
        Self.move(0.1, Vector(0, 90)),
        Self.up(0.1, Vector(0, 90), .zero),
      ])
  }

  @Test func releaseWithAndWithoutVelocity() {
    let tracks = [
      Self.track([
        .press(Self.point(5, 5)), .release(velocity: Self.point(300, -200)),
        .press(Self.point(6, 6)), .release(velocity: nil),
      ])
    ]
    #expect(
      Self.play(tracks, fps: 60, until: 0) == [
        Self.down(0, Vector(5, 5)), Self.up(0, Vector(5, 5), Vector(300, -200)),
        Self.down(0, Vector(6, 6)), Self.up(0, Vector(6, 6), .zero),
      ])
  }

  /// An eased drag released at once lifts with the mean velocity of the script's own
  /// motion over the last 100 ms, the same at every frame rate (it was estimated from
  /// frame-sampled positions, so it changed with fps).
  @Test(arguments: [30.0, 60, 120, 144])
  func releaseVelocityIsTheScriptsOwn(fps: Double) {
    let tracks = [
      Self.track([
        .press(Self.point(0, 0)), Self.drag(by: 100, 0, over: 0.3, ease: .easeOut),
        .release(velocity: nil),
      ])
    ]
    let curve = TimingCurve(.easeOut)
    let expected = (100 * curve.value(at: 1) - 100 * curve.value(at: 0.2 / 0.3)) / 0.1
    let up = Self.play(tracks, fps: fps, until: 1).last
    #expect(up?.time == 0.3)
    guard case .up(let velocity?)? = up?.phase else {
      Issue.record("no release velocity")
      return
    }
    #expect(
      isApproximatelyEqual(
        velocity.x, expected, relativeTolerance: 0, absoluteTolerance: 1e-9 * expected)
        && velocity.y == 0)
  }

  /// `tap, wait 0.1s, tap, wait 50ms, press` presses at exactly 0.15 s: frame 9 at 60 fps
  /// (0.1 + 0.05 in floating point is just past 0.15, which played it at frame 10).
  @Test func stepTimesAddUpExactly() {
    let tracks = [
      Self.track([
        .tap(Self.point(1, 1)), .wait(Self.seconds(0.1)), .tap(Self.point(2, 2)),
        .wait(Self.seconds(0.05)),
        .press(Self.point(3, 3)),
      ])
    ]
    var player = GesturePlayer(tracks: Self.resolved(tracks))
    #expect(player.endTime == 0.15 && player.endTime == 9.0 / 60)
    var frameOfPress: Int?
    for n in 0...20 where frameOfPress == nil {
      if player.events(through: Double(n) / 60, evaluate: Self.constant).contains(
        Self.down(0.15, Vector(3, 3)))
      {
        frameOfPress = n
      }
    }
    #expect(frameOfPress == 9)
  }

  @Test func moveHoversLikeADragAndPositionCarries() {
    let tracks = [
      Self.track([
        .move(.to(Self.point(10, 0)), duration: Self.seconds(0), easing: nil),
        Self.drag(by: 5, 5, over: 0), .press(Self.point(1, 1)), Self.drag(by: 2, 2, over: 0),
      ])
    ]
    #expect(
      Self.play(tracks, fps: 60, until: 0) == [
        Self.move(0, Vector(10, 0)), Self.move(0, Vector(15, 5)),
        Self.down(0, Vector(1, 1)), Self.move(0, Vector(3, 3)),
      ])
    // Before any press or motion the pointer is at the origin.
    #expect(
      Self.play(
        [Self.track([Self.drag(by: 1, 2, over: 0), .release(velocity: nil)])], fps: 60, until: 0)
        == [
          Self.move(0, Vector(1, 2)), Self.up(0, Vector(1, 2)),
        ])
  }

  // MARK: - Replay

  /// Down at (0, 0), moves to (10, 0) and (30, 0), up there: on the recording's clock at 2 s.
  static let trace = TraceFile(samples: [
    .init(time: 2, position: Vector(0, 0), phase: .down),
    .init(time: 2.0625, position: Vector(10, 0), phase: .move),
    .init(time: 2.125, position: Vector(30, 0), phase: .move),
    .init(time: 2.1875, position: Vector(30, 0), phase: .up),
  ])

  @Test func replayIsResampledAtTheTimesAsked() {
    let tracks = [
      Self.track([
        .wait(Self.seconds(0.25)), .replay(Located("swipe.csv")), Self.drag(by: 0, 10, over: 0),
      ])
    ]
    let events = Self.play(tracks, traces: ["swipe.csv": Self.trace], fps: 60, until: 1)
    // Shifted to start at 0.25 (frame 15): samples at 0.25, 0.3125, 0.375, 0.4375.
    func between(_ t: Double, _ a: Double, _ p: Vector, _ b: Double, _ q: Vector) -> PointerEvent {
      Self.move(t, p.interpolate(to: q, amount: (t - a) / (b - a)))
    }
    let (p0, p1, p2) = (Vector(0, 0), Vector(10, 0), Vector(30, 0))
    #expect(
      events == [
        Self.down(0.25, p0),
        between(16 / 60, 0.25, p0, 0.3125, p1),
        between(17 / 60, 0.25, p0, 0.3125, p1),
        between(18 / 60, 0.25, p0, 0.3125, p1),
        between(19 / 60, 0.3125, p1, 0.375, p2),
        between(20 / 60, 0.3125, p1, 0.375, p2),
        between(21 / 60, 0.3125, p1, 0.375, p2),
        between(22 / 60, 0.3125, p1, 0.375, p2),
        between(23 / 60, 0.375, p2, 0.4375, p2),
        between(24 / 60, 0.375, p2, 0.4375, p2),
        between(25 / 60, 0.375, p2, 0.4375, p2),
        between(26 / 60, 0.375, p2, 0.4375, p2),
        // The up at the trace's end, between frames 26 and 27; the step ends there.
        Self.up(0.4375, p2),
        Self.move(0.4375, Vector(30, 10)),
      ])
    #expect(
      GesturePlayer.duration(of: Self.resolved(tracks, traces: ["swipe.csv": Self.trace])) == 0.4375
    )
    // Asked exactly at a sample, the move is the sample itself.
    var player = GesturePlayer(tracks: Self.resolved(tracks, traces: ["swipe.csv": Self.trace]))
    _ = player.events(through: 0.25, evaluate: Self.constant)
    #expect(player.events(through: 0.3125, evaluate: Self.constant) == [Self.move(0.3125, p1)])
  }

  @Test func replayOfSeveralFingersOffsetsTheirIds() {
    let pinch = TraceFile(samples: [
      .init(time: 0, position: Vector(0, 0), phase: .down, pointer: 0),
      .init(time: 0, position: Vector(100, 0), phase: .down, pointer: 1),
      .init(time: 0.5, position: Vector(-10, 0), phase: .move, pointer: 0),
      .init(time: 0.5, position: Vector(110, 0), phase: .move, pointer: 1),
      .init(time: 0.75, position: Vector(-10, 0), phase: .up, pointer: 0),
      .init(time: 1, position: Vector(120, 0), phase: .up, pointer: 1),
    ])
    var player = GesturePlayer(
      tracks: Self.resolved([Self.track(2, [.replay(Located("pinch"))])], traces: ["pinch": pinch]))
    #expect(player.endTime == 1)
    #expect(
      player.events(through: 0.25, evaluate: Self.constant) == [
        Self.down(0, Vector(0, 0), 2), Self.down(0, Vector(100, 0), 3),
        Self.move(0.25, Vector(-5, 0), 2), Self.move(0.25, Vector(105, 0), 3),
      ])
    #expect(
      player.events(through: 0.875, evaluate: Self.constant) == [
        Self.up(0.75, Vector(-10, 0), nil, 2), Self.move(0.875, Vector(117.5, 0), 3),
      ])
    #expect(!player.isFinished)
    #expect(
      player.events(through: 5, evaluate: Self.constant) == [Self.up(1, Vector(120, 0), nil, 3)])
    #expect(player.isFinished)
  }

  @Test func missingTraceIsEmpty() {
    let tracks = [Self.track([.replay(Located("gone.csv")), .tap(Self.point(1, 1))])]
    #expect(GesturePlayer(tracks: Self.resolved(tracks)).endTime == 0)
    #expect(
      Self.play(tracks, fps: 60, until: 0.1) == [
        Self.down(0, Vector(1, 1)), Self.up(0, Vector(1, 1), .zero),
      ])
  }

  // MARK: - Robustness

  @Test func repeatedBackwardAndNaNTimesReturnNothing() {
    var player = GesturePlayer(tracks: Self.resolved(Self.script))
    #expect(player.events(through: 0.05, evaluate: Self.constant).count == 2)
    #expect(player.events(through: 0.05, evaluate: Self.constant) == [])
    #expect(player.events(through: 0.01, evaluate: Self.constant) == [])
    #expect(player.events(through: .nan, evaluate: Self.constant) == [])
    #expect(player.events(through: -1, evaluate: Self.constant) == [])
    #expect(
      player.events(through: .infinity, evaluate: Self.constant) == [
        Self.move(0.1, Vector(160, 100)), Self.up(0.2, Vector(160, 100), .zero),
      ])
    #expect(player.isFinished)
    #expect(player.events(through: .infinity, evaluate: Self.constant) == [])
  }

  @Test func stepLengthsAreWholeMicrosecondsAndNeverNegativeOrEndless() {
    // The resolver refuses these with an error first; the rule itself never traps.
    #expect(SceneGraph.GestureTiming.microseconds(-1) == 0)
    #expect(SceneGraph.GestureTiming.microseconds(.nan) == 0)
    #expect(SceneGraph.GestureTiming.microseconds(.infinity) == 0)
    #expect(SceneGraph.GestureTiming.microseconds(1e300) == 86_400_000_000)
    #expect(
      SceneGraph.GestureTiming.microseconds(0.1) + SceneGraph.GestureTiming.microseconds(0.05)
        == 150_000)
    // Zero-length motions all land at once.
    let tracks = [
      Self.track([
        .press(Self.point(0, 0)), Self.drag(by: 10, 0, over: 0), Self.drag(by: 10, 0, over: 0),
      ])
    ]
    #expect(GesturePlayer(tracks: Self.resolved(tracks)).endTime == 0)
    #expect(
      Self.play(tracks, fps: 60, until: 0) == [
        Self.down(0, .zero), Self.move(0, Vector(10, 0)), Self.move(0, Vector(20, 0)),
      ])
  }

  @Test func noTracksIsFinishedAtOnce() {
    var player = GesturePlayer(tracks: [])
    #expect(player.isFinished && player.endTime == 0)
    #expect(player.events(through: 1, evaluate: Self.constant) == [])
    #expect(
      GesturePlayer.duration(
        of: Self.resolved([Self.track([]), Self.track(1, [.wait(Self.seconds(2))])])) == 2)
  }

  @Test func eventsDescribeThemselves() {
    #expect(Self.up(0.5, Vector(1, 2), Vector(3, 0), 1).description == "0.5 #1 up (1, 2) v=(3, 0)")
    #expect(Self.move(0.25, Vector(1, 2)).description == "0.25 #0 move (1, 2)")
  }
}
