/// An sRGB colour with alpha, each channel 0–255.
public struct Color: Hashable, Sendable, CustomStringConvertible {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8
  public var alpha: UInt8

  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// The colours that may be written by name.
  public static let named: [String: Color] = [
    "black": Color(red: 0, green: 0, blue: 0),
    "white": Color(red: 255, green: 255, blue: 255),
    "red": Color(red: 255, green: 0, blue: 0),
    "green": Color(red: 0, green: 128, blue: 0),
    "blue": Color(red: 0, green: 0, blue: 255),
    "yellow": Color(red: 255, green: 255, blue: 0),
    "orange": Color(red: 255, green: 165, blue: 0),
    "purple": Color(red: 128, green: 0, blue: 128),
    "gray": Color(red: 128, green: 128, blue: 128),
    "grey": Color(red: 128, green: 128, blue: 128),
    "transparent": Color(red: 0, green: 0, blue: 0, alpha: 0),
  ]

  /// Parses `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` or a name from ``named``.
  public init?(parsing text: String) {
    // Hex digits straight from the bytes, without a String per digit: scenes are full
    // of colours, and loading reads every one.
    if text.utf8.first == UInt8(ascii: "#") {
      var value: UInt32 = 0  // The digits, four bits each, first digit highest.
      var count = 0
      for byte in text.utf8.dropFirst() {
        guard count < 8, let digit = Self.hexValue(byte) else { return nil }
        value = value << 4 | UInt32(digit)
        count += 1
      }
      func digit(_ i: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value >> UInt32(4 * (count - 1 - i))) & 0xF
      }
      func pair(_ i: Int) -> UInt8 { digit(2 * i) << 4 | digit(2 * i + 1) }
      switch count {
      case 3, 4:
        self.init(
          red: digit(0) * 17, green: digit(1) * 17, blue: digit(2) * 17,
          alpha: count == 4 ? digit(3) * 17 : 255)
      case 6, 8:
        self.init(red: pair(0), green: pair(1), blue: pair(2), alpha: count == 8 ? pair(3) : 255)
      default:
        return nil
      }
      return
    }
    guard let color = Color.named[text.lowercased()] else { return nil }
    self = color
  }

  /// The value of an ASCII hex digit.
  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// `#rrggbb`, or `#rrggbbaa` when not opaque: the canonical form `fmt` writes.
  public var description: String {
    func hex(_ v: UInt8) -> String {
      let text = String(v, radix: 16)
      return text.count == 1 ? "0" + text : text
    }
    return "#" + hex(red) + hex(green) + hex(blue) + (alpha == 255 ? "" : hex(alpha))
  }
}
