extension Path {
  /// Parses SVG path data, the `d` attribute of an SVG `<path>`.
  ///
  /// The whole SVG 1.1 and 2 grammar is accepted: every command, absolute and relative,
  /// implicit repetition and all separator-free forms. `H` and `V` become lines, `S` and
  /// `T` cubics and quadratics with their reflected control points, and arcs become cubics
  /// of at most 45° each. `Z` marks the subpath closed without storing the closing line.
  ///
  /// - Throws: ``PathDataError`` at the first malformed character.
  public init(svgPathData: String) throws(PathDataError) {
    var parser = PathDataParser(svgPathData)
    self = try parser.parse()
  }

  /// The path as compact, absolute SVG path data such as `M0 0C30 80 70 -40 100 0`.
  ///
  /// Each segment prints its control points and end with its own command letter; its start
  /// is the previous point, so the data parses back to an equal path when the segments of
  /// each subpath join end to start. Numbers print as their shortest round-trip text.
  public var svgPathData: String {
    var text = ""
    func append(_ letter: String, _ points: Point...) {
      text += letter
      for (i, p) in points.enumerated() {
        if i > 0 { text += " " }
        text += p.x.shortestDescription + " " + p.y.shortestDescription
      }
    }
    for subpath in subpaths {
      append("M", subpath.start)
      for segment in subpath.segments {
        switch segment {
        case .line(_, let b): append("L", b)
        case .quadratic(_, let c, let b): append("Q", c, b)
        case .cubic(_, let c1, let c2, let b): append("C", c1, c2, b)
        }
      }
      if subpath.isClosed { text += "Z" }
    }
    return text
  }
}
