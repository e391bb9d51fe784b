import RealModule

/// A single-pass scanner and parser for SVG path data (the `d` attribute of SVG 1.1 and 2).
///
/// It reads the data as an array of Unicode scalars so error offsets count scalars, and
/// never backs up more than one scalar, so it runs in linear time on any input. The first
/// error stops parsing.
struct PathDataParser {
  private let scalars: [Unicode.Scalar]
  private var index = 0

  private var subpaths: [Subpath] = []
  /// The subpath being drawn; `nil` before the first moveto and right after a closepath.
  private var subpath: Subpath?
  private var subpathStart = Point.zero
  private var current = Point.zero
  /// The second control point of the previous group if it was `C` or `S`, for `S`.
  private var lastCubicControl: Point?
  /// The control point of the previous group if it was `Q` or `T`, for `T`.
  private var lastQuadraticControl: Point?

  init(_ source: String) {
    scalars = Array(source.unicodeScalars)
  }

  /// Parses the whole data into a path.
  mutating func parse() throws(PathDataError) -> Path {
    skipWhitespace()
    guard let first = peek(), first == "M" || first == "m" else {
      throw expected("a moveto command ('M' or 'm')")
    }
    while true {
      skipWhitespace()
      guard let letter = peek() else { break }
      try parseCommand(letter)
    }
    if let subpath { subpaths.append(subpath) }
    return Path(subpaths: subpaths)
  }

  // MARK: - Commands

  private mutating func parseCommand(_ letter: Unicode.Scalar) throws(PathDataError) {
    let isRelative = letter.properties.isLowercase
    var command = letter
    switch letter {
    case "Z", "z":
      index += 1
      closePath()
      return
    case "M", "L", "H", "V", "C", "S", "Q", "T", "A": break
    case "m", "l", "h", "v", "c", "s", "q", "t", "a":
      command = Unicode.Scalar(UInt8(letter.value) - 0x20)
    default:
      throw expected("a command")
    }
    index += 1
    skipWhitespace()
    repeat {
      try parseArguments(of: command, isRelative: isRelative)
      // Extra coordinate pairs after a moveto are linetos of the same relativity.
      if command == "M" { command = "L" }
    } while try hasAnotherArgumentGroup()
  }

  /// Parses one group of arguments of `command` (an uppercase letter) and draws it.
  private mutating func parseArguments(
    of command: Unicode.Scalar, isRelative: Bool
  ) throws(PathDataError) {
    let offset = index
    let origin = isRelative ? current : .zero
    var cubicControl: Point?
    var quadraticControl: Point?
    switch command {
    case "M":
      let p = try point(origin + pair(), at: offset)
      if let subpath { subpaths.append(subpath) }
      subpath = Subpath(start: p)
      subpathStart = p
      current = p
    case "L":
      try draw(.line(current, point(origin + pair(), at: offset)), at: offset)
    case "H":
      let x = try number()
      try draw(.line(current, point(Point(origin.x + x, current.y), at: offset)), at: offset)
    case "V":
      let y = try number()
      try draw(.line(current, point(Point(current.x, origin.y + y), at: offset)), at: offset)
    case "C":
      let c1 = try origin + pair()
      skipCommaWhitespace()
      let c2 = try origin + pair()
      skipCommaWhitespace()
      let p = try origin + pair()
      try draw(.cubic(current, c1, c2, p), at: offset)
      cubicControl = c2
    case "S":
      let c2 = try origin + pair()
      skipCommaWhitespace()
      let p = try origin + pair()
      let c1 = lastCubicControl.map { current + (current - $0) } ?? current
      try draw(.cubic(current, c1, c2, p), at: offset)
      cubicControl = c2
    case "Q":
      let c = try origin + pair()
      skipCommaWhitespace()
      let p = try origin + pair()
      try draw(.quadratic(current, c, p), at: offset)
      quadraticControl = c
    case "T":
      let p = try origin + pair()
      let c = lastQuadraticControl.map { current + (current - $0) } ?? current
      try draw(.quadratic(current, c, p), at: offset)
      quadraticControl = c
    default:  // "A"
      let rx = try number()
      skipCommaWhitespace()
      let ry = try number()
      skipCommaWhitespace()
      let rotation = try number()
      let largeArc = try flag()
      let sweep = try flag()
      skipCommaWhitespace()
      let p = try point(origin + pair(), at: offset)
      let arc = Self.arcSegments(
        from: current, to: p, rx: rx, ry: ry, rotation: rotation, largeArc: largeArc,
        sweep: sweep)
      for segment in arc { try draw(segment, at: offset) }
      current = p
    }
    lastCubicControl = cubicControl
    lastQuadraticControl = quadraticControl
  }

  /// Closes the current subpath; the current point returns to its start.
  private mutating func closePath() {
    if var closed = subpath {
      closed.isClosed = true
      subpaths.append(closed)
      subpath = nil
    }
    current = subpathStart
    lastCubicControl = nil
    lastQuadraticControl = nil
  }

  /// Appends a segment, opening a subpath at the last start if a closepath ended the last.
  private mutating func draw(_ segment: Segment, at offset: Int) throws(PathDataError) {
    // Relative coordinates and arcs can overflow even though every number is finite.
    guard segment.isFinite else {
      throw PathDataError(offset: offset, message: "coordinate out of range")
    }
    if subpath == nil { subpath = Subpath(start: subpathStart) }
    subpath?.segments.append(segment)
    current = segment.end
  }

  /// `p`, or an error at `offset` if adding a relative offset overflowed.
  private func point(_ p: Point, at offset: Int) throws(PathDataError) -> Point {
    guard p.isFinite else {
      throw PathDataError(offset: offset, message: "coordinate out of range")
    }
    return p
  }

  /// After an argument group: `true` if another group of the same command follows.
  private mutating func hasAnotherArgumentGroup() throws(PathDataError) -> Bool {
    let hadComma = skipCommaWhitespace()
    if let s = peek(), Self.startsNumber(s) { return true }
    // A comma must be followed by another group, never by a command or the end.
    if hadComma { throw expected("a number") }
    return false
  }

  // MARK: - Tokens

  private mutating func pair() throws(PathDataError) -> Point {
    let x = try number()
    skipCommaWhitespace()
    return Point(x, try number())
  }

  /// Scans `sign? (digits ('.' digits?)? | '.' digits) exponent?` and converts it.
  private mutating func number() throws(PathDataError) -> Double {
    let start = index
    if let s = peek(), s == "+" || s == "-" { index += 1 }
    let integerDigits = skipDigits()
    if peek() == "." {
      index += 1
      if skipDigits() == 0 && integerDigits == 0 { throw expected("a digit") }
    } else if integerDigits == 0 {
      throw expected(index == start ? "a number" : "a digit")
    }
    if let s = peek(), s == "e" || s == "E" {
      index += 1
      if let s = peek(), s == "+" || s == "-" { index += 1 }
      if skipDigits() == 0 { throw expected("a digit in the exponent") }
    }
    if let value = DecimalNumber.exactValue(scalars[start..<index]) { return value }
    // Only ASCII was consumed, and Double(String) does not depend on the locale.
    let text = String(String.UnicodeScalarView(scalars[start..<index]))
    guard let value = Double(text), value.isFinite else {
      let shown = text.count > 40 ? text.prefix(40) + "…" : text
      throw PathDataError(offset: start, message: "number out of range: '\(shown)'")
    }
    return value
  }

  /// An arc flag: exactly one `0` or `1`, which needs no separator after it.
  private mutating func flag() throws(PathDataError) -> Bool {
    skipCommaWhitespace()
    guard let s = peek(), s == "0" || s == "1" else {
      throw expected("an arc flag ('0' or '1')")
    }
    index += 1
    return s == "1"
  }

  private mutating func skipDigits() -> Int {
    let start = index
    while let s = peek(), ("0"..."9").contains(s) { index += 1 }
    return index - start
  }

  private mutating func skipWhitespace() {
    while let s = peek(), Self.isWhitespace(s) { index += 1 }
  }

  /// Skips optional whitespace with at most one comma in it; returns whether it had one.
  @discardableResult
  private mutating func skipCommaWhitespace() -> Bool {
    skipWhitespace()
    guard peek() == "," else { return false }
    index += 1
    skipWhitespace()
    return true
  }

  private func peek() -> Unicode.Scalar? {
    index < scalars.count ? scalars[index] : nil
  }

  private static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
    s == " " || s == "\t" || s == "\n" || s == "\r" || s == "\u{0C}"
  }

  private static func startsNumber(_ s: Unicode.Scalar) -> Bool {
    ("0"..."9").contains(s) || s == "." || s == "-" || s == "+"
  }

  /// An error at the current position: `expected <what>, found <the scalar here>`.
  private func expected(_ what: String) -> PathDataError {
    PathDataError(offset: index, message: "expected \(what), found \(Self.describe(peek()))")
  }

  /// `'x'` for printable ASCII, `U+0009` for controls and spaces, `'é' (U+00E9)` otherwise.
  private static func describe(_ scalar: Unicode.Scalar?) -> String {
    guard let scalar else { return "end of data" }
    if scalar.value >= 0x20 && scalar.value < 0x7F { return "'\(scalar)'" }
    let hex = String(scalar.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    switch scalar.properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
      .surrogate, .privateUse, .unassigned, .nonspacingMark, .enclosingMark, .spacingMark:
      return code
    default:
      return "'\(scalar)' (\(code))"
    }
  }

  // MARK: - Arcs

  /// The widest span of one arc cubic, in radians of the ellipse's parametric angle.
  static let maximumArcStep = Double.pi / 32

  /// The cubics of an elliptical arc, following SVG 1.1 appendix F.6.
  ///
  /// Each cubic spans at most 5.625° (π/32) of the ellipse's parametric angle: the
  /// radial error of the standard cubic approximation grows as the sixth power of the
  /// span, 4.2e-6 of the radius at 45° but 1.6e-11 at π/32, so every point is within
  /// 2e-11 · max(rx, ry) of the true ellipse and arc lengths meet the same 1e-9 relative
  /// bound as every other segment. The first cubic starts exactly at `p1` and the last
  /// ends exactly at `p2`.
  static func arcSegments(
    from p1: Point, to p2: Point, rx: Double, ry: Double, rotation: Double,
    largeArc: Bool, sweep: Bool
  ) -> [Segment] {
    if p1 == p2 { return [] }  // F.6.2: omitted
    var rx = abs(rx)
    var ry = abs(ry)
    if rx == 0 || ry == 0 { return [.line(p1, p2)] }  // F.6.2: a straight line

    let phi = rotation.truncatingRemainder(dividingBy: 360) * .pi / 180
    let cosPhi = Double.cos(phi)
    let sinPhi = Double.sin(phi)
    // F.6.5.1, halved before subtracting so huge coordinates do not overflow.
    let dx = p1.x / 2 - p2.x / 2
    let dy = p1.y / 2 - p2.y / 2
    let x1 = cosPhi * dx + sinPhi * dy
    let y1 = -sinPhi * dx + cosPhi * dy
    // Work on the unit circle: (xn, yn) is the start point relative to the chord's middle
    // in radii units, so F.6.6's Λ is s² and F.6.5.2's radicand is (1 - s²) / s².
    var xn = x1 / rx
    var yn = y1 / ry
    let s = Double.hypot(xn, yn)
    guard s > 0, s.isFinite else { return [.line(p1, p2)] }
    var cxn = 0.0
    var cyn = 0.0
    if s >= 1 {
      // F.6.6: radii too small; scale them up so the chord is a diameter.
      rx *= s
      ry *= s
      xn /= s
      yn /= s
    } else {
      let root = max(0, (1 - s) * (1 + s)).squareRoot()
      let sign: Double = largeArc != sweep ? 1 : -1
      cxn = sign * root * (yn / s)
      cyn = -sign * root * (xn / s)
    }
    // F.6.5.3
    let cxp = rx * cxn
    let cyp = ry * cyn
    let center = Point(
      cosPhi * cxp - sinPhi * cyp + (p1.x / 2 + p2.x / 2),
      sinPhi * cxp + cosPhi * cyp + (p1.y / 2 + p2.y / 2))
    // F.6.5.4, angles on the unit circle.
    let u = Vector(xn - cxn, yn - cyn)
    let v = Vector(-xn - cxn, -yn - cyn)
    let theta1 = u.angle
    var delta = Double.atan2(y: u.cross(v), x: u.dot(v))
    if !sweep && delta > 0 {
      delta -= 2 * .pi
    } else if sweep && delta < 0 {
      delta += 2 * .pi
    }
    guard delta.isFinite, center.isFinite, rx.isFinite, ry.isFinite else {
      return [.line(p1, p2)]
    }

    // The tolerance keeps exact quarter and half turns from gaining a piece to rounding.
    let count = max(1, Int((abs(delta) / maximumArcStep - 1e-9).rounded(.up)))
    let step = delta / Double(count)
    let k = 4.0 / 3.0 * Double.tan(step / 4)
    func pointAt(_ theta: Double) -> Point {
      let ex = rx * Double.cos(theta)
      let ey = ry * Double.sin(theta)
      return Point(center.x + cosPhi * ex - sinPhi * ey, center.y + sinPhi * ex + cosPhi * ey)
    }
    func tangentAt(_ theta: Double) -> Vector {
      let ex = -rx * Double.sin(theta)
      let ey = ry * Double.cos(theta)
      return Vector(cosPhi * ex - sinPhi * ey, sinPhi * ex + cosPhi * ey)
    }
    var segments: [Segment] = []
    segments.reserveCapacity(count)
    var start = p1
    for i in 0..<count {
      let a = theta1 + step * Double(i)
      let b = i == count - 1 ? theta1 + delta : theta1 + step * Double(i + 1)
      let end = i == count - 1 ? p2 : pointAt(b)
      segments.append(.cubic(start, start + tangentAt(a) * k, end - tangentAt(b) * k, end))
      start = end
    }
    return segments
  }
}
