import Foundation
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneSyntax
import SceneTestSupport
import Testing

@testable import SceneRuntime

/// Loads and resolves a YAML scene for a test.
func graph(_ yaml: String, file: String = "t.yaml", traces: [String: TraceFile] = [:]) throws
  -> SceneGraph
{
  let source = SourceFile(name: file, text: yaml)
  let loaded = SceneLoader.load(source, syntax: .yaml)
  let renderer = DiagnosticRenderer(files: [source])
  let spec = try #require(loaded.spec, "did not load:\n\(renderer.render(loaded.diagnostics))")
  let resolved = SceneResolver.resolve(spec, traces: traces)
  return try #require(
    resolved.graph, "did not resolve:\n\(renderer.render(resolved.errors.map(\.diagnostic)))")
}

func frames(_ yaml: String, fps: Double? = nil) throws -> [Frame] {
  try SceneRunner.frames(of: graph(yaml), fps: fps)
}

func handle(_ frame: Frame, _ name: String) -> HandleFrame? {
  frame.handles.first { $0.name == name }
}

@Suite struct SimulationTests {
  static let wave = """
    scene: { size: 375x300, fps: 60, duration: until-rest }
    let:
      pull: max(drag.dy, 0)
      waveHeight: min(pull * 0.6, 100)
      baseHeight: 50 + pull - waveHeight
    springs:
      wave: { dampingRatio: 0.57, duration: 0.9s }
    handles:
      c:
        position: (pointer.x, baseHeight + waveHeight * 1.36)
        rest: (width / 2, 50)
        spring: wave
    gesture:
      - press: (187.5, 40)
      - drag: { by: [0, 200], over: 0.6s, ease: ease-out }
      - wait: 0.1s
      - release
    expect:
      - at end: all at rest
    """

  /// A frame someone kept does not change when the next is made.
  ///
  /// The simulation updates its frame's arrays in place. Every frame of scenes with segment paths, gooey bridges
  /// that break, and springs is kept, and each is compared with a description of it taken
  /// the moment it was made.
  @Test(arguments: ["sticky-ball", "wave", "metaball-pinch"])
  func keptFramesDoNotChangeLater(scene: String) throws {
    let loaded = try ScenePipeline.load(path: repositoryPath("Scenes/\(scene).yaml"))
    let graph = try #require(loaded.graph, "\(loaded.rendered())")
    var runner = try SceneRunner(graph: graph)
    var kept: [Frame] = []
    var described: [String] = []
    while let frame = try runner.nextFrame() {
      kept.append(frame)
      described.append(String(describing: frame))
    }
    #expect(kept.count > 30)
    #expect(kept.map { String(describing: $0) } == described)
    // And the handles really move: the kept arrays are not frozen either.
    #expect(Set(kept.map { String(describing: $0.handles) }).count > 10)
  }

  @Test func theWaveFollowsThePullThenSpringsBackToFiftyAndOvershoots() throws {
    let run = try frames(Self.wave)
    // While pulled 200 points: baseHeight = 50 + 200 − 100 = 150, c.y = 150 + 136 = 286.
    let pulled = try #require(run.first { abs($0.time - 0.65) < 1e-9 })
    #expect(
      isApproximatelyEqual(
        (handle(pulled, "c")?.y ?? 0), 286, relativeTolerance: 0, absoluteTolerance: 1e-9))
    let last = try #require(run.last)
    #expect(handle(last, "c")?.y == 50)
    #expect(handle(last, "c")?.state == .idle)
    // Damping ratio 0.57 overshoots: c goes above 50 (smaller y) on the way back.
    let lowest = run.compactMap { handle($0, "c")?.y }.min() ?? 0
    #expect(lowest < 50 - 1)
    #expect(run.flatMap(\.namedEvents).contains(NamedEvent("rest", "c")))
    #expect(last.time < 3)
  }

  @Test func runsAreByteForByteDeterministic() throws {
    let a = try frames(Self.wave)
    let b = try frames(Self.wave)
    #expect(a == b)
  }

  @Test func positionsAgreeAcrossFrameRates() throws {
    let runs = try [30.0, 60, 120, 144].map { try frames(Self.wave, fps: $0) }
    // Compare at times every run has: multiples of 1/30 s that are also multiples of 1/144 s.
    for time in stride(from: 0.0, through: 2.5, by: 1.0 / 6) {
      let ys = runs.compactMap { run in
        run.first { abs($0.time - time) < 1e-9 }.flatMap { handle($0, "c")?.y }
      }
      guard ys.count == runs.count else { continue }
      // Pointer events apply at their own times and the spring is solved exactly, so
      // the frame rate changes nothing but rounding.
      #expect((ys.max() ?? 0) - (ys.min() ?? 0) <= 1e-9, "at \(time): \(ys)")
    }
  }

  @Test func grabKeepsTheOffsetAndFollowStaysOnTheCurve() throws {
    let run = try frames(
      """
      scene: { duration: 1.5s }
      springs: { snap: { dampingRatio: 0.8, duration: 0.4s } }
      handles:
        ball: { position: [0, 100], r: 10, draggable: true }
      paths:
        curve: { d: "M0 100 C 100 -50 200 250 300 100" }
      constraints:
        - follow: { handle: ball, path: curve, orient: true, spring: snap }
      gesture:
        - press: [3, 104]
        - drag: { by: [200, 0], over: 0.5s }
        - release
      """)
    let curve = MeasuredPath(try Path(svgPathData: "M0 100 C 100 -50 200 250 300 100"))
    #expect(run[0].namedEvents == [NamedEvent("grab", "ball")])
    for frame in run {
      guard let ball = handle(frame, "ball") else { continue }
      #expect(
        curve.nearest(to: Point(ball.x, ball.y)).distance <= 1e-6, "off the curve at \(frame.time)")
    }
    // Released, it springs back along the curve to where it started.
    let last = try #require(run.last.flatMap { handle($0, "ball") })
    #expect(
      abs(last.x) <= 1e-9
        && isApproximatelyEqual(last.y, 100, relativeTolerance: 0, absoluteTolerance: 1e-9))
  }

  @Test func elasticFollowsAtSevenTenthsAndTweensBackAt900PointsPerSecond() throws {
    let run = try frames(
      """
      scene: { duration: 1s }
      handles:
        badge: { position: [100, 100], r: 20, draggable: true }
      constraints:
        - elastic: { handle: badge }
      gesture:
        - press: [100, 100]
        - drag: { by: [0, 100], over: 0.25s }
        - wait: 0.05s
        - release
      """)
    let held = try #require(
      run.first { abs($0.time - 0.25) < 1e-9 }.flatMap { handle($0, "badge") })
    // 0.7 × 100.
    #expect(isApproximatelyEqual(held.y, 170, relativeTolerance: 0, absoluteTolerance: 1e-9))
    // Released at 0.3 s, 70 points at 900 points/s take 0.0778 s.
    let back = try #require(run.first { abs($0.time - 0.4) < 1e-9 }.flatMap { handle($0, "badge") })
    #expect(back.y == 100 && back.state == .idle)
  }

  @Test func animateMovesAtUniformSpeedAndLoops() throws {
    let run = try frames(
      """
      scene: { duration: 2.5s, fps: 60 }
      handles:
        car: { position: [0, 0], shape: rect, width: 20, height: 10 }
      paths:
        road: { d: "M0 0 L 100 0 Q 200 0 200 100" }
      constraints:
        - animate: { handle: car, path: road, duration: 1s, repeat: loop, orient: true }
      """)
    let road = MeasuredPath(try Path(svgPathData: "M0 0 L 100 0 Q 200 0 200 100"))
    // Equal times, equal distances along the path.
    let quarter = try #require(
      run.first { abs($0.time - 0.25) < 1e-9 }.flatMap { handle($0, "car") })
    let expected = road.position(atLength: road.length / 4).point
    #expect(Point(quarter.x, quarter.y).distance(to: expected) <= 1e-9)
    #expect(run.flatMap(\.namedEvents).filter { $0.type == "loop" }.count == 2)
  }

  @Test func gooeyStretchesBreaksAndDismisses() throws {
    let run = try frames(
      """
      scene: { duration: 1.2s }
      handles:
        anchor: { position: [100, 100], r: 30 }
        ball: { position: [100, 100], r: 30, draggable: true }
      constraints:
        - gooey: { anchor: anchor, ball: ball, viscosity: 10, maxDistance: 150, minRadius: 10, name: link }
      gesture:
        - press: [100, 100]
        - drag: { by: [0, 250], over: 1s }
        - release
      """)
    let events = run.flatMap(\.namedEvents)
    #expect(events.contains(NamedEvent("link.broke", "link")))
    #expect(events.contains(NamedEvent("dismissed", "link")))
    let broke = try #require(
      run.first { $0.namedEvents.contains(NamedEvent("link.broke", "link")) })
    #expect(handle(broke, "anchor")?.state == .hidden)
    for frame in run {
      for h in frame.handles { #expect(h.x.isFinite && h.y.isFinite && h.radius.isFinite) }
    }
    // Before it broke, the anchor shrank with distance: r = 30 − d / 10.
    let early = try #require(run.first { abs($0.time - 0.3) < 1e-9 })
    let d = abs((handle(early, "ball")?.y ?? 0) - 100)
    #expect(
      isApproximatelyEqual(
        (handle(early, "anchor")?.radius ?? 0), (30 - d / 10), relativeTolerance: 0,
        absoluteTolerance: 1e-9))
  }

  @Test func aDegenerateExpressionIsALocatedErrorNotNaN() throws {
    let g = try graph(
      """
      let:
        k: 1 / (time - time)
      handles:
        h: { position: [k, 0] }
      """)
    let failure = runFailure(g)
    #expect(failure?.message == "let 'k' is not a finite number at t = 0 (a division by zero?)")
    #expect(failure?.span?.start.line == 2)
    let bad = try graph(
      """
      let:
        zero: time * 0
      paths:
        p:
          segments:
            - move: (0, 0)
            - line: (1 / zero, 0)
      """)
    let badPath = runFailure(bad)
    #expect(badPath?.message == "path 'p' got a point that is not a finite number at t = 0")
    #expect(badPath?.span?.start.line == 4)
    // A point that goes bad later, at frame 30 of 60 fps, is caught on that frame.
    let later = try graph(
      """
      scene: { fps: 60, duration: 1s }
      paths:
        p:
          segments:
            - move: (0, 0)
            - cubic: ["(1, 1)", "(2, 1 / (time - 0.5))", "(3, 0)"]
            - close
      """)
    let laterPath = runFailure(later)
    #expect(laterPath?.message == "path 'p' got a point that is not a finite number at t = 0.5")
    #expect(laterPath?.span?.start.line == 3)
  }

  /// The error that stops a run of `graph`, or `nil` (recorded as an issue) if it runs.
  func runFailure(_ graph: SceneGraph) -> RuntimeError? {
    do {
      _ = try SceneRunner.frames(of: graph)
      Issue.record("the scene ran to the end")
      return nil
    } catch {
      return error
    }
  }
}

/// Only the slots of handles the frame's own expressions read are written every frame;
/// an expression from elsewhere still sees every handle where it is.
@Suite struct StaleSlotTests {
  static let scene = """
    scene: { fps: 60, duration: 1s }
    handles:
      ball: { position: [100, 100], r: 20, draggable: true }
      pin: { position: [5, 5], r: 4 }
      tag: { position: "(pin.x, pin.y + 10)" }
    constraints:
      - elastic: { handle: ball, resistance: { factor: 1 }, return: { duration: 1s, ease: linear } }
    gesture:
      - press: ball
      - drag: { by: [100, 0], over: 0.2s }
      - release
      - wait: 0.1s
      - press: ball
      - release
    """

  /// A bound handle's node writes its own slots, whether it follows or springs back to
  /// rest: the pass over read handles leaves it out, and what reads it still sees it
  /// where it is.
  @Test func aBoundHandleWritesItsOwnSlots() throws {
    let g = try graph(
      """
      scene: { fps: 60, duration: 1s }
      springs:
        soft: { dampingRatio: 0.7, duration: 0.3s }
      handles:
        lead: { position: "(100 + drag.dx, 100)", rest: [100, 100], spring: soft }
        tail: { position: "(lead.x + 10, lead.y)" }
      gesture:
        - press: [300, 300]
        - drag: { by: [60, 0], over: 0.2s }
        - release
      """)
    let sim = try Simulation(graph: g)
    #expect(sim.handleSlotIsCurrent == [true, false])
    #expect(sim.slotReadHandles.isEmpty)
    let frames = try SceneRunner.frames(of: g)
    let springing = frames.filter { handle($0, "lead")?.state == .settling }
    #expect(springing.count > 10)
    for frame in frames {
      let lead = try #require(handle(frame, "lead"))
      let tail = try #require(handle(frame, "tail"))
      #expect(tail.x == lead.x + 10 && tail.y == lead.y, "frame \(frame.index)")
    }
  }

  @Test func onlyTheHandlesExpressionsReadAreKeptCurrent() throws {
    let g = try graph(Self.scene)
    let sim = try Simulation(graph: g)
    #expect(sim.handleSlotIsCurrent == [false, true, false])
    #expect(sim.slotReadHandles == [1])
  }

  /// The second press is on the ball as it springs back, far from where it started: the
  /// gesture's point must come from where the ball is, not from a slot last written when
  /// the scene began.
  @Test func aPressFindsAHandleNoExpressionReads() throws {
    let run = try SceneRunner.frames(of: graph(Self.scene))
    let grabs = run.flatMap(\.namedEvents).filter { $0 == NamedEvent("grab", "ball") }
    #expect(grabs.count == 2)
  }

  @Test func slotValuesAndValuesSeeEveryHandle() throws {
    let g = try graph(Self.scene)
    var sim = try Simulation(graph: g)
    sim.pointerDown(id: 0, at: Point(100, 100))
    sim.pointerMoved(id: 0, to: Point(170, 130))
    _ = try sim.step(dt: 1.0 / 60)
    sim.pointerUp(id: 0)
    let frame = try sim.step(dt: 1.0 / 60)
    let ball = try #require(handle(frame, "ball"))
    #expect(ball.x > 160)
    let slot = g.layout.handleSlot(0)
    let values = sim.slotValues
    #expect(values[slot] == ball.x && values[slot + 1] == ball.y)
    guard case .press(let point) = g.gesture[0].steps[0].action else {
      Issue.record("the scene's first step is not a press")
      return
    }
    #expect(sim.value(of: point) == Point(ball.x, ball.y))
  }
}

@Suite struct ReplayTests {
  @Test func aRecordedTraceDrivesTheSceneLikeTheScriptedGesture() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try "t,x,y,phase\n0,100,100,down\n0.25,100,200,move\n0.3,100,200,up\n".write(
      to: directory.appendingPathComponent("pull.csv"), atomically: true, encoding: .utf8)
    let sceneFile = directory.appendingPathComponent("scene.yaml").path
    try """
    scene: { duration: 0.5s }
    handles:
      badge: { position: [100, 100], r: 20, draggable: true }
    constraints:
      - elastic: { handle: badge, resistance: { factor: 0.5 } }
    gesture:
      - replay: pull.csv
    """.write(toFile: sceneFile, atomically: true, encoding: .utf8)
    // The one entry point reads the trace beside the scene and binds it to the step.
    let loaded = try ScenePipeline.load(path: sceneFile)
    #expect(loaded.diagnostics.isEmpty)
    let run = try SceneRunner.frames(of: try #require(loaded.graph))
    let held = try #require(
      run.first { abs($0.time - 0.25) < 1e-9 }.flatMap { handle($0, "badge") })
    // Half of the 100-point pull.
    #expect(isApproximatelyEqual(held.y, 150, relativeTolerance: 0, absoluteTolerance: 1e-9))
    #expect(run.flatMap(\.namedEvents).map(\.type).prefix(2) == ["grab", "release"])
  }

  @Test func aMissingTraceIsReportedAtItsStep() throws {
    let spec = try #require(
      SceneLoader.load(
        SourceFile(name: "/tmp/x.yaml", text: "gesture:\n  - replay: nowhere.csv\n"), syntax: .yaml
      ).spec)
    let loaded = TraceLoader.load(for: spec.gesture, sceneFile: "/tmp/x.yaml")
    let diagnostic = try #require(loaded.diagnostics.first)
    #expect(
      diagnostic.message == "cannot read the trace 'nowhere.csv' (looked for /tmp/nowhere.csv)")
    #expect(diagnostic.span?.start.line == 2)
  }
}

@Suite struct SyntaxTwinRunTests {
  /// The DSL twin of a scene runs to exactly the same frames as its YAML.
  @Test func yamlAndDSLScenesRunIdentically() throws {
    let dsl = """
      scene size=375x300 fps=60 duration=until-rest
      let pull = max(drag.dy, 0)
      let waveHeight = min(pull * 0.6, 100)
      let baseHeight = 50 + pull - waveHeight
      spring wave dampingRatio=0.57 duration=0.9s
      handle c position=(pointer.x, baseHeight + waveHeight * 1.36) rest=(width / 2, 50) spring=wave
      gesture
        press (187.5, 40)
        drag by=(0, 200) over=0.6s ease=ease-out
        wait 0.1s
        release
      expect at end: all at rest
      """
    let source = SourceFile(name: "t.scene", text: dsl)
    let spec = try #require(SceneLoader.load(source, syntax: .dsl).spec)
    let dslGraph = try #require(SceneResolver.resolve(spec).graph)
    #expect(try SceneRunner.frames(of: dslGraph) == frames(SimulationTests.wave))
  }

  @Test func eventsComeInTheOrderTheyHappen() throws {
    let run = try frames(
      """
      scene: { duration: 2s }
      springs: { s: { dampingRatio: 1, duration: 0.3s } }
      handles:
        a: { position: [0, 0], r: 30 }
        b: { position: [0, 0], r: 30, draggable: true }
      constraints:
        - gooey: { anchor: a, ball: b, viscosity: 10, maxDistance: 200, minRadius: 5, spring: s, name: link }
      gesture:
        - press: [0, 0]
        - drag: { by: [80, 0], over: 0.3s }
        - release
      """)
    let types = run.flatMap(\.namedEvents).map(\.type)
    #expect(types == ["grab", "release", "rest", "link.restored"])
  }
}

@Suite struct PointerTests {
  @Test func releaseVelocityIsEstimatedFromTheLast100Milliseconds() throws {
    let run = try frames(
      """
      scene: { duration: 0.8s }
      handles:
        meter: { position: "(velocity.x, velocity.y)" }
      gesture:
        - press: [0, 0]
        - drag: { by: [0, 100], over: 0.5s }
        - release
      """)
    // A steady 200 points per second at the release.
    let after = try #require(
      run.first { abs($0.time - 0.6) < 1e-9 }.flatMap { handle($0, "meter") })
    #expect(
      isApproximatelyEqual(after.y, 200, relativeTolerance: 0, absoluteTolerance: 1e-6)
        && abs(after.x) <= 1e-9)
  }

  @Test func twoPointersGrabTwoHandles() throws {
    let run = try frames(
      """
      scene: { duration: 0.5s }
      handles:
        a: { position: [0, 0], r: 10, draggable: true }
        b: { position: [100, 0], r: 10, draggable: true }
      gesture:
        0: [ { press: a }, { drag: { by: [0, 50], over: 0.2s } } ]
        1: [ { press: b }, { drag: { by: [0, -50], over: 0.2s } } ]
      """)
    let last = try #require(run.last)
    #expect(handle(last, "a")?.y == 50 && handle(last, "b")?.y == -50)
    #expect(last.pointers.map(\.id) == [0, 1])
  }

  /// A lifted finger stays in every frame (the contract lists every pointer seen), but
  /// costs nothing a frame: the list is remade only after a pointer changes, and a press
  /// finds its place among the others by binary search, whatever order the ids come in.
  @Test func liftedFingersAreListedButNotRemadeEachFrame() throws {
    var yaml = "scene: { size: 3000x3000, fps: 60, duration: 10s }\nhandles:\n"
    for i in 0..<300 {
      yaml +=
        "  h\(i): { position: [\(i % 20 * 100 + 50), \(i / 20 * 100 + 50)], r: 10, draggable: true }\n"
    }
    var simulation = try Simulation(graph: graph(yaml))
    // Ids in a scrambled order (137 is prime to 300), each finger grabbing its own handle
    // and letting go.
    let ids = (0..<300).map { $0 * 137 % 300 }
    for (k, id) in ids.enumerated() {
      let at = Point(Double(k % 20 * 100 + 50), Double(k / 20 * 100 + 50))
      simulation.pointerDown(id: id, at: at)
      #expect(simulation.pointerIsDown(id: id))
      simulation.pointerMoved(id: id, to: at + Vector(5, 5))
      simulation.pointerUp(id: id, velocity: .zero)
      #expect(!simulation.pointerIsDown(id: id))
    }
    #expect(simulation.heldHandles.isEmpty && simulation.pointersDown == 0)
    let first = try simulation.step(to: 1.0 / 60)
    #expect(first.pointers.map(\.id) == Array(0..<300))
    #expect(first.pointers.allSatisfy { !$0.isDown })
    let made = simulation.pointerFramesMade
    var last = first
    for frame in 2...120 { last = try simulation.step(to: Double(frame) / 60) }
    #expect(simulation.pointerFramesMade == made)
    #expect(last.pointers == first.pointers)
    // A finger that moves again is shown where it went, in the very next frame.
    simulation.pointerMoved(id: 7, to: Point(1, 2))
    let moved = try simulation.step(to: 121.0 / 60)
    #expect(simulation.pointerFramesMade == made + 1)
    #expect(moved.pointers[7] == PointerFrame(id: 7, x: 1, y: 2, isDown: false))
  }

  /// A handle held by one finger cannot be grabbed by another; a finger pressed anew
  /// while down lets go of what it held, which another finger can then take.
  @Test func aHeldHandleIsTakenOnlyOnceItIsLetGo() throws {
    let yaml = """
      scene: { size: 400x300, fps: 60, duration: 1s }
      handles:
        a: { position: [100, 100], r: 20, draggable: true }
      """
    var simulation = try Simulation(graph: graph(yaml))
    simulation.pointerDown(id: 1, at: Point(100, 100))
    simulation.pointerDown(id: 2, at: Point(100, 100))
    #expect(simulation.heldHandles == [0])
    simulation.pointerMoved(id: 2, to: Point(150, 100))
    _ = try simulation.step(to: 1.0 / 60)
    #expect(simulation.handles[0].position == Vector(100, 100))
    // Finger 1 presses elsewhere without lifting: the handle is free again.
    simulation.pointerDown(id: 1, at: Point(300, 250))
    #expect(simulation.heldHandles.isEmpty)
    simulation.pointerDown(id: 2, at: Point(100, 100))
    simulation.pointerMoved(id: 2, to: Point(150, 100))
    _ = try simulation.step(to: 2.0 / 60)
    #expect(simulation.heldHandles == [0])
    #expect(simulation.handles[0].position == Vector(150, 100))
  }
}

/// A scene's plan is made once and serves every run of it: runs from one plan give the
/// frames a run from the graph gives, to the bit, and do not disturb each other.
@Suite struct SimulationPlanTests {
  @Test func runsOfOnePlanAreRunsOfTheScene() throws {
    let scene = try graph(SimulationTests.wave)
    let plan = SimulationPlan(graph: scene)
    let fromGraph = try SceneRunner.frames(of: scene)
    var first = try SceneRunner(plan: plan)
    var second = try SceneRunner(plan: plan)
    var a: [Frame] = []
    var b: [Frame] = []
    // Interleaved: one run's steps leave the other's state alone.
    while let frame = try first.nextFrame() {
      a.append(frame)
      if let other = try second.nextFrame() { b.append(other) }
    }
    while let other = try second.nextFrame() { b.append(other) }
    #expect(a == fromGraph && b == fromGraph)
    #expect(fromGraph.count > 30)
  }
}
