import Foundation
import SceneGraph
import ScenePipeline
import SceneRuntime
import SceneTestSupport
import Testing

@testable import SceneOutputs

/// The `graph` format: its lines read back through the plot's own scales give the frames'
/// values, and its marks sit at the events' times.
@Suite struct GraphOutputTests {
  struct Chart {
    var svg: String
    var notes: [String]
    var failure: String?
    /// The plot area's scales: time and value at its left, right, bottom and top.
    var t0 = 0.0, t1 = 0.0, v0 = 0.0, v1 = 0.0
    var left = 0.0, top = 0.0, width = 0.0, height = 0.0
    /// Each line's points, read back as (time, value).
    var series: [String: [(t: Double, v: Double)]] = [:]
  }

  static func chart(_ scene: String, plots: [String] = []) throws -> (frames: [Frame], chart: Chart)
  {
    let loaded = try ScenePipeline.load(path: repositoryPath("Scenes/\(scene)"))
    let graph = try #require(loaded.graph)
    let frames = try SceneRunner.frames(of: graph)
    var context = OutputContext(graph: graph, precision: 3, fps: graph.fps)
    context.plots = plots
    var writer = GraphWriter(context: context)
    var sink = TextBytes()
    for frame in frames { writer.frame(frame, into: &sink) }
    writer.end(into: &sink)
    var chart = Chart(
      svg: String(decoding: sink.bytes, as: UTF8.self), notes: writer.notes, failure: writer.failure
    )
    try read(&chart)
    return (frames, chart)
  }

  static func attribute(_ name: String, in element: Substring) -> String? {
    guard let start = element.range(of: " \(name)=\"") else { return nil }
    let rest = element[start.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
  }

  /// Reads the plot rect's scales and every polyline, as a tool would.
  static func read(_ chart: inout Chart) throws {
    for line in chart.svg.split(separator: "\n") {
      if line.contains("data-t0=") {
        let number = { (name: String) in Double(attribute(name, in: line) ?? "") ?? .nan }
        (chart.t0, chart.t1, chart.v0, chart.v1) = (
          number("data-t0"), number("data-t1"), number("data-v0"), number("data-v1")
        )
        (chart.left, chart.top, chart.width, chart.height) = (
          number("x"), number("y"), number("width"), number("height")
        )
      }
      if line.contains("<polyline"), let name = attribute("data-series", in: line),
        let points = attribute("points", in: line)
      {
        chart.series[name] = points.split(separator: " ").map { pair in
          let xy = pair.split(separator: ",").map { Double($0) ?? .nan }
          let t = chart.t0 + (xy[0] - chart.left) / chart.width * (chart.t1 - chart.t0)
          let v = chart.v1 - (xy[1] - chart.top) / chart.height * (chart.v1 - chart.v0)
          return (t, v)
        }
      }
    }
  }

  @Test func theLinesReadBackAreTheFramesValues() throws {
    let (frames, chart) = try Self.chart("wave.yaml", plots: ["c.y", "c.x", "l1.y"])
    #expect(chart.failure == nil)
    #expect(chart.series.keys.sorted() == ["c.x", "c.y", "l1.y"])
    // Points are written to 0.01 of a pixel: the value's error is at most half of that
    // in the plot's units.
    let tolerance = 0.005 * (chart.v1 - chart.v0) / chart.height + 1e-9
    let timeTolerance = 0.005 * (chart.t1 - chart.t0) / chart.width + 1e-9
    for (name, handle, value) in [
      ("c.y", "c", \HandleFrame.y), ("c.x", "c", \.x), ("l1.y", "l1", \.y),
    ] {
      let points = try #require(chart.series[name])
      #expect(points.count == frames.count)
      for (k, frame) in frames.enumerated() {
        let expected = try #require(frame.handles.first { $0.name == handle })[keyPath: value]
        #expect(abs(points[k].v - expected) <= tolerance, "\(name) at frame \(k)")
        #expect(abs(points[k].t - frame.time) <= timeTolerance, "\(name) at frame \(k)")
      }
    }
    #expect(chart.svg.contains(">time (s)</text>"))
    #expect(chart.svg.contains(">points</text>"))
  }

  @Test func speedIsTheDistanceOfAFrameOverItsTimeStep() throws {
    let (frames, chart) = try Self.chart("sticky-ball.yaml", plots: ["ball.speed"])
    let points = try #require(chart.series["ball.speed"])
    let tolerance = 0.005 * (chart.v1 - chart.v0) / chart.height + 1e-9
    #expect(points[0].v.magnitude <= tolerance)
    var fastest = 0.0
    for k in 1..<frames.count {
      let ball = try #require(frames[k].handles.firstIndex { $0.name == "ball" })
      let (a, b) = (frames[k - 1].handles[ball], frames[k].handles[ball])
      let speed = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() * 60
      fastest = max(fastest, speed)
      #expect(abs(points[k].v - speed) <= tolerance, "frame \(k)")
    }
    #expect(fastest > 100)  // The ball is thrown: the line is not flat.
    #expect(chart.svg.contains(">points/s</text>"))
  }

  @Test func eventsAndTheFingerAreMarkedAtTheirTimes() throws {
    let (frames, chart) = try Self.chart("sticky-ball.yaml", plots: ["ball.y"])
    let release = try #require(frames.first { $0.events.contains { $0.type == "release" } })
    let lift = try #require(
      frames.indices.dropFirst().first {
        frames[$0 - 1].pointers.first?.isDown == true && frames[$0].pointers.first?.isDown == false
      }
    )
    func markX(_ label: String) -> Double? {
      guard
        let line = chart.svg.split(separator: "\n").first(where: {
          $0.hasSuffix(">\(label)</text>")
        })
      else { return nil }
      return Double(Self.attribute("x", in: line) ?? "")
    }
    let x = { (t: Double) in chart.left + (t - chart.t0) / (chart.t1 - chart.t0) * chart.width }
    // A label sits 3 px beside its line, on the side away from the legend.
    let releaseX = try #require(markX("release ball"))
    #expect(abs(abs(releaseX - x(release.time)) - 3) <= 0.01)
    let liftX = try #require(markX("lift"))
    #expect(abs(abs(liftX - x(frames[lift].time)) - 3) <= 0.01)
    #expect(markX("grab ball") != nil && markX("press") != nil)
  }

  @Test func byDefaultTheValuesThatMoveFurthestArePlotted() throws {
    let (_, chart) = try Self.chart("wave.yaml")
    #expect(chart.series.count == 8)
    #expect(chart.series["c.y"] != nil)
    #expect(chart.series["l3.x"] == nil)  // It does not move far.
    #expect(
      chart.notes == [
        "graph: 13 values move; the 8 that move furthest are plotted (choose with --plot HANDLE.y)"
      ])
    // Rests of many handles at one time are one mark.
    #expect(chart.svg.contains(">rest l1, c, r1</text>"))
  }

  @Test func anUnknownValueIsRefusedWithTheChoices() throws {
    let (_, bad) = try Self.chart("wave.yaml", plots: ["c.z"])
    #expect(
      bad.failure
        == "cannot plot 'c.z': write HANDLE.VALUE, with a handle of the scene and a value among x, y, angle, speed, rotation, scale, opacity"
    )
    #expect(bad.svg.isEmpty)
    let (_, unknown) = try Self.chart("wave.yaml", plots: ["ball.y"])
    #expect(unknown.failure?.hasPrefix("cannot plot 'ball.y'") == true)
  }

  @Test func theSameRunDrawsTheSameBytes() throws {
    let (_, a) = try Self.chart("toggle.yaml")
    let (_, b) = try Self.chart("toggle.yaml")
    #expect(a.svg == b.svg)
    #expect(!a.svg.isEmpty)
  }
}
