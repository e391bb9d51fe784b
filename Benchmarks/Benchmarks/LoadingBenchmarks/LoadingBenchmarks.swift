import Benchmark
import Foundation
import RuntimeWorkloads
import SceneDiagnostics
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneStress
import SceneSyntax

/// About 5 MB of scene YAML: the stress scene at 40,000 handles (`scenec generate
/// --handles 40000`), in block and flow style, with expressions, paths, constraints and
/// a gesture.
let largeScene = StressScene(handles: 40_000).yaml

/// Megabytes of YAML per second, so loading and raw libyaml compare at a glance.
let megabytesPerSecond = BenchmarkMetric.custom(
  "MB/s", polarity: .prefersLarger, useScalingFactor: false)

/// Runs `work` once and records the rate at which it went through `megabytes`.
func reportRate(_ megabytes: Double, of benchmark: Benchmark, _ work: () -> Void) {
  let start = ContinuousClock.now
  work()
  let elapsed = ContinuousClock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  benchmark.measurement(megabytesPerSecond, Int((megabytes / seconds).rounded()))
}

/// A loading benchmark named `name`, running `work` once per iteration and reporting the
/// rate through `megabytes`.
func loadingBenchmark(_ name: String, megabytes: Double, _ work: @escaping () -> Void) {
  Benchmark(
    name,
    configuration: .init(
      metrics: [.wallClock, .throughput, .mallocCountTotal, megabytesPerSecond],
      maxDuration: .seconds(5))
  ) { benchmark in
    for _ in benchmark.scaledIterations { reportRate(megabytes, of: benchmark, work) }
  }
}

let benchmarks: @Sendable () -> Void = {
  let bytes = Array(largeScene.utf8)
  let megabytes = Double(bytes.count) / 1e6
  func size(_ megabytes: Double) -> String { String(format: "%.1f", megabytes) }
  loadingBenchmark("Loading/raw libyaml events (\(size(megabytes)) MB)", megabytes: megabytes) {
    blackHole(rawEventCount(bytes))
  }
  loadingBenchmark("Loading/scene load: YAML to AST (\(size(megabytes)) MB)", megabytes: megabytes) {
    blackHole(SceneLoader.load(SourceFile(name: "large.yaml", text: largeScene), syntax: .yaml).spec)
  }
  loadingBenchmark("Loading/scene load and resolve (\(size(megabytes)) MB)", megabytes: megabytes) {
    if let spec = SceneLoader.load(SourceFile(name: "large.yaml", text: largeScene), syntax: .yaml)
      .spec
    {
      blackHole(SceneResolver.resolve(spec).graph)
    }
  }
  // The same scene in the DSL, converted as `scenec fmt --to dsl` converts it. Its rate is
  // over the YAML's megabytes, so the two rates compare the same scene.
  if let spec = SceneLoader.load(SourceFile(name: "large.yaml", text: largeScene), syntax: .yaml)
    .spec
  {
    let dsl = DSLEmitter.emit(SceneEncoder.encode(spec, comments: SceneComments(text: largeScene)))
    loadingBenchmark(
      "Loading/scene load: DSL to AST (the same scene, \(size(Double(dsl.utf8.count) / 1e6)) MB)",
      megabytes: megabytes
    ) {
      blackHole(SceneLoader.load(SourceFile(name: "large.scene", text: dsl), syntax: .dsl).spec)
    }
  }

  // Outputs: encoding one frame of a 1,000-handle scene.
  var small = "scene: { size: 2000x2000 }\nhandles:\n"
  for i in 0..<1000 { small += "  h\(i): { position: [\(i % 40 * 50), \(i / 40 * 50)], r: 4 }\n" }
  small += "paths:\n  road: { d: \"M0 0 C 500 -300 700 900 1200 400 S 1800 100 1900 1900\" }\n"
  if let spec = SceneLoader.load(SourceFile(name: "s.yaml", text: small), syntax: .yaml).spec,
    let graph = SceneResolver.resolve(spec).graph, var simulation = try? Simulation(graph: graph),
    let frame = try? simulation.step(dt: 1.0 / 60)
  {
    let context = OutputContext(graph: graph, fps: 60)
    for output in [FrameOutput.jsonl, .csv, .svg] {
      Benchmark(
        "Outputs/\(output.name) of one 1000-handle frame",
        configuration: .init(
          metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(1))
      ) { benchmark in
        // The bytes a run writes for the frame (a still draws it at the end), into a sink
        // that is drained, as `scenec run` does.
        var sink = TextBytes(capacity: 1 << 16)
        for _ in benchmark.scaledIterations {
          var writer = output.writer(for: context)
          writer.begin(into: &sink)
          writer.frame(frame, into: &sink)
          writer.end(into: &sink)
          blackHole(sink.count)
          sink.removeAll()
        }
      }
    }
  }
}
