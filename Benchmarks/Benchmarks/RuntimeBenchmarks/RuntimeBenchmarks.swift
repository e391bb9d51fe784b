import Benchmark
import SceneDiagnostics
import SceneGraph
import SceneRuntime
import SceneStress
import SceneSyntax

/// The scene graph of `scene`, or a crash with the scene's diagnostics: a benchmark of a
/// scene that does not load would measure nothing.
func graph(of text: String) -> SceneGraph {
  let loaded = SceneLoader.load(SourceFile(name: "stress.yaml", text: text), syntax: .yaml)
  guard let spec = loaded.spec, !loaded.hasErrors, let graph = SceneResolver.resolve(spec).graph else {
    fatalError("the benchmark scene does not load:\n\(DiagnosticRenderer(files: loaded.file.map { [$0] } ?? []).render(loaded.diagnostics))")
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
    yaml += "  - animate: { handle: h\(i), path: road, duration: \(2 + i % 7)s, repeat: loop, orient: true }\n"
  }
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
        metrics: [.wallClock, .mallocCountTotal, perHandleFrame],
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
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        benchmark.measurement(perHandleFrame, Int((nanoseconds / Double(frames * count)).rounded()))
      }
    }
  }

  // One kind of part alone: handles animated along a path, warm steady-state steps.
  let animated = graph(of: animatedScene(handles: 1000))
  Benchmark(
    "Runtime/step 1000 handles animated along a path",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(2))
  ) { benchmark in
    guard var simulation = try? Simulation(graph: animated) else { fatalError("the animated scene failed") }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { blackHole(try? simulation.step(dt: 1.0 / 60)) }
  }
}
