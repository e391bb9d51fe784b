// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "scenec",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "SceneGeometry", targets: ["SceneGeometry"]),
    .library(name: "SceneDiagnostics", targets: ["SceneDiagnostics"]),
    .library(name: "SceneSyntax", targets: ["SceneSyntax"]),
    .library(name: "SceneGraph", targets: ["SceneGraph"]),
    .library(name: "SceneRuntime", targets: ["SceneRuntime"]),
    .library(name: "SceneOutputs", targets: ["SceneOutputs"]),
    .library(name: "ScenePipeline", targets: ["ScenePipeline"]),
    .library(name: "SceneTesting", targets: ["SceneTesting", "SceneTestingSnapshots"]),
    .library(name: "SceneStress", targets: ["SceneStress"]),
    .executable(name: "scenec", targets: ["scenec"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
  ],
  targets: [
    // MARK: - C libraries

    /// The system's libyaml (Debian `libyaml-dev`, Homebrew `libyaml`), found through pkg-config.
    /// Only the syntax stage may import it; no C type crosses a public API.
    .systemLibrary(
      name: "CYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),

    // MARK: - Pipeline stages

    /// Exact curve geometry: segments, paths, SVG path data, arc length, nearest point.
    .target(name: "SceneGeometry"),

    /// Source locations and clang-style diagnostics, shared by every stage.
    .target(name: "SceneDiagnostics"),

    /// Stage 1: YAML (libyaml) and the DSL into one AST, with exact diagnostics.
    .target(name: "SceneSyntax", dependencies: ["SceneDiagnostics", "SceneGeometry", "CYAML"]),

    /// Stage 2: the AST resolved into a graph: indices for names, compiled expressions,
    /// dependency order, validation.
    .target(
      name: "SceneGraph", dependencies: ["SceneSyntax", "SceneGeometry", "SceneDiagnostics"]),

    /// Stage 3: the simulation, stepped at a fixed time step.
    .target(name: "SceneRuntime", dependencies: ["SceneGraph", "SceneSyntax", "SceneGeometry"]),

    /// The one entry point from a scene file to a runnable scene: front end, resolver,
    /// traces; used by every command and by library users.
    .target(
      name: "ScenePipeline",
      dependencies: ["SceneSyntax", "SceneGraph", "SceneRuntime", "SceneDiagnostics"]),

    /// Stage 4: frames to files — JSON lines, SVG, HTML, CSV — as registered values.
    .target(name: "SceneOutputs", dependencies: ["SceneRuntime", "SceneGraph", "SceneGeometry"]),

    /// Scene-level snapshot tests: golden frames beside each scene.
    .target(
      name: "SceneTesting",
      dependencies: [
        "SceneOutputs", "SceneRuntime", "SceneGraph", "SceneSyntax", "SceneDiagnostics",
        "ScenePipeline",
      ]),

    /// swift-snapshot-testing strategies for scenes, kept apart so the `scenec` tool does
    /// not link a test framework.
    .target(
      name: "SceneTestingSnapshots",
      dependencies: [
        "SceneTesting", "SceneOutputs", "SceneRuntime", "SceneGraph", "SceneSyntax",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]),

    /// Generated stress scenes at any size, for `scenec generate` and the benchmarks.
    .target(name: "SceneStress"),

    // MARK: - Command-line tool

    .executableTarget(
      name: "scenec",
      dependencies: [
        "SceneGeometry",
        "SceneDiagnostics",
        "SceneSyntax",
        "SceneGraph",
        "SceneRuntime",
        "SceneOutputs",
        "ScenePipeline",
        "SceneTesting",
        "SceneStress",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // MARK: - Tests

    /// What every test target shares: the one seeded generator and tolerance check.
    .target(
      name: "SceneTestSupport",
      dependencies: [.product(name: "PropertyBased", package: "swift-property-based")],
      path: "Tests/SceneTestSupport"),

    .testTarget(
      name: "SceneGeometryTests",
      dependencies: [
        "SceneGeometry", "SceneTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(name: "SceneDiagnosticsTests", dependencies: ["SceneDiagnostics"]),
    .testTarget(
      name: "SceneSyntaxTests",
      dependencies: [
        "SceneSyntax",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      // Read from the source tree by the corpus test, not bundled.
      exclude: ["Malformed", "Examples"]
    ),
    .testTarget(name: "SceneGraphTests", dependencies: ["SceneGraph", "SceneTestSupport"]),
    .testTarget(
      name: "SceneRuntimeTests",
      dependencies: [
        "SceneRuntime", "SceneGraph", "SceneSyntax", "SceneGeometry", "SceneTestSupport",
      ]),
    .testTarget(
      name: "SceneOutputsTests",
      dependencies: [
        "SceneOutputs", "SceneRuntime", "SceneGraph", "SceneSyntax", "SceneGeometry",
        "SceneTestSupport",
      ]),
    .testTarget(
      name: "SceneTestingTests",
      dependencies: [
        "SceneTesting", "SceneTestingSnapshots",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"]),
    .testTarget(
      name: "ScenePipelineTests",
      dependencies: ["ScenePipeline", "SceneGraph", "SceneRuntime", "SceneDiagnostics"],
      // Read from the source tree by the corpus test, not bundled.
      exclude: ["Corpus"]),
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "ScenePipeline", "SceneRuntime", "SceneGeometry", "SceneGraph", "SceneSyntax",
        "SceneDiagnostics",
      ]),
    .testTarget(
      name: "SceneStressTests",
      dependencies: ["SceneStress", "SceneSyntax", "SceneGraph", "SceneRuntime"]),
    .testTarget(
      name: "ScenecEndToEndTests",
      dependencies: ["scenec"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
