/// Numbers with a fixed count of decimals, for the messages the commands print.
public enum FixedDecimals {
  /// `value` with exactly `decimals` (0…15) digits after the point, as C's `%.Nf` writes
  /// it: the exact binary value rounded, ties to even; without Foundation's
  /// `String(format:)`, which alone would link all of Foundation into `scenec`.
  public static func text(_ value: Double, decimals: Int) -> String {
    let decimals = min(max(decimals, 0), 15)
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let magnitude = value.magnitude
    let product = magnitude * scale
    guard value.isFinite, product < 4e15 else { return value.description }
    // The product's rounding error, exactly (a fused multiply-add), decides which side
    // of the halfway point the exact product lies: `0.05` is a little above 1/20, so it
    // is `0.1` at one decimal, though `0.05 * 10` rounds to exactly 0.5.
    let error = (-product).addingProduct(magnitude, scale)
    var units = product.rounded(.down)
    let fromHalfway = (product - (units + 0.5)) + error
    if fromHalfway > 0 || (fromHalfway == 0 && units.truncatingRemainder(dividingBy: 2) != 0) {
      units += 1
    }
    let digits = String(UInt64(units))
    let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
    let sign = value.sign == .minus && units != 0 ? "-" : ""
    guard decimals > 0 else { return sign + padded }
    return sign + padded.dropLast(decimals) + "." + padded.suffix(decimals)
  }
}
