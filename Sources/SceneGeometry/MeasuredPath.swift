/// A path with its arc-length table: the object every length, position and
/// nearest-point query goes through.
///
/// Measuring is done once, in `init`: each drawn segment (closing lines included) is
/// converted to its cubic form and its exact arc length is stored with the cumulative
/// length at its start. Queries then find their segment by binary search.
///
/// Arc length runs continuously through all subpaths; the jump of a moveto adds
/// nothing. A path that is a single closed subpath ``isClosed``: lengths wrap around.
/// Every other path clamps lengths to `0...length`.
///
/// ```swift
/// let measured = MeasuredPath(try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0"))
/// measured.length                       // 116.3…
/// measured.position(atLength: 50).point
/// measured.nearest(to: Point(40, 10)).length
/// ```
public struct MeasuredPath: Sendable {
  /// One drawn segment with its measurements.
  @usableFromInline
  struct Piece: Sendable {
    var segment: Segment
    var cubic: CubicBezier
    /// `true` for a straight line: its parameter is proportional to its length.
    var isLine: Bool
    /// The arc length from the path's start to this piece's start.
    var startLength: Double
    var length: Double
    /// Which subpath the piece belongs to, for the ends of tracking.
    var subpathIndex: Int
    /// The bounds of the control points, for culling in nearest-point searches.
    var controlBounds: Rect
    /// The arc length from the piece's start at t = k / ``samplesPerPiece``, k = 0…8:
    /// a table that puts an inverse arc-length solve next to its answer.
    var samples: InlineArray<9, Double>
    var integrator: ArcLengthIntegrator
  }

  /// How many stretches of equal parameter each curved piece's length table has.
  @inlinable static var samplesPerPiece: Int { 8 }

  /// The measurements, in one immutable object: copying a `MeasuredPath` (which passing
  /// one held in an array to a query does) then retains one object, not four.
  @usableFromInline
  final class Storage: Sendable {
    let path: Path
    let pieces: [Piece]
    let startLengths: [Double]
    let inverseTable: InverseTable?

    init(path: Path, pieces: [Piece], startLengths: [Double], inverseTable: InverseTable?) {
      self.path = path
      self.pieces = pieces
      self.startLengths = startLengths
      self.inverseTable = inverseTable
    }
  }

  @usableFromInline let storage: Storage
  /// The total arc length.
  public let length: Double
  /// `true` when the path is one closed subpath, so arc length wraps around.
  public let isClosed: Bool

  /// The path that was measured.
  public var path: Path { storage.path }
  @usableFromInline var pieces: [Piece] {
    @inline(__always) get { storage.pieces }
  }
  /// `startLength` of every piece, kept apart so the binary search touches one array.
  @usableFromInline var startLengths: [Double] {
    @inline(__always) get { storage.startLengths }
  }
  /// The dense table ``preparedForRepeatedPositions()`` makes; `nil` until then.
  @usableFromInline var inverseTable: InverseTable? {
    @inline(__always) get { storage.inverseTable }
  }

  init(_ measured: MeasuredPath, inverseTable: InverseTable) {
    storage = Storage(
      path: measured.path, pieces: measured.pieces, startLengths: measured.startLengths,
      inverseTable: inverseTable)
    length = measured.length
    isClosed = measured.isClosed
  }

  /// Measures `path`.
  ///
  /// A subpath with no segments (a lone moveto) is kept as a zero-length piece at its
  /// point, so that every query has an answer. An empty path measures as a single
  /// point at the origin.
  ///
  /// - Complexity: per curved segment, the speed at 32 points, or 32 and then 40, 48 or 64
  ///   (``CumulativeArcLengthRule``), or eight adaptive integrations where those are not
  ///   accurate enough.
  public init(_ path: Path) {
    var noCache: MeasurementCache?
    self.init(path, cache: &noCache)
  }

  /// Measures `path` as ``init(_:)`` does, reusing the lengths of any curved segment whose
  /// speed is the same as one measured before into `cache`.
  ///
  /// A segment's lengths depend only on its speed polynomial (the differences of its
  /// control points) and on the accuracy asked, so the copies of one shape that a generated
  /// scene puts all over its canvas are measured once. The key is those numbers exactly, so
  /// a path measured this way is bit for bit the same as one measured without a cache.
  public init(_ path: Path, sharing cache: inout MeasurementCache) {
    var some: MeasurementCache? = cache
    cache = MeasurementCache()  // Not copied on write while it is borrowed below.
    self.init(path, cache: &some)
    if let some { cache = some }
  }

  init(_ path: Path, cache: inout MeasurementCache?) {
    var pieces: [Piece] = []
    pieces.reserveCapacity(path.subpaths.reduce(0) { $0 + $1.segments.count + 1 })
    var total = 0.0
    for (index, subpath) in path.subpaths.enumerated() {
      var drawn = subpath.drawnSegments
      if drawn.isEmpty { drawn = [.line(subpath.start, subpath.start)] }
      for segment in drawn {
        let cubic = segment.cubic
        let integrator = ArcLengthIntegrator(cubic)
        var samples = InlineArray<9, Double>(repeating: 0)
        let isLine: Bool
        let length: Double
        if case .line(let a, let b) = segment {
          isLine = true
          length = a.distance(to: b)
        } else {
          isLine = false
          let key = MeasurementCache.Key(integrator)
          if let known = cache?.samples[key] {
            samples = known
          } else {
            if let cumulative = CumulativeArcLengthRule.samples(
              of: integrator.speed, tolerance: integrator.tolerance)
            {
              samples = cumulative
            } else {
              // The length is the sum of the table's stretches, so table and total agree.
              var sum = 0.0
              for k in 0..<Self.samplesPerPiece {
                let n = Double(Self.samplesPerPiece)
                sum += integrator.length(from: Double(k) / n, to: Double(k + 1) / n)
                samples[k + 1] = sum
              }
            }
            cache?.remember(samples, for: key)
          }
          length = samples[Self.samplesPerPiece]
        }
        pieces.append(
          Piece(
            segment: segment, cubic: cubic, isLine: isLine, startLength: total, length: length,
            subpathIndex: index, controlBounds: cubic.controlBounds, samples: samples,
            integrator: integrator))
        total += length
      }
    }
    if pieces.isEmpty {
      let point = CubicBezier(line: .zero, .zero)
      pieces = [
        Piece(
          segment: .line(.zero, .zero), cubic: point, isLine: true,
          startLength: 0, length: 0, subpathIndex: 0, controlBounds: Rect(point: .zero),
          samples: InlineArray(repeating: 0), integrator: ArcLengthIntegrator(point))
      ]
    }
    storage = Storage(
      path: path, pieces: pieces, startLengths: pieces.map { $0.startLength }, inverseTable: nil)
    self.length = total
    self.isClosed = path.subpaths.count == 1 && path.subpaths[0].isClosed
  }

  /// The number of drawn segments, closing lines included.
  public var segmentCount: Int { pieces.count }

  /// The drawn segment at `index` (see ``segmentCount``).
  public func segment(at index: Int) -> Segment { pieces[index].segment }

  /// The exact bounds of everything drawn.
  public var bounds: Rect {
    var rect = pieces[0].isLine ? Rect(point: pieces[0].cubic.p0) : pieces[0].cubic.bounds
    for piece in pieces {
      rect = rect.union(
        piece.isLine ? Rect(point: piece.cubic.p0).including(piece.cubic.p3) : piece.cubic.bounds)
    }
    return rect
  }

  /// `length` brought into the path: wrapped around a closed path, clamped on any other.
  @inlinable @inline(always)
  public func normalizedLength(_ length: Double) -> Double { normalizedLength(length, wraps: true) }

  /// `length` brought into the path: wrapped around a closed path when `wraps`, else
  /// clamped to `0...length` (a closed path whose ends clamp stops at its start point).
  @inlinable @inline(always)
  public func normalizedLength(_ length: Double, wraps: Bool) -> Double {
    guard length.isFinite else { return length > 0 ? self.length : 0 }
    if wraps && isClosed && self.length > 0 {
      var wrapped = length.truncatingRemainder(dividingBy: self.length)
      if wrapped < 0 { wrapped += self.length }
      return wrapped
    }
    return Swift.min(Swift.max(length, 0), self.length)
  }
}

/// The lengths of curved segments already measured, by their speed (see
/// ``MeasuredPath/init(_:sharing:)``).
///
/// It remembers at most ``capacity`` shapes, the first met, so a scene of many different
/// paths cannot make it grow without bound; what it answers never depends on whether a
/// shape was remembered.
public struct MeasurementCache: Sendable {
  /// The most shapes remembered.
  public static let capacity = 4_096

  struct Key: Hashable, Sendable {
    var a: Vector
    var b: Vector
    var c: Vector
    var tolerance: Double

    init(_ integrator: ArcLengthIntegrator) {
      a = integrator.speed.a
      b = integrator.speed.b
      c = integrator.speed.c
      tolerance = integrator.tolerance
    }
  }

  var samples: [Key: InlineArray<9, Double>] = [:]

  public init() {}

  /// How many shapes it holds.
  public var count: Int { samples.count }

  mutating func remember(_ lengths: InlineArray<9, Double>, for key: Key) {
    guard samples.count < Self.capacity else { return }
    samples[key] = lengths
  }
}
