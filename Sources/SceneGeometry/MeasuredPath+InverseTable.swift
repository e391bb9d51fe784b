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
  /// of the length. The table keeps that quintic's coefficients in powers of the length
  /// into the stretch, so a lookup is five multiply-adds, with no division. When the table
  /// is made, every stretch is checked against the exact inverse at a quarter, half and
  /// three quarters of its length: only a stretch where the interpolant is within
  /// ``tolerance`` of the piece's length everywhere checked (ten times inside the 1e-9
  /// that ``position(atLength:)`` promises) is used; the others, around a cusp or a very
  /// sharp turn, keep the exact solve.
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
    /// The coefficients kept per stretch: of d, d², d³, d⁴ and d⁵ (see ``coefficients``).
    @inlinable static var coefficientsPerStretch: Int { 5 }
    /// How near, relative to a piece's length, the interpolant must be to the exact
    /// inverse for a stretch to be used.
    static let tolerance = 1e-10

    /// For piece `p`, entries `p × 129 ..< p × 129 + 129`: the arc length from the
    /// piece's start at t = j / 128 (zeros for a line).
    let lengths: UnsafeBufferPointer<Double>
    /// For stretch `j` of piece `p`, the 5 entries from `(p × 128 + j) × 5`.
    ///
    /// They are a₁ … a₅ of t = j / 128 + a₁d + a₂d² + … + a₅d⁵, d the length into the
    /// stretch. a₁ is NaN where the stretch may not be used, as on every stretch of a line
    /// or of a piece with no length.
    let coefficients: UnsafeBufferPointer<Double>
    /// The one allocation the two share; written only in `init`, freed in `deinit`.
    private let entries: UnsafeMutableBufferPointer<Double>

    init(lengths: [Double], coefficients: [Double]) {
      // At least one entry, so that the allocation always has an address.
      entries = .allocate(capacity: Swift.max(lengths.count + coefficients.count, 1))
      guard let base = entries.baseAddress else {
        preconditionFailure("an allocation of at least one Double has an address")
      }
      for (i, value) in lengths.enumerated() { base[i] = value }
      for (i, value) in coefficients.enumerated() { base[lengths.count + i] = value }
      self.lengths = UnsafeBufferPointer(start: base, count: lengths.count)
      self.coefficients = UnsafeBufferPointer(
        start: base + lengths.count, count: coefficients.count)
    }

    deinit { entries.deallocate() }

    /// The bytes the table of a path of `pieces` pieces holds: each piece's lengths at
    /// 129 points and 128 stretches of 5 coefficients.
    static func bytes(pieces: Int) -> Int {
      pieces * (stretchesPerPiece + 1 + stretchesPerPiece * coefficientsPerStretch)
        * MemoryLayout<Double>.size
    }

    /// Whether each stretch, piece after piece, may be used: for tests and benchmarks.
    var usableStretches: [Bool] {
      stride(from: 0, to: coefficients.count, by: Self.coefficientsPerStretch).map {
        !coefficients[$0].isNaN
      }
    }
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
  /// of the same shape from `cache`, within the cache's memory budget.
  ///
  /// The table depends only on the shape of each segment, not on where it is, so the
  /// hundreds of copies of one track a generated scene places around the canvas share one
  /// table: made once, held once.
  ///
  /// A table costs about 6 KB and 50 µs a curved piece, so a path of more than
  /// ``InverseTableCache/maximumPieces`` curved pieces, or one whose table would take the
  /// cache past ``InverseTableCache/budgetBytes``, is returned as it is: its positions are
  /// solved exactly each time (as accurate, a little slower), and it costs only its own
  /// measurements, a few hundred bytes a segment. A 350,000-segment track once took 4.4 GB
  /// and 28 s to check.
  public func preparedForRepeatedPositions(sharing cache: inout InverseTableCache)
    -> MeasuredPath
  {
    let curved = pieces.count { !$0.isLine && $0.length > 0 }
    guard curved > 0, curved <= InverseTableCache.maximumPieces else { return self }
    let key = InverseTableCache.Key(pieces)
    if let table = cache.tables[key] { return MeasuredPath(self, inverseTable: table) }
    let bytes = InverseTable.bytes(pieces: pieces.count)
    guard cache.usedBytes + bytes <= cache.budgetBytes else { return self }
    let table = InverseTable(pieces)
    cache.tables[key] = table
    cache.usedBytes += bytes
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
  /// The arc length from the start of curved piece `index` to parameter `t`, from the
  /// table, or `nil` where the table may not be used.
  ///
  /// The inverse of the stretch's quintic, by Newton's method from its linear term. Its
  /// answer is as good as the quintic: within ``tolerance`` of the piece's length of the
  /// exact length, where integrating from the piece's eighth would take a quadrature.
  func length(piece index: Int, t: Double) -> Double? {
    let n = Self.stretchesPerPiece
    guard t >= 0, t <= 1 else { return nil }
    let j = Swift.min(Int(t * Double(n)), n - 1)
    let base = (index * n + j) * Self.coefficientsPerStretch
    guard base + 4 < coefficients.count else { return nil }
    let (a1, a2, a3, a4, a5) = (
      coefficients[base], coefficients[base + 1], coefficients[base + 2],
      coefficients[base + 3], coefficients[base + 4]
    )
    guard !a1.isNaN, a1 > 0 else { return nil }
    let start = lengths[index * (n + 1) + j]
    let span = lengths[index * (n + 1) + j + 1] - start
    let target = t - Double(j) / Double(n)
    var d = target / a1
    for _ in 0..<8 {
      let value = ((((a5 * d + a4) * d + a3) * d + a2) * d + a1) * d - target
      let slope = (((5 * a5 * d + 4 * a4) * d + 3 * a3) * d + 2 * a2) * d + a1
      guard slope > 0 else { return nil }
      let step = value / slope
      d -= step
      // Converged to well inside the table's own tolerance.
      if abs(step) <= 1e-13 * Swift.max(span, 1e-300) {
        guard d >= -1e-12 * span, d <= span * (1 + 1e-12) else { return nil }
        return start + Swift.min(Swift.max(d, 0), span)
      }
    }
    return nil
  }

  @usableFromInline
  convenience init(_ pieces: [MeasuredPath.Piece]) {
    let n = Self.stretchesPerPiece
    let m = Self.coefficientsPerStretch
    var lengths = [Double](repeating: 0, count: pieces.count * (n + 1))
    // NaN: not usable, until a stretch passes the check below.
    var coefficients = [Double](repeating: .nan, count: pieces.count * n * m)
    var slopes = [Double](repeating: 0, count: n + 1)
    var curvatures = [Double](repeating: 0, count: n + 1)
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
        slopes[j] = 0
        curvatures[j] = 0
        let first = piece.cubic.derivative(at: t)
        let speed = (first.x * first.x + first.y * first.y).squareRoot()
        guard speed > 0 else { continue }  // A cusp: slope 0 marks both stretches unusable.
        let second = piece.cubic.secondDerivative(at: t)
        let speedRate = (first.x * second.x + first.y * second.y) / speed
        slopes[j] = 1 / speed
        curvatures[j] = -speedRate / (speed * speed * speed)
      }
      let bound = Self.tolerance * piece.length
      for j in 0..<n {
        let at = (p * n + j) * m
        let t0 = Double(j) / Double(n)
        let h = lengths[base + j + 1] - lengths[base + j]
        guard slopes[j] > 0, slopes[j + 1] > 0, h > 0 else { continue }
        let stretch = Self.quintic(
          t0: t0, t1: Double(j + 1) / Double(n), length: h, slopes: (slopes[j], slopes[j + 1]),
          curvatures: (curvatures[j], curvatures[j + 1]))
        guard stretch.allSatisfy({ $0.isFinite }) else { continue }
        var accurate = true
        for u in [0.25, 0.5, 0.75] {
          let local = lengths[base + j] + u * h
          let t = stretch.withUnsafeBufferPointer { entries -> Double in
            guard let first = entries.baseAddress else { return .nan }
            return Self.evaluate(
              first, stretch: j, start: lengths[base + j], end: lengths[base + j + 1],
              local: local)
          }
          let exact = lengths[base + j] + integrator.length(from: t0, to: t)
          if !(abs(exact - local) <= bound) {
            accurate = false
            break
          }
        }
        guard accurate else { continue }
        for k in 0..<m { coefficients[at + k] = stretch[k] }
      }
    }
    self.init(lengths: lengths, coefficients: coefficients)
  }

  /// The coefficients a₁ … a₅ of the quintic Hermite interpolant of t(s) on a stretch
  /// from `t0` to `t1`, `length` long, with dt/ds and d²t/ds² at its ends: in powers of the
  /// length d into the stretch, t = t0 + a₁d + … + a₅d⁵.
  static func quintic(
    t0: Double, t1: Double, length h: Double, slopes: (Double, Double),
    curvatures: (Double, Double)
  ) -> [Double] {
    // In u = d / h the interpolant is t0 + m0 u + k0/2 u² + c3 u³ + c4 u⁴ + c5 u⁵, with the
    // derivatives in u: m = h dt/ds, k = h² d²t/ds². The quintic Hermite basis gives c3 … c5.
    let delta = t1 - t0
    let m0 = h * slopes.0
    let m1 = h * slopes.1
    let k0 = h * h * curvatures.0
    let k1 = h * h * curvatures.1
    let c3 = 10 * delta - 6 * m0 - 4 * m1 - 1.5 * k0 + 0.5 * k1
    let c4 = -15 * delta + 8 * m0 + 7 * m1 + 1.5 * k0 - k1
    let c5 = 6 * delta - 3 * m0 - 3 * m1 - 0.5 * k0 + 0.5 * k1
    let h2 = h * h
    let h3 = h2 * h
    return [slopes.0, 0.5 * curvatures.0, c3 / h3, c4 / (h3 * h), c5 / (h3 * h2)]
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
    let j = stretch(piece: index, local: local, eighth: eighth)
    return parameter(piece: index, stretch: j, local: local)
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

  /// The parameter at `local` on stretch `j` of piece `index`, or `nil` if it is not usable.
  @inline(__always)
  func parameter(piece index: Int, stretch j: Int, local: Double) -> Double? {
    let n = Self.stretchesPerPiece
    let base = index * (n + 1)
    let at = (index * n + j) * Self.coefficientsPerStretch
    guard !coefficients[at].isNaN, let entries = coefficients.baseAddress else { return nil }
    return Self.evaluate(
      entries + at, stretch: j, start: lengths[base + j], end: lengths[base + j + 1],
      local: local)
  }

  /// The interpolant of stretch `j`, whose coefficients start at `stretch`, at `local`
  /// (between the stretch's `start` and `end` lengths), kept inside the stretch.
  @inlinable @inline(always)
  static func evaluate(
    _ stretch: UnsafePointer<Double>, stretch j: Int, start: Double, end: Double,
    local: Double
  ) -> Double {
    // The class's name, not `Self`: in a class that is the dynamic type, and inlining it
    // into a caller crashed the 6.3 compiler at -Onone.
    let n = Double(MeasuredPath.InverseTable.stretchesPerPiece)
    let t0 = Double(j) / n
    let t1 = Double(j + 1) / n
    let d = Swift.min(Swift.max(local - start, 0), end - start)
    let t =
      t0 + d
      * (stretch[0] + d * (stretch[1] + d * (stretch[2] + d * (stretch[3] + d * stretch[4]))))
    return Swift.min(Swift.max(t, t0), t1)
  }
}

/// Inverse arc-length tables already made, by the shape of the path they were made for
/// (see ``MeasuredPath/preparedForRepeatedPositions(sharing:)``).
public struct InverseTableCache: Sendable {
  var tables: [Key: MeasuredPath.InverseTable] = [:]
  /// The bytes the tables made so far hold.
  public internal(set) var usedBytes = 0
  /// The most bytes of tables the cache makes; past it, paths stay without one.
  public var budgetBytes: Int

  /// The most curved pieces a path may have and still get a table (about 6 MB of table).
  public static let maximumPieces = 1_024
  /// The default budget: 64 MiB of tables for a whole scene.
  public static let defaultBudgetBytes = 64 << 20

  public init(budgetBytes: Int = InverseTableCache.defaultBudgetBytes) {
    self.budgetBytes = budgetBytes
  }

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
