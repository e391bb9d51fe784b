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
    let page = """
      <!DOCTYPE html><html><body style="margin:0"><script>
      function load(src) {
        return new Promise(function (done) { var i = new Image(); i.onload = function () { done(i); }; i.src = src; });
      }
      var w = \(Int(graph.width)), h = \(Int(graph.height));
      Promise.all([load("data:image/svg+xml;base64,\(theirs.base64EncodedString())"),
                   load("data:image/svg+xml;base64,\(ours.base64EncodedString())")])
        .then(function (images) {
          function pixels(image) {
            var c = document.createElement("canvas"); c.width = w; c.height = h;
            var x = c.getContext("2d"); x.drawImage(image, 0, 0, w, h);
            return x.getImageData(0, 0, w, h).data;
          }
          var a = pixels(images[0]), b = pixels(images[1]), sum = 0, differing = 0;
          for (var i = 0; i < a.length; i += 4) {
            var d = Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]),
              Math.abs(a[i + 2] - b[i + 2]), Math.abs(a[i + 3] - b[i + 3]));
            sum += d;
            if (d > 48) differing++;
          }
          window.result = JSON.stringify({ mean: sum / (w * h), differing: differing, pixels: w * h });
        });
      </script></body></html>
      """
    let file = folder.appendingPathComponent("compare.html")
    try page.write(to: file, atomically: true, encoding: .utf8)
    let collected = Collected()
    try await BrowserTests.withPage(file) { tools, session in
      #expect(try await tools.waitFor("window.result !== undefined", in: session))
      let text = try #require(try await tools.evaluate("window.result", in: session) as? String)
      await collected.add(
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Double]))
    }
    let result = try #require(await collected.results.first)
    if ProcessInfo.processInfo.environment["SCENEC_RASTER_REPORT"] != nil { print(scene, result) }
    #expect(try #require(result["mean"]) < 0.5, "\(scene): \(result)")
    #expect(
      try #require(result["differing"]) < 0.001 * (result["pixels"] ?? 0), "\(scene): \(result)")
  }
}
