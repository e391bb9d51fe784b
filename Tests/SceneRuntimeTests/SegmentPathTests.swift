import SceneGeometry
import SceneTestSupport
import Testing

@testable import SceneRuntime

/// Segment paths are rewritten in place every frame (`Path.overwrite(heads:segments:)`):
/// the result is the path the points describe, whatever was there before, and a path
/// that keeps its shape keeps its storage.
@Suite struct SegmentPathTests {
  /// A random path of up to three subpaths of up to four segments, each kind alike.
  static func randomPath(_ random: inout SeededGenerator) -> Path {
    func point() -> Point {
      Point(
        Double(Int.random(in: -99...99, using: &random)), Double.random(in: -1...1, using: &random))
    }
    var path = Path(subpaths: [])
    for _ in 0..<Int.random(in: 0...3, using: &random) {
      var subpath = Subpath(start: point(), isClosed: Bool.random(using: &random))
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: subpath.segments.append(.line(point(), point()))
        case 1: subpath.segments.append(.quadratic(point(), point(), point()))
        default: subpath.segments.append(.cubic(point(), point(), point(), point()))
        }
      }
      path.subpaths.append(subpath)
    }
    return path
  }

  /// `path` written over `old` through `overwrite`.
  static func overwritten(_ old: Path, with path: Path) -> Path {
    var result = old
    write(path, over: &result)
    return result
  }

  /// `path` written over `result` in place.
  static func write(_ path: Path, over result: inout Path) {
    let heads = path.subpaths.map {
      SubpathHead(start: $0.start, isClosed: $0.isClosed, segmentCount: $0.segments.count)
    }
    let segments = path.subpaths.flatMap(\.segments)
    heads.withUnsafeBufferPointer { heads in
      segments.withUnsafeBufferPointer { result.overwrite(heads: heads, segments: $0) }
    }
  }

  @Test func overwritingGivesThePathThePointsDescribe() {
    var random = SeededGenerator(seed: 20_261_124)
    for _ in 0..<500 {
      let old = Self.randomPath(&random)
      let new = Self.randomPath(&random)
      let kept = old
      #expect(Self.overwritten(old, with: new) == new)
      // The value written over is a copy: another holder of it sees no change.
      #expect(kept == old)
    }
  }

  @Test func aPathThatKeepsItsShapeKeepsItsStorage() {
    var random = SeededGenerator(seed: 7)
    let shape = Self.randomPath(&random)
    var path = Self.overwritten(Path(subpaths: []), with: shape)
    func addresses(_ path: Path) -> [UnsafeRawPointer?] {
      [path.subpaths.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }]
        + path.subpaths.map {
          $0.segments.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
    }
    let before = addresses(path)
    var moved = shape
    for s in moved.subpaths.indices {
      moved.subpaths[s].start = moved.subpaths[s].start + Vector(1, 2)
      moved.subpaths[s].segments = moved.subpaths[s].segments.map { $0.reversed }
    }
    Self.write(moved, over: &path)
    #expect(path == moved)
    #expect(addresses(path) == before)
  }

  /// Every kind of segment, a close followed by more segments and a second subpath,
  /// evaluated frame after frame as the points move.
  @Test func aSegmentPathOfEveryKindFollowsItsPoints() throws {
    let frames = try frames(
      """
      scene: { fps: 10, duration: 0.3s }
      paths:
        p:
          segments:
            - move: (time, 0)
            - line: (10, time)
            - quad: ["(20, 0)", "(30, time * 2)"]
            - close
            - line: (40, 40)
            - move: (50, 50)
            - cubic: ["(60, 60)", "(70, time)", "(80, 80)"]
      """)
    #expect(frames.count == 4)
    for frame in frames {
      let t = frame.time
      let start = Point(t, 0)
      let expected = Path(subpaths: [
        Subpath(
          start: start,
          segments: [
            .line(start, Point(10, t)),
            .quadratic(Point(10, t), Point(20, 0), Point(30, t * 2)),
            .line(start, Point(40, 40)),
          ],
          isClosed: true),
        Subpath(
          start: Point(50, 50),
          segments: [.cubic(Point(50, 50), Point(60, 60), Point(70, t), Point(80, 80))]),
      ])
      #expect(frame.paths.first { $0.name == "p" }?.path == expected, "at t = \(t)")
    }
  }
}
