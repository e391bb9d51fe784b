/// Decimal numbers as text, read exactly without building a string when that is possible.
package enum DecimalNumber {
  /// 10⁰ … 10²², every one an exact double.
  static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// The value of a number already scanned (an optional sign, digits with at most one
  /// point, an optional exponent), if it can be had exactly without a string.
  ///
  /// That is when it has at most 15 significant digits and a power of ten within 10^±22:
  /// the digits and the power are then both exact doubles, so one multiplication or
  /// division rounds correctly (Clinger's fast path), to the value `Double(String)` gives.
  /// `nil` for any other number. Path data and expressions are mostly such numbers, and
  /// this skips building a string for each one.
  package static func exactValue(_ text: ArraySlice<Unicode.Scalar>) -> Double? {
    exactValue(text.lazy.map { $0.value })
  }

  /// The same for a number given as its UTF-8 bytes (which the scan has found ASCII).
  package static func exactValue(utf8 text: String.UTF8View) -> Double? {
    exactValue(text.lazy.map { UInt32($0) })
  }

  /// The same for a number given as the values of its scalars.
  static func exactValue(_ text: some Sequence<UInt32>) -> Double? {
    var mantissa: UInt64 = 0
    var significant = 0
    var scale = 0
    var negative = false
    var exponent = 0
    var exponentNegative = false
    var exponentDigits = 0
    var inFraction = false
    var inExponent = false
    for v in text {
      if v >= 48 && v <= 57 {
        let digit = UInt64(v - 48)
        if inExponent {
          exponent = exponent * 10 + Int(digit)
          exponentDigits += 1
          if exponentDigits > 4 { return nil }
        } else {
          if mantissa != 0 || digit != 0 {
            significant += 1
            if significant > 15 { return nil }
            mantissa = mantissa * 10 + digit
          }
          if inFraction { scale -= 1 }
        }
      } else if v == 46 {  // "."
        inFraction = true
      } else if v == 101 || v == 69 {  // "e", "E"
        inExponent = true
      } else if v == 45 {  // "-"
        if inExponent { exponentNegative = true } else { negative = true }
      }
    }
    let power = scale + (exponentNegative ? -exponent : exponent)
    var value = Double(mantissa)
    if mantissa != 0 {
      guard power >= -22 && power <= 22 else { return nil }
      value = power < 0 ? value / powersOfTen[-power] : value * powersOfTen[power]
    }
    return negative ? -value : value
  }
}
