/// A point on a path with its direction, as answered by a length or nearest query.
public struct PathPosition: Hashable, Sendable {
  /// The point on the path.
  public var point: Point
  /// The unit tangent, the direction of travel.
  ///
  /// Where the path stops (a zero
  /// derivative at a segment end) it is the limit direction; never NaN.
  public var tangent: Vector
  /// The arc length from the path's start.
  public var length: Double
  /// The index of the drawn segment the point lies on (see ``MeasuredPath/segmentCount``).
  public var segmentIndex: Int
  /// The parameter within that segment.
  public var t: Double

  public init(point: Point, tangent: Vector, length: Double, segmentIndex: Int, t: Double) {
    self.point = point
    self.tangent = tangent
    self.length = length
    self.segmentIndex = segmentIndex
    self.t = t
  }

  /// The tangent direction in radians, as `atan2(dy, dx)` in y-down coordinates.
  public var angle: Double { tangent.angle }

  /// The unit normal: the tangent turned a quarter turn clockwise on a y-down screen.
  public var normal: Vector { tangent.perpendicular }
}
