import SceneGeometry

/// UTF-8 text under construction: the byte sink every output format writes to.
///
/// Numbers and escapes are written straight into it, so a frame costs no intermediate
/// strings. The caller drains it (``bytes``, then ``removeAll()``) into a file, a socket or
/// memory.
///
/// It owns its buffer (freed when it goes away), so it cannot be copied: callers pass it
/// `inout`.
public struct TextBytes: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// How many bytes are written.
  public private(set) var count = 0

  public init(capacity: Int = 0) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
    // Initialised, so that a number's fixed-size move (``append(_:precision:)``) never
    // reads memory that was never written.
    base.initialize(repeating: 0, count: self.capacity)
  }

  deinit { base.deallocate() }

  /// The text so far.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  /// The bytes so far, valid while the text is neither changed nor gone.
  public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Forgets the bytes written, keeping the room they took.
  public mutating func removeAll() { count = 0 }

  /// Room for `extra` more bytes.
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if count &+ extra > capacity { grow(to: count &+ extra) }
    assert(extra >= 0 && count + extra <= capacity, "a write past the end of the buffer")
  }

  @inline(never)
  private mutating func grow(to needed: Int) {
    var newCapacity = capacity &* 2
    while newCapacity < needed { newCapacity &*= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.initialize(from: base, count: count)
    (newBase + count).initialize(repeating: 0, count: newCapacity &- count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  // MARK: - Text

  @inline(__always)
  public mutating func append(_ byte: UInt8) {
    reserve(1)
    assert(count < capacity, "write past the end")
    base[count] = byte
    count &+= 1
  }

  @inline(__always)
  public mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
    guard let source = buffer.baseAddress else { return }
    append(UnsafeRawPointer(source), count: buffer.count)
  }

  /// Appends `bytes[range]`.
  ///
  /// The closure that reads the array captures only the
  /// destination, never `self` (see the type's note).
  @inline(__always)
  mutating func append(_ bytes: [UInt8], _ range: Range<Int>) {
    let n = range.count
    guard n > 0 else { return }
    reserve(n)
    let destination = UnsafeMutableRawPointer(base + count)
    bytes.withUnsafeBytes {
      // Never nil here: `n > 0` bytes are being copied.
      guard let source = $0.baseAddress else { return }
      TextBytes.copy(source + range.lowerBound, to: destination, count: n)
    }
    count &+= n
  }

  @inline(__always)
  mutating func append(_ source: UnsafeRawPointer, count n: Int) {
    guard n > 0 else { return }
    reserve(n)
    TextBytes.copy(source, to: UnsafeMutableRawPointer(base + count), count: n)
    count &+= n
  }

  /// Copies `n` bytes into room already reserved (``reserve(_:)`` checks the room in
  /// debug builds).
  @inline(__always)
  private static func copy(
    _ source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count n: Int
  ) {
    destination.copyMemory(from: source, byteCount: n)
  }

  @inline(__always)
  public mutating func append(_ text: StaticString) {
    if text.hasPointerRepresentation {
      append(UnsafeRawPointer(text.utf8Start), count: text.utf8CodeUnitCount)
    } else {
      append(text.description)
    }
  }

  @inline(__always)
  public mutating func append(_ text: String) {
    var text = text
    let n = text.utf8.count
    guard n > 0 else { return }
    reserve(n)
    let destination = UnsafeMutableRawPointer(base + count)
    // The closure only sees the destination, never `self`.
    text.withUTF8 { source in
      guard let start = source.baseAddress else { return }
      TextBytes.copy(UnsafeRawPointer(start), to: destination, count: n)
    }
    count &+= n
  }

  @inline(__always)
  public mutating func append(_ other: borrowing TextBytes) {
    append(other.bytes)
  }

  /// `true` or `false`.
  @inline(__always)
  public mutating func append(_ value: Bool) {
    if value { append("true") } else { append("false") }
  }

  // MARK: - Numbers

  /// An integer's decimal digits, with a `-` when negative (as `String(value)` prints it).
  public mutating func append(_ value: Int) {
    let magnitude = value.magnitude
    var digits = 1
    var rest = magnitude / 10
    while rest > 0 {
      digits &+= 1
      rest /= 10
    }
    let length = value < 0 ? digits &+ 1 : digits
    reserve(length)
    var position = base + (count &+ length)
    rest = magnitude
    repeat {
      position -= 1
      position.pointee = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest > 0
    if value < 0 { (position - 1).pointee = UInt8(ascii: "-") }
    count &+= length
  }

  /// A number as ``NumberText/format(_:precision:)`` prints it.
  @inline(__always)
  public mutating func append(_ value: Double, precision: Int) {
    let parts = NumberText.parts(of: value, precision: precision)
    guard parts.fractionDigits >= 0 else { return appendShortest(value) }
    // Written backwards in the room past the text (at most 18 bytes, ending 72 bytes on),
    // then moved to its place as 24 bytes whatever its length: three loads and three
    // stores, with no branch and no call to `memmove`. The bytes past the number are
    // written over by whatever comes next.
    reserve(96)
    let end = base + (count &+ 72)
    let start = parts.write(endingAt: end)
    let source = UnsafeRawPointer(start)
    let destination = UnsafeMutableRawPointer(base + count)
    let first = source.loadUnaligned(as: UInt64.self)
    let second = source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    let third = source.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
    destination.storeBytes(of: first, as: UInt64.self)
    destination.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
    destination.storeBytes(of: third, toByteOffset: 16, as: UInt64.self)
    count &+= end - start
  }

  @inline(never)
  private mutating func appendShortest(_ value: Double) {
    append(value.shortestDescription)
  }

  // MARK: - Escapes

  /// A JSON string literal, as ``JSONText/quoted(_:)`` writes it.
  public mutating func appendQuoted(_ value: String) {
    append(UInt8(ascii: "\""))
    if TextBytes.needsJSONEscapes(value) {
      appendJSONEscaped(value)
    } else {
      append(value)
    }
    append(UInt8(ascii: "\""))
  }

  /// Whether any byte of `value` starts something JSON escapes: a byte below 0x20, `"`,
  /// `\` or 0xE2 (U+2028 and U+2029 are E2 80 A8 and E2 80 A9).
  @inline(__always)
  static func needsJSONEscapes(_ value: String) -> Bool {
    var value = value
    return value.withUTF8 { bytes in
      for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2 {
        return true
      }
      return false
    }
  }

  /// Text with JSON's escapes: quotes, backslashes, control characters and the line and
  /// paragraph separators.
  @inline(never)
  mutating func appendJSONEscaped(_ value: String) {
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": append("\\\"")
      case "\\": append("\\\\")
      case "\n": append("\\n")
      case "\r": append("\\r")
      case "\t": append("\\t")
      case "\u{8}": append("\\b")
      case "\u{C}": append("\\f")
      case "\u{2028}": append("\\u2028")
      case "\u{2029}": append("\\u2029")
      case _ where scalar.value < 0x20:
        let high = UInt8(truncatingIfNeeded: scalar.value >> 4)
        let low = UInt8(truncatingIfNeeded: scalar.value & 0xF)
        append("\\u00")
        append(0x30 &+ high)  // 0 or 1.
        append(low < 10 ? 0x30 &+ low : 0x61 &+ (low &- 10))
      default:
        // Every Unicode scalar has a UTF-8 encoding.
        if let encoded = UTF8.encode(scalar) {
          for byte in encoded { append(byte) }
        }
      }
    }
  }

  // MARK: - Path data

  /// SVG path data at a fixed precision, as ``PathText/data(_:precision:)`` writes it.
  public mutating func append(_ path: Path, precision p: Int) {
    // Read in place: copying a subpath or segment out of its array retains its storage.
    path.subpaths.withUnsafeBufferPointer { subpaths in
      for subpath in subpaths.indices {
        append(subpaths[subpath], precision: p)
      }
    }
  }

  /// One subpath's data: `M`, its segments, and `Z` if it is closed.
  private mutating func append(_ subpath: borrowing Subpath, precision p: Int) {
    append(UInt8(ascii: "M"))
    append(subpath.start, precision: p)
    subpath.segments.withUnsafeBufferPointer { segments in
      for segment in segments {
        switch segment {
        case .line(_, let b):
          append(UInt8(ascii: "L"))
          append(b, precision: p)
        case .quadratic(_, let c, let b):
          append(UInt8(ascii: "Q"))
          append(c, precision: p)
          append(UInt8(ascii: " "))
          append(b, precision: p)
        case .cubic(_, let c1, let c2, let b):
          append(UInt8(ascii: "C"))
          append(c1, precision: p)
          append(UInt8(ascii: " "))
          append(c2, precision: p)
          append(UInt8(ascii: " "))
          append(b, precision: p)
        }
      }
    }
    if subpath.isClosed { append(UInt8(ascii: "Z")) }
  }

  /// `x y`.
  @inline(__always)
  public mutating func append(_ point: Point, precision p: Int) {
    append(point.x, precision: p)
    append(UInt8(ascii: " "))
    append(point.y, precision: p)
  }
}
