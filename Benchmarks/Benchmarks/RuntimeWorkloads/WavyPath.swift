import Foundation
import SceneGeometry

/// A smooth wavy curve across `0...6400` made of 64 cubic segments, each the Hermite
/// interpolant of `y(x)` over a 100-unit step (so the path is C¹ at every joint): the path
/// `GeometryBenchmarks`, `PeerFigures` and `StressRun measure` measure and query.
public enum WavyPath {
  public static let segmentCount = 64
  public static let width = 6_400.0

  public static func y(_ x: Double) -> Double {
    150 * sin(2 * Double.pi * x / 800) + 40 * sin(2 * Double.pi * x / 230)
  }

  public static func slope(_ x: Double) -> Double {
    150 * (2 * Double.pi / 800) * cos(2 * Double.pi * x / 800)
      + 40 * (2 * Double.pi / 230) * cos(2 * Double.pi * x / 230)
  }

  public static func makePath() -> Path {
    let step = width / Double(segmentCount)
    var segments: [Segment] = []
    segments.reserveCapacity(segmentCount)
    for index in 0..<segmentCount {
      let x0 = Double(index) * step
      let x1 = x0 + step
      let a = Point(x: x0, y: y(x0))
      let d = Point(x: x1, y: y(x1))
      let b = a + (step / 3) * Vector(x: 1, y: slope(x0))
      let c = d - (step / 3) * Vector(x: 1, y: slope(x1))
      segments.append(.cubic(a, b, c, d))
    }
    return Path(start: Point(x: 0, y: y(0)), segments: segments)
  }
}
