import Foundation
import SceneDiagnostics
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneRuntime
import SceneTestSupport
import Testing

@testable import SceneRaster

/// The raster outputs: PNG frames against Chromium's own drawing of the same frame's SVG,
/// and GIFs read back block by block.
@Suite struct RasterTests {
  /// The frame of `scene` nearest `time`, with its context.
  static func frame(_ scene: String, at time: Double) throws -> (Frame, OutputContext) {
    let loaded = try ScenePipeline.load(path: repositoryPath("Scenes/\(scene)"))
    let graph = try #require(loaded.graph)
    let frames = try SceneRunner.frames(of: graph)
    let frame = try #require(frames.min { abs($0.time - time) < abs($1.time - time) })
    return (frame, OutputContext(graph: graph, precision: 3, fps: graph.fps))
  }

  /// A PNG frame and Chromium's picture of the same frame's SVG, compared pixel by pixel
  /// in Chromium: the mean largest channel difference and how many pixels differ by more
  /// than 48 (edges anti-aliased a little differently).
  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the raster test cannot run here (Debian: apt-get install chromium)"
    ),
    arguments: [
      // Shapes and paths alone: within a shade on average, a handful of edge pixels.
      ("toggle.yaml", 0.5, false), ("pull-to-refresh.yaml", 1.4, false),
      ("sticky-ball.yaml", 0.5, false), ("bottom-sheet.yaml", 0.1, false),
      // With text, which two font engines draw: its letters' edges differ.
      ("swipe-card.yaml", 0.4, true), ("progress-ring.yaml", 0.6, true),
    ])
  func aPNGFrameIsWhatChromiumDrawsOfTheSVG(scene: String, time: Double, hasText: Bool)
    async throws
  {
    let (frame, context) = try Self.frame(scene, at: time)
    let svg = FrameOutput.svg.bytes(of: [frame], context: context)
    let png = FrameOutput.png.bytes(of: [frame], context: context)
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    let result = try await BrowserTests.compareImages(
      ("image/png", Data(png)), ("image/svg+xml", Data(svg)),
      width: Int((context.graph.width).rounded(.up)),
      height: Int((context.graph.height).rounded(.up)))
    // For Benchmarks/README.md's figures: `SCENEC_RASTER_REPORT=1 swift test --filter RasterTests`.
    if ProcessInfo.processInfo.environment["SCENEC_RASTER_REPORT"] != nil { print(scene, result) }
    #expect(result["width"] == context.graph.width)
    #expect(result["height"] == context.graph.height)
    #expect(try #require(result["mean"]) < (hasText ? 3 : 0.25), "\(scene): \(result)")
    #expect(
      try #require(result["differing"]) < (hasText ? 0.02 : 0.001) * (result["pixels"] ?? 0),
      "\(scene): \(result)")
  }

  @Test func aPNGIsDrawnAtItsScale() throws {
    let (frame, original) = try Self.frame("toggle.yaml", at: 0.5)
    var context = original
    context.scale = 2
    let png = FrameOutput.png.bytes(of: [frame], context: context)
    // The IHDR chunk: width and height, big-endian, at bytes 16 and 20.
    func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    #expect(word(16) == 400 && word(20) == 240)
  }

  /// The blocks of a GIF: its size, whether it loops, and each frame's delay.
  static func blocks(of gif: [UInt8]) throws -> (
    width: Int, height: Int, loops: Bool, delays: [Int]
  ) {
    #expect(Array(gif.prefix(6)) == Array("GIF89a".utf8))
    let width = Int(gif[6]) | Int(gif[7]) << 8
    let height = Int(gif[8]) | Int(gif[9]) << 8
    var at = 13
    if gif[10] & 0x80 != 0 { at += 3 << (Int(gif[10] & 7) + 1) }
    var loops = false
    var delays: [Int] = []
    func skipSubBlocks() {
      while at < gif.count, gif[at] != 0 { at += Int(gif[at]) + 1 }
      at += 1
    }
    while at < gif.count {
      switch gif[at] {
      case 0x21:
        let label = gif[at + 1]
        if label == 0xF9 { delays.append(Int(gif[at + 4]) | Int(gif[at + 5]) << 8) }
        if label == 0xFF,
          String(decoding: gif[(at + 3)..<(at + 14)], as: UTF8.self) == "NETSCAPE2.0"
        {
          loops = true
        }
        at += 2
        skipSubBlocks()
      case 0x2C:
        let local = gif[at + 9]
        at += 10
        if local & 0x80 != 0 { at += 3 << (Int(local & 7) + 1) }
        at += 1  // The LZW minimum code size.
        skipSubBlocks()
      case 0x3B:
        return (width, height, loops, delays)
      default:
        Issue.record("a block GIF does not have at \(at): \(gif[at])")
        return (width, height, loops, delays)
      }
    }
    Issue.record("no trailer")
    return (width, height, loops, delays)
  }

  /// A GIF of the whole run: every frame at least 2 hundredths apart, the delays adding
  /// up to the run, looping, and the same bytes every time.
  @Test func aGIFHoldsTheRunFrameByFrame() throws {
    let loaded = try ScenePipeline.load(path: repositoryPath("Scenes/toggle.yaml"))
    let graph = try #require(loaded.graph)
    let frames = try SceneRunner.frames(of: graph)
    let context = OutputContext(graph: graph, precision: 3, fps: graph.fps)
    let gif = FrameOutput.gif.bytes(of: frames, context: context)
    let (width, height, loops, delays) = try Self.blocks(of: gif)
    #expect(width == 200 && height == 120)
    #expect(loops)
    #expect(delays.dropLast().allSatisfy { $0 >= 2 })
    #expect(delays.last == 100)
    // The frames kept run from the first to the last kept, within 2 hundredths of the end.
    let last = try #require(frames.last)
    let shown: Int = delays.dropLast().reduce(0, +)
    let end = Int((last.time * 100).rounded())
    #expect(shown <= end && shown >= end - 2, "\(shown) of \(end)")
    // 60 frames a second become at most 50: about 40, every second or third frame kept.
    #expect(delays.count < frames.count && delays.count > frames.count / 2)
    #expect(FrameOutput.gif.bytes(of: frames, context: context) == gif)
  }

  /// Colours dither onto the fixed palette by position alone: the same colour gives the
  /// same pattern wherever and whenever it is drawn.
  @Test func ditheringDependsOnPositionAlone() {
    let gray = RGBAImage(
      width: 8, height: 8, pixels: Array(repeating: [100, 100, 100, 255], count: 64).flatMap { $0 })
    let a = Palette.indices(of: gray)
    #expect(a == Palette.indices(of: gray))
    #expect(Set(a).count > 1)  // Between two levels, both appear.
    #expect(Array(a[0..<4]) == Array(a[32..<36]))  // The 4×4 pattern repeats.
    let clear = RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 0, 255, 255, 255, 255])
    #expect(Palette.indices(of: clear) == [255, 251])  // Transparent; white is the last colour.
  }
}
