/// Up to five sorted real numbers, stored without heap allocation.
struct RootList {
  private(set) var values = InlineArray<5, Double>(repeating: 0)
  private(set) var count = 0

  @inline(__always)
  mutating func append(_ x: Double) {
    guard count < 5 else { return }
    values[count] = x
    count += 1
  }

  @inline(__always)
  subscript(i: Int) -> Double { values[i] }
}
