import SceneVocabulary

/// A timing curve solved exactly: the y of a cubic-bezier easing at a given x.
///
/// The curve runs from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2), x1 and
/// x2 in 0…1, so x(s) is monotonic and each x has one s: found by Newton's method with a
/// bisection bracket, to 1e-12 in x.
public struct TimingCurve: Hashable, Sendable {
  public let x1: Double
  public let y1: Double
  public let x2: Double
  public let y2: Double

  public init(x1: Double, y1: Double, x2: Double, y2: Double) {
    self.x1 = min(max(x1, 0), 1)
    self.y1 = y1
    self.x2 = min(max(x2, 0), 1)
    self.y2 = y2
  }

  public init(_ easing: Easing) {
    let p = easing.controlPoints
    self.init(x1: p.x1, y1: p.y1, x2: p.x2, y2: p.y2)
  }

  /// The eased progress at time fraction `x`; `x` outside 0…1 clamps.
  public func value(at x: Double) -> Double {
    guard x > 0 else { return 0 }
    guard x < 1 else { return 1 }
    if x1 == y1 && x2 == y2 { return x }  // Linear.
    let s = parameter(forX: x)
    return Self.bezier(s, y1, y2)
  }

  /// The curve parameter whose x is `x`.
  func parameter(forX x: Double) -> Double {
    var lo = 0.0
    var hi = 1.0
    var s = x
    for _ in 0..<64 {
      let error = Self.bezier(s, x1, x2) - x
      if abs(error) < 1e-12 { return s }
      if error < 0 { lo = s } else { hi = s }
      let slope = Self.slope(s, x1, x2)
      var next = slope > 1e-9 ? s - error / slope : 0.5 * (lo + hi)
      if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }
      s = next
    }
    return s
  }

  /// One coordinate of the curve with end values 0 and 1 and control values a, b.
  @inline(__always)
  static func bezier(_ s: Double, _ a: Double, _ b: Double) -> Double {
    let u = 1 - s
    return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
  }

  @inline(__always)
  static func slope(_ s: Double, _ a: Double, _ b: Double) -> Double {
    let u = 1 - s
    return 3 * u * u * a + 6 * u * s * (b - a) + 3 * s * s * (1 - b)
  }
}
