import CRaster
import SceneOutputs
import SceneRuntime

/// An animated GIF, written frame by frame through giflib: memory holds one frame.
///
/// The palette is fixed and global (6 levels of red, 7 of green, 6 of blue, and a
/// transparent entry), and colours are dithered with a 4×4 ordered (Bayer) matrix: the same
/// colour gets the same pattern in every frame, so a still background stays still where
/// error diffusion would make it crawl from frame to frame. GIF times frames in hundredths
/// of a second and browsers slow anything under 2 to 10, so a frame is kept only when it
/// is at least 2 hundredths after the last one kept (at most 50 a second); the last frame
/// holds for a second before the loop starts again.
struct GIFWriter: FrameWriter {
  let context: OutputContext
  /// The file being written, once the first frame gave its size.
  var file: GIFFile?
  /// The frame kept last, not yet written: its delay is known at the next one.
  var pending: (indices: [UInt8], centiseconds: Int)?
  var failure: String?

  init(context: OutputContext) { self.context = context }

  mutating func frame(_ frame: Frame, into sink: inout TextBytes) {
    guard failure == nil else { return }
    let centiseconds = Int((frame.time * 100).rounded())
    if let pending, centiseconds - pending.centiseconds < 2 { return }
    do {
      let image = try SVGRaster.image(svg(of: frame, context: context), scale: context.scale)
      if file == nil { file = try GIFFile(width: image.width, height: image.height) }
      guard let file, image.width == file.width, image.height == file.height else {
        throw RasterError(description: "the frames of a GIF must all be one size")
      }
      let indices = Palette.indices(of: image)
      if let pending {
        try file.write(pending.indices, delay: centiseconds - pending.centiseconds)
        file.drain(into: &sink)
      }
      pending = (indices, centiseconds)
    } catch let error as RasterError {
      failure = error.description
    } catch {
      failure = "\(error)"
    }
  }

  mutating func end(into sink: inout TextBytes) {
    guard failure == nil, let file else { return }
    do {
      if let pending { try file.write(pending.indices, delay: 100) }
      try file.close()
      file.drain(into: &sink)
    } catch {
      failure = error.description
    }
  }
}

/// The fixed palette, and ordered dithering onto it.
enum Palette {
  static let redLevels = 6
  static let greenLevels = 7
  static let blueLevels = 6
  /// The entry that stands for a transparent pixel.
  static let transparent = 255

  /// The 256 colours, as r, g, b bytes.
  static let colors: [UInt8] = {
    var colors = [UInt8](repeating: 0, count: 256 * 3)
    var k = 0
    for r in 0..<redLevels {
      for g in 0..<greenLevels {
        for b in 0..<blueLevels {
          colors[3 * k] = level(r, of: redLevels)
          colors[3 * k + 1] = level(g, of: greenLevels)
          colors[3 * k + 2] = level(b, of: blueLevels)
          k += 1
        }
      }
    }
    return colors
  }()

  static func level(_ k: Int, of levels: Int) -> UInt8 {
    UInt8((Double(k) * 255 / Double(levels - 1)).rounded())
  }

  /// The 4×4 Bayer matrix, thresholds 0…15.
  static let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

  /// A channel value dithered onto `levels` levels at pixel (x, y).
  @inline(__always)
  static func quantize(_ value: UInt8, levels: Int, x: Int, y: Int) -> Int {
    let step = 255.0 / Double(levels - 1)
    let threshold = (Double(bayer[(y & 3) * 4 + (x & 3)]) + 0.5) / 16 - 0.5
    let scaled = Double(value) / step + threshold
    return min(levels - 1, max(0, Int(scaled.rounded())))
  }

  /// Each pixel's palette entry: transparent below half alpha.
  static func indices(of image: RGBAImage) -> [UInt8] {
    var indices = [UInt8](repeating: 0, count: image.width * image.height)
    image.pixels.withUnsafeBufferPointer { p in
      for y in 0..<image.height {
        for x in 0..<image.width {
          let k = y * image.width + x
          guard p[4 * k + 3] >= 128 else {
            indices[k] = UInt8(transparent)
            continue
          }
          let r = quantize(p[4 * k], levels: redLevels, x: x, y: y)
          let g = quantize(p[4 * k + 1], levels: greenLevels, x: x, y: y)
          let b = quantize(p[4 * k + 2], levels: blueLevels, x: x, y: y)
          indices[k] = UInt8((r * greenLevels + g) * blueLevels + b)
        }
      }
    }
    return indices
  }
}

/// giflib's encoder, writing into memory that the writer drains after each frame.
final class GIFFile {
  let width: Int
  let height: Int
  private var gif: UnsafeMutablePointer<GifFileType>?
  private let output = Output()

  final class Output { var bytes: [UInt8] = [] }

  init(width: Int, height: Int) throws(RasterError) {
    self.width = width
    self.height = height
    var status: Int32 = 0
    gif = EGifOpen(
      Unmanaged.passUnretained(output).toOpaque(),
      { file, data, length in
        guard let file, let data, let user = file.pointee.UserData else { return 0 }
        let output = Unmanaged<Output>.fromOpaque(user).takeUnretainedValue()
        output.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return length
      }, &status)
    guard let gif else {
      throw RasterError(description: "giflib could not start a GIF (\(status))")
    }
    EGifSetGifVersion(gif, true)
    // giflib copies the colours into its own map.
    var entries = (0..<256).map { k in
      GifColorType(
        Red: Palette.colors[3 * k], Green: Palette.colors[3 * k + 1],
        Blue: Palette.colors[3 * k + 2])
    }
    let map = GifMakeMapObject(256, &entries)
    defer { GifFreeMapObject(map) }
    guard EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map) == GIF_OK else {
      throw RasterError(description: "giflib could not write the GIF's header")
    }
    // Loop for ever: the NETSCAPE2.0 application extension, count 0.
    var loop: [UInt8] = Array("NETSCAPE2.0".utf8)
    var count: [UInt8] = [1, 0, 0]
    guard EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
      EGifPutExtensionBlock(gif, Int32(loop.count), &loop) == GIF_OK,
      EGifPutExtensionBlock(gif, Int32(count.count), &count) == GIF_OK,
      EGifPutExtensionTrailer(gif) == GIF_OK
    else { throw RasterError(description: "giflib could not write the GIF's loop") }
  }

  /// Writes one frame of palette entries, shown for `delay` hundredths of a second.
  func write(_ indices: [UInt8], delay: Int) throws(RasterError) {
    guard let gif else { throw RasterError(description: "the GIF is closed") }
    // Graphics control: dispose to background (each frame is whole), the delay, and the
    // transparent entry.
    var control: [UInt8] = [
      0x09, UInt8(delay & 0xff), UInt8((delay >> 8) & 0xff), UInt8(Palette.transparent),
    ]
    guard EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, &control) == GIF_OK,
      EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, nil) == GIF_OK
    else { throw RasterError(description: "giflib could not start a frame") }
    var row = [UInt8](repeating: 0, count: width)
    for y in 0..<height {
      for x in 0..<width { row[x] = indices[y * width + x] }
      guard EGifPutLine(gif, &row, Int32(width)) == GIF_OK else {
        throw RasterError(description: "giflib could not write a frame")
      }
    }
  }

  func close() throws(RasterError) {
    guard let gif else { return }
    self.gif = nil
    var status: Int32 = 0
    guard EGifCloseFile(gif, &status) == GIF_OK else {
      throw RasterError(description: "giflib could not finish the GIF (\(status))")
    }
  }

  /// Moves what giflib has written so far into `sink`.
  func drain(into sink: inout TextBytes) {
    output.bytes.withUnsafeBufferPointer { sink.append($0) }
    output.bytes.removeAll(keepingCapacity: true)
  }

  deinit {
    if let gif {
      var status: Int32 = 0
      EGifCloseFile(gif, &status)
    }
  }
}
