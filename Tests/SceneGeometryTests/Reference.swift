import Foundation
import PropertyBased

@testable import SceneGeometry

/// Slow, independent reference computations that the fast geometry is checked against.
///
/// They share no code with the product beyond `CubicBezier.point(at:)` and
/// `derivative(at:)`, which are checked on their own.
enum Reference {
  /// Gauss–Legendre nodes and weights of order `n` on `-1...1`, by Newton's method on
  /// the Legendre polynomial (Numerical Recipes' `gauleg`).
  static func gaussLegendre(_ n: Int) -> [(node: Double, weight: Double)] {
    var rule: [(Double, Double)] = []
    for i in 1...n {
      var z = cos(Double.pi * (Double(i) - 0.25) / (Double(n) + 0.5))
      var derivative = 0.0
      for _ in 0..<100 {
        var p1 = 1.0
        var p2 = 0.0
        for j in 1...n {
          let p3 = p2
          p2 = p1
          p1 = ((2 * Double(j) - 1) * z * p2 - (Double(j) - 1) * p3) / Double(j)
        }
        derivative = Double(n) * (z * p1 - p2) / (z * z - 1)
        let step = p1 / derivative
        z -= step
        if abs(step) < 1e-16 { break }
      }
      rule.append((z, 2 / ((1 - z * z) * derivative * derivative)))
    }
    return rule
  }

  static let legendre24 = gaussLegendre(24)

  /// The arc length of `cubic` on `t0...t1`, to about 1e-14 relative.
  ///
  /// The speed's local minima (where a near-cusp puts a sharp dip) are found by dense
  /// sampling and golden-section search; each piece between them is cut into pieces
  /// that shrink geometrically towards both of its ends, and each of those gets a
  /// 24-point Gauss–Legendre rule.
  static func arcLength(_ cubic: CubicBezier, from t0: Double = 0, to t1: Double = 1) -> Double {
    let speed = { (t: Double) in cubic.derivative(at: t).length }
    var breaks = [t0]
    let samples = 1000
    var previous = speed(t0)
    var current = speed(t0 + (t1 - t0) / Double(samples))
    for k in 1..<samples {
      let tNext = t0 + (t1 - t0) * Double(k + 1) / Double(samples)
      let next = speed(tNext)
      if current < previous && current <= next {
        let step = (t1 - t0) / Double(samples)
        breaks.append(goldenMinimum(speed, tNext - 2 * step, tNext))
      }
      previous = current
      current = next
    }
    breaks.append(t1)
    breaks.sort()
    var total = 0.0
    for (a, b) in zip(breaks, breaks.dropFirst()) where b > a {
      // Geometric grading towards both ends of [a, b].
      var cuts = [a, b]
      var h = (b - a) / 2
      for _ in 0..<56 {
        h /= 2
        cuts.append(a + h)
        cuts.append(b - h)
      }
      cuts.append(a + (b - a) / 2)
      cuts.sort()
      for (u, v) in zip(cuts, cuts.dropFirst()) where v > u {
        let mid = (u + v) / 2
        let half = (v - u) / 2
        var sum = 0.0
        for (x, w) in legendre24 { sum += w * speed(mid + half * x) }
        total += sum * half
      }
    }
    return total
  }

  static func goldenMinimum(_ f: (Double) -> Double, _ lo: Double, _ hi: Double) -> Double {
    var a = lo
    var b = hi
    let ratio = (sqrt(5.0) - 1) / 2
    var c = b - ratio * (b - a)
    var d = a + ratio * (b - a)
    for _ in 0..<200 where b - a > 1e-17 {
      if f(c) < f(d) { b = d } else { a = c }
      c = b - ratio * (b - a)
      d = a + ratio * (b - a)
    }
    return (a + b) / 2
  }

  /// The nearest distance from `point` to `cubic` by brute force: a dense table,
  /// then golden-section refinement around its three best samples.
  static func nearestDistance(_ cubic: CubicBezier, to point: Point, samples: Int = 20_000)
    -> Double
  {
    let distance = { (t: Double) in (cubic.point(at: t) - point).length }
    var table: [(t: Double, d: Double)] = []
    table.reserveCapacity(samples + 1)
    for k in 0...samples {
      let t = Double(k) / Double(samples)
      table.append((t, distance(t)))
    }
    var best = table.map(\.d).min() ?? .infinity
    for candidate in table.sorted(by: { $0.d < $1.d }).prefix(3) {
      let step = 1.0 / Double(samples)
      let t = goldenMinimum(
        distance, max(candidate.t - step, 0), min(candidate.t + step, 1))
      best = min(best, distance(t))
    }
    return best
  }
}

/// A seeded source of test inputs, so every run sees the same "random" cases.
struct SeededInputs {
  var rng: Xoshiro

  init(seed: UInt64) {
    rng = Xoshiro(seed: (seed, 0x9E37_79B9_7F4A_7C15, seed &* 31, 0xD1B5_4A32_D192_ED03))
  }

  mutating func double(in range: ClosedRange<Double>) -> Double {
    Double.random(in: range, using: &rng)
  }

  mutating func point(in range: ClosedRange<Double> = -200...200) -> Point {
    Point(double(in: range), double(in: range))
  }

  mutating func cubic(in range: ClosedRange<Double> = -200...200) -> CubicBezier {
    CubicBezier(point(in: range), point(in: range), point(in: range), point(in: range))
  }

  /// A cubic close to a cusp: the classic cusp `(0,0) (1,1) (0,1) (1,0)`, scaled,
  /// moved, turned, with one control point nudged by `epsilon`.
  mutating func nearCuspCubic(epsilon: Double) -> CubicBezier {
    let scale = double(in: 10...300)
    let angle = double(in: -Double.pi...Double.pi)
    let offset = point(in: -100...100)
    let nudge = Vector(angle: double(in: -Double.pi...Double.pi)) * epsilon
    func place(_ p: Point) -> Point {
      let q = p * scale
      return Point(q.x * cos(angle) - q.y * sin(angle), q.x * sin(angle) + q.y * cos(angle))
        + offset
    }
    return CubicBezier(
      place(Point(0, 0)), place(Point(1, 1) + nudge), place(Point(0, 1)), place(Point(1, 0)))
  }
}
