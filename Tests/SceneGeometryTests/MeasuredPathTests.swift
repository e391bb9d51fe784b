import Foundation
import SceneTestSupport
import Testing

@testable import SceneGeometry

@Suite struct MeasuredPathTests {
  func measured(_ data: String) throws -> MeasuredPath {
    MeasuredPath(try Path(svgPathData: data))
  }

  @Test func lengthsAndPositionsOfAPolyline() throws {
    let path = try measured("M0 0 L30 40 L30 0")
    #expect(path.length == 90)
    #expect(path.position(atLength: 25).point == Point(15, 20))
    #expect(path.position(atLength: 70).point == Point(30, 20))
    // At a joint the point belongs to the segment that starts there.
    let joint = path.position(atLength: 50)
    #expect(joint.segmentIndex == 1 && joint.t == 0)
    #expect(joint.tangent == Vector(0, -1))
    // Past the ends an open path clamps.
    #expect(path.position(atLength: -3).point == Point(0, 0))
    #expect(path.position(atLength: 1e9).point == Point(30, 0))
    #expect(path.position(atLength: .infinity).point == Point(30, 0))
    #expect(path.position(atLength: .nan).point == Point(0, 0))
  }

  @Test func closedPathsWrapAround() throws {
    let square = try measured("M0 0 H10 V10 H0 Z")
    #expect(square.isClosed)
    #expect(square.length == 40)
    #expect(square.segmentCount == 4)  // The closing line is measured too.
    #expect(square.position(atLength: 45).point == Point(5, 0))
    #expect(square.position(atLength: -5).point == Point(0, 5))
    #expect(square.normalizedLength(-45) == 35)
    // Two subpaths: lengths run on across the move, and nothing wraps.
    let two = try measured("M0 0 H10 Z M100 100 V110")
    #expect(!two.isClosed)
    #expect(two.length == 30)
    #expect(two.position(atLength: 25).point == Point(100, 105))
  }

  @Test func positionsOnAManySegmentPathMatchTheReference() {
    var inputs = SeededInputs(seed: 51)
    // One path: each reference length costs tens of milliseconds in a debug build.
    for _ in 0..<1 {
      var segments: [Segment] = []
      var current = inputs.point()
      let start = current
      for k in 0..<64 {
        let next = inputs.point()
        switch k % 3 {
        case 0: segments.append(.line(current, next))
        case 1: segments.append(.quadratic(current, inputs.point(), next))
        default: segments.append(.cubic(current, inputs.point(), inputs.point(), next))
        }
        current = next
      }
      let path = MeasuredPath(Path(start: start, segments: segments))
      let references = segments.map { Reference.arcLength($0.cubic) }
      let total = references.reduce(0, +)
      #expect(
        isApproximatelyEqual(
          path.length, total, relativeTolerance: 0, absoluteTolerance: 1e-9 * total))
      for _ in 0..<40 {
        let s = inputs.double(in: 0...path.length)
        let position = path.position(atLength: s)
        let before = references[..<position.segmentIndex].reduce(0, +)
        let reached =
          before
          + Reference.arcLength(segments[position.segmentIndex].cubic, from: 0, to: position.t)
        #expect(
          isApproximatelyEqual(reached, s, relativeTolerance: 0, absoluteTolerance: 1e-9 * total),
          "s \(s) reached \(reached)")
        let cubic = segments[position.segmentIndex].cubic
        #expect(position.point == cubic.point(at: position.t))
      }
    }
  }

  @Test func zeroLengthSegmentsAndLonePointsNeverGiveNaN() throws {
    let path = try measured("M10 10 L10 10 L20 10 L20 10 L20 10")
    #expect(path.length == 10)
    let start = path.position(atLength: 0)
    #expect(start.point == Point(10, 10))
    #expect(start.tangent == Vector(1, 0))
    let end = path.position(atLength: 10)
    #expect(end.point == Point(20, 10) && end.tangent == Vector(1, 0))
    let lone = try measured("M5 5")
    #expect(lone.length == 0)
    #expect(lone.position(atLength: 3).point == Point(5, 5))
    #expect(lone.nearest(to: Point(8, 9)).distance == 5)
    #expect(lone.bounds == Rect(minX: 5, minY: 5, maxX: 5, maxY: 5))
    let empty = MeasuredPath(Path())
    #expect(empty.length == 0 && empty.position(atLength: 1).point == .zero)
    // A point that "moves" through a cubic whose control points all coincide.
    let still = try measured("M0 0 C0 0 0 0 0 0 L0 5")
    #expect(still.position(atLength: 0).tangent == Vector(0, 1))
  }

  @Test func globalNearestMatchesBruteForceOverTheWholePath() throws {
    var inputs = SeededInputs(seed: 52)
    let path = try measured(
      "M0 0 C 40 -60 80 60 120 0 S 200 -60 240 0 Q 300 80 360 0 L 400 40 A 40 40 0 1 1 320 40")
    for _ in 0..<300 {
      let query = inputs.point(in: -50...450)
      let found = path.nearest(to: query)
      var brute = Double.infinity
      for index in 0..<path.segmentCount {
        brute = min(
          brute, Reference.nearestDistance(path.segment(at: index).cubic, to: query, samples: 2000))
      }
      #expect(found.distance <= brute + 1e-9)
      #expect(
        isApproximatelyEqual(
          found.point.distance(to: query), found.distance, relativeTolerance: 0,
          absoluteTolerance: 1e-9))
      // The reported arc length leads back to the reported point.
      #expect(path.position(atLength: found.length).point.distance(to: found.point) <= 1e-7)
    }
  }

  @Test func exactBoundsOfAPath() throws {
    let path = try measured("M0 0 C 30 80 70 -40 100 0 L 100 -50")
    let b = path.bounds
    #expect(b.minX == 0 && b.maxX == 100 && b.minY == -50)
    #expect(
      isApproximatelyEqual(
        b.maxY, 28.168157211255593, relativeTolerance: 0, absoluteTolerance: 1e-8))
  }
}

@Suite struct TrackingNearestTests {
  /// A Z-shaped polyline whose first and third legs cross at (50, 50).
  let zigzag = MeasuredPath(
    Path(
      start: Point(0, 0),
      segments: [
        .line(Point(0, 0), Point(100, 100)),
        .line(Point(100, 100), Point(100, 0)),
        .line(Point(100, 0), Point(0, 100)),
      ]))

  @Test func draggingAcrossASelfCrossingStaysOnItsBranch() {
    // The finger runs just beside the first leg, on the side of the third leg, so
    // near the crossing the third leg is the (marginally) nearer one.
    var length = zigzag.nearest(to: Point(10, 12)).length
    var jumpedGlobally = false
    for step in 0...160 {
      let x = 10 + Double(step) * 0.5
      let finger = Point(x, x + 2)
      let tracked = zigzag.nearest(to: finger, continuingFrom: length)
      #expect(tracked.position.segmentIndex == 0, "left the first leg at x = \(x)")
      #expect(
        isApproximatelyEqual(tracked.length, length, relativeTolerance: 0, absoluteTolerance: 1),
        "jumped from \(length) to \(tracked.length)")
      length = tracked.length
      if zigzag.nearest(to: finger).position.segmentIndex == 2 { jumpedGlobally = true }
    }
    // Without tracking the answer would have jumped to the third leg.
    #expect(jumpedGlobally)
  }

  @Test func aClearMoveToAnotherPartStillJumps() {
    let onFirstLeg = zigzag.nearest(to: Point(20, 20)).length
    // Far from the first leg and right on the third one.
    let answer = zigzag.nearest(to: Point(80, 20), continuingFrom: onFirstLeg)
    #expect(answer.position.segmentIndex == 2)
    #expect(answer.distance <= 1e-12)
  }

  @Test func trackingFollowsALoopingCubicContinuously() {
    // A cubic that crosses itself: the finger traces it with a small offset.
    let loop = CubicBezier(Point(0, 100), Point(200, -60), Point(-100, -60), Point(100, 100))
    let path = MeasuredPath(
      Path(start: loop.p0, segments: [.cubic(loop.p0, loop.p1, loop.p2, loop.p3)]))
    var length = 0.0
    for step in 1...400 {
      let t = Double(step) / 400
      let finger = loop.point(at: t) + loop.normal(at: t) * 3
      let tracked = path.nearest(to: finger, continuingFrom: length)
      #expect(tracked.length >= length - 1e-9, "went backwards at t = \(t)")
      #expect(tracked.length - length <= 5, "jumped at t = \(t)")
      length = tracked.length
    }
    #expect(
      isApproximatelyEqual(length, path.length, relativeTolerance: 0, absoluteTolerance: 1e-6))
  }

  /// A finger moving along the normal at the last answer stays at that answer.
  ///
  /// The minimum stays where it was, and the slope there is rounding noise (−1.8e-12
  /// here, from the `drag-along-curve` scene). Taking that noise for "downhill forward"
  /// walked past the minimum at the start, over a maximum, to the other branch of the
  /// loop (t = 0.71).
  @Test func aSlopeWithinRoundingDoesNotCrossAMaximum() throws {
    let path = MeasuredPath(try Path(svgPathData: "M60 420 C 420 300 -40 300 300 620"))
    let target = Point(227.22222222222223, 413.05555555555554)
    let start = 0.20719238616033225
    let other = path.nearest(to: target)
    #expect(abs(other.position.t - 0.7124135083319071) < 1e-9, "the global answer is elsewhere")
    let fromHere = path.localMinimum(of: target, from: 0, start)
    #expect(fromHere.index == 0 && abs(fromHere.t - start) < 1e-12)
    let previous = path.position(segment: 0, t: start)
    let tracked = path.nearest(to: target, continuingFrom: previous)
    #expect(abs(tracked.position.t - start) < 1e-12)
    let byLength = path.nearest(to: target, continuingFrom: previous.length)
    #expect(abs(byLength.position.t - start) < 1e-12)
  }

  /// Tracking from the last answer's own piece and parameter gives what tracking from its
  /// arc length gives, to within the inverse's rounding, on seeded paths and drags.
  @Test func trackingFromAPositionAgreesWithTrackingFromItsLength() throws {
    var generator = SeededGenerator(seed: 0x7EA_C4)
    var compared = 0
    for _ in 0..<40 {
      var segments: [Segment] = []
      var point = Point(0, 0)
      for _ in 0..<3 {
        func next() -> Point {
          Point(
            point.x + Double.random(in: -60...120, using: &generator),
            point.y + Double.random(in: -90...90, using: &generator))
        }
        let (a, b, c) = (next(), next(), next())
        segments.append(.cubic(point, a, b, c))
        point = c
      }
      let path = MeasuredPath(Path(start: segments[0].start, segments: segments))
      var previous = path.nearest(to: Point(10, 5)).position
      var finger = Point(10, 5)
      for _ in 0..<60 {
        finger =
          finger
          + Vector(
            Double.random(in: -4...9, using: &generator),
            Double.random(in: -6...6, using: &generator))
        let fromPosition = path.nearest(to: finger, continuingFrom: previous)
        let fromLength = path.nearest(to: finger, continuingFrom: previous.length)
        #expect(
          abs(fromPosition.length - fromLength.length) <= 1e-9 * path.length,
          "\(fromPosition.length) against \(fromLength.length) from \(previous)")
        compared += 1
        previous = fromPosition.position
      }
    }
    #expect(compared == 2_400)
  }

  @Test func aPositionFromElsewhereIsTrackedFromItsLength() throws {
    let path = MeasuredPath(try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0"))
    let foreign = PathPosition(
      point: .zero, tangent: Vector(1, 0), length: 40, segmentIndex: 7, t: 0.5)
    let answer = path.nearest(to: Point(45, 12), continuingFrom: foreign)
    #expect(answer == path.nearest(to: Point(45, 12), continuingFrom: 40))
  }

  @Test func trackingWrapsAroundAClosedPath() throws {
    let circle = MeasuredPath(
      try Path(svgPathData: "M100 50 A50 50 0 1 1 0 50 A50 50 0 1 1 100 50 Z"))
    #expect(circle.isClosed)
    var length = 0.0
    var travelled = 0.0
    for step in 1...300 {
      let angle = Double(step) / 100 * 2 * Double.pi  // Three laps.
      let finger = Point(50 + 60 * cos(angle), 50 + 60 * sin(angle))
      let tracked = circle.nearest(to: finger, continuingFrom: length)
      // Forward distance along the loop, across the seam where lengths wrap to 0.
      var forward = tracked.length - length
      if forward < -circle.length / 2 { forward += circle.length }
      #expect(forward >= 0 && forward <= 4, "step \(step): \(length) → \(tracked.length)")
      travelled += forward
      length = tracked.length
    }
    #expect(
      isApproximatelyEqual(
        travelled, 3 * circle.length, relativeTolerance: 0, absoluteTolerance: 1e-6))
  }

  /// Tracking that reaches the start corner of a closed square from its last side stays
  /// there when the ends clamp, and goes round when they wrap, even when the target's
  /// foot on the last side rounds to its very end (that once walked the wrong way and
  /// jumped across the square).
  @Test func trackingAtTheClosingCorner() throws {
    let square = MeasuredPath(try Path(svgPathData: "M20 20 h80 v80 h-80 z"))
    let target = Point(28.333333333333332, 20.000000000000007)
    let clamped = square.nearest(to: target, continuingFrom: 320, hysteresis: 20, wraps: false)
    #expect(clamped.position.length == 320 && clamped.position.point == Point(20, 20))
    let beyond = square.nearest(
      to: Point(30, 12), continuingFrom: 320, hysteresis: 20, wraps: false)
    #expect(beyond.position.point == Point(20, 20))
    let wrapped = square.nearest(
      to: Point(30, 12), continuingFrom: 320, hysteresis: 20, wraps: true)
    #expect(wrapped.position.point == Point(30, 20) && wrapped.position.length == 10)
  }
}

/// Measuring with a cache of shapes (`MeasuredPath.init(_:sharing:)`).
@Suite struct MeasurementCacheTests {
  /// The lengths and positions are bit for bit those measured without a cache, whether a
  /// shape was remembered or not; copies of one shape at whole-number offsets share it.
  @Test func aCachedMeasurementIsTheSameToTheBit() throws {
    var inputs = SeededInputs(seed: 404)
    var cache = MeasurementCache()
    var cubics = MeasurementCache()
    for round in 0..<60 {
      // A random path, then a copy moved by whole numbers (its speed is then the same).
      let points = (0..<7).map { _ in
        let p = inputs.point()
        return Point(p.x.rounded(), p.y.rounded())
      }
      let offset = Vector(Double(round * 37 % 500), Double(-round * 11))
      for shift in [Vector.zero, offset] {
        let p = points.map { $0 + shift }
        let path = Path(
          start: p[0],
          segments: [
            .cubic(p[0], p[1], p[2], p[3]), .quadratic(p[3], p[4], p[5]), .line(p[5], p[6]),
          ])
        let plain = MeasuredPath(path)
        let shared = MeasuredPath(path, sharing: &cache)
        _ = MeasuredPath(
          Path(start: p[0], segments: [.cubic(p[0], p[1], p[2], p[3])]), sharing: &cubics)
        #expect(shared.length.bitPattern == plain.length.bitPattern)
        for k in 0...20 {
          let s = plain.length * Double(k) / 20
          #expect(
            shared.position(atLength: s).point == plain.position(atLength: s).point,
            "round \(round), length \(s)")
        }
      }
    }
    // A cubic with whole-number points moved by whole numbers has exactly the same speed,
    // so each round's copy found it. (A quadratic's cubic points are thirds, rounded
    // differently once moved, so its copy may be measured again: still the same answer.)
    #expect(cubics.count == 60)
    #expect(cache.count >= 120 && cache.count <= 240)
  }

  @Test func itRemembersABoundedNumberOfShapes() {
    var cache = MeasurementCache()
    for i in 0..<(MeasurementCache.capacity + 100) {
      let bend = Double(i) / 7
      _ = MeasuredPath(
        Path(
          start: .zero, segments: [.cubic(.zero, Point(10, bend), Point(20, -bend), Point(30, 1))]),
        sharing: &cache)
    }
    #expect(cache.count == MeasurementCache.capacity)
  }
}
