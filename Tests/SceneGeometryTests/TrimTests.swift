import SceneTestSupport
import Testing

@testable import SceneGeometry

/// A path trimmed to a part of its length, against its own measurements: the part's
/// length, its ends and its points are those of the whole path, to 1e-9.
@Suite struct TrimTests {
  /// A path of a few subpaths of lines, quadratics and cubics, some closed.
  static func randomPath(_ generator: inout SeededGenerator) -> Path {
    var subpaths: [Subpath] = []
    for _ in 0..<Int.random(in: 1...3, using: &generator) {
      var point = NextMinimumTests.randomPoint(in: -100...300, &generator)
      let start = point
      var segments: [Segment] = []
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let end = NextMinimumTests.randomPoint(in: -100...300, &generator)
        let c1 = NextMinimumTests.randomPoint(in: -100...300, &generator)
        let c2 = NextMinimumTests.randomPoint(in: -100...300, &generator)
        switch Int.random(in: 0...2, using: &generator) {
        case 0: segments.append(.line(point, end))
        case 1: segments.append(.quadratic(point, c1, end))
        default: segments.append(.cubic(point, c1, c2, end))
        }
        point = end
      }
      subpaths.append(
        Subpath(start: start, segments: segments, isClosed: Bool.random(using: &generator)))
    }
    return Path(subpaths: subpaths)
  }

  @Test func aTrimmedPathIsThePartOfTheWholeBetweenItsFractions() {
    var generator = SeededGenerator(seed: 0x7819)
    for _ in 0..<300 {
      let whole = MeasuredPath(Self.randomPath(&generator))
      guard whole.length > 1 else { continue }
      var a = Double.random(in: 0...1, using: &generator)
      var b = Double.random(in: 0...1, using: &generator)
      if a > b { swap(&a, &b) }
      let part = MeasuredPath(whole.trimmed(from: a, to: b))
      let tolerance = 1e-9 * whole.length
      #expect(abs(part.length - (b - a) * whole.length) <= tolerance)
      let first = part.path.subpaths.first?.start ?? .zero
      #expect(first.distance(to: whole.point(atLength: a * whole.length)) <= 1e-9 * 400)
      // Points along the part are the whole path's at the same length.
      for k in 1...4 {
        let along = part.length * Double(k) / 4
        let mine = part.point(atLength: along)
        let theirs = whole.point(atLength: a * whole.length + along)
        #expect(mine.distance(to: theirs) <= 1e-7 * 400, "at \(along) of \(part.length)")
      }
    }
  }

  @Test func theWholeAndNothing() throws {
    let whole = MeasuredPath(
      try #require(try? Path(svgPathData: "M0 0L100 0C150 0 150 100 100 100")))
    #expect(MeasuredPath(whole.trimmed(from: 0, to: 1)).length == whole.length)
    #expect(whole.trimmed(from: 0.5, to: 0.5).subpaths.isEmpty)
    #expect(whole.trimmed(from: 0.8, to: 0.2).subpaths.isEmpty)
    #expect(whole.trimmed(from: .nan, to: 2).subpaths.count == 1)
  }
}
