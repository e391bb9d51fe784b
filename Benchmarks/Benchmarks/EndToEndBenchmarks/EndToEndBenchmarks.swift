import Benchmark
import Foundation
import SceneStress

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `scenec` executable this package builds beside the benchmarks (it depends on the
/// `scenec` product), so the figures are for the release build of the same sources.
let scenecPath: String = {
  let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
  let candidate = executable.resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("scenec").path
  guard FileManager.default.isExecutableFile(atPath: candidate) else {
    fatalError(
      "no scenec executable at \(candidate); run this through `swift package benchmark`, which builds it"
    )
  }
  return candidate
}()

/// The repository's root: `Scenes/` is read from there.
let repositoryRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// Runs `scenec` with `arguments` as a whole process, as a user would (in the current
/// directory, the repository's root), and returns the
/// child's peak resident memory in megabytes.
func runScenec(_ arguments: [String]) -> Int {
  var pid = pid_t()
  let argv = ([scenecPath] + arguments).map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  // Output and progress go nowhere: the figure is the work, not the terminal.
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let spawned = posix_spawn(&pid, scenecPath, &actions, nil, argv, environ)
  guard spawned == 0 else {
    fatalError("cannot start scenec: \(String(cString: strerror(spawned)))")
  }
  var status: Int32 = 0
  var usage = rusage()
  guard wait4(pid, &status, 0, &usage) == pid, status == 0 else {
    fatalError("scenec \(arguments.joined(separator: " ")) failed (status \(status))")
  }
  return Int((Double(usage.ru_maxrss) / 1024).rounded())  // ru_maxrss is in kilobytes on Linux.
}

let childPeakMemory = BenchmarkMetric.custom(
  "peak resident memory of scenec (MB)", useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  // The command lines below are the README's, run from the repository's root.
  guard FileManager.default.changeCurrentDirectoryPath(repositoryRoot.path) else {
    fatalError("cannot enter \(repositoryRoot.path)")
  }
  Benchmark(
    "EndToEnd/scenec run Scenes/wave.yaml -o /dev/null",
    configuration: .init(
      metrics: [.wallClock, .throughput, childPeakMemory], maxDuration: .seconds(5),
      maxIterations: 100)
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      benchmark.measurement(
        childPeakMemory, runScenec(["run", "Scenes/wave.yaml", "-o", "/dev/null"]))
    }
  }

  // Memory stays flat while frames stream: the same scene run ten times as long should
  // peak at about the same resident size.
  let stress = FileManager.default.temporaryDirectory.appendingPathComponent(
    "scenec-stress-1000.yaml"
  ).path
  try? StressScene(handles: 1000).yaml.write(toFile: stress, atomically: true, encoding: .utf8)
  for seconds in [10, 100] {
    Benchmark(
      "EndToEnd/scenec run stress 1000 handles, \(seconds * 60) frames -o /dev/null",
      configuration: .init(
        metrics: [.wallClock, .throughput, childPeakMemory], maxDuration: .seconds(10),
        maxIterations: 10)
    ) { benchmark in
      for _ in benchmark.scaledIterations {
        benchmark.measurement(
          childPeakMemory,
          runScenec(["run", stress, "--duration", "\(seconds)", "-o", "/dev/null"]))
      }
    }
  }
}
