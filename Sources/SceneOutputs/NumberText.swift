import SceneGeometry

/// Fixed-precision number text shared by the text formats: at most `precision`
/// decimals, trailing zeros and a negative zero dropped, so `120.5`, `80`, `-0.001`.
///
/// Deterministic on every platform: it rounds the decimal value, not the binary one's
/// printout.
///
/// The value times 10^precision is rounded half away from zero to an integer, whose
/// digits are printed with a decimal point `precision` places from the right; values
/// whose scaled magnitude reaches 9e15 print as their shortest round-trip text instead.
/// The digits come from integer arithmetic, written straight into a byte buffer
/// (``TextBytes``) or a small stack buffer, no strings.
enum NumberText {
  static func format(_ value: Double, precision: Int) -> String {
    withText(of: value, precision: precision) { String(decoding: $0, as: UTF8.self) }
  }

  /// 10^0 through 10^15, all exact in a `Double`.
  static let scales: [Double] = [
    1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  ]

  /// A number's text as parts: the digits of `magnitude`, the last `fractionDigits` of
  /// them after a decimal point (none of them a trailing zero), after a `-` if
  /// `negative`.
  ///
  /// A negative `fractionDigits` means the value is too large for fixed point
  /// and prints as its shortest round-trip text.
  struct Parts {
    var magnitude: UInt64
    var fractionDigits: Int
    var negative: Bool

    /// Writes the text backwards, ending just before `end`, and returns where it starts;
    /// it takes at most 18 bytes (a sign, 16 digits or a `0` and 15 decimals, a point).
    ///
    /// Two digits at a time (``digitPairs``): half the divisions, each of which waits for
    /// the one before.
    @inline(__always) @discardableResult
    func write(endingAt end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
      let pairs = NumberText.digitPairs.utf8Start
      var position = end
      var magnitude = self.magnitude
      @inline(__always) func writePair() {
        let rest = magnitude / 100
        let pair = 2 &* Int(truncatingIfNeeded: magnitude &- rest &* 100)
        position -= 2
        position[0] = pairs[pair]
        position[1] = pairs[pair &+ 1]
        magnitude = rest
      }
      @inline(__always) func writeDigit() {
        position -= 1
        position.pointee = 0x30 &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      }
      if fractionDigits > 0 {
        var left = fractionDigits
        while left >= 2 {
          writePair()
          left &-= 2
        }
        if left == 1 { writeDigit() }
        position -= 1
        position.pointee = UInt8(ascii: ".")
      }
      while magnitude >= 100 { writePair() }
      if magnitude >= 10 { writePair() } else { writeDigit() }
      // The sign without a branch: written always, kept when negative.
      (position - 1).pointee = UInt8(ascii: "-")
      return negative ? position - 1 : position
    }
  }

  /// "00", "01", … "99" one after another: the two digits of n at 2n.
  static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// `value` at `precision` as ``Parts``.
  @inline(__always)
  static func parts(of value: Double, precision: Int) -> Parts {
    let decimals = precision < 0 ? 0 : precision > 15 ? 15 : precision
    guard let integer = scaledInteger(of: value, decimals: decimals) else {
      return Parts(magnitude: 0, fractionDigits: -1, negative: false)
    }
    // Zero, negative zero and whatever rounds to either print as `0`.
    if integer == 0 { return Parts(magnitude: 0, fractionDigits: 0, negative: false) }
    var magnitude = integer.magnitude
    // Trailing zeros of the fraction go first.
    var fractionDigits = decimals
    while fractionDigits > 0, magnitude % 10 == 0 {
      magnitude /= 10
      fractionDigits &-= 1
    }
    return Parts(magnitude: magnitude, fractionDigits: fractionDigits, negative: integer < 0)
  }

  /// The integer whose digits ``parts(of:precision:)`` prints: `value` times
  /// 10^`decimals` (0…15) rounded half away from zero, `0` for a non-finite value, or
  /// `nil` when its magnitude reaches 9e15 and the text is the shortest round-trip one.
  @inline(__always)
  static func scaledInteger(of value: Double, decimals: Int) -> Int64? {
    // The runtime never hands on a non-finite value; stay valid anyway.
    // Written as `0`.
    guard value.isFinite else { return 0 }
    let scaled = value * scales[decimals]
    if abs(scaled) < 8e15 {
      // Rounding half away from zero without a libm call: the conversion truncates, and
      // below 2^53 the fraction it leaves is exact.
      let truncated = Int64(scaled)
      let fraction = scaled - Double(truncated)
      // Without branches: a fraction's half is as likely as not.
      let up: Int64 = fraction >= 0.5 ? 1 : 0
      let down: Int64 = fraction <= -0.5 ? 1 : 0
      return truncated &+ up &- down
    }
    let rounded = scaled.rounded(.toNearestOrAwayFromZero)
    guard abs(rounded) < 9e15 else { return nil }
    return Int64(rounded)
  }

  /// Calls `body` with the UTF-8 text of `value` at `precision`, valid only during the call.
  @inline(__always)
  static func withText<Result>(
    of value: Double, precision: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    let parts = parts(of: value, precision: precision)
    guard parts.fractionDigits >= 0 else { return shortest(value, body) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
      guard let base = buffer.baseAddress else {
        return body(UnsafeBufferPointer(start: nil, count: 0))
      }
      let end = base + 24
      let start = parts.write(endingAt: end)
      return body(UnsafeBufferPointer(start: start, count: end - start))
    }
  }

  /// Past what the fixed-point digits can hold: the shortest round-trip text.
  @inline(never)
  static func shortest<Result>(_ value: Double, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
    -> Result
  {
    var text = value.shortestDescription
    return text.withUTF8 { body($0) }
  }
}
