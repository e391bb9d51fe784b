import CRaster
import SceneOutputs

/// Pixels, 8-bit RGBA, not premultiplied, row after row from the top.
public struct RGBAImage: Sendable, Equatable {
  public var width: Int
  public var height: Int
  public var pixels: [UInt8]
}

/// Why a frame could not be drawn.
public struct RasterError: Error, Sendable, CustomStringConvertible {
  public var description: String
}

/// A frame's SVG (the SVG output's own picture of it) drawn by librsvg over Cairo: so a
/// PNG or a GIF shows exactly what the SVG output draws, anti-aliased by a real 2D library.
public enum SVGRaster {
  /// The largest picture drawn, in pixels a side.
  public static let maximumSide = 16_384

  /// `svg` drawn at `scale` pixels per point, on a Cairo image surface.
  static func surface(_ svg: [UInt8], scale: Double) throws(RasterError) -> OpaquePointer {
    var error: UnsafeMutablePointer<GError>?
    guard
      let handle = svg.withUnsafeBufferPointer({
        rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &error)
      })
    else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      if let error { g_error_free(error) }
      throw RasterError(description: "librsvg could not read the frame's SVG: \(message)")
    }
    defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
    var width = 0.0
    var height = 0.0
    guard rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0 else {
      throw RasterError(description: "the frame's SVG has no size in pixels")
    }
    let pixelWidth = Int((width * scale).rounded(.up))
    let pixelHeight = Int((height * scale).rounded(.up))
    guard pixelWidth > 0, pixelHeight > 0, pixelWidth <= maximumSide, pixelHeight <= maximumSide
    else {
      throw RasterError(
        description:
          "a frame of \(pixelWidth)×\(pixelHeight) pixels is outside 1…\(maximumSide) a side; choose another --scale"
      )
    }
    guard
      let surface = cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight)),
      cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
    else {
      throw RasterError(description: "Cairo could not make a \(pixelWidth)×\(pixelHeight) image")
    }
    let context = cairo_create(surface)
    defer { cairo_destroy(context) }
    cairo_scale(context, scale, scale)
    var viewport = RsvgRectangle(x: 0, y: 0, width: width, height: height)
    guard rsvg_handle_render_document(handle, context, &viewport, &error) != 0 else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      if let error { g_error_free(error) }
      cairo_surface_destroy(surface)
      throw RasterError(description: "librsvg could not draw the frame: \(message)")
    }
    cairo_surface_flush(surface)
    return surface
  }

  /// `svg` drawn at `scale`, as pixels.
  public static func image(_ svg: [UInt8], scale: Double) throws(RasterError) -> RGBAImage {
    let surface = try surface(svg, scale: scale)
    defer { cairo_surface_destroy(surface) }
    return try pixels(of: surface)
  }

  /// The pixels of an ARGB32 Cairo surface, not premultiplied.
  static func pixels(of surface: OpaquePointer) throws(RasterError) -> RGBAImage {
    let width = Int(cairo_image_surface_get_width(surface))
    let height = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard let data = cairo_image_surface_get_data(surface) else {
      throw RasterError(description: "Cairo gave no pixels")
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      // ARGB32: native-endian 32-bit words, premultiplied alpha.
      let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
      for x in 0..<width {
        let word = row[x]
        let a = Int(word >> 24)
        var r = Int((word >> 16) & 0xff)
        var g = Int((word >> 8) & 0xff)
        var b = Int(word & 0xff)
        if a > 0 && a < 255 {
          r = min(255, (r * 255 + a / 2) / a)
          g = min(255, (g * 255 + a / 2) / a)
          b = min(255, (b * 255 + a / 2) / a)
        }
        let k = (y * width + x) * 4
        pixels[k] = UInt8(r)
        pixels[k + 1] = UInt8(g)
        pixels[k + 2] = UInt8(b)
        pixels[k + 3] = UInt8(a)
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  /// `svg` drawn at `scale`, as a PNG file's bytes (Cairo's own PNG writer).
  public static func png(_ svg: [UInt8], scale: Double) throws(RasterError) -> [UInt8] {
    let surface = try surface(svg, scale: scale)
    defer { cairo_surface_destroy(surface) }
    return try pngBytes(of: surface)
  }

  /// A Cairo surface as PNG bytes, by Cairo's own PNG writer.
  static func pngBytes(of surface: OpaquePointer) throws(RasterError) -> [UInt8] {
    final class Bytes { var bytes: [UInt8] = [] }
    let sink = Bytes()
    let status = cairo_surface_write_to_png_stream(
      surface,
      { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<Bytes>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
      }, Unmanaged.passUnretained(sink).toOpaque())
    guard status == CAIRO_STATUS_SUCCESS else {
      throw RasterError(description: "Cairo could not write the PNG")
    }
    return sink.bytes
  }
}
