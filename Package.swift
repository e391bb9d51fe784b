// swift-tools-version: 6.1
import PackageDescription

/// `Double.sin`, `.exp`, `.hypot`, … without Foundation: the C library's own functions.
let realModule = Target.Dependency.product(name: "RealModule", package: "swift-numerics")

let package = Package(
  name: "scenec",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "SceneGeometry", targets: ["SceneGeometry"]),
    .library(name: "SceneDiagnostics", targets: ["SceneDiagnostics"]),
    .library(name: "SceneVocabulary", targets: ["SceneVocabulary"]),
    .library(name: "SceneSyntax", targets: ["SceneSyntax"]),
    .library(name: "SceneYAML", targets: ["SceneYAML"]),
    .library(name: "SceneGraph", targets: ["SceneGraph"]),
    .library(name: "SceneResolve", targets: ["SceneResolve"]),
    .library(name: "SceneRuntime", targets: ["SceneRuntime"]),
    .library(name: "SceneLoading", targets: ["SceneLoading"]),
    .library(name: "SceneEngine", targets: ["SceneEngine"]),
    .library(name: "SceneOutputs", targets: ["SceneOutputs"]),
    .library(name: "ScenePipeline", targets: ["ScenePipeline"]),
    .library(name: "SceneTesting", targets: ["SceneTesting", "SceneTestingSnapshots"]),
    .library(name: "SceneStress", targets: ["SceneStress"]),
    .library(name: "ScenePreview", targets: ["ScenePreview"]),
    .executable(name: "scenec", targets: ["scenec"]),
    .executable(name: "scenec-preview", targets: ["ScenecPreview"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
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

    /// librsvg over Cairo, and giflib: the raster outputs' C. Only `SceneRaster` imports it,
    /// and only `scenec` links it.
    .systemLibrary(
      name: "CRaster",
      pkgConfig: "librsvg-2.0",
      providers: [.apt(["librsvg2-dev", "libgif-dev"]), .brew(["librsvg", "giflib"])]
    ),

    // MARK: - Pipeline stages
    //
    // The engine core (geometry, diagnostics, vocabulary, the syntax tree and DSL, the graph
    // and the runtime) imports neither Foundation nor libyaml, so an app or a WebAssembly
    // build can embed it; `Tests/PortabilityTests` checks that from the compiler's own
    // record of the modules each one loads.

    /// Exact curve geometry: segments, paths, SVG path data, arc length, nearest point.
    .target(name: "SceneGeometry", dependencies: [realModule]),

    /// Source locations and clang-style diagnostics, shared by every stage.
    .target(name: "SceneDiagnostics"),

    /// The words both the syntax tree and the graph speak: colours, easings, the kinds of
    /// constraint, shapes, event names.
    .target(name: "SceneVocabulary", dependencies: ["SceneDiagnostics", "SceneGeometry"]),

    /// Stage 1: the syntax tree, the DSL front end, the document tree both front ends
    /// build and its decoder, expressions, traces and the formatters.
    .target(
      name: "SceneSyntax", dependencies: ["SceneDiagnostics", "SceneGeometry", "SceneVocabulary"]),

    /// Stage 1, YAML: libyaml's events into the document tree. The only module that sees C.
    .target(name: "SceneYAML", dependencies: ["SceneSyntax", "SceneDiagnostics", "CYAML"]),

    /// The resolved scene every later stage reads: indices, compiled expressions, the
    /// gesture with its exact timings, colours, and nothing of the syntax.
    .target(
      name: "SceneGraph",
      dependencies: ["SceneDiagnostics", "SceneGeometry", "SceneVocabulary", realModule]),

    /// Stage 2: the syntax tree resolved into a graph: names to indices, expressions
    /// compiled, dependency order, validation, traces bound.
    .target(
      name: "SceneResolve",
      dependencies: [
        "SceneSyntax", "SceneGraph", "SceneDiagnostics", "SceneGeometry", "SceneVocabulary",
      ]),

    /// Stage 3: the simulation, stepped at a fixed time step.
    .target(
      name: "SceneRuntime",
      dependencies: [
        "SceneGraph", "SceneGeometry", "SceneVocabulary", "SceneDiagnostics", realModule,
      ]),

    /// The portable front door: scene text through a chosen front end, decoded and
    /// resolved with the traces the caller hands in; no files, no Foundation, no C.
    .target(
      name: "SceneLoading",
      dependencies: ["SceneSyntax", "SceneResolve", "SceneGraph", "SceneDiagnostics"]),

    /// The engine as an app or a page embeds it: a live session of a scene (pointers,
    /// inputs, the scene's gesture, a take to scrub and replay); portable like the core.
    .target(
      name: "SceneEngine",
      dependencies: ["SceneRuntime", "SceneGraph", "SceneGeometry", "SceneSyntax"]),

    /// The one entry point from a scene file to a runnable scene: reads the file and its
    /// traces, runs the front end and the resolver; used by every command and by library users.
    .target(
      name: "ScenePipeline",
      dependencies: [
        "SceneSyntax", "SceneYAML", "SceneLoading", "SceneGraph", "SceneDiagnostics", "SceneFiles",
      ]),

    /// Stage 4: frames to bytes — JSON lines, SVG, HTML, CSV — as registered values.
    .target(
      name: "SceneOutputs",
      dependencies: ["SceneRuntime", "SceneGraph", "SceneGeometry", "SceneVocabulary", realModule],
      resources: [
        .embedInCode("Resources/renderer.js"), .embedInCode("Resources/player.js"),
        .embedInCode("Resources/interactive.js"), .embedInCode("Resources/controls.js"),
      ]),

    /// Stage 4, raster: frames as PNG and animated GIF, drawn from the SVG output's own
    /// picture of each frame by librsvg over Cairo.
    .target(
      name: "SceneRaster",
      dependencies: ["CRaster", "SceneOutputs", "SceneRuntime", "SceneGraph", "SceneVocabulary"]),

    /// Files written whole or not at all: a temporary file beside the target renamed over
    /// it, removed if the process is interrupted.
    .target(name: "SceneFiles", dependencies: ["SceneDiagnostics"]),

    /// Scene-level snapshot tests: golden frames beside each scene.
    .target(
      name: "SceneTesting",
      dependencies: [
        "SceneOutputs", "SceneRuntime", "SceneGraph", "SceneVocabulary", "SceneDiagnostics",
        "ScenePipeline", "SceneFiles",
      ]),

    /// swift-snapshot-testing strategies for scenes, kept apart so the `scenec` tool does
    /// not link a test framework.
    .target(
      name: "SceneTestingSnapshots",
      dependencies: [
        "SceneTesting", "SceneOutputs", "SceneRuntime", "SceneGraph",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]),

    /// Generated stress scenes at any size, for `scenec generate` and the benchmarks.
    .target(name: "SceneStress"),

    /// `scenec preview`: a local web server (Hummingbird 2 and its WebSocket module) where
    /// a page's real pointers drive the real engine, with hot reload and recording.
    .target(
      name: "ScenePreview",
      dependencies: [
        "SceneEngine", "ScenePipeline", "SceneRuntime", "SceneGraph", "SceneOutputs", "SceneSyntax",
        "SceneFiles", "SceneDiagnostics", "SceneGeometry", "SceneTesting", "SceneVocabulary",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      resources: [.embedInCode("Resources/preview.js")]),

    // MARK: - Command-line tool

    .executableTarget(
      name: "scenec",
      dependencies: [
        "SceneGeometry",
        "SceneDiagnostics",
        "SceneVocabulary",
        "SceneSyntax",
        "SceneYAML",
        "SceneGraph",
        "SceneResolve",
        "SceneRuntime",
        "SceneOutputs",
        "SceneRaster",
        "ScenePipeline",
        "SceneTesting",
        "SceneStress",
        "SceneFiles",
        "SceneCommandLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // The command-line pieces both executables share: help, options, exit codes.
    .target(
      name: "SceneCommandLine",
      dependencies: [
        "SceneFiles", "SceneDiagnostics",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    // `scenec-preview`, the preview's web server, which `scenec preview` runs. Its own
    // executable, so that the other commands do not load SwiftNIO and Hummingbird. Not a
    // dependency of `scenec`: SwiftPM would link everything it uses into `scenec` too.
    .executableTarget(
      name: "ScenecPreview",
      dependencies: [
        "ScenePreview", "ScenePipeline", "SceneCommandLine", "SceneDiagnostics",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/scenec-preview"),

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
        "SceneSyntax", "SceneYAML", "SceneVocabulary", "SceneDiagnostics", "SceneGeometry",
        "ScenePipeline",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      // Read from the source tree by the corpus test, not bundled.
      exclude: ["Malformed", "Examples"]
    ),
    .testTarget(
      name: "SceneGraphTests",
      dependencies: [
        "SceneGraph", "SceneResolve", "SceneSyntax", "SceneVocabulary", "SceneDiagnostics",
        "SceneGeometry", "ScenePipeline", "SceneTestSupport",
      ]),
    .testTarget(
      name: "SceneRuntimeTests",
      dependencies: [
        "SceneRuntime", "SceneGraph", "SceneSyntax", "SceneResolve", "SceneVocabulary",
        "SceneGeometry", "SceneDiagnostics", "ScenePipeline", "SceneTestSupport",
      ]),
    .testTarget(
      name: "SceneOutputsTests",
      dependencies: [
        "SceneOutputs", "SceneRuntime", "SceneGraph", "SceneSyntax", "SceneResolve",
        "SceneVocabulary", "SceneGeometry", "SceneDiagnostics", "ScenePipeline", "SceneTestSupport",
        "SceneStress",
      ]),
    .testTarget(
      name: "SceneTestingTests",
      dependencies: [
        "SceneTesting", "SceneTestingSnapshots", "SceneOutputs", "SceneRuntime", "SceneGraph",
        "ScenePipeline", "SceneDiagnostics",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"]),
    .testTarget(
      name: "SceneEngineTests",
      dependencies: [
        "SceneEngine", "ScenePipeline", "SceneOutputs", "SceneRuntime", "SceneSyntax", "SceneGraph",
        "SceneGeometry",
        "SceneDiagnostics",
        "SceneTestSupport",
      ]),
    .testTarget(
      name: "SceneLoadingTests",
      dependencies: [
        "SceneLoading", "ScenePipeline", "SceneYAML", "SceneSyntax", "SceneRuntime",
        "SceneDiagnostics", "SceneGeometry", "SceneTestSupport",
      ]),
    .testTarget(
      name: "ScenePipelineTests",
      dependencies: [
        "ScenePipeline", "SceneGraph", "SceneRuntime", "SceneSyntax", "SceneDiagnostics",
        "SceneVocabulary",
      ],
      // Read from the source tree by the corpus test, not bundled.
      exclude: ["Corpus"]),
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "ScenePipeline", "SceneRuntime", "SceneGeometry", "SceneGraph", "SceneSyntax",
        "SceneResolve", "SceneVocabulary", "SceneDiagnostics",
      ]),
    .testTarget(
      name: "SceneStressTests",
      dependencies: [
        "SceneStress", "SceneSyntax", "SceneGraph", "SceneResolve", "SceneRuntime", "ScenePipeline",
        "SceneDiagnostics",
      ]),
    .testTarget(
      name: "ScenePreviewTests",
      dependencies: [
        "SceneRaster", "SceneEngine",
        "ScenePreview", "ScenePipeline", "SceneRuntime", "SceneGraph", "SceneSyntax",
        "SceneOutputs", "SceneTesting", "SceneDiagnostics", "SceneGeometry", "SceneResolve",
        "SceneTestSupport",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]),
    .testTarget(
      name: "SceneCommandLineTests",
      dependencies: [
        "SceneCommandLine", "SceneFiles", "SceneTestSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .testTarget(
      name: "ScenecEndToEndTests",
      dependencies: ["scenec", "SceneTestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Every module names what it uses: a type's members are visible only where its module is
// imported, so `Package.swift` lists the real dependencies.
for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("MemberImportVisibility")
    ]
}
