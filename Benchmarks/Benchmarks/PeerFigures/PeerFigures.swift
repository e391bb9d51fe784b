import SceneGeometry

/// scenec's side of `Peers/run`: the geometry benchmark's 1,000 cubics (the same
/// xorshift64* stream and seed), their arc lengths at the default 1e-9 and the time per
/// length, the minimum of 20 passes, as one JSON object on standard output.
@main
enum PeerFigures {
  struct XorShift64Star {
    var state: UInt64

    mutating func next() -> UInt64 {
      state ^= state >> 12
      state ^= state << 25
      state ^= state >> 27
      return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func uniform() -> Double { -200 + 400 * (Double(next() >> 11) * 0x1p-53) }
    mutating func point() -> Point { Point(uniform(), uniform()) }
  }

  static func main() {
    var random = XorShift64Star(state: 0x5CE0_EC0D_E5EE_D001)
    var cubics: [CubicBezier] = []
    for _ in 0..<1_000 {
      cubics.append(CubicBezier(random.point(), random.point(), random.point(), random.point()))
      _ = random.point()  // The query point.
      _ = random.next()  // The target length.
    }
    var best = Double.infinity
    var lengths: [Double] = []
    for _ in 0..<20 {
      let start = ContinuousClock.now
      lengths = cubics.map(\.arcLength)
      let elapsed = ContinuousClock.now - start
      let nanoseconds =
        Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
      best = min(best, nanoseconds / Double(cubics.count))
    }
    let list = lengths.map { "\($0)" }.joined(separator: ",")
    print("{\"arcLengthNs\":\(best),\"lengths\":[\(list)]}")
  }
}
