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
  ///
  /// `@unchecked Sendable`: besides `storage` it holds pointers to the piece's entries in
  /// the inverse table, which `storage` keeps alive and nothing writes after it is made.
  public struct Cursor: @unchecked Sendable {
    // Declared in the order a lookup in the same piece reads them (see
    // `tabulatedParameter`), which is how they are laid out.
    /// The measurements the cursor was filled from; `nil` when empty.
    @usableFromInline var storage: Storage?
    /// The piece's start and the next piece's (infinity for the last): a normalized length
    /// in `pieceStart..<nextStart` is on this piece.
    @usableFromInline var pieceStart = 0.0
    @usableFromInline var nextStart = 0.0
    @usableFromInline var pieceLength = 0.0
    /// The piece's entries in the inverse table (``InverseTable/lengths`` and
    /// ``InverseTable/coefficients``, from the piece's first), so that a lookup in the
    /// same piece reads them with no index arithmetic and no reference to the table; `nil`
    /// for a line or without a table.
    @usableFromInline var tableLengths: UnsafePointer<Double>?
    @usableFromInline var tableCoefficients: UnsafePointer<Double>?
    /// The stretch of `samples`, and of the inverse table, used last: guesses.
    @usableFromInline var eighth = 0
    @usableFromInline var stretch = 0
    @usableFromInline var samples = InlineArray<9, Double>(repeating: 0)
    @usableFromInline var cubic = CubicBezier(line: .zero, .zero)
    @usableFromInline var piece = 0
    @usableFromInline var isLine = false
    /// Their inverse table, if the path was prepared.
    @usableFromInline var table: InverseTable?

    public init() {}

    /// The parameter at normalized length `s`, when `s` is on the cursor's piece of
    /// the path whose storage is `path`, and its stretch of the inverse table may be used;
    /// `nil` otherwise (another piece, a line, the piece's end, a stretch that needs the
    /// exact solve), for ``MeasuredPath/location(atNormalizedLength:cursor:)`` to answer.
    ///
    /// The case of nearly every frame of a handle springing along a path, inlined into
    /// the caller: the same steps as that method, so the same parameter to the bit, but
    /// no call and no retain of the path.
    ///
    /// The path is named by its storage's identity, not the storage itself: passing the
    /// reference would retain and release it around every call.
    @inlinable @inline(always)
    mutating func tabulatedParameter(atNormalizedLength s: Double, of path: ObjectIdentifier)
      -> Double?
    {
      guard let storage, ObjectIdentifier(storage) == path, pieceStart <= s, s < nextStart,
        let lengths = tableLengths, let coefficients = tableCoefficients
      else { return nil }
      let local = Swift.min(Swift.max(s - pieceStart, 0), pieceLength)
      guard local < pieceLength else { return nil }
      let eighths = MeasuredPath.samplesPerPiece
      var k = eighth
      if !((k == 0 || samples[k] <= local) && (k == eighths - 1 || samples[k + 1] > local)) {
        k = 0
        while k + 1 < eighths && samples[k + 1] <= local { k += 1 }
        eighth = k
      }
      // The table's entries never decrease, so walking from the last stretch finds the
      // stretch ``InverseTable/stretch(piece:local:eighth:)`` does (the last in the eighth
      // whose start is at or below `local`, or the eighth's first), in a step or two where
      // a binary search of the eighth takes four.
      let perEighth = InverseTable.stretchesPerPiece / eighths
      let first = k * perEighth
      let last = first + perEighth - 1
      var j = Swift.min(Swift.max(stretch, first), last)
      while j > first && lengths[j] > local { j -= 1 }
      while j < last && lengths[j + 1] <= local { j += 1 }
      stretch = j
      let entries = coefficients + j * InverseTable.coefficientsPerStretch
      guard !entries[0].isNaN else { return nil }
      return InverseTable.evaluate(
        entries, stretch: j, start: lengths[j], end: lengths[j + 1], local: local)
    }
  }

  /// ``point(atLength:)``, starting from `cursor` and leaving it where this point is.
  @inlinable @inline(always)
  public func point(atLength length: Double, cursor: inout Cursor) -> Point {
    let s = normalizedLength(length)
    if let t = cursor.tabulatedParameter(atNormalizedLength: s, of: ObjectIdentifier(storage)) {
      return cursor.cubic.point(at: t)
    }
    return point(atNormalizedLength: s, searching: &cursor)
  }

  /// ``position(atLength:)``, starting from `cursor` and leaving it where this position is.
  @inlinable @inline(always)
  public func position(atLength length: Double, cursor: inout Cursor) -> PathPosition {
    let s = normalizedLength(length)
    if let t = cursor.tabulatedParameter(atNormalizedLength: s, of: ObjectIdentifier(storage)) {
      // A piece the cursor holds has length, so its tangent is its own (see `tangent`).
      return PathPosition(
        point: cursor.cubic.point(at: t), tangent: cursor.cubic.tangent(at: t), length: s,
        segmentIndex: cursor.piece, t: t)
    }
    return position(atNormalizedLength: s, searching: &cursor)
  }

  /// ``point(atLength:cursor:)`` where the cursor's table does not answer.
  @usableFromInline
  func point(atNormalizedLength s: Double, searching cursor: inout Cursor) -> Point {
    let (index, t) = location(atNormalizedLength: s, cursor: &cursor)
    return cursor.storage === storage && cursor.piece == index
      ? cursor.cubic.point(at: t) : pieces[index].cubic.point(at: t)
  }

  /// ``position(atLength:cursor:)`` where the cursor's table does not answer.
  @usableFromInline
  func position(atNormalizedLength s: Double, searching cursor: inout Cursor) -> PathPosition {
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
    if let table = cursor.table {
      cursor.stretch = table.stretch(piece: index, local: local, eighth: k)
      if let t = table.parameter(piece: index, stretch: cursor.stretch, local: local) {
        return (index, t)
      }
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
    if let table = cursor.table, !cursor.isLine,
      let lengths = table.lengths.baseAddress, let coefficients = table.coefficients.baseAddress
    {
      let n = InverseTable.stretchesPerPiece
      cursor.tableLengths = lengths + index * (n + 1)
      cursor.tableCoefficients = coefficients + index * n * InverseTable.coefficientsPerStretch
    } else {
      cursor.tableLengths = nil
      cursor.tableCoefficients = nil
    }
  }
}
