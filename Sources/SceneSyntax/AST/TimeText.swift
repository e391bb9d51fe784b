/// Times as scenes write them: `0.9s`, `900ms`, or a bare number of seconds.
public enum TimeText {
  /// Seconds from `0.9s`, `900ms` or `0.9`; `nil` for anything else or a non-finite value.
  ///
  /// Milliseconds are divided by 1000, so `900ms` is exactly the double nearest 0.9.
  public static func seconds(_ text: String) -> Double? {
    var number = Substring(text)
    var milliseconds = false
    if number.hasSuffix("ms") {
      number = number.dropLast(2)
      milliseconds = true
    } else if number.hasSuffix("s") {
      number = number.dropLast()
    }
    guard let value = Double(number), value.isFinite else { return nil }
    return milliseconds ? value / 1000 : value
  }
}
