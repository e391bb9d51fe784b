/// `c0 + c1·x + c2·x²`, with closed-form roots.
struct Quadratic {
  var c0, c1, c2: Double
  init(_ c0: Double, _ c1: Double, _ c2: Double) { (self.c0, self.c1, self.c2) = (c0, c1, c2) }

  /// Roots in `lo...hi`, ascending, by the cancellation-free formula; copes with a
  /// zero leading coefficient (a line, or a constant with no roots).
  @inline(__always)
  func roots(in lo: Double, _ hi: Double) -> RootList {
    var result = RootList()
    if c2 == 0 {
      if c1 != 0 {
        let x = -c0 / c1
        if x >= lo && x <= hi { result.append(x) }
      }
      return result
    }
    let discriminant = c1 * c1 - 4 * c2 * c0
    guard discriminant >= 0 else { return result }
    let q = -0.5 * (c1 + (c1 >= 0 ? 1.0 : -1.0) * discriminant.squareRoot())
    var x1 = q / c2
    var x2 = q != 0 ? c0 / q : x1
    if x1 > x2 { swap(&x1, &x2) }
    if x1 >= lo && x1 <= hi { result.append(x1) }
    if x2 != x1 && x2 >= lo && x2 <= hi { result.append(x2) }
    return result
  }
}
