import Benchmark
import RuntimeWorkloads
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneStress
import SceneSyntax

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

let perHandleFrame = BenchmarkMetric.custom("ns per handle per frame", useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  // The stress scene (`scenec generate --handles N`): follow, elastic and gooey handles,
  // points bound to the drag and to time, four fingers; one iteration is the whole
  // 600-frame run through `SceneRunner`, as `scenec run` drives it, frames included.
  for count in [100, 1_000, 10_000] {
    let scene = StressScene(handles: count)
    let stressGraph = RuntimeWorkload.graph(of: scene.yaml)
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

  // DESIGN's cases, spring and follow plus spring: every handle is pulled and let go
  // (through the library's pointer API, one grab after another), then all spring back at
  // once, in the plane (elastic) or along their paths (follow). Each sample measures 60
  // frames of that, set up outside.
  for workload in [RuntimeWorkload.spring, .follow] {
    for count in [1_000, 10_000] {
      let graph = RuntimeWorkload.graph(of: workload.yaml(handles: count))
      let title =
        workload == .follow
        ? "follow + spring, \(count) handles springing along paths"
        : "spring, \(count) elastic handles springing"
      Benchmark(
        "Runtime/\(title)",
        configuration: .init(
          metrics: [.wallClock, .throughput, .mallocCountTotal, perHandleFrame],
          maxDuration: .seconds(5), maxIterations: 50)
      ) { benchmark in
        guard var simulation = try? Simulation(graph: graph) else {
          fatalError("the \(workload) scene failed")
        }
        RuntimeWorkload.grabAndReleaseAll(&simulation, handles: count)
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
  }

  // One kind of part alone: handles animated along a path, warm steady-state steps.
  let animated = RuntimeWorkload.graph(of: animatedScene(handles: 1000))
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
