// MARK: - Nearest point

extension MeasuredPath {
  /// The default distance by which another part of the path must be nearer before a
  /// tracking query leaves the part it is on, in scene units (points): about half a
  /// fingertip.
  public static let defaultTrackingHysteresis = 20.0

  /// The point of the path nearest to `point`: the global minimum of the distance.
  ///
  /// Every segment whose control-point bounds could hold a nearer point is solved
  /// exactly (see ``CubicBezier/nearestParameter(to:)``); the rest are skipped. Ties go
  /// to the smaller arc length.
  ///
  /// - Complexity: O(n) bound checks plus one exact solve per segment that survives them.
  public func nearest(to point: Point) -> PathProjection {
    let found =
      nearestPiece(to: point, below: .infinity) ?? (
        0, 0, (pieces[0].cubic.p0 - point).lengthSquared
      )
    return PathProjection(
      position: position(segment: found.index, t: found.t),
      distance: found.distanceSquared.squareRoot())
  }

  /// The nearest point among the pieces that hold a point nearer than `bound` (a squared
  /// distance), or `nil` if none does.
  ///
  /// The piece whose control bounds are nearest is solved first, so its answer prunes
  /// most of the others before any of them is solved.
  func nearestPiece(to point: Point, below bound: Double) -> (
    index: Int, t: Double, distanceSquared: Double
  )? {
    var best = bound
    var found: (index: Int, t: Double, distanceSquared: Double)?
    var first = 0
    var firstBound = Double.infinity
    for index in pieces.indices {
      let lower = pieces[index].controlBounds.distanceSquared(to: point)
      if lower < firstBound {
        firstBound = lower
        first = index
      }
    }
    if firstBound < best {
      let (t, squared) = Self.nearestParameter(on: pieces[first], to: point)
      if squared < best {
        best = squared
        found = (first, t, squared)
      }
    }
    for index in pieces.indices where index != first {
      // Skip pieces that cannot beat the best so far.
      if pieces[index].controlBounds.distanceSquared(to: point) > best { continue }
      let (t, squared) = Self.nearestParameter(on: pieces[index], to: point)
      // Ties go to the smaller arc length.
      if squared < best || (squared == best && found != nil && index < (found?.index ?? .max)) {
        best = squared
        found = (index, t, squared)
      }
    }
    return found
  }

  /// The point nearest to `point` on a path being dragged along, continuing from the
  /// arc length `previousLength` of the last answer.
  ///
  /// Starting at `previousLength`, it walks downhill along the path to the local
  /// minimum of the distance in whose basin the previous position lies. It answers
  /// that point unless some other point is nearer by more than `hysteresis`, in which
  /// case it answers the global nearest point.
  /// So a handle dragged across a self-crossing carries on along the branch it was on,
  /// while a finger that clearly moves to another part of the path still takes the
  /// handle there.
  ///
  /// - Parameters:
  ///   - point: The drag target.
  ///   - previousLength: The arc length answered for the previous target.
  ///   - hysteresis: How much nearer, in scene units, another part must be to jump.
  ///   - wraps: Whether tracking may pass round the closing point of a closed path; when
  ///     `false` (`ends: clamp`) the walk stops at the start and end, as on an open path.
  /// - Returns: The point answered, with its arc length and distance.
  /// - Complexity: exact solves on the segments walked through, plus a global search
  ///   pruned to points nearer by more than `hysteresis` (usually none survive).
  public func nearest(
    to point: Point, continuingFrom previousLength: Double,
    hysteresis: Double = MeasuredPath.defaultTrackingHysteresis, wraps: Bool = true
  ) -> PathProjection {
    // Exactly, not from the table: the walk starts at the last answer, a minimum where the
    // slope is nearly zero, so which way it goes must not depend on whether the path has
    // a table (whose parameters differ from the exact ones in the tenth digit).
    let (index, t) = location(
      atNormalizedLength: normalizedLength(previousLength, wraps: wraps), exactly: true)
    return tracked(to: point, from: index, t, hysteresis: hysteresis, wraps: wraps)
  }

  /// The point nearest to `point` on a path being dragged along, continuing from
  /// `previous`, the last answer on this same path.
  ///
  /// The same as tracking from `previous.length`, except that the walk starts at
  /// `previous`'s own piece and parameter, so the arc length need not be solved back into
  /// a parameter (about a quarter of a tracking query). At either end of a piece, where
  /// one arc length names two places (the end of one piece, the start of the next), and
  /// for a position not on this path (a piece index out of range, a parameter outside
  /// `0...1`), it tracks from the length, so it always walks from where that would.
  public func nearest(
    to point: Point, continuingFrom previous: PathPosition,
    hysteresis: Double = MeasuredPath.defaultTrackingHysteresis, wraps: Bool = true
  ) -> PathProjection {
    guard pieces.indices.contains(previous.segmentIndex), previous.t > 0, previous.t < 1 else {
      return nearest(
        to: point, continuingFrom: previous.length, hysteresis: hysteresis, wraps: wraps)
    }
    return tracked(
      to: point, from: previous.segmentIndex, previous.t, hysteresis: hysteresis, wraps: wraps)
  }

  /// The tracking answer from the walk's start, piece `start` at parameter `t`.
  private func tracked(
    to point: Point, from start: Int, _ startT: Double, hysteresis: Double, wraps: Bool
  ) -> PathProjection {
    let (index, t) = localMinimum(of: point, from: start, startT, wraps: wraps)
    let trackedDistance = pieces[index].cubic.point(at: t).distance(to: point)
    // Only a part nearer by more than the hysteresis can take over; ties stay on the
    // tracked part, since at a self-crossing both parts hold the same point.
    let jump = trackedDistance - Swift.max(hysteresis, 0)
    if jump > 0, let other = nearestPiece(to: point, below: jump * jump) {
      return PathProjection(
        position: position(segment: other.index, t: other.t),
        distance: other.distanceSquared.squareRoot())
    }
    return PathProjection(position: position(segment: index, t: t), distance: trackedDistance)
  }

  static func nearestParameter(on piece: Piece, to point: Point) -> (
    t: Double, distanceSquared: Double
  ) {
    guard piece.isLine else { return piece.cubic.nearestParameter(to: point) }
    let a = piece.cubic.p0
    let direction = piece.cubic.p3 - a
    let lengthSquared = direction.lengthSquared
    guard lengthSquared > 0 else { return (0, (a - point).lengthSquared) }
    let t = Swift.min(Swift.max((point - a).dot(direction) / lengthSquared, 0), 1)
    return (t, (piece.cubic.point(at: t) - point).lengthSquared)
  }

  /// The local minimum of the distance from `point` reached by walking downhill from
  /// piece `start` at parameter `startT`, as a piece index and parameter.
  func localMinimum(of point: Point, from start: Int, _ startT: Double, wraps: Bool = true)
    -> (index: Int, t: Double)
  {
    var index = start
    var t = startT
    let startCubic = pieces[index].cubic
    let offset = startCubic.point(at: t) - point
    let velocity = startCubic.derivative(at: t)
    let initialSlope = offset.dot(velocity)
    // Downhill is towards larger t when the distance shrinks as t grows.
    let forward = initialSlope <= 0
    // A slope within its own rounding (a few ulps of |offset|·|velocity|) has no
    // trustworthy sign: the foot of the perpendicular is then within 1e-12 of the distance
    // from the start, which is the minimum to that precision. Walking on could cross a
    // maximum into the next basin (a finger moving along the normal at the last answer).
    let noise = 1e-12 * (offset.lengthSquared * velocity.lengthSquared).squareRoot()
    if abs(initialSlope) <= noise && !startCubic.isPoint { return (index, t) }
    // At most one full lap plus one piece: no walk can go on for ever.
    for _ in 0...(pieces.count + 1) {
      let cubic = pieces[index].cubic
      if !cubic.isPoint {
        var ahead: Double?
        switch cubic.nextDistanceMinimum(from: point, after: t, forward: forward) {
        case .at(let minimum): ahead = minimum
        case .none: ahead = nil
        case .undecided:
          let minima = cubic.interiorDistanceMinima(from: point)
          if forward {
            for i in 0..<minima.count where minima[i] > t {
              ahead = minima[i]
              break
            }
          } else {
            var i = minima.count - 1
            while i >= 0 {
              if minima[i] < t {
                ahead = minima[i]
                break
              }
              i -= 1
            }
          }
        }
        if let ahead { return (index, ahead) }
        // With no minimum ahead the distance falls all the way to the piece's far end,
        // unless the minimum is where the walk starts: a slope of 1e-12 can point the walk
        // the wrong way when the foot of the perpendicular rounds to the very parameter it
        // starts from (a corner of a closed path, approached along one side).
        let far = (cubic.point(at: forward ? 1 : 0) - point).lengthSquared
        if far > (cubic.point(at: t) - point).lengthSquared { return (index, t) }
      }
      // No minimum before this piece's end in the walking direction: cross the joint,
      // unless the path stops there or the distance rises on the other side.
      guard let next = neighbour(of: index, forward: forward, wraps: wraps) else {
        return (index, forward ? 1 : 0)
      }
      let nextCubic = pieces[next].cubic
      if !nextCubic.isPoint {
        let slopeAcross = nextCubic.distanceSlope(at: forward ? 0 : 1, from: point)
        if forward ? slopeAcross > 0 : slopeAcross < 0 { return (index, forward ? 1 : 0) }
      }
      index = next
      t = forward ? 0 : 1
    }
    return (index, t)
  }

  /// The piece joined to `index` in the walking direction: the next or previous piece
  /// of the same subpath, wrapping around a closed subpath; `nil` at an open end.
  func neighbour(of index: Int, forward: Bool, wraps: Bool = true) -> Int? {
    let subpath = pieces[index].subpathIndex
    let candidate = forward ? index + 1 : index - 1
    if candidate >= 0 && candidate < pieces.count && pieces[candidate].subpathIndex == subpath {
      return candidate
    }
    guard wraps, path.subpaths.indices.contains(subpath), path.subpaths[subpath].isClosed else {
      return nil
    }
    // Wrap to the other end of the same closed subpath.
    var other = index
    if forward {
      while other > 0 && pieces[other - 1].subpathIndex == subpath { other -= 1 }
    } else {
      while other + 1 < pieces.count && pieces[other + 1].subpathIndex == subpath { other += 1 }
    }
    return other
  }
}
