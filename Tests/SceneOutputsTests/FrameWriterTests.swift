import Foundation
import SceneGraph
import SceneRuntime
import Testing

@testable import SceneOutputs

/// How the formats hold and write a run: streaming formats write each frame as it comes,
/// a still keeps one frame, and the whole-run formats write at the end.
@Suite struct FrameWriterTests {
  static let scene = """
    scene: { duration: 0.2s, fps: 60 }
    handles:
      ball: { position: [120.5, 80], r: 20, draggable: true }
    paths:
      curve: { d: "M30 100 Q 200 0 300 100" }
    gesture:
      - press: ball
      - drag: { by: [40, 0], over: 0.1s }
    """

  /// The sink's size after `begin`, after each frame, and after `end`.
  static func sizes(_ output: FrameOutput, _ frames: [Frame], _ context: OutputContext) -> [Int] {
    var writer = output.writer(for: context)
    var sink = TextBytes()
    var sizes: [Int] = []
    writer.begin(into: &sink)
    sizes.append(sink.count)
    for frame in frames {
      writer.frame(frame, into: &sink)
      sizes.append(sink.count)
    }
    writer.end(into: &sink)
    sizes.append(sink.count)
    return sizes
  }

  @Test(arguments: ["jsonl", "csv"])
  func streamingFormatsWriteEveryFrameAsItComes(name: String) throws {
    let (graph, frames) = try runFrames(Self.scene)
    let context = OutputContext(graph: graph, fps: 60)
    let output = try #require(OutputRegistry.named(name))
    let sizes = Self.sizes(output, frames, context)
    // Each frame adds its own bytes at once; the end adds nothing.
    for k in 1...frames.count { #expect(sizes[k] > sizes[k - 1]) }
    #expect(sizes.last == sizes[frames.count])
  }

  @Test(arguments: ["svg", "animated-svg", "html"])
  func wholeRunFormatsWriteOnlyAtTheEnd(name: String) throws {
    let (graph, frames) = try runFrames(Self.scene)
    let context = OutputContext(graph: graph, fps: 60)
    let output = try #require(OutputRegistry.named(name))
    let sizes = Self.sizes(output, frames, context)
    #expect(sizes.dropLast().allSatisfy { $0 == 0 })
    #expect(sizes.last == output.bytes(of: frames, context: context).count)
  }

  @Test func aStillKeepsOnlyTheLatestFrame() throws {
    let (graph, frames) = try runFrames(Self.scene)
    let context = OutputContext(graph: graph, fps: 60)
    var writer = SVGText.StillWriter(context: context)
    var sink = TextBytes()
    for frame in frames { writer.frame(frame, into: &sink) }
    #expect(writer.latest == frames.last)
    #expect(
      FrameOutput.svg.text(of: frames, context: context)
        == FrameOutput.svg.text(of: [frames[frames.count - 1]], context: context))
  }

  @Test func thePlayerKeepsEachFrameAsItsEntryAndPackedHandlesAndLetsThemGoAsItWrites() throws {
    let (graph, frames) = try runFrames(Self.scene)
    let context = OutputContext(graph: graph, fps: 60)
    var writer = HTMLPlayer.Writer(context: context)
    var sink = TextBytes()
    var sizes: [Int] = []
    for frame in frames {
      var entry = TextBytes()
      HTMLPlayer.appendEntry(frame, context: context, handles: false, to: &entry)
      sizes.append(entry.count + (sizes.isEmpty ? 1 : 2))  // After "\n" or ",\n".
      writer.frame(frame, into: &sink)
      #expect(writer.entries.map(\.count) == sizes)
    }
    // Streamed: after the page's head, each flush carries exactly one frame's entry (the
    // writer lets it go then), and the pieces make the page written whole.
    var streamed: [UInt8] = []
    var flushed: [Int] = []
    var streaming = writer
    streaming.end(
      into: &sink,
      flush: { bytes in
        streamed += Array(bytes.bytes)
        flushed.append(bytes.count)
        bytes.removeAll()
      })
    streamed += Array(sink.bytes)
    // Then the packed handles, in one piece for a stream this short.
    #expect(flushed.count == frames.count + 1)
    #expect(Array(flushed.dropFirst().prefix(frames.count - 1)) == Array(sizes.dropFirst()))
    #expect(streaming.entries.isEmpty)
    #expect(streaming.handleFrames.bytes.isEmpty)
    #expect(
      String(decoding: streamed, as: UTF8.self)
        == FrameOutput.html.text(of: frames, context: context))
  }

  @Test func framesFindTheirPathsByIndexInTheGraph() throws {
    let (graph, frames) = try runFrames(
      """
      handles:
        anchor: { position: [100, 100], r: 30 }
        ball: { position: [100, 100], r: 20, draggable: true }
      paths:
        gooey1: { d: "M0 0 L 10 10" }
      constraints:
        - gooey: { anchor: anchor, ball: ball, maxDistance: 150 }
      gesture:
        - press: ball
        - drag: { by: [60, 0], over: 0.1s }
      """)
    // A path may share the name a constraint's bridge is reported under: the index tells
    // them apart.
    #expect(graph.drawnPaths.map(\.name) == ["gooey1", "gooey1"])
    #expect(graph.drawnPaths.map(\.origin) == [.path(0), .constraint(0)])
    for frame in frames {
      #expect(frame.paths.map(\.name) == graph.drawnPaths.map(\.name))
    }
  }
}
