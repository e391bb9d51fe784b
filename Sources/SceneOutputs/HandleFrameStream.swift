import SceneRuntime

/// The HTML player's handles of every frame, packed as numbers rather than text.
///
/// A page has to hold every frame, and as JSON text a handle costs about 40 bytes a
/// frame. Packed, a handle that did not move costs a fraction of a byte and a moving one
/// a few bytes, and the player shows exactly the numbers the text would have given (see
/// ``Value``).
///
/// The stream (encoding `scenec-delta-1`, written base64 into the page's JSON as
/// `handleFrames.data`): frames one after another, each covering the graph's handles in
/// order with tokens:
/// - `1nnnnnnn`: the next `n + 1` handles (1…128) are as in the frame before;
/// - `00100000`: the next handle is missing from this frame (`null`);
/// - `0r0smmmm` (any other): the next handle, present; bits 0–3 say which of x, y, angle
///   and r changed, bit 4 whether its state did. With bit 6 set, a byte follows whose
///   bits 0–3 say which of those changed numbers are raw. Then, for each changed number in
///   that order: a raw one as 8 bytes of IEEE 754 binary64, little-endian; any other as
///   the zigzag LEB128 varint of its scaled integer minus the previous one (0 after a raw
///   value). Then, if the state changed, one byte: its index in `handleFrames.states`.
///
/// A number's scaled integer is the value times 10^precision, rounded as the text formats
/// round it (``NumberText``); the player divides it by 10^precision. Every
/// `keyframeEvery`-th frame (0, 32, 64, …) starts afresh from zeros, state 0 and every
/// handle present, so the player can decode any frame from the keyframe before it.
struct HandleFrameStream {
  /// The encoding's name in the page, for readers to check.
  static let encoding = "scenec-delta-1"
  /// Frames between restarts: a seek decodes at most this many frames.
  static let keyframeEvery = 32
  /// The states in the order their indices name them.
  static let states = HandleState.allCases
  /// Scaled integers below 2^51 in magnitude are written as deltas: a delta then stays
  /// below 2^52 and its zigzag below 2^53, exact in a JavaScript number.
  static let deltaLimit: UInt64 = 1 << 51

  /// A number as the player will show it.
  enum Value: Equatable {
    /// The text's digits as an integer: the value is `scaled / 10^precision`.
    case scaled(Int64)
    /// Too large for a delta: the binary64 the text would parse to, as its bits.
    case raw(UInt64)

    init(_ value: Double, precision: Int) {
      let decimals = precision < 0 ? 0 : precision > 15 ? 15 : precision
      guard let integer = NumberText.scaledInteger(of: value, decimals: decimals) else {
        // Printed as its shortest round-trip text, which parses back to the value itself.
        self = .raw(value.bitPattern)
        return
      }
      if integer.magnitude < HandleFrameStream.deltaLimit {
        self = .scaled(integer)
      } else {
        // Below 9e15 the integer is exact in a Double and the division rounds correctly,
        // as parsing the decimal text does.
        self = .raw((Double(integer) / NumberText.scales[decimals]).bitPattern)
      }
    }

    var scaledOrZero: Int64 {
      if case .scaled(let integer) = self { return integer }
      return 0
    }
  }

  let handleCount: Int
  let precision: Int
  /// The stream so far.
  private(set) var bytes: [UInt8] = []
  private(set) var frameCount = 0
  /// Per handle, x, y, angle and r as last written.
  private var previous: [Value]
  private var previousStates: [UInt8]
  private var present: [Bool]

  init(handleCount: Int, precision: Int) {
    self.handleCount = handleCount
    self.precision = precision
    previous = Array(repeating: .scaled(0), count: 4 * handleCount)
    previousStates = Array(repeating: 0, count: handleCount)
    present = Array(repeating: true, count: handleCount)
  }

  static func stateIndex(_ state: HandleState) -> UInt8 {
    switch state {
    case .idle: 0
    case .dragging: 1
    case .animating: 2
    case .settling: 3
    case .hidden: 4
    }
  }

  /// Adds one frame's handles (the graph's handles in order; past the end, missing).
  mutating func append(_ handles: [HandleFrame]) {
    if frameCount % Self.keyframeEvery == 0 {
      for i in previous.indices { previous[i] = .scaled(0) }
      for i in previousStates.indices { previousStates[i] = 0 }
      for i in present.indices { present[i] = true }
    }
    var unchanged = 0
    for i in 0..<handleCount {
      guard i < handles.count else {
        if present[i] {
          writeUnchanged(&unchanged)
          bytes.append(0x20)
          present[i] = false
        } else {
          unchanged += 1
        }
        continue
      }
      let handle = handles[i]
      let numbers = (
        Value(handle.x, precision: precision), Value(handle.y, precision: precision),
        Value(handle.angle, precision: precision), Value(handle.radius, precision: precision)
      )
      // Fields by number, without an array for every handle of every frame.
      func value(_ f: Int) -> Value {
        switch f {
        case 0: numbers.0
        case 1: numbers.1
        case 2: numbers.2
        default: numbers.3
        }
      }
      let state = Self.stateIndex(handle.state)
      var changed: UInt8 = 0
      var raw: UInt8 = 0
      for f in 0..<4 where value(f) != previous[4 * i + f] {
        changed |= 1 << f
        if case .raw = value(f) { raw |= 1 << f }
      }
      if state != previousStates[i] { changed |= 0x10 }
      if changed == 0 && present[i] {
        unchanged += 1
        continue
      }
      writeUnchanged(&unchanged)
      bytes.append(raw == 0 ? changed : changed | 0x40)
      if raw != 0 { bytes.append(raw) }
      for f in 0..<4 where changed & (1 << f) != 0 {
        switch value(f) {
        case .raw(let bits):
          for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> (8 * k))) }
        case .scaled(let integer):
          writeVarint(zigzag(integer - previous[4 * i + f].scaledOrZero))
        }
        previous[4 * i + f] = value(f)
      }
      if changed & 0x10 != 0 { bytes.append(state) }
      previousStates[i] = state
      present[i] = true
    }
    writeUnchanged(&unchanged)
    frameCount += 1
  }

  private mutating func writeUnchanged(_ count: inout Int) {
    while count > 0 {
      let run = min(count, 128)
      bytes.append(0x80 | UInt8(run - 1))
      count -= run
    }
  }

  private func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  private mutating func writeVarint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// Hands the stream to `write` as base64 in pieces of at most 64 KiB, letting go of it.
  mutating func drainBase64<Failure: Error>(
    _ write: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
  ) throws(Failure) {
    let stream = bytes
    bytes = []
    let piece = 3 * 16_384
    var start = 0
    var text = [UInt8](repeating: 0, count: 4 * 16_384)
    while start < stream.count {
      let end = min(start + piece, stream.count)
      let length = Base64.encode(stream[start..<end], into: &text)
      // Caught and thrown again outside: `withUnsafeBufferPointer` rethrows untyped.
      var failure: Failure?
      text.withUnsafeBufferPointer { buffer in
        do throws(Failure) {
          try write(UnsafeBufferPointer(rebasing: buffer[0..<length]))
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      start = end
    }
  }
}

/// Standard base64 (RFC 4648, with padding), as `atob` reads it.
enum Base64 {
  static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Writes `bytes` as base64 at the start of `text` (which must hold 4 per 3 bytes,
  /// rounded up) and returns how many it wrote.
  static func encode(_ bytes: ArraySlice<UInt8>, into text: inout [UInt8]) -> Int {
    var out = 0
    var i = bytes.startIndex
    while i + 3 <= bytes.endIndex {
      let word = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      text[out] = alphabet[Int(word >> 18)]
      text[out + 1] = alphabet[Int(word >> 12 & 63)]
      text[out + 2] = alphabet[Int(word >> 6 & 63)]
      text[out + 3] = alphabet[Int(word & 63)]
      out += 4
      i += 3
    }
    let left = bytes.endIndex - i
    if left > 0 {
      let word = UInt32(bytes[i]) << 16 | (left == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
      text[out] = alphabet[Int(word >> 18)]
      text[out + 1] = alphabet[Int(word >> 12 & 63)]
      text[out + 2] = left == 2 ? alphabet[Int(word >> 6 & 63)] : UInt8(ascii: "=")
      text[out + 3] = UInt8(ascii: "=")
      out += 4
    }
    return out
  }
}
