import Foundation
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneRuntime
import SceneTestSupport
import Testing

/// The Lottie export read by another implementation: Python's `lottie` package parses it
/// and draws a frame as SVG, which Chromium compares with scenec's own SVG of that frame.
@Suite struct LottieRenderTests {
  static let pythonLottie: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import lottie"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  @Test(
    .enabled(
      if: pythonLottie && BrowserTests.chromium != nil,
      "python3's lottie package or chromium is missing: the Lottie export cannot be drawn here (pip install lottie; apt-get install chromium)"
    ),
    arguments: [
      ("wave.yaml", 39), ("sticky-ball.yaml", 30), ("toggle.yaml", 30), ("bottom-sheet.yaml", 6),
      ("pull-to-refresh.yaml", 90),
    ])
  func aFrameOfTheExportIsTheSceneSVGsFrame(scene: String, frame k: Int) async throws {
    let loaded = try ScenePipeline.load(path: repositoryPath("Scenes/\(scene)"))
    let graph = try #require(loaded.graph)
    let frames = try SceneRunner.frames(of: graph)
    let context = OutputContext(graph: graph, precision: 3, fps: graph.fps)
    let folder = try makeScratchFolder("scenec-lottie")
    defer { try? FileManager.default.removeItem(at: folder) }
    let json = folder.appendingPathComponent("scene.json")
    try Data(FrameOutput.lottie.bytes(of: frames, context: context)).write(to: json)
    let drawn = folder.appendingPathComponent("lottie.svg")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      "import sys\nfrom lottie.parsers.tgs import parse_tgs\nfrom lottie.exporters.svg import export_svg\nexport_svg(parse_tgs(sys.argv[1]), sys.argv[2], int(sys.argv[3]))",
      json.path, drawn.path, String(k),
    ]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "python's lottie could not read or draw it")
    let theirs = try Data(contentsOf: drawn)
    let ours = Data(FrameOutput.svg.bytes(of: [frames[k]], context: context))
    let result = try await BrowserTests.compareImages(
      ("image/svg+xml", theirs), ("image/svg+xml", ours), width: Int(graph.width),
      height: Int(graph.height))
    if ProcessInfo.processInfo.environment["SCENEC_RASTER_REPORT"] != nil { print(scene, result) }
    #expect(try #require(result["mean"]) < 0.5, "\(scene): \(result)")
    #expect(
      try #require(result["differing"]) < 0.001 * (result["pixels"] ?? 0), "\(scene): \(result)")
  }
}
