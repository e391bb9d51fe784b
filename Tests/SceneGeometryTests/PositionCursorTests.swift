import Testing

@testable import SceneGeometry

/// A `MeasuredPath.Cursor` only saves work: every answer through it is the answer without
/// it, to the bit, whatever lengths come in and in whatever order.
@Suite struct PositionCursorTests {
  /// A path of `count` random segments of every kind, with a zero-length line, a lone
  /// moveto and (if `closed`) a closing line among them.
  func randomPath(segments count: Int, closed: Bool, inputs: inout SeededInputs) -> Path {
    var segments: [Segment] = []
    var point = inputs.point()
    let start = point
    for k in 0..<count {
      let end = inputs.point()
      switch k % 4 {
      case 0: segments.append(.line(point, end))
      case 1: segments.append(.quadratic(point, inputs.point(), end))
      case 2: segments.append(.line(point, point))  // zero length: the cursor must skip it
      default:
        let cubic = inputs.cubic()
        segments.append(.cubic(point, cubic.p1, cubic.p2, end))
      }
      if k % 4 != 2 { point = end }
    }
    if !closed {
      // A second subpath: a lone moveto, then one cubic.
      let cubic = inputs.cubic()
      return Path(subpaths: [
        Subpath(start: start, segments: segments),
        Subpath(start: inputs.point(), segments: []),
        Subpath(start: cubic.p0, segments: [.cubic(cubic.p0, cubic.p1, cubic.p2, cubic.p3)]),
      ])
    }
    return Path(subpaths: [Subpath(start: start, segments: segments, isClosed: true)])
  }

  /// Lengths as a springing handle asks for them (small steps back and forth), with
  /// jumps, both ends, joints between segments exactly, beyond the ends and NaN.
  func lengths(on path: MeasuredPath, count: Int, inputs: inout SeededInputs) -> [Double] {
    var lengths: [Double] = []
    var s = inputs.double(in: 0...path.length)
    let joints = (0..<path.segmentCount).map { path.pieces[$0].startLength }
    for k in 0..<count {
      switch k % 16 {
      case 5: s = inputs.double(in: 0...path.length)
      case 7: s = joints[Int(inputs.double(in: 0...Double(joints.count - 1)).rounded())]
      case 9: s = 0
      case 11: s = path.length
      case 13: s = inputs.double(in: -path.length...(2 * path.length))
      case 15: lengths.append(.nan)
      default: s += inputs.double(in: -0.02...0.02) * path.length
      }
      lengths.append(s)
    }
    return lengths
  }

  func expectSameAnswers(on path: MeasuredPath, _ lengths: [Double]) {
    var pointCursor = MeasuredPath.Cursor()
    var positionCursor = MeasuredPath.Cursor()
    for s in lengths {
      let point = path.point(atLength: s, cursor: &pointCursor)
      let expectedPoint = path.point(atLength: s)
      #expect(
        point.x.bitPattern == expectedPoint.x.bitPattern
          && point.y.bitPattern == expectedPoint.y.bitPattern,
        "point at \(s): \(point) through the cursor, \(expectedPoint) without")
      let position = path.position(atLength: s, cursor: &positionCursor)
      #expect(position == path.position(atLength: s), "position at \(s)")
    }
  }

  @Test(arguments: [false, true])
  func givesTheAnswersOfASearchOnRandomPaths(closed: Bool) {
    var inputs = SeededInputs(seed: closed ? 91 : 90)
    for _ in 0..<12 {
      let exact = MeasuredPath(randomPath(segments: 9, closed: closed, inputs: &inputs))
      let prepared = exact.preparedForRepeatedPositions()
      expectSameAnswers(on: exact, lengths(on: exact, count: 200, inputs: &inputs))
      expectSameAnswers(on: prepared, lengths(on: prepared, count: 400, inputs: &inputs))
    }
  }

  @Test(arguments: [1e-2, 1e-5, 0])
  func givesTheAnswersOfASearchNextToACusp(epsilon: Double) {
    // Stretches next to a cusp are not usable in the table: the cursor falls back to the
    // exact solve there, with the same answer.
    var inputs = SeededInputs(seed: 92)
    for _ in 0..<10 {
      let cubic = inputs.nearCuspCubic(epsilon: epsilon)
      let path = MeasuredPath(
        Path(subpaths: [
          Subpath(start: cubic.p0, segments: [.cubic(cubic.p0, cubic.p1, cubic.p2, cubic.p3)])
        ])
      ).preparedForRepeatedPositions()
      expectSameAnswers(on: path, lengths(on: path, count: 300, inputs: &inputs))
    }
  }

  @Test func givesTheAnswersOfASearchAtEveryStretchBoundary() throws {
    // Where a remembered stretch stops being the right one: at each entry of the table and
    // of the coarse table, and one ulp either side, forwards and then backwards.
    let path = MeasuredPath(
      try Path(svgPathData: "M0 50 C 30 -20 70 120 100 50 C 130 -20 170 120 200 50")
    ).preparedForRepeatedPositions()
    let table = try #require(path.inverseTable)
    let n = MeasuredPath.InverseTable.stretchesPerPiece
    var boundaries: [Double] = []
    for p in 0..<path.segmentCount {
      let start = path.pieces[p].startLength
      for j in 0...n { boundaries.append(start + table.lengths[p * (n + 1) + j]) }
      for k in 0...MeasuredPath.samplesPerPiece {
        boundaries.append(start + path.pieces[p].samples[k])
      }
    }
    let lengths = boundaries.sorted().flatMap { [$0.nextDown, $0, $0.nextUp] }
    expectSameAnswers(on: path, lengths + lengths.reversed())
  }

  @Test func startsOverOnAnotherPath() throws {
    // One cursor handed two paths in turn, and the same path measured twice (equal, but
    // not the measurements the cursor was filled from): never the other path's answer.
    let first = MeasuredPath(try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0"))
    let second = MeasuredPath(try Path(svgPathData: "M0 0 C 30 -80 70 40 100 0"))
    let again = MeasuredPath(first.path).preparedForRepeatedPositions()
    var cursor = MeasuredPath.Cursor()
    for k in 0...60 {
      let s = Double(k) * 2
      for path in [first, second, again] {
        #expect(path.point(atLength: s, cursor: &cursor) == path.point(atLength: s))
      }
    }
  }

  @Test func keepsItsPlaceWhileTheLengthStaysInOneSegment() throws {
    let path = MeasuredPath(
      try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0 S 180 90 220 10 L 260 10")
    ).preparedForRepeatedPositions()
    var cursor = MeasuredPath.Cursor()
    _ = path.point(atLength: 1, cursor: &cursor)
    let filled = try #require(cursor.storage)
    #expect(filled === path.storage && cursor.piece == 0)
    // Along the first segment the cursor stays put; past its end it moves to the next.
    for k in 1..<20 { _ = path.point(atLength: Double(k), cursor: &cursor) }
    #expect(cursor.piece == 0)
    _ = path.point(atLength: path.pieces[1].startLength + 1, cursor: &cursor)
    #expect(cursor.piece == 1 && cursor.pieceStart == path.pieces[1].startLength)
    // The end of the path is left to the search (t = 1 of the last piece).
    _ = path.point(atLength: path.length, cursor: &cursor)
    #expect(cursor.piece == 2)
  }
}
