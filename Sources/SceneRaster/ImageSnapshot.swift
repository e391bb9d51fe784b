import CRaster

/// A picture compared with the one recorded for it (`scenec test --images`): each pixel
/// within a tolerance, and where they differ, a picture that shows where.
public enum ImageSnapshot {
  /// The default largest difference of a channel (0…255) that still counts as the same:
  /// anti-aliased edges and text drawn by another font engine vary by a little.
  public static let defaultTolerance = 16

  /// How two pictures differ.
  public struct Difference: Sendable {
    /// How many pixels differ by more than the tolerance, of how many.
    public var differing: Int
    public var pixels: Int
    /// The largest difference of a channel.
    public var largest: Int
    /// The new picture with each differing pixel in magenta and the others faded, as PNG.
    public var diffPNG: [UInt8]
  }

  /// `actual` (PNG bytes) against `expected` (PNG bytes): `nil` when every pixel is within
  /// `tolerance`; a size change counts every pixel.
  public static func compare(expected: [UInt8], actual: [UInt8], tolerance: Int) throws(RasterError)
    -> Difference?
  {
    let old = try decode(expected)
    let new = try decode(actual)
    var diff = new
    var differing = 0
    var largest = 0
    let sameSize = old.width == new.width && old.height == new.height
    for k in stride(from: 0, to: new.pixels.count, by: 4) {
      var d = 255
      if sameSize {
        d = 0
        for c in 0..<4 { d = max(d, abs(Int(old.pixels[k + c]) - Int(new.pixels[k + c]))) }
      }
      largest = max(largest, d)
      if d > tolerance {
        differing += 1
        diff.pixels[k] = 255
        diff.pixels[k + 1] = 0
        diff.pixels[k + 2] = 255
        diff.pixels[k + 3] = 255
      } else {
        diff.pixels[k + 3] = diff.pixels[k + 3] / 4
      }
    }
    guard differing > 0 else { return nil }
    return Difference(
      differing: differing, pixels: new.width * new.height, largest: largest,
      diffPNG: try encode(diff))
  }

  /// The pixels of a PNG, read by Cairo.
  public static func decode(_ png: [UInt8]) throws(RasterError) -> RGBAImage {
    final class Reader {
      let bytes: [UInt8]
      var at = 0
      init(_ bytes: [UInt8]) { self.bytes = bytes }
    }
    let reader = Reader(png)
    let surface = cairo_image_surface_create_from_png_stream(
      { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
        let reader = Unmanaged<Reader>.fromOpaque(closure).takeUnretainedValue()
        let count = Int(length)
        guard reader.at + count <= reader.bytes.count else { return CAIRO_STATUS_READ_ERROR }
        for k in 0..<count { data[k] = reader.bytes[reader.at + k] }
        reader.at += count
        return CAIRO_STATUS_SUCCESS
      }, Unmanaged.passUnretained(reader).toOpaque())
    guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
      if let surface { cairo_surface_destroy(surface) }
      throw RasterError(description: "not a PNG Cairo can read")
    }
    defer { cairo_surface_destroy(surface) }
    return try SVGRaster.pixels(of: surface)
  }

  /// `image` as PNG bytes.
  public static func encode(_ image: RGBAImage) throws(RasterError) -> [UInt8] {
    guard
      let surface = cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height))
    else { throw RasterError(description: "Cairo could not make an image") }
    defer { cairo_surface_destroy(surface) }
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard let data = cairo_image_surface_get_data(surface) else {
      throw RasterError(description: "Cairo gave no pixels")
    }
    for y in 0..<image.height {
      let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
      for x in 0..<image.width {
        let k = (y * image.width + x) * 4
        let a = UInt32(image.pixels[k + 3])
        // Premultiplied, as ARGB32 holds it.
        let r = (UInt32(image.pixels[k]) * a + 127) / 255
        let g = (UInt32(image.pixels[k + 1]) * a + 127) / 255
        let b = (UInt32(image.pixels[k + 2]) * a + 127) / 255
        row[x] = a << 24 | r << 16 | g << 8 | b
      }
    }
    cairo_surface_mark_dirty(surface)
    return try SVGRaster.pngBytes(of: surface)
  }
}
