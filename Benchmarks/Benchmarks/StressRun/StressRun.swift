import SceneDiagnostics
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneStress
import SceneSyntax

/// The stress scene stepped by a plain process, outside package-benchmark's harness, so it
/// can run under `valgrind --tool=callgrind` or `perf` and be compared between commits by
/// instruction count as well as by time. Run from `Benchmarks/`:
///
///     swift run -c release StressRun 1000 5      # handles, repetitions of the 600 frames
///     valgrind --tool=callgrind .build/release/StressRun 1000 1
@main
enum StressRun {
  static func main() throws {
    let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
    let count = arguments.first ?? 1_000
    let repetitions = arguments.dropFirst().first ?? 1
    let scene = StressScene(handles: count)
    let loaded = SceneLoader.load(SourceFile(name: "stress.yaml", text: scene.yaml), syntax: .yaml)
    guard let spec = loaded.spec, !loaded.hasErrors, let graph = SceneResolver.resolve(spec).graph
    else {
      print("the stress scene does not load")
      return
    }
    var handleFrames = 0
    let start = ContinuousClock.now
    for _ in 0..<repetitions {
      var runner = try SceneRunner(graph: graph)
      while let frame = try runner.nextFrame() { handleFrames += frame.handles.count }
    }
    let elapsed = ContinuousClock.now - start
    let nanoseconds =
      Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    let perHandleFrame = (nanoseconds / Double(max(handleFrames, 1)) * 10).rounded() / 10
    print(
      "\(count) handles × \(repetitions) runs: \(elapsed), \(perHandleFrame) ns per handle per frame"
    )
  }
}
