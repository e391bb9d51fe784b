// Benchmarks for SceneGeometry's hot paths: nearest point, arc length and its inverse on
// single cubics, and queries on a measured 64-segment path.
//
// Every workload runs 1,000 operations per measured iteration (`scalingFactor: .kilo`), so
// the scaled figures the tool prints (marked `*`) are per operation. The inputs are built
// once, outside the measurement, from a fixed seed, so every run measures the same work.
//
// Run from the Benchmarks/ directory:
//   swift package --allow-writing-to-package-directory benchmark

import Benchmark
import Foundation
import RuntimeWorkloads
import SceneGeometry

// MARK: - Inputs

/// A tiny deterministic generator (xorshift64*), so the inputs are the same on every run
/// and every platform.
struct XorShift64Star {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
  }

  mutating func next() -> UInt64 {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return state &* 0x2545_F491_4F6C_DD1D
  }

  /// A double uniformly in `0..<1`, from the top 53 bits.
  mutating func unit() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * unit()
  }

  mutating func point(in range: ClosedRange<Double>) -> Point {
    let x = uniform(range)
    return Point(x: x, y: uniform(range))
  }
}

/// How many inputs each single-cubic workload cycles through: one pass per measured
/// iteration, matching `scalingFactor: .kilo`.
let inputCount = 1_000

/// Random cubics, query points, and fractions of length, from one fixed seed.
struct CubicInputs: Sendable {
  let cubics: [CubicBezier]
  let queries: [Point]
  let lengths: [Double]
  let targetLengths: [Double]

  init(count: Int, seed: UInt64) {
    var random = XorShift64Star(seed: seed)
    var cubics: [CubicBezier] = []
    var queries: [Point] = []
    var targetLengths: [Double] = []
    cubics.reserveCapacity(count)
    queries.reserveCapacity(count)
    targetLengths.reserveCapacity(count)
    for _ in 0..<count {
      let range = -200.0...200.0
      let p0 = random.point(in: range)
      let p1 = random.point(in: range)
      let p2 = random.point(in: range)
      let p3 = random.point(in: range)
      cubics.append(CubicBezier(p0, p1, p2, p3))
      queries.append(random.point(in: range))
      targetLengths.append(random.unit())
    }
    let lengths = cubics.map(\.arcLength)
    self.cubics = cubics
    self.queries = queries
    self.lengths = lengths
    // Fractions become absolute arc lengths along each curve.
    self.targetLengths = zip(targetLengths, lengths).map { $0 * $1 }
  }
}

/// The drag targets of the tracking benchmark, on the wavy path `RuntimeWorkloads` shares.
extension WavyPath {
  /// Drag targets that sweep along the curve and back, like a finger dragging a handle:
  /// consecutive targets are about 13 units apart along x, off the curve by up to 35
  /// units on either side, and the sweep turns round instead of jumping back.
  static func dragTargets(count: Int, seed: UInt64) -> [Point] {
    var random = XorShift64Star(seed: seed)
    let half = count / 2
    return (0..<count).map { index in
      let forward = index < half ? index : count - 1 - index
      let x = width * (Double(forward) + 0.5) / Double(half)
      let offset = 30 * sin(Double(index) * 0.05) + random.uniform(-5...5)
      return Point(x: x, y: y(x) + offset)
    }
  }
}

// MARK: - Benchmarks

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput, .mallocCountTotal],
    timeUnits: .nanoseconds,
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 10_000
  )

  let inputs = CubicInputs(count: inputCount, seed: 0x5CE0_EC0D_E5EE_D001)
  let path = WavyPath.makePath()
  let measured = MeasuredPath(path)
  let dragTargets = WavyPath.dragTargets(count: inputCount, seed: 0xD4A6_F14E_6E45_0002)
  let pathLengths: [Double] = {
    var random = XorShift64Star(seed: 0x1E46_7415_0000_0003)
    return (0..<inputCount).map { _ in random.unit() * measured.length }
  }()

  // Sanity checks, so a broken input set cannot pass for a fast benchmark.
  precondition(inputs.cubics.count == inputCount && inputs.lengths.allSatisfy { $0 > 0 })
  precondition(measured.segmentCount == WavyPath.segmentCount)
  precondition(measured.length > WavyPath.width)

  // 1. Exact nearest point on one cubic (DESIGN target: ≤ 400 ns per query).
  Benchmark("Geometry/nearest point on a cubic") { benchmark in
    let cubics = inputs.cubics
    let queries = inputs.queries
    for index in benchmark.scaledIterations {
      blackHole(cubics[index].nearest(to: queries[index]))
    }
  }

  // 2. Whole-curve arc length at the documented 1e-9 relative accuracy
  //    (DESIGN target: ≤ 1 µs per cubic).
  Benchmark("Geometry/arc length of a cubic (1e-9)") { benchmark in
    let cubics = inputs.cubics
    for index in benchmark.scaledIterations {
      blackHole(cubics[index].arcLength)
    }
  }

  // 3. Inverse arc length, with the total already known (as MeasuredPath has it).
  Benchmark("Geometry/inverse arc length on a cubic") { benchmark in
    let cubics = inputs.cubics
    let lengths = inputs.lengths
    let targets = inputs.targetLengths
    for index in benchmark.scaledIterations {
      blackHole(cubics[index].parameter(atLength: targets[index], totalLength: lengths[index]))
    }
  }

  // 4a. Global nearest point on the 64-segment path, for drag targets along it.
  Benchmark("Geometry/nearest point on a 64-segment path (global)") { benchmark in
    for index in benchmark.scaledIterations {
      blackHole(measured.nearest(to: dragTargets[index]))
    }
  }

  // 4b. Tracking nearest point: each query continues from the previous answer.
  Benchmark("Geometry/nearest point on a 64-segment path (tracking)") { benchmark in
    var previous = measured.nearest(to: dragTargets[0]).length
    for index in benchmark.scaledIterations {
      let projection = measured.nearest(to: dragTargets[index], continuingFrom: previous)
      previous = projection.length
      blackHole(projection)
    }
  }

  // 4c. The same, continuing from the previous answer's own piece and parameter, as a
  // dragged `follow` handle does (no arc length solved back into a parameter).
  Benchmark("Geometry/nearest point on a 64-segment path (tracking from the last answer)") {
    benchmark in
    var previous = measured.nearest(to: dragTargets[0]).position
    for index in benchmark.scaledIterations {
      let projection = measured.nearest(to: dragTargets[index], continuingFrom: previous)
      previous = projection.position
      blackHole(projection)
    }
  }

  // 5. Point and tangent at an arc length along the 64-segment path.
  Benchmark("Geometry/position at length on a 64-segment path") { benchmark in
    for index in benchmark.scaledIterations {
      blackHole(measured.position(atLength: pathLengths[index]))
    }
  }

  // 5b. The same on the path prepared for repeated positions (the dense inverse table
  // the runtime makes for a fixed path a handle springs or is animated along).
  let prepared = measured.preparedForRepeatedPositions()
  Benchmark("Geometry/position at length on a prepared 64-segment path") { benchmark in
    for index in benchmark.scaledIterations {
      blackHole(prepared.position(atLength: pathLengths[index]))
    }
  }

  // 5c. Making that table.
  Benchmark("Geometry/prepare a 64-segment path for repeated positions") { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(measured.preparedForRepeatedPositions())
    }
  }

  // 6. Measuring the whole path: 64 arc lengths plus the path's own tables.
  Benchmark("Geometry/measure a 64-segment path") { benchmark in
    for _ in benchmark.scaledIterations {
      blackHole(MeasuredPath(path))
    }
  }
}
