/// The answer to a nearest-point query: a position on the path and its distance.
public struct PathProjection: Hashable, Sendable {
  public var position: PathPosition
  /// The distance from the query point to ``position``.
  public var distance: Double

  public init(position: PathPosition, distance: Double) {
    self.position = position
    self.distance = distance
  }

  @inlinable public var point: Point { position.point }
  @inlinable public var length: Double { position.length }
}
