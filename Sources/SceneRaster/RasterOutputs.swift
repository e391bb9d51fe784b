import SceneOutputs
import SceneRuntime

/// The raster formats: `png` (one frame), `gif` (every frame, animated), and `mp4` and
/// `webm` through ffmpeg, registered as every other format is; only `scenec` links them.
public enum RasterOutputs {
  public static let all: [FrameOutput] = [.png, .gif, .apng, .webp, .mp4, .webm]
}

extension FrameOutput {
  /// One frame as a PNG, drawn as the SVG output draws it, at `--scale` pixels a point.
  public static let png = FrameOutput(
    name: "png", fileExtensions: ["png"],
    summary: "one frame as a PNG image, anti-aliased, at --scale pixels per point",
    isStill: true, isBinary: true
  ) { context in PNGWriter(context: context) }

  /// Every frame as an animated GIF (looping), streamed frame by frame.
  public static let gif = FrameOutput(
    name: "gif", fileExtensions: ["gif"],
    summary: "every frame as a looping animated GIF (at most 50 frames a second)",
    isBinary: true
  ) { context in GIFWriter(context: context) }
}

/// The SVG output's picture of one frame.
func svg(of frame: Frame, context: OutputContext) -> [UInt8] {
  FrameOutput.svg.bytes(of: [frame], context: context)
}

struct PNGWriter: FrameWriter {
  let context: OutputContext
  var last: Frame?
  var failure: String?

  init(context: OutputContext) { self.context = context }

  mutating func frame(_ frame: Frame, into sink: inout TextBytes) { last = frame }

  mutating func end(into sink: inout TextBytes) {
    guard let last else { return }
    do {
      let png = try SVGRaster.png(svg(of: last, context: context), scale: context.scale)
      png.withUnsafeBufferPointer { sink.append($0) }
    } catch {
      failure = error.description
    }
  }
}
