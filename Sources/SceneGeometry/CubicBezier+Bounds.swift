// MARK: - Bounds

extension CubicBezier {
  /// The exact bounding rectangle of the curve (not of its control points).
  ///
  /// The extremes lie at the ends or where one coordinate of `B'(t)` vanishes; each
  /// coordinate of `B'` is a quadratic, solved in closed form.
  public var bounds: Rect {
    var rect = Rect(point: p0).including(p3)
    let (a, b, c) = speedCoefficients
    let xs = Polynomial([c.x, b.x, a.x, 0, 0, 0], degree: 2).roots(in: 0, 1)
    for i in 0..<xs.count { rect = rect.including(point(at: xs[i])) }
    let ys = Polynomial([c.y, b.y, a.y, 0, 0, 0], degree: 2).roots(in: 0, 1)
    for i in 0..<ys.count { rect = rect.including(point(at: ys[i])) }
    return rect
  }

  /// The bounding rectangle of the control points, which holds the whole curve; cheap,
  /// and used to skip segments that cannot hold a nearer point.
  @inlinable
  public var controlBounds: Rect {
    Rect(point: p0).including(p1).including(p2).including(p3)
  }
}
