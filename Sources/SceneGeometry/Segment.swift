/// One piece of a path: a straight line, a quadratic or a cubic Bézier curve.
///
/// Each case keeps the control points it was written with, so printing path data
/// gives back `L`, `Q` or `C`. Geometry goes through ``cubic``, the exact cubic form of
/// the same curve with the same parametrisation, except where a line has a faster
/// closed form.
public enum Segment: Hashable, Sendable {
  case line(Point, Point)
  case quadratic(Point, Point, Point)
  case cubic(Point, Point, Point, Point)

  /// The point at `t == 0`.
  @inlinable
  public var start: Point {
    switch self {
    case .line(let a, _), .quadratic(let a, _, _), .cubic(let a, _, _, _): return a
    }
  }

  /// The point at `t == 1`.
  @inlinable
  public var end: Point {
    switch self {
    case .line(_, let b), .quadratic(_, _, let b), .cubic(_, _, _, let b): return b
    }
  }

  /// The same curve as a cubic Bézier; exact for every case.
  @inlinable
  public var cubic: CubicBezier {
    switch self {
    case .line(let a, let b): return CubicBezier(line: a, b)
    case .quadratic(let a, let c, let b): return CubicBezier(quadratic: a, c, b)
    case .cubic(let a, let b, let c, let d): return CubicBezier(a, b, c, d)
    }
  }

  /// `true` when every control point is finite.
  public var isFinite: Bool {
    switch self {
    case .line(let a, let b): return a.isFinite && b.isFinite
    case .quadratic(let a, let b, let c): return a.isFinite && b.isFinite && c.isFinite
    case .cubic(let a, let b, let c, let d):
      return a.isFinite && b.isFinite && c.isFinite && d.isFinite
    }
  }

  /// The same curve traversed from end to start.
  public var reversed: Segment {
    switch self {
    case .line(let a, let b): return .line(b, a)
    case .quadratic(let a, let c, let b): return .quadratic(b, c, a)
    case .cubic(let a, let b, let c, let d): return .cubic(d, c, b, a)
    }
  }
}
