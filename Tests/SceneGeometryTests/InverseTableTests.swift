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

  @Test func agreesWithTheExactSolveAndIsUsedForSmoothCurves() throws {
    let path = try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0 S 180 90 220 10 L 260 10")
    let exact = MeasuredPath(path)
    let prepared = exact.preparedForRepeatedPositions()
    #expect(!exact.isPreparedForRepeatedPositions && prepared.isPreparedForRepeatedPositions)
    let table = try #require(prepared.inverseTable)
    // A smooth curve uses the table on most stretches (80% here; the rest keep the exact
    // solve); lines have no stretches in use.
    let curved = table.usable[0..<(2 * MeasuredPath.InverseTable.stretchesPerPiece)]
    #expect(curved.filter { $0 }.count >= curved.count * 3 / 4)
    for k in 0...100 {
      let s = prepared.length * Double(k) / 100
      let a = exact.position(atLength: s)
      let b = prepared.position(atLength: s)
      #expect(a.segmentIndex == b.segmentIndex)
      #expect(a.point.distance(to: b.point) <= 1e-8 * prepared.length)
      #expect(a.length == b.length)
    }
  }
}
