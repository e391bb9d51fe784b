import SceneGeometry

/// Fixed-precision number text shared by the text formats: at most `precision`
/// decimals, trailing zeros and a negative zero dropped, so `120.5`, `80`, `-0.001`.
/// Deterministic on every platform: it rounds the decimal value, not the binary one's
/// printout.
enum NumberText {
  static func format(_ value: Double, precision: Int) -> String {
    guard value.isFinite else { return "0" }  // The runtime never hands on one; stay valid anyway.
    var scale = 1.0
    for _ in 0..<max(0, min(precision, 15)) { scale *= 10 }
    let rounded = (value * scale).rounded(.toNearestOrAwayFromZero)
    guard abs(rounded) < 9e15 else { return value.shortestDescription }
    let integer = Int64(rounded)
    if integer == 0 { return "0" }
    let negative = integer < 0
    var digits = String(integer.magnitude)
    let decimals = max(0, min(precision, 15))
    if decimals > 0 {
      if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
      let split = digits.index(digits.endIndex, offsetBy: -decimals)
      var fraction = String(digits[split...])
      while fraction.hasSuffix("0") { fraction.removeLast() }
      digits = String(digits[..<split]) + (fraction.isEmpty ? "" : "." + fraction)
    }
    return (negative ? "-" : "") + digits
  }
}
