import Foundation
import SceneTestSupport
import Testing

/// `scenec run --format graph` and `--plot`: the chart written as a file, and what is
/// refused before anything is run.
@Suite struct GraphCommandTests {
  static let wave = RunCommandTests.root.appendingPathComponent("Scenes/wave.yaml").path

  @Test func aPlotWritesTheChartOfThoseValues() throws {
    let folder = try makeScratchFolder("scenec-graph")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("wave-graph.svg").path
    // `--plot` alone picks the graph, though the name ends in .svg.
    let run = try ScenecProcess.run(["run", Self.wave, "--plot", "c.y", "-o", file])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.hasPrefix("wrote \(file): graph, 140 frames, 2.32 s of scene, in "))
    let svg = try String(contentsOfFile: file, encoding: .utf8)
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\""))
    #expect(svg.contains("<polyline data-series=\"c.y\""))
    #expect(svg.components(separatedBy: "<polyline").count == 2)
    #expect(svg.contains(">press</text>") && svg.contains(">lift</text>"))
    #expect(svg.contains(">rest c</text>"))
  }

  @Test func theGraphFormatWritesToStandardOutput() throws {
    let run = try ScenecProcess.run(["run", Self.wave, "--format", "graph"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("<svg ") && run.stdout.hasSuffix("</svg>\n"))
    #expect(
      run.stderr
        == "note: graph: 13 values move; the 8 that move furthest are plotted (choose with --plot HANDLE.y)\n"
    )
  }

  @Test func anUnknownValueIsAUsageErrorAndWritesNothing() throws {
    let folder = try makeScratchFolder("scenec-graph")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("g.svg").path
    let run = try ScenecProcess.run(["run", Self.wave, "--plot", "c.velocity", "-o", file])
    #expect(run.status == 64)
    #expect(
      run.stderr
        == "error: cannot plot 'c.velocity': write HANDLE.VALUE, with a handle of the scene and a value among x, y, angle, speed, rotation, scale, opacity\n"
    )
    #expect(!FileManager.default.fileExists(atPath: file))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func aPlotWithAnotherFormatIsRefused() throws {
    let run = try ScenecProcess.run(["run", Self.wave, "--plot", "c.y", "--format", "csv"])
    #expect(run.status == 64)
    #expect(
      run.stderr.hasPrefix("Error: --plot draws a chart: it goes with --format graph, not csv\n"))
  }
}
