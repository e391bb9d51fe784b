import Benchmark
import SceneDiagnostics
import SceneGraph
import SceneRuntime
import SceneSyntax

/// A generated scene of `count` handles: half animated along a path at uniform speed
/// (position at arc length every frame), half bound to an expression of time (a compiled
/// expression every frame).
func stressScene(handles count: Int, kinds: Set<String> = ["animate", "bound"]) -> SceneGraph? {
  var yaml = """
    scene: { size: 2000x2000, fps: 60, duration: 10s }
    paths:
      road: { d: "M0 0 C 500 -300 700 900 1200 400 S 1800 100 1900 1900" }
    handles:

    """
  for i in 0..<count {
    let x = Double(i % 40) * 50
    let y = Double(i / 40) * 50
    if (i % 2 == 0 && kinds.contains("animate")) || !kinds.contains("bound") {
      yaml += "  h\(i): { position: [\(x), \(y)], r: 4 }\n"
    } else {
      yaml += "  h\(i): { position: \"(\(x) + sin(time * 2 + \(i)) * 10, \(y) + cos(time) * 5)\" }\n"
    }
  }
  yaml += kinds.contains("animate") ? "constraints:\n" : ""
  for i in stride(from: 0, to: count, by: kinds.contains("bound") ? 2 : 1) where kinds.contains("animate") {
    yaml += "  - animate: { handle: h\(i), path: road, duration: \(2 + i % 7)s, repeat: loop, orient: true }\n"
  }
  let loaded = SceneLoader.load(SourceFile(name: "stress.yaml", text: yaml), syntax: .yaml)
  guard let spec = loaded.spec else { return nil }
  return SceneResolver.resolve(spec).graph
}

let benchmarks: @Sendable () -> Void = {
  for kind in ["animate", "bound"] {
    Benchmark(
      "Runtime/step 1000 handles (\(kind) only)",
      configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(2))
    ) { benchmark in
      guard let graph = stressScene(handles: 1000, kinds: [kind]), var simulation = try? Simulation(graph: graph) else {
        return
      }
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations { blackHole(try? simulation.step(dt: 1.0 / 60)) }
    }
  }
  // Each sample steps one simulation many times (set up outside the measurement), so
  // the figures are warm steady-state frames, not the first frame of a new simulation.
  for count in [100, 1_000, 10_000] {
    Benchmark(
      "Runtime/step \(count) handles (animate + bound)",
      configuration: .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo,
        maxDuration: .seconds(3))
    ) { benchmark in
      guard let graph = stressScene(handles: count), var simulation = try? Simulation(graph: graph) else {
        return
      }
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        blackHole(try? simulation.step(dt: 1.0 / 60))
      }
    }
  }
}
