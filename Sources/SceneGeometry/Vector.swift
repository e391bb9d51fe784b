/// A two-dimensional vector or point in scene coordinates.
///
/// Scenes use UIKit's convention: x grows to the right and y grows *downward*.
/// Angles are measured like `atan2(dy, dx)` in those coordinates, so a positive
/// angle turns clockwise on screen.
///
/// ```swift
/// let a = Point(x: 3, y: 4)
/// a.length            // 5
/// (a - .zero).angle   // 0.927…
/// ```
public struct Vector: Hashable, Sendable {
  public var x: Double
  public var y: Double

  @inlinable
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  @inlinable
  public init(_ x: Double, _ y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Vector(x: 0, y: 0)
}

/// A position in scene coordinates; the same type as ``Vector``.
public typealias Point = Vector
