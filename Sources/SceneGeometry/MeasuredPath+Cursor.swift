// MARK: - Positions at arc length, frame after frame

extension MeasuredPath {
  /// Where on a path the last position at arc length was found, kept by the caller so the
  /// next lookup, usually close by, starts there.
  ///
  /// A handle springing along a path, or one animated along it, asks for a position a
  /// little further on every frame. With a cursor, a lookup in the same segment as the one
  /// before skips the search for the segment and reads the segment's curve and coarse
  /// table from the cursor rather than from the path's storage; one in the same stretch of
  /// the ``preparedForRepeatedPositions()`` table also skips the search inside the table.
  /// Across thousands of paths that is the difference between memory read in order and a
  /// cache miss per lookup.
  ///
  /// The answers are the ones ``position(atLength:)`` and ``point(atLength:)`` give, to
  /// the bit: a guess is used only where the search would have found it. A cursor belongs
  /// to one path at a time; given another path, it starts over (it keeps the path it was
  /// made for alive, so it can never mistake a new path for an old one).
  ///
  /// ```swift
  /// var cursor = MeasuredPath.Cursor()
  /// for frame in 0..<60 {
  ///   let point = measured.point(atLength: Double(frame), cursor: &cursor)
  /// }
  /// ```
  public struct Cursor: Sendable {
    /// The measurements the cursor was filled from; `nil` when empty.
    var storage: Storage?
    /// Their inverse table, if the path was prepared.
    var table: InverseTable?
    var piece = 0
    /// The piece's start and the next piece's (infinity for the last): a normalized length
    /// in `pieceStart..<nextStart` is on this piece.
    var pieceStart = 0.0
    var nextStart = 0.0
    var pieceLength = 0.0
    var isLine = false
    var cubic = CubicBezier(line: .zero, .zero)
    var samples = InlineArray<9, Double>(repeating: 0)
    /// The stretch of `samples`, and of the inverse table, used last: guesses.
    var eighth = 0
    var stretch = 0

    public init() {}
  }

  /// ``point(atLength:)``, starting from `cursor` and leaving it where this point is.
  public func point(atLength length: Double, cursor: inout Cursor) -> Point {
    let (index, t) = location(atNormalizedLength: normalizedLength(length), cursor: &cursor)
    return cursor.storage === storage && cursor.piece == index
      ? cursor.cubic.point(at: t) : pieces[index].cubic.point(at: t)
  }

  /// ``position(atLength:)``, starting from `cursor` and leaving it where this position is.
  public func position(atLength length: Double, cursor: inout Cursor) -> PathPosition {
    let s = normalizedLength(length)
    let (index, t) = location(atNormalizedLength: s, cursor: &cursor)
    guard cursor.storage === storage && cursor.piece == index else {
      return position(segment: index, t: t, length: s)
    }
    // A piece the cursor holds has length, so its tangent is its own (see `tangent`).
    return PathPosition(
      point: cursor.cubic.point(at: t), tangent: cursor.cubic.tangent(at: t), length: s,
      segmentIndex: index, t: t)
  }

  /// ``location(atNormalizedLength:exactly:)`` through `cursor`.
  @inline(__always)
  func location(atNormalizedLength length: Double, cursor: inout Cursor) -> (index: Int, t: Double)
  {
    guard cursor.storage === storage && cursor.pieceStart <= length && length < cursor.nextStart
    else {
      let found = location(atNormalizedLength: length)
      fill(&cursor, piece: found.index, at: length)
      return found
    }
    // The piece the search would find (see `fill`); from here on, `location`'s steps on
    // the cursor's copy of the piece.
    let index = cursor.piece
    let local = Swift.min(Swift.max(length - cursor.pieceStart, 0), cursor.pieceLength)
    if local >= cursor.pieceLength { return (index, 1) }
    if cursor.isLine { return (index, local / cursor.pieceLength) }
    var k = cursor.eighth
    if !((k == 0 || cursor.samples[k] <= local)
      && (k == Self.samplesPerPiece - 1 || cursor.samples[k + 1] > local))
    {
      k = 0
      while k + 1 < Self.samplesPerPiece && cursor.samples[k + 1] <= local { k += 1 }
      cursor.eighth = k
    }
    if let table = cursor.table,
      let t = table.parameter(piece: index, local: local, eighth: k, stretch: &cursor.stretch)
    {
      return (index, t)
    }
    return (index, exactParameter(piece: index, local: local, eighth: k))
  }

  /// Points `cursor` at piece `index`, or empties it.
  ///
  /// Only where every length in the piece's span finds that piece: it has length, and
  /// `length` is at or after its start and before the next piece's. Otherwise (a
  /// zero-length piece, the end of a path) the next lookup searches.
  private func fill(_ cursor: inout Cursor, piece index: Int, at length: Double) {
    let storage = self.storage
    let pieces = storage.pieces
    let start = pieces[index].startLength
    let next = index + 1 < pieces.count ? pieces[index + 1].startLength : Double.infinity
    guard pieces[index].length > 0, start <= length, length < next else {
      cursor = Cursor()
      return
    }
    if cursor.storage !== storage {
      cursor.storage = storage
      cursor.table = storage.inverseTable
    }
    cursor.piece = index
    cursor.pieceStart = start
    cursor.nextStart = next
    cursor.pieceLength = pieces[index].length
    cursor.isLine = pieces[index].isLine
    cursor.cubic = pieces[index].cubic
    cursor.samples = pieces[index].samples
    cursor.eighth = 0
    cursor.stretch = 0
  }
}
