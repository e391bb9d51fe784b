import RealModule
import SceneVocabulary

/// A colour in OKLab, with its alpha beside it.
///
/// OKLab is Björn Ottosson's ("A perceptual color space for image processing", 2020,
/// bottosson.github.io/posts/oklab): lightness `l`, and `a`, `b` from green to red and
/// blue to yellow. Mixing two colours along a straight line here keeps the lightness even,
/// where a mix of sRGB numbers goes muddy in the middle.
public struct OKLab: Hashable, Sendable {
  public var l: Double
  public var a: Double
  public var b: Double
  public var alpha: Double

  /// The colour of `color` (its channels decoded from sRGB to linear light first).
  public init(_ color: Color) {
    let r = Self.linear(color.red)
    let g = Self.linear(color.green)
    let bl = Self.linear(color.blue)
    let lms = (
      Double.root(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * bl, 3),
      Double.root(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * bl, 3),
      Double.root(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * bl, 3)
    )
    l = 0.210_454_255_3 * lms.0 + 0.793_617_785_0 * lms.1 - 0.004_072_046_8 * lms.2
    a = 1.977_998_495_1 * lms.0 - 2.428_592_205_0 * lms.1 + 0.450_593_709_9 * lms.2
    b = 0.025_904_037_1 * lms.0 + 0.782_771_766_2 * lms.1 - 0.808_675_766_0 * lms.2
    alpha = Double(color.alpha) / 255
  }

  public init(l: Double, a: Double, b: Double, alpha: Double) {
    self.l = l
    self.a = a
    self.b = b
    self.alpha = alpha
  }

  /// The point `t` of the way from `self` to `other` (0 is `self`, 1 is `other`).
  public func mixed(with other: OKLab, _ t: Double) -> OKLab {
    OKLab(
      l: l + (other.l - l) * t, a: a + (other.a - a) * t, b: b + (other.b - b) * t,
      alpha: alpha + (other.alpha - alpha) * t)
  }

  /// The sRGB colour nearest: channels outside the sRGB gamut are clipped.
  public var color: Color {
    let lms = (
      cube(l + 0.396_337_777_4 * a + 0.215_803_757_3 * b),
      cube(l - 0.105_561_345_8 * a - 0.063_854_172_8 * b),
      cube(l - 0.089_484_177_5 * a - 1.291_485_548_0 * b)
    )
    let r = 4.076_741_662_1 * lms.0 - 3.307_711_591_3 * lms.1 + 0.230_969_929_2 * lms.2
    let g = -1.268_438_004_6 * lms.0 + 2.609_757_401_1 * lms.1 - 0.341_319_396_5 * lms.2
    let bl = -0.004_196_086_3 * lms.0 - 0.703_418_614_7 * lms.1 + 1.707_614_701_0 * lms.2
    return Color(
      red: Self.encoded(r), green: Self.encoded(g), blue: Self.encoded(bl),
      alpha: Self.byte(alpha))
  }

  private func cube(_ x: Double) -> Double { x * x * x }

  /// An sRGB channel as linear light, 0…1.
  static func linear(_ channel: UInt8) -> Double {
    let c = Double(channel) / 255
    return c <= 0.040_45 ? c / 12.92 : Double.pow((c + 0.055) / 1.055, 2.4)
  }

  /// Linear light as an sRGB channel, clipped to 0…255.
  static func encoded(_ c: Double) -> UInt8 {
    let v = c <= 0.003_130_8 ? 12.92 * c : 1.055 * Double.pow(c, 1 / 2.4) - 0.055
    return byte(v)
  }

  /// A fraction 0…1 as 0…255, rounded; NaN is 0.
  static func byte(_ v: Double) -> UInt8 {
    guard v > 0 else { return 0 }
    return v >= 1 ? 255 : UInt8((v * 255).rounded())
  }
}
