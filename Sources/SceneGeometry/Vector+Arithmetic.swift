import RealModule

// MARK: - Arithmetic

extension Vector {
  @inlinable public static func + (a: Vector, b: Vector) -> Vector {
    Vector(x: a.x + b.x, y: a.y + b.y)
  }
  @inlinable public static func - (a: Vector, b: Vector) -> Vector {
    Vector(x: a.x - b.x, y: a.y - b.y)
  }
  @inlinable public static func * (a: Vector, k: Double) -> Vector {
    Vector(x: a.x * k, y: a.y * k)
  }
  @inlinable public static func * (k: Double, a: Vector) -> Vector {
    Vector(x: a.x * k, y: a.y * k)
  }
  @inlinable public static func / (a: Vector, k: Double) -> Vector {
    Vector(x: a.x / k, y: a.y / k)
  }
  @inlinable public static prefix func - (a: Vector) -> Vector { Vector(x: -a.x, y: -a.y) }
  @inlinable public static func += (a: inout Vector, b: Vector) { a = a + b }
  @inlinable public static func -= (a: inout Vector, b: Vector) { a = a - b }
}

// MARK: - Products, lengths and angles

extension Vector {
  /// The dot product `a.x * b.x + a.y * b.y`.
  @inlinable public func dot(_ other: Vector) -> Double { x * other.x + y * other.y }

  /// The z component of the 3-D cross product; positive when `other` turns clockwise
  /// from `self` on a y-down screen.
  @inlinable public func cross(_ other: Vector) -> Double { x * other.y - y * other.x }

  /// The squared Euclidean length.
  @inlinable public var lengthSquared: Double { x * x + y * y }

  /// The Euclidean length, computed without intermediate overflow or underflow.
  @inlinable public var length: Double { Double.hypot(x, y) }

  /// The distance between two points.
  @inlinable public func distance(to other: Vector) -> Double { (other - self).length }

  /// The direction `atan2(y, x)` in radians, in `-π...π`; `0` for the zero vector.
  @inlinable public var angle: Double { Double.atan2(y: y, x: x) }

  /// The vector scaled to length 1, or `nil` when it has no direction (zero or not finite).
  @inlinable public var normalized: Vector? {
    let l = length
    guard l > 0, l.isFinite else { return nil }
    return Vector(x: x / l, y: y / l)
  }

  /// The vector turned a quarter turn, `(-y, x)`.
  ///
  /// On a y-down screen this is clockwise.
  @inlinable public var perpendicular: Vector { Vector(x: -y, y: x) }

  /// `true` when both components are finite.
  @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

  /// The unit vector at `angle` radians.
  @inlinable public init(angle: Double) { self.init(x: Double.cos(angle), y: Double.sin(angle)) }

  /// Linear interpolation: `self` at `amount == 0`, `other` at `amount == 1`.
  @inlinable public func interpolate(to other: Vector, amount: Double) -> Vector {
    Vector(x: x + (other.x - x) * amount, y: y + (other.y - y) * amount)
  }
}

extension Vector: CustomStringConvertible {
  public var description: String { "(\(x.shortestDescription), \(y.shortestDescription))" }
}
