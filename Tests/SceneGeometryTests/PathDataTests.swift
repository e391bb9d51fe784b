import Foundation
import PropertyBased
import SceneTestSupport
import Testing

@testable import SceneGeometry

@Suite struct PathDataTests {
  // MARK: - Helpers

  private func parse(_ data: String) throws -> Path {
    try Path(svgPathData: data)
  }

  /// The segments of the only subpath of `data`.
  private func segments(_ data: String) throws -> [Segment] {
    let path = try parse(data)
    try #require(path.subpaths.count == 1)
    return path.subpaths[0].segments
  }

  private func parseError(_ data: String) -> PathDataError? {
    do {
      _ = try Path(svgPathData: data)
      return nil
    } catch {
      return error
    }
  }

  private func p(_ x: Double, _ y: Double) -> Point { Point(x, y) }

  // MARK: - Commands

  @Test func moveAndLine() throws {
    #expect(try parse("M10 20") == Path(start: p(10, 20), segments: []))
    #expect(try segments("M10 20 L30 40") == [.line(p(10, 20), p(30, 40))])
    #expect(try segments("M10 20 l30 40") == [.line(p(10, 20), p(40, 60))])
  }

  @Test func horizontalAndVertical() throws {
    #expect(try segments("M10 20 H30") == [.line(p(10, 20), p(30, 20))])
    #expect(try segments("M10 20 h-5") == [.line(p(10, 20), p(5, 20))])
    #expect(try segments("M10 20 V5") == [.line(p(10, 20), p(10, 5))])
    #expect(try segments("M10 20 v5") == [.line(p(10, 20), p(10, 25))])
    #expect(
      try segments("M0 0 H10 20 v5 5")
        == [
          .line(p(0, 0), p(10, 0)), .line(p(10, 0), p(20, 0)),
          .line(p(20, 0), p(20, 5)), .line(p(20, 5), p(20, 10)),
        ])
  }

  @Test func cubic() throws {
    #expect(try segments("M0 0 C1 2 3 4 5 6") == [.cubic(p(0, 0), p(1, 2), p(3, 4), p(5, 6))])
    #expect(
      try segments("M10 10 c1 2 3 4 5 6") == [.cubic(p(10, 10), p(11, 12), p(13, 14), p(15, 16))])
  }

  @Test func smoothCubicReflectsThePreviousControlPoint() throws {
    let expected: [Segment] = [
      .cubic(p(0, 0), p(1, 2), p(3, 4), p(5, 6)),
      .cubic(p(5, 6), p(7, 8), p(9, 8), p(10, 10)),
    ]
    #expect(try segments("M0 0 C1 2 3 4 5 6 S9 8 10 10") == expected)
    #expect(try segments("M0 0 C1 2 3 4 5 6 s4 2 5 4") == expected)
    // S after S reflects the previous S's second control point.
    #expect(
      try segments("M0 0 S1 2 3 4 s1 0 2 0")[1] == .cubic(p(3, 4), p(5, 6), p(4, 4), p(5, 4)))
  }

  @Test func smoothCubicWithoutPreviousCubicStartsAtTheCurrentPoint() throws {
    #expect(try segments("M1 1 S2 3 4 5") == [.cubic(p(1, 1), p(1, 1), p(2, 3), p(4, 5))])
    #expect(try segments("M0 0 L1 1 S2 3 4 5")[1] == .cubic(p(1, 1), p(1, 1), p(2, 3), p(4, 5)))
    #expect(
      try segments("M0 0 Q1 1 2 0 S3 3 4 0")[1] == .cubic(p(2, 0), p(2, 0), p(3, 3), p(4, 0)))
  }

  @Test func quadratic() throws {
    #expect(try segments("M0 0 Q1 2 3 4") == [.quadratic(p(0, 0), p(1, 2), p(3, 4))])
    #expect(try segments("M1 1 q1 2 3 4") == [.quadratic(p(1, 1), p(2, 3), p(4, 5))])
  }

  @Test func smoothQuadraticReflectsAcrossAChain() throws {
    let expected: [Segment] = [
      .quadratic(p(0, 0), p(1, 2), p(3, 0)),
      .quadratic(p(3, 0), p(5, -2), p(6, 0)),
      .quadratic(p(6, 0), p(7, 2), p(9, 0)),
    ]
    #expect(try segments("M0 0 Q1 2 3 0 T6 0 T9 0") == expected)
    #expect(try segments("M0 0 Q1 2 3 0 t3 0 3 0") == expected)
  }

  @Test func smoothQuadraticWithoutPreviousQuadraticUsesTheCurrentPoint() throws {
    #expect(try segments("M1 1 T4 5") == [.quadratic(p(1, 1), p(1, 1), p(4, 5))])
    #expect(
      try segments("M0 0 C1 2 3 4 5 6 T7 8")[1] == .quadratic(p(5, 6), p(5, 6), p(7, 8)))
  }

  @Test func closePath() throws {
    #expect(
      try parse("M0 0 L10 0 L10 10 Z")
        == Path(
          start: p(0, 0), segments: [.line(p(0, 0), p(10, 0)), .line(p(10, 0), p(10, 10))],
          isClosed: true))
    // A drawing command after Z starts a new subpath at the old start.
    #expect(
      try parse("M0 0 L10 0 z l5 5")
        == Path(subpaths: [
          Subpath(start: p(0, 0), segments: [.line(p(0, 0), p(10, 0))], isClosed: true),
          Subpath(start: p(0, 0), segments: [.line(p(0, 0), p(5, 5))]),
        ]))
    #expect(try parse("M1 2Z") == Path(start: p(1, 2), segments: [], isClosed: true))
  }

  @Test func relativeMoveAfterCloseIsRelativeToTheSubpathStart() throws {
    #expect(
      try parse("M10 10 L20 10 z m5 5 l1 1")
        == Path(subpaths: [
          Subpath(start: p(10, 10), segments: [.line(p(10, 10), p(20, 10))], isClosed: true),
          Subpath(start: p(15, 15), segments: [.line(p(15, 15), p(16, 16))]),
        ]))
  }

  @Test func firstRelativeMoveIsAbsolute() throws {
    #expect(try parse("m5 6") == Path(start: p(5, 6), segments: []))
    #expect(
      try parse("m5 6 m1 1")
        == Path(subpaths: [Subpath(start: p(5, 6)), Subpath(start: p(6, 7))]))
  }

  // MARK: - Implicit repetition and separators

  @Test func implicitRepetition() throws {
    #expect(
      try segments("M0 0 10 0 10 10") == [.line(p(0, 0), p(10, 0)), .line(p(10, 0), p(10, 10))])
    #expect(
      try parse("m1 1 2 2 3 3")
        == Path(start: p(1, 1), segments: [.line(p(1, 1), p(3, 3)), .line(p(3, 3), p(6, 6))]))
    #expect(
      try segments("M0 0 L1 1, 2 2 l1 1 1 1")
        == [
          .line(p(0, 0), p(1, 1)), .line(p(1, 1), p(2, 2)),
          .line(p(2, 2), p(3, 3)), .line(p(3, 3), p(4, 4)),
        ])
    #expect(
      try segments("M0 0 C1 1 2 2 3 3 4 4 5 5 6 6")
        == [
          .cubic(p(0, 0), p(1, 1), p(2, 2), p(3, 3)),
          .cubic(p(3, 3), p(4, 4), p(5, 5), p(6, 6)),
        ])
  }

  @Test func numbersWithoutSeparators() throws {
    #expect(try segments("M0-1.5.5 2") == [.line(p(0, -1.5), p(0.5, 2))])
    #expect(try parse("M.5.5") == Path(start: p(0.5, 0.5), segments: []))
    #expect(try parse("M1e2-3e-1") == Path(start: p(100, -0.3), segments: []))
    #expect(try segments("m1,2l3,4") == [.line(p(1, 2), p(4, 6))])
    #expect(try parse("M5. 1.5E+2") == Path(start: p(5, 150), segments: []))
    #expect(try parse("M-.5e1+2") == Path(start: p(-5, 2), segments: []))
    #expect(try parse("M1e2.5") == Path(start: p(100, 0.5), segments: []))
    #expect(
      try parse(" \t\r\n\u{0C}M 1 , 2\nL\t3,4 ")
        == Path(start: p(1, 2), segments: [.line(p(1, 2), p(3, 4))]))
  }

  // MARK: - Arcs

  /// Asserts that every cubic of `segments` stays within `tolerance` of the ellipse with
  /// centre `c`, semi-axes `a` (x) and `b` (y), sampled at 1001 parameters each.
  private func expectOnEllipse(
    _ segments: [Segment], center c: Point, a: Double, b: Double, tolerance: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for segment in segments {
      guard case .cubic = segment else {
        Issue.record("not a cubic: \(segment)", sourceLocation: sourceLocation)
        return
      }
      let curve = segment.cubic
      var worst = 0.0
      for i in 0...1000 {
        let q = curve.point(at: Double(i) / 1000) - c
        // Radial distance from the ellipse, measured along the ray from the centre.
        let scale = (q.x / a * (q.x / a) + q.y / b * (q.y / b)).squareRoot()
        worst = max(worst, abs(q.length - q.length / scale))
      }
      #expect(worst <= tolerance, sourceLocation: sourceLocation)
    }
  }

  @Test func halfCircleArc() throws {
    let arc = try segments("M0 0 A50 50 0 0 1 100 0")
    #expect(arc.count == 32)
    #expect(arc.first?.start == p(0, 0))
    #expect(arc.last?.end == p(100, 0))
    for (a, b) in zip(arc, arc.dropFirst()) { #expect(a.end == b.start) }
    expectOnEllipse(arc, center: p(50, 0), a: 50, b: 50, tolerance: 2e-11 * 50)
    // F.6.5: x1' = -50, y1' = 0, so the radicand is 0 and the centre is (50, 0);
    // θ1 = angle((1,0), (-1,0)) = 180° and sweep-flag 1 makes Δθ = +180°, so θ runs from
    // 180° to 360° and passes 270°, where the point is (50 + 50cos270°, 50sin270°) =
    // (50, -50): with y pointing down, the arc bulges upward on screen (negative y).
    let middle = arc[15].end
    #expect(abs(middle.x - 50) < 1e-9 && abs(middle.y + 50) < 1e-9)
    for segment in arc {
      let curve = segment.cubic
      for i in 0...100 { #expect(curve.point(at: Double(i) / 100).y <= 1e-9) }
    }
    // sweep-flag 0 goes the other way, through (50, 50).
    let other = try segments("M0 0 A50 50 0 0 0 100 0")
    #expect(abs(other[15].end.x - 50) < 1e-9 && abs(other[15].end.y - 50) < 1e-9)
  }

  @Test func quarterArcAndLargeArcFlag() throws {
    // Centre (0, 10): from the top of the circle clockwise on screen to its right side.
    let small = try segments("M0 0 A10 10 0 0 1 10 10")
    #expect(small.count == 16)
    expectOnEllipse(small, center: p(0, 10), a: 10, b: 10, tolerance: 2e-11 * 10)
    // The large arc of the same sweep goes the long way around centre (10, 0).
    let large = try segments("M0 0 A10 10 0 1 1 10 10")
    #expect(large.count == 48)
    #expect(large.last?.end == p(10, 10))
    expectOnEllipse(large, center: p(10, 0), a: 10, b: 10, tolerance: 2e-11 * 10)
  }

  @Test func rotatedEllipticalArc() throws {
    // rx 20 along the axis rotated by 90° (vertical), ry 10 horizontal; the chord is the
    // major axis, so the centre is (0, 20) and half the ellipse is drawn. θ runs from 180°
    // to 360°; at 270° the unrotated point (0, -10) turns by 90° to (10, 0).
    let arc = try segments("M0 0 A20 10 90 0 1 0 40")
    #expect(arc.count == 32)
    #expect(arc.last?.end == p(0, 40))
    expectOnEllipse(arc, center: p(0, 20), a: 10, b: 20, tolerance: 2e-11 * 20)
    #expect(abs(arc[15].end.x - 10) < 1e-9 && abs(arc[15].end.y - 20) < 1e-9)
  }

  @Test func arcRadiiTooSmallAreScaledUp() throws {
    let arc = try segments("M0 0 A10 10 0 0 1 100 0")
    #expect(arc.count == 32)
    #expect(arc.last?.end == p(100, 0))
    expectOnEllipse(arc, center: p(50, 0), a: 50, b: 50, tolerance: 2e-11 * 50)
    // Negative radii count by their absolute value.
    #expect(try segments("M0 0 A-10 -10 0 0 1 100 0") == arc)
  }

  /// Arc lengths meet the 1e-9 relative bound every other segment meets (they were off
  /// by 2e-6 with 45° pieces).
  ///
  /// References: the exact ellipse of SVG F.6.5 (F.6.6's scaled
  /// radii centred on the chord), its arc length integrated by mpmath at 30 digits.
  @Test(arguments: [
    ("M10 10 A 40 25 30 1 1 90 60", 122.12815366829153524),
    ("M0 0 A100 100 0 0 1 100 100", 157.07963267948966192),
    ("M50 20 A80 10 -20 1 0 10 90", 431.106477914295693),
    ("M0 0 A30 20 10 0 1 40 10", 43.248956974019882696),
  ])
  func arcLengthsAreExact(data: String, length: Double) throws {
    let measured = MeasuredPath(try Path(svgPathData: data)).length
    #expect(
      isApproximatelyEqual(measured, length, relativeTolerance: 0, absoluteTolerance: 1e-9 * length)
    )
  }

  @Test func arcWithZeroRadiusIsALine() throws {
    #expect(try segments("M0 0 A0 10 0 0 1 100 0") == [.line(p(0, 0), p(100, 0))])
    #expect(try segments("M0 0 a10 0 0 0 1 100 0") == [.line(p(0, 0), p(100, 0))])
  }

  @Test func arcWithEqualEndpointsIsOmitted() throws {
    #expect(try parse("M5 5 A10 10 0 0 1 5 5") == Path(start: p(5, 5), segments: []))
    #expect(try segments("M5 5 a10 10 0 0 1 0 0 L6 6") == [.line(p(5, 5), p(6, 6))])
  }

  @Test func arcFlagsNeedNoSeparator() throws {
    // rx 25, ry 25, rotation 0, large-arc 1, sweep 0, then x 50 and y 50 (relative).
    let arc = try segments("M0 0a25 25 0 1050 50")
    #expect(arc.count == 32)  // the radii are scaled up to a half circle
    #expect(arc.last?.end == p(50, 50))
    expectOnEllipse(
      arc, center: p(25, 25), a: 25 * 2.0.squareRoot(), b: 25 * 2.0.squareRoot(),
      tolerance: 2e-11 * 36)
    #expect(try segments("M0 0a25,25,0,1,0,50,50") == arc)
  }

  // MARK: - Printing

  @Test func printsCompactAbsoluteData() throws {
    #expect(
      Path(start: p(0, 0), segments: [.cubic(p(0, 0), p(30, 80), p(70, -40), p(100, 0))])
        .svgPathData == "M0 0C30 80 70 -40 100 0")
    #expect(
      Path(subpaths: [
        Subpath(start: p(0, 0), segments: [.line(p(0, 0), p(10, 0))], isClosed: true),
        Subpath(start: p(20, 20), segments: [.line(p(20, 20), p(30, 30))]),
      ]).svgPathData == "M0 0L10 0ZM20 20L30 30")
    #expect(
      Path(start: p(-0.0, 0.5), segments: [.quadratic(p(0, 0.5), p(1.5, -2), p(1e-7, 1e21))])
        .svgPathData == "M0 0.5Q1.5 -2 1e-07 1e+21")
    #expect(Path().svgPathData == "")
    #expect(Path(start: p(1, 2), segments: [], isClosed: true).svgPathData == "M1 2Z")
    #expect(try parse("m1 1 h2 v2 s1 1 2 2 t3 3").svgPathData == "M1 1L3 1L3 3C3 3 4 4 5 5Q5 5 8 8")
  }

  @Test func roundTripsRandomPaths() throws {
    var rng = Xoshiro(seed: (1, 2, 3, 4))
    let special: [Double] = [
      0, -0.0, 1e-7, -1e-7, 123456.789, 1e21, -1e21, 0.1, 1 / 3, .leastNonzeroMagnitude, -2.5e-308,
      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 9_007_199_254_740_992,
    ]
    func value() -> Double {
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: return special[Int.random(in: 0..<special.count, using: &rng)]
      case 1: return Double(Int.random(in: -100...100, using: &rng))
      case 2: return Double.random(in: -1000...1000, using: &rng)
      default:
        let exponent = Double(Int.random(in: -30...30, using: &rng))
        return Double.random(in: -1...1, using: &rng) * pow10(exponent)
      }
    }
    func point() -> Point { Point(value(), value()) }
    for _ in 0..<2000 {
      var subpaths: [Subpath] = []
      // At least one subpath: the empty path prints as "", which is not valid path data.
      for _ in 0..<Int.random(in: 1...3, using: &rng) {
        var subpath = Subpath(start: point(), isClosed: Bool.random(using: &rng))
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
          let a = subpath.end
          switch Int.random(in: 0..<3, using: &rng) {
          case 0: subpath.segments.append(.line(a, point()))
          case 1: subpath.segments.append(.quadratic(a, point(), point()))
          default: subpath.segments.append(.cubic(a, point(), point(), point()))
          }
        }
        subpaths.append(subpath)
      }
      let path = Path(subpaths: subpaths)
      let text = path.svgPathData
      #expect(try Path(svgPathData: text) == path, "\(text)")
    }
  }

  private func pow10(_ e: Double) -> Double {
    var result = 1.0
    for _ in 0..<Int(abs(e)) { result *= 10 }
    return e < 0 ? 1 / result : result
  }

  // MARK: - Errors

  @Test(arguments: [
    ("", "offset 0: expected a moveto command ('M' or 'm'), found end of data"),
    ("  \n", "offset 3: expected a moveto command ('M' or 'm'), found end of data"),
    ("L10 10", "offset 0: expected a moveto command ('M' or 'm'), found 'L'"),
    ("M10", "offset 3: expected a number, found end of data"),
    ("M10 x", "offset 4: expected a number, found 'x'"),
    ("M0 0 Z 10", "offset 7: expected a command, found '1'"),
    ("M0 0 A10 10 0 2 1 5 5", "offset 14: expected an arc flag ('0' or '1'), found '2'"),
    ("M0 0 A1 1 0 1", "offset 13: expected an arc flag ('0' or '1'), found end of data"),
    ("M1e999 0", "offset 1: number out of range: '1e999'"),
    ("M0-1.5.5", "offset 8: expected a number, found end of data"),
    ("M-", "offset 2: expected a digit, found end of data"),
    ("M+.5 +.", "offset 7: expected a digit, found end of data"),
    ("M1e 2", "offset 3: expected a digit in the exponent, found ' '"),
    ("M1e+", "offset 4: expected a digit in the exponent, found end of data"),
    ("M0 0 e5", "offset 5: expected a command, found 'e'"),
    ("M0 0 L1 2,", "offset 10: expected a number, found end of data"),
    ("M0 0 L1,,2", "offset 8: expected a number, found ','"),
    ("M0 0,L1 1", "offset 5: expected a number, found 'L'"),
    ("M0 0 Q1 2 3", "offset 11: expected a number, found end of data"),
    ("M0 0 L1 2 \u{0}", "offset 10: expected a command, found U+0000"),
    ("Mé 0", "offset 1: expected a number, found 'é' (U+00E9)"),
    ("M0 0 L1 \u{2212}2", "offset 8: expected a number, found '\u{2212}' (U+2212)"),
    ("M0\te\u{301}", "offset 3: expected a number, found 'e'"),
    ("Z", "offset 0: expected a moveto command ('M' or 'm'), found 'Z'"),
    ("M1e308 0 l1e308 0", "offset 10: coordinate out of range"),
  ])
  func malformedData(data: String, expected: String) {
    #expect(parseError(data)?.description == expected)
  }

  @Test func caretSnippet() throws {
    let source = "M0 0\tL1 x"
    let error = try #require(parseError(source))
    #expect(error.caretSnippet(in: source) == "  M0 0 L1 x\n          ^")
    let atEnd = "M0 0 L1"
    let endError = try #require(parseError(atEnd))
    #expect(endError.caretSnippet(in: atEnd) == "  M0 0 L1\n         ^")
  }

  @Test func neverCrashesOnRandomData() {
    var rng = Xoshiro(seed: (4, 3, 2, 1))
    let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789.-+eE, \t\n\u{0}é×")
    for _ in 0..<3000 {
      let length = Int.random(in: 0...30, using: &rng)
      var text = Int.random(in: 0..<2, using: &rng) == 0 ? "M" : ""
      for _ in 0..<length { text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]) }
      if let error = parseError(text) {
        #expect(error.offset >= 0 && error.offset <= text.unicodeScalars.count)
      }
    }
  }

  @Test func parsesOneMegabyteLinearly() throws {
    let data = "M0 0" + String(repeating: " L1 2", count: 200_000)
    #expect(data.utf8.count > 1_000_000)
    let path = try parse(data)
    #expect(path.subpaths.count == 1)
    #expect(path.subpaths[0].segments.count == 200_000)
    #expect(path.subpaths[0].segments.last == .line(p(1, 2), p(1, 2)))
    let long = "M" + String(repeating: "1", count: 1_000_000) + " 0"
    #expect(parseError(long)?.message.hasPrefix("number out of range: '1111") == true)
  }
}

/// Path data numbers take a fast exact route when they can; it must give exactly what
/// `Double(String)` gives, or decline.
@Suite struct PathDataNumberTests {
  func exact(_ text: String) -> Double? {
    DecimalNumber.exactValue(ArraySlice(Array(text.unicodeScalars)))
  }

  @Test(arguments: [
    "0", "-0", "+0", "1", "-1", "0.5", ".5", "-.5", "5.", "12.375", "1e3", "1E-3", "2.5e+2",
    "-0.000001", "123456789012345", "0.1", "0.3", "9007199254740993", "1e22", "1e-22", "1e23",
    "0.0000000000000000000001", "1.5e-20", "4e-320", "00012.50", "1e99999", "0e99999",
    "123456789012345.6", "1.7976931348623157e308",
  ])
  func matchesTheStandardLibrary(text: String) {
    if let value = exact(text) {
      let expected = Double(text)
      #expect(
        value.bitPattern == expected?.bitPattern,
        "\(text): \(value) against \(String(describing: expected))")
    }
  }

  @Test func declinesWhatItCannotRoundExactly() {
    #expect(exact("1234567890123456") == nil)  // 16 significant digits
    #expect(exact("1e23") == nil)
    #expect(exact("1e-23") == nil)
    #expect(exact("1e99999") == nil)
  }

  /// Seeded: numbers written the ways path data writes them, each compared bit for bit.
  @Test func randomNumbersMatchTheStandardLibrary() {
    var inputs = SeededInputs(seed: 77)
    var taken = 0
    for _ in 0..<20_000 {
      let value = inputs.double(in: -5_000...5_000)
      let digits = Int(inputs.double(in: 0...14.99))
      var text = String(format: "%.\(digits)f", value)
      if inputs.double(in: 0...1) < 0.2 {
        text += "e\(Int(inputs.double(in: -30...30)))"
      }
      if let fast = exact(text) {
        taken += 1
        #expect(fast.bitPattern == Double(text)?.bitPattern, "\(text)")
      }
    }
    #expect(taken > 10_000, "the fast route took \(taken) of 20,000")
  }
}
