// swift-tools-version: 6.1
import PackageDescription

// Coverage-guided fuzz targets (libFuzzer) for scenec's front ends and its whole pipeline,
// in a package of their own so the sanitizer build never touches the main one.
//
// Build and run from this directory (see README.md here):
//   swift build -c debug --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
//   ./run-smoke.sh 12        # every target for 12 seconds, seeded from ../Scenes and the corpus
let package = Package(
  name: "scenec-fuzz",
  platforms: [.macOS(.v14)],
  dependencies: [.package(name: "scenec", path: "..")],
  targets: [
    .target(
      name: "FuzzSupport",
      dependencies: [
        .product(name: "SceneSyntax", package: "scenec"),
        .product(name: "SceneDiagnostics", package: "scenec"),
        .product(name: "ScenePipeline", package: "scenec"),
      ]),
    .executableTarget(name: "FuzzYAML", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzDSL", dependencies: ["FuzzSupport"]),
    .executableTarget(
      name: "FuzzExpression",
      dependencies: [
        "FuzzSupport",
        .product(name: "SceneSyntax", package: "scenec"),
        .product(name: "SceneDiagnostics", package: "scenec"),
      ]),
    .executableTarget(
      name: "FuzzTrace",
      dependencies: ["FuzzSupport", .product(name: "SceneSyntax", package: "scenec")]),
    .executableTarget(
      name: "FuzzDrag",
      dependencies: [
        "FuzzSupport",
        .product(name: "ScenePipeline", package: "scenec"),
        .product(name: "SceneSyntax", package: "scenec"),
        .product(name: "SceneDiagnostics", package: "scenec"),
        .product(name: "SceneTesting", package: "scenec"),
      ]),
    .executableTarget(
      name: "FuzzPipeline",
      dependencies: [
        "FuzzSupport",
        .product(name: "ScenePipeline", package: "scenec"),
        .product(name: "SceneRuntime", package: "scenec"),
        .product(name: "SceneSyntax", package: "scenec"),
        .product(name: "SceneOutputs", package: "scenec"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
