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
    if let color = Color.named[text.lowercased()] {
      self = color
      return
    }
    guard text.hasPrefix("#") else { return nil }
    var digits: [UInt8] = []
    for scalar in text.unicodeScalars.dropFirst() {
      guard let value = UInt8(String(scalar), radix: 16) else { return nil }
      digits.append(value)
    }
    switch digits.count {
    case 3, 4:
      let channels = digits.map { $0 * 17 }
      self.init(
        red: channels[0], green: channels[1], blue: channels[2],
        alpha: digits.count == 4 ? channels[3] : 255)
    case 6, 8:
      let channels = stride(from: 0, to: digits.count, by: 2).map { digits[$0] * 16 + digits[$0 + 1] }
      self.init(
        red: channels[0], green: channels[1], blue: channels[2],
        alpha: digits.count == 8 ? channels[3] : 255)
    default:
      return nil
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
