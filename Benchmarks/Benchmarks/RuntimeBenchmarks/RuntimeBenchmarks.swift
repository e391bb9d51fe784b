import Benchmark
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneStress
import SceneSyntax

/// The scene graph of `scene`, or a crash with the scene's diagnostics: a benchmark of a
/// scene that does not load would measure nothing.
func graph(of text: String) -> SceneGraph {
  let loaded = SceneLoader.load(SourceFile(name: "stress.yaml", text: text), syntax: .yaml)
  guard let spec = loaded.spec, !loaded.hasErrors, let graph = SceneResolver.resolve(spec).graph
  else {
    fatalError(
      "the benchmark scene does not load:\n\(DiagnosticRenderer(files: loaded.file.map { [$0] } ?? []).render(loaded.diagnostics))"
    )
  }
  return graph
}

/// `count` handles animated along one path at uniform arc-length speed, looping.
func animatedScene(handles count: Int) -> String {
  var yaml = """
    scene: { size: 2000x2000, fps: 60, duration: 10s }
    paths:
      road: { d: "M0 0 C 500 -300 700 900 1200 400 S 1800 100 1900 1900" }
    handles:

    """
  for i in 0..<count { yaml += "  h\(i): { position: [\(i % 40 * 50), \(i / 40 * 50)], r: 4 }\n" }
  yaml += "constraints:\n"
  for i in 0..<count {
    yaml +=
      "  - animate: { handle: h\(i), path: road, duration: \(2 + i % 7)s, repeat: loop, orient: true }\n"
  }
  return yaml
}

/// `count` handles, each following its own cubic track with a spring to spring back along it.
func followScene(handles count: Int) -> String {
  var yaml = """
    scene: { size: 4000x4000, fps: 60, duration: 10s }
    springs:
      loose: { dampingRatio: 0.2, duration: 1.5s }
    paths:

    """
  for i in 0..<count {
    let x = i % 40 * 100
    let y = i / 40 * 100
    yaml +=
      "  p\(i): { d: \"M\(x) \(y + 50) C \(x + 30) \(y - 20) \(x + 70) \(y + 120) \(x + 100) \(y + 50)\" }\n"
  }
  yaml += "handles:\n"
  for i in 0..<count {
    yaml +=
      "  h\(i): { position: [\(i % 40 * 100 + 50), \(i / 40 * 100 + 50)], r: 10, draggable: true }\n"
  }
  yaml += "constraints:\n"
  for i in 0..<count { yaml += "  - follow: { handle: h\(i), path: p\(i), spring: loose }\n" }
  return yaml
}

let perHandleFrame = BenchmarkMetric.custom("ns per handle per frame", useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  // The stress scene (`scenec generate --handles N`): follow, elastic and gooey handles,
  // points bound to the drag and to time, four fingers; one iteration is the whole
  // 600-frame run through `SceneRunner`, as `scenec run` drives it, frames included.
  for count in [100, 1_000, 10_000] {
    let scene = StressScene(handles: count)
    let stressGraph = graph(of: scene.yaml)
    Benchmark(
      "Runtime/stress scene, \(count) handles, 600 frames",
      configuration: .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, perHandleFrame],
        maxDuration: .seconds(count >= 10_000 ? 20 : 5), maxIterations: count >= 10_000 ? 8 : 200)
    ) { benchmark in
      for _ in benchmark.scaledIterations {
        let start = ContinuousClock.now
        var frames = 0
        do {
          var runner = try SceneRunner(graph: stressGraph)
          while let frame = try runner.nextFrame() {
            blackHole(frame)
            frames += 1
          }
        } catch {
          fatalError("the stress scene failed: \(error)")
        }
        let elapsed = ContinuousClock.now - start
        let nanoseconds =
          Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        benchmark.measurement(perHandleFrame, Int((nanoseconds / Double(frames * count)).rounded()))
      }
    }
  }

  // DESIGN's case, follow plus spring: every handle is pulled along its track and let go
  // (through the library's pointer API, one grab after another), then all spring back
  // along their paths at once. Each sample measures 60 frames of that, set up outside.
  for count in [1_000, 10_000] {
    let follow = graph(of: followScene(handles: count))
    Benchmark(
      "Runtime/follow + spring, \(count) handles springing along paths",
      configuration: .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, perHandleFrame],
        maxDuration: .seconds(5), maxIterations: 50)
    ) { benchmark in
      guard var simulation = try? Simulation(graph: follow) else {
        fatalError("the follow scene failed")
      }
      for i in 0..<count {
        let handle = Point(Double(i % 40 * 100 + 50), Double(i / 40 * 100 + 50))
        simulation.pointerDown(id: 0, at: handle)
        simulation.pointerMoved(id: 0, to: handle + Vector(40, 10))
        simulation.pointerUp(id: 0, velocity: Vector(600, 0))
      }
      let frames = 60
      benchmark.startMeasurement()
      let start = ContinuousClock.now
      for frame in 1...frames { blackHole(try? simulation.step(to: Double(frame) / 60)) }
      let elapsed = ContinuousClock.now - start
      benchmark.stopMeasurement()
      let nanoseconds =
        Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
      benchmark.measurement(perHandleFrame, Int((nanoseconds / Double(frames * count)).rounded()))
    }
  }

  // One kind of part alone: handles animated along a path, warm steady-state steps.
  let animated = graph(of: animatedScene(handles: 1000))
  Benchmark(
    "Runtime/step 1000 handles animated along a path",
    configuration: .init(
      metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo,
      maxDuration: .seconds(2))
  ) { benchmark in
    guard var simulation = try? Simulation(graph: animated) else {
      fatalError("the animated scene failed")
    }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(try? simulation.step(dt: 1.0 / 60)) }
  }
}
