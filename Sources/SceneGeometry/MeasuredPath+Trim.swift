extension CubicBezier {
  /// The part of the curve between parameters `t0` and `t1` (0 ≤ t0 ≤ t1 ≤ 1), exactly: a
  /// cubic again, by de Casteljau's construction.
  public func portion(from t0: Double, to t1: Double) -> CubicBezier {
    guard t0 > 0 || t1 < 1 else { return self }
    let head = t1 < 1 ? split(at: t1).0 : self
    guard t0 > 0, t1 > 0 else { return head }
    return head.split(at: t0 / t1).1
  }

  /// The curve cut at `t` into the part before and the part after.
  public func split(at t: Double) -> (CubicBezier, CubicBezier) {
    func lerp(_ a: Point, _ b: Point) -> Point {
      Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
    }
    let a = lerp(p0, p1)
    let b = lerp(p1, p2)
    let c = lerp(p2, p3)
    let d = lerp(a, b)
    let e = lerp(b, c)
    let f = lerp(d, e)
    return (CubicBezier(p0, a, d, f), CubicBezier(f, e, c, p3))
  }
}

extension MeasuredPath {
  /// The part of the path between fractions `start` and `end` of its arc length.
  ///
  /// Each fraction is clamped to 0…1. Exact: the drawn segments inside are kept whole, the
  /// two it is cut in become the exact sub-curves, and subpaths stay apart. Lines stay
  /// lines; curves become cubics. An empty path when `end` is not past `start`.
  public func trimmed(from start: Double, to end: Double) -> Path {
    let from = Swift.min(Swift.max(start.isNaN ? 0 : start, 0), 1) * length
    let to = Swift.min(Swift.max(end.isNaN ? 0 : end, 0), 1) * length
    guard to > from, !pieces.isEmpty else { return Path(subpaths: []) }
    let (first, t0) = location(atNormalizedLength: from)
    let (last, t1) = location(atNormalizedLength: to)
    var subpaths: [Subpath] = []
    for index in first...last {
      let piece = pieces[index]
      let a = index == first ? t0 : 0
      let b = index == last ? t1 : 1
      guard b > a || first == last else { continue }
      let part = piece.cubic.portion(from: a, to: b)
      let segment: Segment =
        piece.isLine ? .line(part.p0, part.p3) : .cubic(part.p0, part.p1, part.p2, part.p3)
      if subpaths.isEmpty || piece.subpathIndex != pieces[Swift.max(index - 1, first)].subpathIndex
        || index == first
      {
        subpaths.append(Subpath(start: part.p0, segments: [segment]))
      } else {
        subpaths[subpaths.count - 1].segments.append(segment)
      }
    }
    return Path(subpaths: subpaths)
  }
}
