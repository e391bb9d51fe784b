/// Text from outside (a file name, a name written in a scene) made safe to print on a
/// terminal or in a log that renders ANSI escapes.
///
/// A file can be named `a\e[2K\rPASS ok.yaml`: printed raw, the escape erases the line and
/// a failing scene shows as passing. Every control character (C0, DEL, C1), the line and
/// paragraph separators and the bidirectional overrides and isolates (which reorder what
/// follows them, "Trojan Source") are written as escapes instead: `\x1B`, `\u{202E}`.
/// Everything else, other scripts and emoji included, prints as it is.
public enum TerminalText {
  /// `text` with every character that could control a terminal escaped.
  ///
  /// - Complexity: O(n); text of printable ASCII only is returned without copying.
  public static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if needsEscape(scalar) {
        result +=
          scalar.value < 0x100
          ? "\\x" + hex(scalar.value, digits: 2) : "\\u{" + hex(scalar.value, digits: 4) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// Whether `scalar` is one ``escaped(_:)`` writes as an escape.
  public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F: true
    case 0x2028, 0x2029: true  // Line and paragraph separators.
    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true  // Bidi controls.
    default: false
    }
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(digits - text.count, 0)) + text
  }
}
