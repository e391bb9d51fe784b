import Foundation
import SceneTestSupport
import Testing

@testable import SceneGeometry

@Suite struct PolynomialTests {
  /// The polynomial with the given roots (and leading coefficient 1).
  func polynomial(roots: [Double]) -> Polynomial {
    var c = InlineArray<6, Double>(repeating: 0)
    c[0] = 1
    var degree = 0
    for r in roots {
      degree += 1
      var k = degree
      while k > 0 {
        c[k] = c[k - 1] - r * c[k]
        k -= 1
      }
      c[0] = -r * c[0]
    }
    return Polynomial(c, degree: degree)
  }

  @Test func findsEveryRootOfRandomQuintics() {
    var inputs = SeededInputs(seed: 41)
    for _ in 0..<2000 {
      let roots = (0..<5).map { _ in inputs.double(in: -0.5...1.5) }.sorted()
      let found = polynomial(roots: roots).roots(in: 0, 1)
      let expected = roots.filter { $0 >= 0 && $0 <= 1 }
      // Roots closer than 1e-6 may merge into a double root with no sign change.
      let separated = zip(roots, roots.dropFirst()).allSatisfy { $1 - $0 > 1e-4 }
      guard separated else { continue }
      #expect(found.count == expected.count)
      for i in 0..<min(found.count, expected.count) {
        #expect(
          isApproximatelyEqual(found[i], expected[i], relativeTolerance: 0, absoluteTolerance: 1e-9)
        )
      }
    }
  }

  @Test func lowerDegreesAndEdgeCases() {
    #expect(polynomial(roots: [0.25]).roots(in: 0, 1).count == 1)
    let quadratic = polynomial(roots: [0.2, 0.7]).roots(in: 0, 1)
    #expect(
      quadratic.count == 2 && abs(quadratic[0] - 0.2) < 1e-15 && abs(quadratic[1] - 0.7) < 1e-15)
    // No real roots.
    #expect(Polynomial([1, 0, 1, 0, 0, 0], degree: 2).roots(in: -10, 10).count == 0)
    // A constant has none; the zero polynomial reports none rather than infinitely many.
    #expect(Polynomial([3, 0, 0, 0, 0, 0], degree: 5).roots(in: 0, 1).count == 0)
    #expect(Polynomial([0, 0, 0, 0, 0, 0], degree: 5).roots(in: 0, 1).count == 0)
    // Roots exactly on the interval's ends.
    let ends = polynomial(roots: [0, 0.5, 1]).roots(in: 0, 1)
    #expect(ends.count == 3)
  }
}
