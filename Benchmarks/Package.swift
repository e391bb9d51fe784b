// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for scenec's libraries, kept in a package of their own so that
// package-benchmark and its dependencies stay out of the library's dependency graph.
//
// Run from this directory:
//   swift package --allow-writing-to-package-directory benchmark
let package = Package(
  name: "scenec-benchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "scenec", path: ".."),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1",
      traits: ["MallocInterposer"]),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
  ],
  targets: [
    .executableTarget(
      name: "GeometryBenchmarks",
      dependencies: [
        "RuntimeWorkloads",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "SceneGeometry", package: "scenec"),
      ],
      path: "Benchmarks/GeometryBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .systemLibrary(name: "CYAMLBench", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
    .executableTarget(
      name: "LoadingBenchmarks",
      dependencies: [
        "CYAMLBench", "RuntimeWorkloads",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "SceneSyntax", package: "scenec"),
        .product(name: "SceneYAML", package: "scenec"),
        .product(name: "ScenePipeline", package: "scenec"),
        .product(name: "SceneResolve", package: "scenec"),
        .product(name: "SceneGraph", package: "scenec"),
        .product(name: "SceneRuntime", package: "scenec"),
        .product(name: "SceneOutputs", package: "scenec"),
        .product(name: "SceneStress", package: "scenec"),
      ],
      path: "Benchmarks/LoadingBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // The runtime workloads RuntimeBenchmarks and StressRun share.
    .target(
      name: "RuntimeWorkloads",
      dependencies: [
        "CYAMLBench",
        .product(name: "SceneDiagnostics", package: "scenec"),
        .product(name: "SceneGeometry", package: "scenec"),
        .product(name: "SceneGraph", package: "scenec"),
        .product(name: "ScenePipeline", package: "scenec"),
        .product(name: "SceneResolve", package: "scenec"),
        .product(name: "SceneRuntime", package: "scenec"),
        .product(name: "SceneStress", package: "scenec"),
      ],
      path: "Benchmarks/RuntimeWorkloads"
    ),
    .executableTarget(
      name: "RuntimeBenchmarks",
      dependencies: [
        "RuntimeWorkloads",
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "SceneSyntax", package: "scenec"),
        .product(name: "SceneYAML", package: "scenec"),
        .product(name: "ScenePipeline", package: "scenec"),
        .product(name: "SceneResolve", package: "scenec"),
        .product(name: "SceneGraph", package: "scenec"),
        .product(name: "SceneRuntime", package: "scenec"),
        .product(name: "SceneStress", package: "scenec"),
        .product(name: "SceneGeometry", package: "scenec"),
      ],
      path: "Benchmarks/RuntimeBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .executableTarget(
      name: "EndToEndBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "SceneStress", package: "scenec"),
        // Built so the benchmark can run it as a whole process.
        .product(name: "scenec", package: "scenec"),
      ],
      path: "Benchmarks/EndToEndBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // A plain executable: `swift run -c release PreviewRoundTrip` (see its file).
    .executableTarget(
      name: "PreviewRoundTrip",
      dependencies: [
        .product(name: "ScenePreview", package: "scenec"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
      ],
      path: "Benchmarks/PreviewRoundTrip"
    ),
    // scenec's side of Peers/run, the side-by-side figures.
    .executableTarget(
      name: "PeerFigures",
      dependencies: [
        "CYAMLBench", "RuntimeWorkloads",
        .product(name: "SceneDiagnostics", package: "scenec"),
        .product(name: "SceneGeometry", package: "scenec"),
        .product(name: "ScenePipeline", package: "scenec"),
        .product(name: "SceneRuntime", package: "scenec"),
        .product(name: "SceneStress", package: "scenec"),
        .product(name: "SceneSyntax", package: "scenec"),
      ],
      path: "Benchmarks/PeerFigures"
    ),
    // A plain executable for callgrind and perf: `swift run -c release StressRun 1000 5`.
    .executableTarget(
      name: "StressRun",
      dependencies: [
        "RuntimeWorkloads",
        .product(name: "SceneDiagnostics", package: "scenec"),
        .product(name: "SceneSyntax", package: "scenec"),
        .product(name: "SceneYAML", package: "scenec"),
        .product(name: "ScenePipeline", package: "scenec"),
        .product(name: "SceneResolve", package: "scenec"),
        .product(name: "SceneGraph", package: "scenec"),
        .product(name: "SceneRuntime", package: "scenec"),
        .product(name: "SceneOutputs", package: "scenec"),
        .product(name: "SceneStress", package: "scenec"),
      ],
      path: "Benchmarks/StressRun"
    ),
  ],
  swiftLanguageModes: [.v6]
)
