import SceneGraph
import SceneOutputs
import SceneRuntime
import SceneVocabulary

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// MP4 (H.264) and WebM (VP9) through `ffmpeg`, when it is on the PATH.
///
/// Each frame is drawn as the PNG output draws it, over the scene's background (white
/// without one), and piped to ffmpeg as raw pixels at the run's frame rate. ffmpeg writes the video to a temporary
/// file, which becomes the output once it has finished: memory holds one frame while it
/// runs, and the compressed video at the end.
public enum VideoEncoder {
  /// The video formats by name, with what ffmpeg is told to write.
  static let arguments: [String: [String]] = [
    // yuv420p for every player; the index first, so it plays while it loads.
    "mp4": [
      "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "medium", "-crf", "18",
      "-movflags", "+faststart", "-f", "mp4",
    ],
    "webm": ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-b:v", "0", "-crf", "30", "-f", "webm"],
    // Animated images that keep transparency, looping for ever.
    "apng": ["-c:v", "apng", "-pix_fmt", "rgba", "-plays", "0", "-f", "apng"],
    "webp": [
      "-c:v", "libwebp_anim", "-pix_fmt", "yuva420p", "-lossless", "0", "-quality", "90",
      "-loop", "0", "-f", "webp",
    ],
  ]

  /// Whether `format` is written through ffmpeg.
  public static func needsFFmpeg(_ format: String) -> Bool { arguments[format] != nil }

  /// The formats that keep transparency (the videos are drawn over the background).
  static let keepsTransparency: Set<String> = ["apng", "webp"]

  /// `ffmpeg` on the PATH, or `nil`.
  public static func ffmpeg(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String?
  {
    for folder in (path ?? "").split(separator: ":") where !folder.isEmpty {
      let candidate = String(folder) + "/ffmpeg"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// What to say when a video is asked for and ffmpeg is not there.
  public static func missing(_ format: String) -> String {
    "writing \(format) needs ffmpeg on the PATH, and there is none; install it (Debian: apt-get install ffmpeg, Homebrew: brew install ffmpeg), or write a GIF (-o x.gif) or PNG frames (-o 'frames/%04d.png')"
  }
}

extension FrameOutput {
  public static let mp4 = FrameOutput(
    name: "mp4", fileExtensions: ["mp4"],
    summary: "every frame as an H.264 video, through ffmpeg on the PATH", isBinary: true
  ) { context in VideoWriter(context: context, format: "mp4") }

  public static let apng = FrameOutput(
    name: "apng", fileExtensions: ["apng"],
    summary: "every frame as a looping animated PNG, through ffmpeg on the PATH", isBinary: true
  ) { context in VideoWriter(context: context, format: "apng") }

  public static let webp = FrameOutput(
    name: "webp", fileExtensions: ["webp"],
    summary: "every frame as a looping animated WebP, through ffmpeg on the PATH", isBinary: true
  ) { context in VideoWriter(context: context, format: "webp") }

  public static let webm = FrameOutput(
    name: "webm", fileExtensions: ["webm"],
    summary: "every frame as a VP9 video, through ffmpeg on the PATH", isBinary: true
  ) { context in VideoWriter(context: context, format: "webm") }
}

struct VideoWriter: FrameWriter {
  let context: OutputContext
  let format: String
  /// The running ffmpeg: its process, the pipe its frames go into, and the files it writes
  /// the video and its messages to.
  var encoder: FFmpegProcess?
  var size: (width: Int, height: Int)?
  var failure: String?

  init(context: OutputContext, format: String) {
    self.context = context
    self.format = format
  }

  mutating func frame(_ frame: Frame, into sink: inout TextBytes) {
    guard failure == nil else { return }
    do throws(RasterError) {
      var image = try SVGRaster.image(svg(of: frame, context: context), scale: context.scale)
      var width = image.width
      var height = image.height
      if !VideoEncoder.keepsTransparency.contains(format) {
        // H.264's 4:2:0 wants even sides: one more row or column of the background.
        width += width % 2
        height += height % 2
        image = Self.opaque(image, width: width, height: height, background: context)
      }
      if encoder == nil {
        encoder = try FFmpegProcess(
          format: format, width: width, height: height, fps: context.fps)
        size = (width, height)
      }
      guard let size, size.width == width, size.height == height else {
        throw RasterError(description: "the frames of a video must all be one size")
      }
      try encoder?.write(image.pixels)
    } catch {
      failure = error.description
      encoder?.abandon()
      encoder = nil
    }
  }

  mutating func end(into sink: inout TextBytes) {
    guard failure == nil, let encoder else { return }
    do throws(RasterError) {
      let video = try encoder.finish()
      video.withUnsafeBufferPointer { sink.append($0) }
    } catch {
      failure = error.description
    }
  }

  /// `image` on a `width` × `height` canvas of the scene's background (white without one),
  /// every pixel opaque: a video has no transparency.
  static func opaque(_ image: RGBAImage, width: Int, height: Int, background context: OutputContext)
    -> RGBAImage
  {
    let back = context.graph.background
    let base = (
      Double(back?.red ?? 255), Double(back?.green ?? 255), Double(back?.blue ?? 255)
    )
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let k = (y * width + x) * 4
        guard x < image.width, y < image.height else {
          pixels[k] = UInt8(base.0)
          pixels[k + 1] = UInt8(base.1)
          pixels[k + 2] = UInt8(base.2)
          continue
        }
        let j = (y * image.width + x) * 4
        let a = Double(image.pixels[j + 3]) / 255
        pixels[k] = UInt8((Double(image.pixels[j]) * a + base.0 * (1 - a)).rounded())
        pixels[k + 1] = UInt8((Double(image.pixels[j + 1]) * a + base.1 * (1 - a)).rounded())
        pixels[k + 2] = UInt8((Double(image.pixels[j + 2]) * a + base.2 * (1 - a)).rounded())
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }
}

extension Double {
  /// Shortest decimal text, for ffmpeg's frame rate.
  var shortestText: String {
    self == rounded() && abs(self) < 1e9 ? String(Int(self)) : "\(self)"
  }
}
