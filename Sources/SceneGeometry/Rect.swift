/// An axis-aligned rectangle given by its extreme coordinates, used for bounds.
///
/// A rectangle of a single point has `minX == maxX` and `minY == maxY`.
public struct Rect: Hashable, Sendable {
  public var minX: Double
  public var minY: Double
  public var maxX: Double
  public var maxY: Double

  @inlinable
  public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The rectangle that holds just `point`.
  @inlinable
  public init(point: Point) {
    self.init(minX: point.x, minY: point.y, maxX: point.x, maxY: point.y)
  }

  @inlinable public var width: Double { maxX - minX }
  @inlinable public var height: Double { maxY - minY }

  /// The smallest rectangle holding both rectangles.
  @inlinable
  public func union(_ other: Rect) -> Rect {
    Rect(
      minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
      maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
  }

  /// The smallest rectangle holding this one and `point`.
  @inlinable
  public func including(_ point: Point) -> Rect {
    Rect(
      minX: Swift.min(minX, point.x), minY: Swift.min(minY, point.y),
      maxX: Swift.max(maxX, point.x), maxY: Swift.max(maxY, point.y))
  }

  /// The squared distance from `point` to the nearest point of the rectangle; 0 inside.
  @inlinable
  public func distanceSquared(to point: Point) -> Double {
    let dx = Swift.max(minX - point.x, 0, point.x - maxX)
    let dy = Swift.max(minY - point.y, 0, point.y - maxY)
    return dx * dx + dy * dy
  }
}
