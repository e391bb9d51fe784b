extension Double {
  /// The shortest decimal text that reads back as exactly this value.
  ///
  /// Swift's `description` already prints the shortest round-trip digits; this drops
  /// the redundant `.0` of whole numbers and the sign of negative zero, so the text
  /// suits both SVG path data and JSON: `100`, `-1.5`, `0.1`, `1e-05`, `1e+20`.
  /// Not-a-number and infinities print as `nan`, `inf` and `-inf`, which neither
  /// format accepts; callers keep such values out.
  public var shortestDescription: String {
    if self == 0 { return "0" }
    var text = description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
  }
}
