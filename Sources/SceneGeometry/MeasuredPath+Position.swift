// MARK: - Positions at arc length

extension MeasuredPath {
  /// The segment and parameter at arc length `length` (already normalized).
  ///
  /// At a joint the point belongs to the segment that starts there, except at the very
  /// end of the path; zero-length segments are never chosen when a segment with length
  /// holds the point, so tangents come from real curves. `exactly` skips the inverse table
  /// (see ``preparedForRepeatedPositions()``).
  ///
  /// - Complexity: O(log n) binary search plus one inverse arc-length solve.
  @usableFromInline
  func location(atNormalizedLength length: Double, exactly: Bool = false) -> (
    index: Int, t: Double
  ) {
    // The storage's arrays once, and each piece's fields read in place: copying a piece
    // (its segment, cubic, table and integrator) cost more than the rest of a lookup.
    let storage = self.storage
    let startLengths = storage.startLengths
    let pieces = storage.pieces
    // The last piece whose start is at or before `length`.
    var lo = 0
    var hi = startLengths.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) >> 1
      if startLengths[mid] <= length { lo = mid } else { hi = mid - 1 }
    }
    var index = lo
    // Among pieces starting at the same length, prefer one with length.
    var forward = index
    while forward < pieces.count && pieces[forward].length == 0
      && pieces[forward].startLength <= length
    {
      forward += 1
    }
    if forward < pieces.count && pieces[forward].startLength <= length {
      index = forward
    } else if pieces[index].length == 0 {
      // Only zero-length pieces here: use the previous piece with length, at its end.
      var back = index
      while back > 0 && pieces[back].length == 0 { back -= 1 }
      if pieces[back].length > 0 { return (back, 1) }
      return (index, 0)
    }
    let pieceLength = pieces[index].length
    let local = Swift.min(Swift.max(length - pieces[index].startLength, 0), pieceLength)
    if local >= pieceLength { return (index, 1) }
    if pieces[index].isLine { return (index, local / pieceLength) }
    // The table's stretch holding `local`, then Newton within it.
    var k = 0
    while k + 1 < Self.samplesPerPiece && pieces[index].samples[k + 1] <= local { k += 1 }
    if !exactly, let table = storage.inverseTable,
      let t = table.parameter(piece: index, local: local, eighth: k)
    {
      return (index, t)
    }
    return (index, exactParameter(piece: index, local: local, eighth: k))
  }

  /// The parameter at arc length `local` from the start of curved piece `index`, by
  /// Newton's method inside `eighth`, the stretch of its 8-entry table holding `local`.
  @usableFromInline
  func exactParameter(piece index: Int, local: Double, eighth k: Int) -> Double {
    let storage = self.storage
    let pieces = storage.pieces
    let n = Double(Self.samplesPerPiece)
    let start = pieces[index].samples[k]
    return pieces[index].cubic.parameter(
      atLength: local - start, from: Double(k) / n, to: Double(k + 1) / n,
      spanLength: pieces[index].samples[k + 1] - start, tolerance: 1e-11 * pieces[index].length,
      integrator: pieces[index].integrator)
  }

  /// The point and tangent at arc length `length` from the start.
  ///
  /// The length wraps around a closed path and clamps on any other.
  /// `|s(t) − length| ≤ 1e-9 · L` within the segment found.
  public func position(atLength length: Double) -> PathPosition {
    let s = normalizedLength(length)
    let (index, t) = location(atNormalizedLength: s)
    return position(segment: index, t: t, length: s)
  }

  /// The point at arc length `length`, as ``position(atLength:)`` gives it, without the
  /// tangent.
  public func point(atLength length: Double) -> Point {
    let (index, t) = location(atNormalizedLength: normalizedLength(length))
    return pieces[index].cubic.point(at: t)
  }

  /// The point and tangent at parameter `t` of drawn segment `index`.
  ///
  /// Its arc length comes from the inverse table where the path has one (within 1e-10 of
  /// the piece's length, see ``preparedForRepeatedPositions()``), else by integrating from
  /// the piece's nearest eighth below `t`.
  public func position(segment index: Int, t: Double) -> PathPosition {
    // Fields read in place; the whole piece (with its integrator) is copied only to
    // integrate.
    let pieces = self.pieces
    var local = t * pieces[index].length
    if !pieces[index].isLine {
      if let tabulated = storage.inverseTable?.length(piece: index, t: t) {
        local = tabulated
      } else {
        // From the table entry just below t, so only a short stretch is integrated.
        let piece = pieces[index]
        let n = Double(Self.samplesPerPiece)
        let k = min(max(Int((t * n).rounded(.down)), 0), Self.samplesPerPiece - 1)
        local = piece.samples[k] + piece.integrator.length(from: Double(k) / n, to: t)
      }
    }
    return position(segment: index, t: t, length: pieces[index].startLength + local)
  }

  @usableFromInline
  func position(segment index: Int, t: Double, length: Double) -> PathPosition {
    let piece = pieces[index]
    return PathPosition(
      point: piece.cubic.point(at: t), tangent: tangent(segment: index, t: t), length: length,
      segmentIndex: index, t: t)
  }

  /// The tangent at `t` on piece `index`, borrowing a neighbour's direction when the
  /// piece has no length at all.
  func tangent(segment index: Int, t: Double) -> Vector {
    let piece = pieces[index]
    if piece.length > 0 || !piece.cubic.isPoint { return piece.cubic.tangent(at: t) }
    // A lone point: take the direction of the nearest piece with length in the same subpath.
    for offset in 1..<Swift.max(pieces.count, 1) {
      for candidate in [index + offset, index - offset]
      where candidate >= 0 && candidate < pieces.count
        && pieces[candidate].subpathIndex == piece.subpathIndex && !pieces[candidate].cubic.isPoint
      {
        return pieces[candidate].cubic.tangent(at: candidate > index ? 0 : 1)
      }
    }
    return Vector(x: 1, y: 0)
  }
}
