// MARK: - A table for repeated positions at arc length

extension MeasuredPath {
  /// A dense table of arc length against parameter for every curved piece, for a path
  /// that is asked for positions at arc length over and over (a handle springing along
  /// it, one animated along it), so most of those positions need no integration at all.
  ///
  /// Each curved piece is cut into ``stretchesPerPiece`` stretches of equal parameter. On
  /// each, t(s) is the quintic Hermite interpolant of its ends, which matches t, dt/ds =
  /// 1 / v and d²t/ds² = −v′ / v³ there (v the speed, v′ its rate along t), so its error
  /// shrinks with the sixth power of the stretch: on ordinary curves a few parts in 1e11
  /// of the length. When the table is made, every stretch is checked against the exact inverse at
  /// a quarter, half and three quarters of its length: only a stretch where the
  /// interpolant is within ``tolerance`` of the piece's length everywhere checked (ten
  /// times inside the 1e-9 that ``position(atLength:)`` promises) is used; the others,
  /// around a cusp or a very sharp turn, keep the exact solve.
  ///
  /// A class, immutable once made, so that copying a `MeasuredPath` retains one object
  /// rather than each of its arrays. Its entries live in one allocation it owns, read
  /// through buffer pointers: a lookup, made for every following handle every frame,
  /// then retains and releases nothing.
  @usableFromInline
  final class InverseTable: @unchecked Sendable {
    /// 128: at 64, the error of an S-shaped segment's interpolant was a few parts in 1e10,
    /// and half its stretches failed the check below.
    @inlinable static var stretchesPerPiece: Int { 128 }
    /// How near, relative to a piece's length, the interpolant must be to the exact
    /// inverse for a stretch to be used.
    static let tolerance = 1e-10

    /// For piece `p`, entries `p × 129 ..< p × 129 + 129`: the arc length from the
    /// piece's start at t = j / 128 (zeros for a line).
    let lengths: UnsafeBufferPointer<Double>
    /// The same entries: dt/ds = 1 / speed at t = j / 128.
    let slopes: UnsafeBufferPointer<Double>
    /// The same entries: d²t/ds² at t = j / 128.
    let curvatures: UnsafeBufferPointer<Double>
    /// For piece `p`, entries `p × 128 ..< p × 128 + 128`: whether stretch j may be
    /// used (1) or not (0).
    let usable: UnsafeBufferPointer<Double>
    /// The one allocation the four share; written only in `init`, freed in `deinit`.
    private let entries: UnsafeMutableBufferPointer<Double>

    init(lengths: [Double], slopes: [Double], curvatures: [Double], usable: [Bool]) {
      let count = lengths.count
      precondition(slopes.count == count && curvatures.count == count)
      // At least one entry, so that the allocation always has an address.
      entries = .allocate(capacity: Swift.max(3 * count + usable.count, 1))
      guard let base = entries.baseAddress else {
        preconditionFailure("an allocation of at least one Double has an address")
      }
      for i in 0..<count {
        base[i] = lengths[i]
        base[count + i] = slopes[i]
        base[2 * count + i] = curvatures[i]
      }
      for (i, flag) in usable.enumerated() { base[3 * count + i] = flag ? 1 : 0 }
      self.lengths = UnsafeBufferPointer(start: base, count: count)
      self.slopes = UnsafeBufferPointer(start: base + count, count: count)
      self.curvatures = UnsafeBufferPointer(start: base + 2 * count, count: count)
      self.usable = UnsafeBufferPointer(start: base + 3 * count, count: usable.count)
    }

    deinit { entries.deallocate() }
  }

  /// This path with an ``InverseTable``: positions at arc length get faster, at the
  /// cost of measuring each curved segment 128 times more finely, once (about 50 µs a
  /// segment on the development machine: 3.0–3.4 ms for the benchmarks' 64-segment path).
  ///
  /// For a path that does not change from frame to frame.
  public func preparedForRepeatedPositions() -> MeasuredPath {
    MeasuredPath(self, inverseTable: InverseTable(pieces))
  }

  /// The same as ``preparedForRepeatedPositions()``, reusing the table of an earlier path
  /// of the same shape from `cache`.
  ///
  /// The table depends only on the shape of each segment, not on where it is, so the
  /// hundreds of copies of one track a generated scene places around the canvas share one
  /// table: made once, held once.
  public func preparedForRepeatedPositions(sharing cache: inout InverseTableCache)
    -> MeasuredPath
  {
    let key = InverseTableCache.Key(pieces)
    if let table = cache.tables[key] { return MeasuredPath(self, inverseTable: table) }
    let table = InverseTable(pieces)
    cache.tables[key] = table
    return MeasuredPath(self, inverseTable: table)
  }

  /// Whether ``preparedForRepeatedPositions()`` made this path's table.
  public var isPreparedForRepeatedPositions: Bool { inverseTable != nil }

  /// The parameter at arc length `local` from the start of curved piece `index`, from the
  /// table, or `nil` where the table may not be used.
  ///
  /// `eighth` is the stretch of the
  /// piece's own 8-entry table holding `local`, which narrows the search to 8 entries.
  @inline(__always)
  func tabulatedParameter(piece index: Int, local: Double, eighth: Int) -> Double? {
    guard let table = inverseTable else { return nil }
    return table.parameter(piece: index, local: local, eighth: eighth)
  }
}

extension MeasuredPath.InverseTable {
  @usableFromInline
  convenience init(_ pieces: [MeasuredPath.Piece]) {
    let n = Self.stretchesPerPiece
    var lengths = [Double](repeating: 0, count: pieces.count * (n + 1))
    var slopes = [Double](repeating: 0, count: pieces.count * (n + 1))
    var curvatures = [Double](repeating: 0, count: pieces.count * (n + 1))
    var usable = [Bool](repeating: false, count: pieces.count * n)
    for (p, piece) in pieces.enumerated() where !piece.isLine && piece.length > 0 {
      let base = p * (n + 1)
      // Lengths far tighter than the 1e-9 the table must meet: the check below compares
      // the interpolant with them at a tenth of that, so a reference only as good as the
      // promise would reject sound stretches (and it did, for most of some curves).
      let integrator = ArcLengthIntegrator(piece.cubic, accuracy: 1e-13)
      var sum = 0.0
      for j in 0...n {
        let t = Double(j) / Double(n)
        if j > 0 { sum += integrator.length(from: Double(j - 1) / Double(n), to: t) }
        lengths[base + j] = sum
        let first = piece.cubic.derivative(at: t)
        let speed = (first.x * first.x + first.y * first.y).squareRoot()
        guard speed > 0 else { continue }  // A cusp: slope 0 marks both stretches unusable.
        let second = piece.cubic.secondDerivative(at: t)
        let speedRate = (first.x * second.x + first.y * second.y) / speed
        slopes[base + j] = 1 / speed
        curvatures[base + j] = -speedRate / (speed * speed * speed)
      }
      let bound = Self.tolerance * piece.length
      for j in 0..<n {
        let t0 = Double(j) / Double(n)
        guard slopes[base + j] > 0, slopes[base + j + 1] > 0,
          lengths[base + j + 1] > lengths[base + j]
        else {
          continue
        }
        var accurate = true
        for u in [0.25, 0.5, 0.75] {
          let local = lengths[base + j] + u * (lengths[base + j + 1] - lengths[base + j])
          let t = Self.interpolate(
            lengths, slopes, curvatures, base: base, stretch: j, local: local)
          let exact = lengths[base + j] + integrator.length(from: t0, to: t)
          if !(abs(exact - local) <= bound) {
            accurate = false
            break
          }
        }
        usable[p * n + j] = accurate
      }
    }
    self.init(lengths: lengths, slopes: slopes, curvatures: curvatures, usable: usable)
  }

  /// The parameter at `local` on piece `index`, or `nil` if its stretch is not usable.
  ///
  /// Only the 16 entries inside `eighth` (found in the piece's coarse table, already
  /// in cache) are searched, so a lookup touches one or two cache lines of the table,
  /// which matters when thousands of paths' tables do not fit in the cache. The coarse
  /// and the dense lengths come from different sums and can differ in the last bits, so
  /// the search is clamped rather than trusted to bracket `local` exactly.
  @inline(__always)
  func parameter(piece index: Int, local: Double, eighth: Int) -> Double? {
    let n = Self.stretchesPerPiece
    let base = index * (n + 1)
    let j = stretch(piece: index, local: local, eighth: eighth)
    guard usable[index * n + j] != 0 else { return nil }
    return Self.interpolate(lengths, slopes, curvatures, base: base, stretch: j, local: local)
  }

  /// The last stretch of `eighth` on piece `index` whose start is at or below `local`, or
  /// the eighth's first.
  @inline(__always)
  func stretch(piece index: Int, local: Double, eighth: Int) -> Int {
    let base = index * (Self.stretchesPerPiece + 1)
    let perEighth = Self.stretchesPerPiece / MeasuredPath.samplesPerPiece
    var lo = eighth * perEighth
    var hi = lo + perEighth - 1
    while lo < hi {
      let mid = (lo + hi + 1) >> 1
      if lengths[base + mid] <= local { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// ``parameter(piece:local:eighth:)``, trying `stretch` first.
  ///
  /// `stretch` is the stretch of an earlier lookup, which a handle moving a little each
  /// frame is often still in. On return it is the stretch used.
  ///
  /// The entries never decrease, so the stretch found, the last whose start is at or below
  /// `local` (or the eighth's first), is the same whatever the guess.
  @inline(__always)
  func parameter(piece index: Int, local: Double, eighth: Int, stretch: inout Int) -> Double? {
    let n = Self.stretchesPerPiece
    let base = index * (n + 1)
    let perEighth = n / MeasuredPath.samplesPerPiece
    let first = eighth * perEighth
    let last = first + perEighth - 1
    var j = stretch
    if !(j >= first && j <= last && (j == first || lengths[base + j] <= local)
      && (j == last || lengths[base + j + 1] > local))
    {
      j = self.stretch(piece: index, local: local, eighth: eighth)
      stretch = j
    }
    guard usable[index * n + j] != 0 else { return nil }
    return Self.interpolate(lengths, slopes, curvatures, base: base, stretch: j, local: local)
  }

  /// The quintic Hermite interpolant of t(s) on stretch `j`, kept inside the stretch.
  @inlinable @inline(__always)
  static func interpolate<Entries: RandomAccessCollection<Double>>(
    _ lengths: Entries, _ slopes: Entries, _ curvatures: Entries, base: Int, stretch j: Int,
    local: Double
  ) -> Double where Entries.Index == Int {
    // Arrays while the table is made, its buffers once it is: both indexed from 0.
    let n = Double(Self.stretchesPerPiece)
    let t0 = Double(j) / n
    let t1 = Double(j + 1) / n
    let s0 = lengths[base + j]
    let h = lengths[base + j + 1] - s0
    let u = Swift.min(Swift.max((local - s0) / h, 0), 1)
    let u2 = u * u
    let u3 = u2 * u
    let u4 = u3 * u
    let u5 = u4 * u
    // Quintic Hermite basis: values, first and second derivatives (in u) at both ends.
    let value0 = 1 - 10 * u3 + 15 * u4 - 6 * u5
    let value1 = 10 * u3 - 15 * u4 + 6 * u5
    let slope0 = u - 6 * u3 + 8 * u4 - 3 * u5
    let slope1 = -4 * u3 + 7 * u4 - 3 * u5
    let bend0 = 0.5 * (u2 - 3 * u3 + 3 * u4 - u5)
    let bend1 = 0.5 * (u3 - 2 * u4 + u5)
    let t =
      value0 * t0 + value1 * t1 + h * (slope0 * slopes[base + j] + slope1 * slopes[base + j + 1])
      + h * h * (bend0 * curvatures[base + j] + bend1 * curvatures[base + j + 1])
    return Swift.min(Swift.max(t, t0), t1)
  }
}

/// Inverse arc-length tables already made, by the shape of the path they were made for
/// (see ``MeasuredPath/preparedForRepeatedPositions(sharing:)``).
public struct InverseTableCache: Sendable {
  var tables: [Key: MeasuredPath.InverseTable] = [:]

  public init() {}

  /// How many distinct tables the cache holds.
  public var count: Int { tables.count }

  /// Each piece's control points relative to its start, and whether it is a line: what a
  /// table is made from, wherever the path lies.
  struct Key: Hashable, Sendable {
    var offsets: [Double]

    init(_ pieces: [MeasuredPath.Piece]) {
      offsets = []
      offsets.reserveCapacity(pieces.count * 7)
      for piece in pieces {
        let c = piece.cubic
        offsets += [
          c.p1.x - c.p0.x, c.p1.y - c.p0.y, c.p2.x - c.p0.x, c.p2.y - c.p0.y,
          c.p3.x - c.p0.x, c.p3.y - c.p0.y, piece.isLine ? 1 : 0,
        ]
      }
    }
  }
}
