import SceneGeometry

/// A timing curve from Core Animation's vocabulary.
public enum Easing: Hashable, Sendable, CustomStringConvertible {
  case linear
  /// `cubic-bezier(0.42, 0, 1, 1)`.
  case easeIn
  /// `cubic-bezier(0, 0, 0.58, 1)`.
  case easeOut
  /// `cubic-bezier(0.42, 0, 0.58, 1)`.
  case easeInOut
  /// `cubic-bezier(x1, y1, x2, y2)`, as in CSS; x1 and x2 must lie in 0…1.
  case cubicBezier(Double, Double, Double, Double)

  /// The names that may be written.
  public static let names: [String: Easing] = [
    "linear": .linear, "ease-in": .easeIn, "ease-out": .easeOut, "ease-in-out": .easeInOut,
  ]

  /// The control points of the timing curve from (0, 0) to (1, 1).
  public var controlPoints: (x1: Double, y1: Double, x2: Double, y2: Double) {
    switch self {
    case .linear: return (0, 0, 1, 1)
    case .easeIn: return (0.42, 0, 1, 1)
    case .easeOut: return (0, 0, 0.58, 1)
    case .easeInOut: return (0.42, 0, 0.58, 1)
    case .cubicBezier(let a, let b, let c, let d): return (a, b, c, d)
    }
  }

  public var description: String {
    switch self {
    case .linear: return "linear"
    case .easeIn: return "ease-in"
    case .easeOut: return "ease-out"
    case .easeInOut: return "ease-in-out"
    case .cubicBezier(let a, let b, let c, let d):
      return "cubic-bezier(\([a, b, c, d].map { $0.shortestDescription }.joined(separator: ", ")))"
    }
  }
}
