import Testing

@testable import SceneGeometry

/// The dense table `preparedForRepeatedPositions()` makes must keep the promise of
/// `position(atLength:)`: |s(t) − s| ≤ 1e-9 · L, measured against the independent
/// Gauss–Legendre reference, on ordinary, near-cusp and exactly cusped cubics.
@Suite struct InverseTableTests {
  static let bound = 1e-9

  func worstError(of path: Path, queries: Int, inputs: inout SeededInputs) -> Double {
    let prepared = MeasuredPath(path).preparedForRepeatedPositions()
    var worst = 0.0
    for _ in 0..<queries {
      let s = inputs.double(in: 0...prepared.length)
      let position = prepared.position(atLength: s)
      let piece = prepared.pieces[position.segmentIndex]
      let reached = piece.startLength + Reference.arcLength(piece.cubic, from: 0, to: position.t)
      worst = max(worst, abs(reached - s) / prepared.length)
    }
    return worst
  }

  @Test func randomCubicsKeepTheInverseBound() {
    var inputs = SeededInputs(seed: 41)
    var worst = 0.0
    for _ in 0..<200 {
      let cubic = inputs.cubic()
      let path = Path(subpaths: [
        Subpath(start: cubic.p0, segments: [.cubic(cubic.p0, cubic.p1, cubic.p2, cubic.p3)])
      ])
      worst = max(worst, worstError(of: path, queries: 20, inputs: &inputs))
    }
    #expect(worst <= Self.bound, "worst |s(t) − s| / L = \(worst)")
  }

  @Test(arguments: [1e-2, 1e-5, 1e-9, 0])
  func nearCuspCubicsKeepTheInverseBound(epsilon: Double) {
    var inputs = SeededInputs(seed: 42)
    var worst = 0.0
    for _ in 0..<40 {
      let cubic = inputs.nearCuspCubic(epsilon: epsilon)
      let path = Path(subpaths: [
        Subpath(start: cubic.p0, segments: [.cubic(cubic.p0, cubic.p1, cubic.p2, cubic.p3)])
      ])
      worst = max(worst, worstError(of: path, queries: 20, inputs: &inputs))
    }
    #expect(worst <= Self.bound, "worst |s(t) − s| / L = \(worst) at epsilon \(epsilon)")
  }

  /// The arc length at a parameter, read back through the table, keeps the same bound
  /// against the independent reference, on ordinary and near-cusp cubics; and the table
  /// answers most of them.
  @Test func lengthsAtAParameterKeepTheBound() {
    var inputs = SeededInputs(seed: 43)
    var worst = 0.0
    var answered = 0
    var asked = 0
    for round in 0..<240 {
      let cubic = round % 4 == 3 ? inputs.nearCuspCubic(epsilon: 1e-5) : inputs.cubic()
      let path = Path(subpaths: [
        Subpath(start: cubic.p0, segments: [.cubic(cubic.p0, cubic.p1, cubic.p2, cubic.p3)])
      ])
      let prepared = MeasuredPath(path).preparedForRepeatedPositions()
      guard let table = prepared.inverseTable, prepared.length > 0 else { continue }
      for _ in 0..<20 {
        let t = inputs.double(in: 0...1)
        asked += 1
        if table.length(piece: 0, t: t) != nil { answered += 1 }
        let length = prepared.position(segment: 0, t: t).length
        let reference = Reference.arcLength(cubic, from: 0, to: t)
        worst = max(worst, abs(length - reference) / prepared.length)
      }
    }
    #expect(worst <= Self.bound, "worst |s − s(t)| / L = \(worst)")
    #expect(answered >= asked * 3 / 4, "the table answered \(answered) of \(asked)")
  }

  @Test func agreesWithTheExactSolveAndIsUsedForSmoothCurves() throws {
    let path = try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0 S 180 90 220 10 L 260 10")
    let exact = MeasuredPath(path)
    let prepared = exact.preparedForRepeatedPositions()
    #expect(!exact.isPreparedForRepeatedPositions && prepared.isPreparedForRepeatedPositions)
    let table = try #require(prepared.inverseTable)
    // A smooth curve uses the table on most stretches (80% here; the rest keep the exact
    // solve); lines have no stretches in use.
    let curved = table.usableStretches[0..<(2 * MeasuredPath.InverseTable.stretchesPerPiece)]
    #expect(curved.filter { $0 }.count >= curved.count * 3 / 4)
    let line = table.usableStretches[(2 * MeasuredPath.InverseTable.stretchesPerPiece)...]
    #expect(line.count == MeasuredPath.InverseTable.stretchesPerPiece && !line.contains(true))
    for k in 0...100 {
      let s = prepared.length * Double(k) / 100
      let a = exact.position(atLength: s)
      let b = prepared.position(atLength: s)
      #expect(a.segmentIndex == b.segmentIndex)
      #expect(a.point.distance(to: b.point) <= 1e-8 * prepared.length)
      #expect(a.length == b.length)
    }
  }

  /// Every stretch of the runtime benchmarks' track, an S with a sharp turn, is usable.
  ///
  /// At 64 stretches, or
  /// checked against lengths only as accurate as the 1e-9 promise, half its stretches
  /// failed the check and fell back to the exact solve.
  @Test func everyStretchOfAnSShapedTrackIsUsable() throws {
    let path = try Path(svgPathData: "M0 50 C 30 -20 70 120 100 50")
    let table = try #require(MeasuredPath(path).preparedForRepeatedPositions().inverseTable)
    #expect(table.usableStretches.count == MeasuredPath.InverseTable.stretchesPerPiece)
    #expect(table.usableStretches.allSatisfy { $0 })
  }

  /// A wavy track of `count` cubic segments, each unlike the others.
  static func longTrack(_ count: Int) throws -> MeasuredPath {
    var data = "M0 0"
    for i in 0..<count {
      let x = Double(i) * 10
      data += " C \(x + 3) \(5 + Double(i % 7)) \(x + 7) \(-5 - Double(i % 5)) \(x + 10) 0"
    }
    return MeasuredPath(try Path(svgPathData: data))
  }

  /// A long path keeps no table: its memory is its measurements alone, and its positions
  /// are exact all the same. (Its table would be 6 KB a segment: 2 GB for 350,000.)
  @Test func aLongPathOrOneOverTheBudgetKeepsNoTableAndStaysExact() throws {
    var cache = InverseTableCache()
    let limit = InverseTableCache.maximumPieces
    let atLimit = try Self.longTrack(limit).preparedForRepeatedPositions(sharing: &cache)
    #expect(atLimit.isPreparedForRepeatedPositions)
    #expect(cache.usedBytes == limit * (129 + 128 * 5) * 8)
    let long = try Self.longTrack(limit + 1).preparedForRepeatedPositions(sharing: &cache)
    #expect(!long.isPreparedForRepeatedPositions)
    #expect(cache.usedBytes == limit * (129 + 128 * 5) * 8)
    for k in 0...40 {
      let s = long.length * Double(k) / 40
      let position = long.position(atLength: s)
      let piece = long.pieces[position.segmentIndex]
      let reached = piece.startLength + Reference.arcLength(piece.cubic, from: 0, to: position.t)
      #expect(abs(reached - s) <= Self.bound * long.length)
    }
    // A small budget: the first table fits, the next (another shape) does not.
    var small = InverseTableCache(budgetBytes: 100_000)
    let first = try Self.longTrack(10).preparedForRepeatedPositions(sharing: &small)
    let second = try Self.longTrack(11).preparedForRepeatedPositions(sharing: &small)
    #expect(first.isPreparedForRepeatedPositions && !second.isPreparedForRepeatedPositions)
    #expect(small.usedBytes == 10 * 769 * 8)
  }

  /// Paths of one shape share one table wherever they lie, and each still meets the bound.
  @Test func pathsOfOneShapeShareOneTable() throws {
    var cache = InverseTableCache()
    var prepared: [MeasuredPath] = []
    for (x, y) in [(0.0, 0.0), (3900, 2400), (-170.5, 88.25)] {
      let path = try Path(
        svgPathData:
          "M\(x) \(y + 50) C \(x + 30) \(y - 20) \(x + 70) \(y + 120) \(x + 100) \(y + 50)")
      prepared.append(MeasuredPath(path).preparedForRepeatedPositions(sharing: &cache))
    }
    let other = try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0")
    let different = MeasuredPath(other).preparedForRepeatedPositions(sharing: &cache)
    #expect(cache.count == 2)
    #expect(prepared[0].inverseTable === prepared[1].inverseTable)
    #expect(prepared[0].inverseTable === prepared[2].inverseTable)
    #expect(prepared[0].inverseTable !== different.inverseTable)
    for measured in prepared {
      for k in 0...50 {
        let s = measured.length * Double(k) / 50
        let position = measured.position(atLength: s)
        let piece = measured.pieces[position.segmentIndex]
        let reached =
          piece.startLength + Reference.arcLength(piece.cubic, from: 0, to: position.t)
        #expect(abs(reached - s) <= Self.bound * measured.length)
      }
    }
  }

  /// `point(atLength:)` is `position(atLength:)` without the tangent, bit for bit.
  @Test func thePointAloneIsThePositionsPoint() throws {
    let path = try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0 S 180 90 220 10 L 260 10 Z")
    for measured in [MeasuredPath(path), MeasuredPath(path).preparedForRepeatedPositions()] {
      for k in -10...110 {
        let s = measured.length * Double(k) / 100
        #expect(measured.point(atLength: s) == measured.position(atLength: s).point)
      }
    }
  }
}
