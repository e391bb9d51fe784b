import SceneGeometry
import SceneRuntime
import SceneSyntax
import SceneTestSupport
import SceneVocabulary
import Testing

@testable import SceneOutputs

/// The number text and JSON escapes written straight into bytes, checked against the
/// string-building implementations they replaced (kept below as references).
@Suite struct NumberTextTests {
  // MARK: - Edge cases

  static let edgeCaseList: [(value: Double, precision: Int, expected: String)] = [
    // Negative zero and values that round to zero.
    (-0.0, 3, "0"), (0.0, 3, "0"), (-0.0, 0, "0"),
    (0.0001, 3, "0"), (-0.0004, 3, "0"), (-0.0001, 3, "0"), (0.4, 0, "0"), (-0.4, 0, "0"),
    // Halves round away from zero (exact binary halves, so the tie is real).
    (0.5, 0, "1"), (-0.5, 0, "-1"), (1.5, 0, "2"), (2.5, 0, "3"), (-2.5, 0, "-3"),
    (0.125, 2, "0.13"), (-0.125, 2, "-0.13"), (0.0625, 3, "0.063"), (-0.0005, 3, "-0.001"),
    // Trailing zeros and small decimals.
    (1e-3, 3, "0.001"), (120.50, 3, "120.5"), (80, 3, "80"), (100, 3, "100"),
    (1000.0001, 3, "1000"),
    (0.1 + 0.2, 6, "0.3"), (1.23456, 2, "1.23"), (-1.23456, 4, "-1.2346"),
    (0.000_999_9, 3, "0.001"),
    (10, 0, "10"), (-10.4, 0, "-10"), (0.05, 1, "0.1"), (-7.25, 1, "-7.3"),
    // Precision 0 and 15, and outside 0...15 (clamped).
    (3.7, 0, "4"), (1.0 / 3, 15, "0.333333333333333"), (0.1, 15, "0.1"),
    (2.0 / 3, 15, "0.666666666666667"),
    (1.0 / 3, 20, "0.333333333333333"), (3.7, -2, "4"), (1e-15, 15, "0.000000000000001"),
    (5e-16, 15, "0.000000000000001"), (4e-16, 15, "0"),
    // Up to 9e15 scaled: fixed point; past it, the shortest round-trip text.
    (8_999_999_999_999_998, 0, "8999999999999998"), (8.5e15, 0, "8500000000000000"),
    (8e15, 0, "8000000000000000"), (-8e15, 0, "-8000000000000000"),
    (7_999_999_999_999_999, 0, "7999999999999999"),
    (8_000_000_000_000_001, 0, "8000000000000001"),
    (-8_000_000_000_000_001, 0, "-8000000000000001"),
    (9e15, 0, "9000000000000000"), (-9e15, 0, "-9000000000000000"), (9.1e15, 0, "9.1e+15"),
    (-9.1e15, 0, "-9.1e+15"), (1e16, 0, "1e+16"), (1e20, 3, "1e+20"), (-1.5e300, 3, "-1.5e+300"),
    (123_456_789.123, 8, "123456789.123"), (9e12, 3, "9000000000000"), (8.9e12, 3, "8900000000000"),
    (Double.greatestFiniteMagnitude, 3, "1.7976931348623157e+308"),
    // Not finite: the runtime never hands these on.
    (Double.nan, 3, "0"), (Double.infinity, 3, "0"), (-Double.infinity, 0, "0"),
  ]

  @Test(arguments: edgeCaseList)
  func edgeCases(value: Double, precision: Int, expected: String) {
    #expect(NumberText.format(value, precision: precision) == expected)
    #expect(Reference.format(value, precision: precision) == expected)
    #expect(appended(value, precision: precision) == expected)
  }

  @Test func integersPrintLikeString() {
    for value in [0, 1, 9, 10, 99, 100, 12345, -1, -10, -98765, Int.max, Int.min] {
      var text = TextBytes()
      text.append(value)
      #expect(text.string == String(value))
    }
  }

  // MARK: - Against the old implementation

  @Test func randomNumbersPrintAsBefore() {
    var rng = SeededGenerator(seed: 0x5CE7_EC0D_0001)
    var mismatches: [String] = []
    for _ in 0..<100_000 {
      let value = rng.interestingDouble()
      let precision = Int(rng.next() % 19) - 1  // -1...17, clamping included.
      let expected = Reference.format(value, precision: precision)
      let formatted = NumberText.format(value, precision: precision)
      let written = appended(value, precision: precision)
      if formatted != expected || written != expected, mismatches.count < 10 {
        mismatches.append(
          "\(value) at \(precision): \(formatted) / \(written), expected \(expected)")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  @Test func randomStringsQuoteAsBefore() {
    var rng = SeededGenerator(seed: 0x5CE7_EC0D_0002)
    let pieces: [String] = [
      "a", "Z", "_", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}",
      "\u{1}", "\u{1F}",
      "\u{7F}", "é", "ü", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "→", "€", "😀", "e\u{301}",
      "</", "<!--",
    ]
    for _ in 0..<20_000 {
      var text = ""
      for _ in 0..<(rng.next() % 12) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
      #expect(JSONText.quoted(text) == Reference.quoted(text))
    }
  }

  @Test func pathDataIsAsBefore() {
    var rng = SeededGenerator(seed: 0x5CE7_EC0D_0003)
    for _ in 0..<2_000 {
      var subpaths: [Subpath] = []
      for _ in 0..<(1 + rng.next() % 3) {
        var point = Point(x: rng.interestingDouble(), y: rng.interestingDouble())
        let start = point
        var segments: [Segment] = []
        for _ in 0..<(rng.next() % 4) {
          let a = point
          let b = Point(x: rng.interestingDouble(), y: rng.interestingDouble())
          let c = Point(x: rng.interestingDouble(), y: rng.interestingDouble())
          let d = Point(x: rng.interestingDouble(), y: rng.interestingDouble())
          switch rng.next() % 3 {
          case 0: segments.append(.line(a, b))
          case 1: segments.append(.quadratic(a, c, b))
          default: segments.append(.cubic(a, c, d, b))
          }
          point = b
        }
        subpaths.append(Subpath(start: start, segments: segments, isClosed: rng.next() % 2 == 0))
      }
      let path = Path(subpaths: subpaths)
      let precision = Int(rng.next() % 7)
      #expect(
        PathText.data(path, precision: precision) == Reference.pathData(path, precision: precision))
    }
  }

  // MARK: - Whole frames against the old implementation

  static let scene = """
    scene: { duration: 0.3s, fps: 60 }
    handles:
      ball: { position: [120.5, 80], r: 20, draggable: true }
      anchor: { position: [10, 10], r: 4 }
      Zed: { position: [-3.25, 7], shape: rect, width: 10, height: 4 }
      a_1: { position: [0.0004, -0.0004], r: 1 }
    paths:
      curve: { d: "M30 100 Q 200 0 300 100" }
      box: { d: "M0 0 L 10 0 L 10 10 Z" }
    constraints:
      - gooey: { anchor: anchor, ball: ball }
    gesture:
      - press: ball
      - drag: { by: [40, -20], over: 0.1s }
      - release
    """

  @Test(arguments: [0, 1, 3, 6, 15])
  func framesEncodeAsBefore(precision: Int) throws {
    let (graph, frames) = try runFrames(Self.scene)
    let context = OutputContext(graph: graph, precision: precision, fps: 60)
    var rng = SeededGenerator(seed: 0x5CE7_EC0D_0004 &+ UInt64(precision))
    #expect(frames.allSatisfy { $0.paths.map(\.name) == ["curve", "box", "gooey1"] })
    for frame in frames {
      // As the runtime makes them (the graph's precomputed keys apply by index), with new
      // values, and reshaped so they no longer fit the graph (the frame's own names apply).
      var changed = frame
      for i in changed.handles.indices {
        changed.handles[i].x = rng.interestingDouble()
        changed.handles[i].angle = rng.interestingDouble()
      }
      // Of the gooey link, whose bridge is the third path.
      changed.events.append(SceneEvent(.linkBroke, 2))
      if !changed.paths.isEmpty { changed.paths[0].isHidden = true }
      var reordered = frame
      reordered.handles.reverse()
      reordered.handles.removeLast()
      reordered.paths.reverse()
      reordered.paths.removeLast()
      var renamed = frame
      for i in renamed.handles.indices {
        renamed.handles[i].name =
          ["ball", "q\"uote", "back\\slash", "nl\n", "é", "\u{2028}", "ctl\u{1}", "ball"][
            Int(rng.next() % 8)]
        renamed.handles[i].x = rng.interestingDouble()
        renamed.handles[i].angle = rng.interestingDouble()
      }
      // Subjects named as the paths and handles of this frame are: escaped as they are.
      renamed.events.append(SceneEvent(.linkBroke, 0))
      renamed.events.append(SceneEvent(.dismissed, 1))
      renamed.events.append(SceneEvent(.grab, 0))
      if !renamed.paths.isEmpty {
        renamed.paths[0].isHidden = true
        renamed.paths[0].name = "zz\"path"
      }
      renamed.handles.removeLast()
      renamed.paths.removeLast()
      var fewer = frame
      fewer.handles.removeLast()
      for variant in [frame, changed, reordered, renamed, fewer] {
        #expect(
          FrameOutput.jsonl.text(of: [variant], context: context) == Reference.jsonLine(
            variant, precision: precision) + "\n")
        #expect(
          JSONLines.line(for: variant, precision: precision)
            == Reference.jsonLine(variant, precision: precision))
        #expect(
          FrameOutput.csv.text(of: [variant], context: context)
            == "frame,time,handle,x,y,angle,state\n" + Reference.csv(variant, precision: precision))
      }
    }
  }

  /// A writer keeps the previous frame's text and copies what did not change: frame
  /// after frame, with every kind of change a frame can bring (a handle's `y` alone, its
  /// `x`, its angle, radius or state, a path's numbers, its shape, whether it shows, or
  /// nothing at all), each line is still exactly the line of that frame alone.
  @Test(arguments: [0, 3, 6])
  func streamedFramesEncodeAsEachFrameAlone(precision: Int) throws {
    let (graph, frames) = try runFrames(Self.scene)
    let context = OutputContext(graph: graph, precision: precision, fps: 60)
    var writer = JSONLines.Writer(context: context)
    var rng = SeededGenerator(seed: 0x5CE7_EC0D_0005 &+ UInt64(precision))
    var frame = frames[0]
    var sink = TextBytes()
    var mismatches: [String] = []
    for step in 0..<600 {
      for i in frame.handles.indices where rng.next() % 3 == 0 {
        switch rng.next() % 7 {
        case 0: frame.handles[i].y = rng.interestingDouble()
        case 1: frame.handles[i].x = rng.interestingDouble()
        case 2:
          frame.handles[i].x = rng.interestingDouble()
          frame.handles[i].y = rng.interestingDouble()
        case 3: frame.handles[i].angle = rng.interestingDouble()
        case 4: frame.handles[i].radius = rng.interestingDouble()
        case 5: frame.handles[i].state = HandleState.allCases[Int(rng.next() % 5)]
        default: frame.handles[i].y = -frame.handles[i].y  // 0 and -0 print alike.
        }
      }
      for i in frame.paths.indices where rng.next() % 4 == 0 {
        if frame.paths[i].path.subpaths.isEmpty {
          // A gooey bridge not drawn: its path is empty.
          frame.paths[i].path.subpaths.append(Subpath(start: Point(1, 2)))
        }
        switch rng.next() % 4 {
        case 0: frame.paths[i].isHidden.toggle()
        case 1: frame.paths[i].path = frames[Int(rng.next() % UInt64(frames.count))].paths[i].path
        case 2:
          // Another shape: a segment more.
          var path = frame.paths[i].path
          let end = path.subpaths[0].segments.last?.end ?? path.subpaths[0].start
          path.subpaths[0].segments.append(.line(end, Point(rng.interestingDouble(), 1)))
          frame.paths[i].path = path
        default:
          // The same shape, one number moved.
          var path = frame.paths[i].path
          path.subpaths[0].start.x = rng.interestingDouble()
          frame.paths[i].path = path
        }
      }
      frame.index = step
      sink.removeAll()
      writer.frame(frame, into: &sink)
      let expected = Reference.jsonLine(frame, precision: precision) + "\n"
      if sink.string != expected, mismatches.count < 5 {
        mismatches.append("frame \(step):\n\(sink.string)expected\n\(expected)")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
    // Each kind of change happened, and so did copying.
    #expect(writer.memory.copied > 0 && writer.memory.formatted > 0)
  }

  /// What did not change is copied, not formatted: a still scene formats its handles and
  /// paths once, then copies them; a handle moving along one axis formats that one.
  @Test func unchangedHandlesAndPathsAreCopiedNotFormatted() throws {
    let (graph, frames) = try runFrames(Self.scene)
    let context = OutputContext(graph: graph, precision: 3, fps: 60)
    var writer = JSONLines.Writer(context: context)
    var sink = TextBytes()
    let still = frames[0]
    let parts = still.handles.count + still.paths.filter { !$0.isHidden }.count
    for _ in 0..<100 { writer.frame(still, into: &sink) }
    #expect(writer.memory.formatted == parts)
    #expect(writer.memory.copied == 99 * parts)
    var moving = still
    for k in 1...50 {
      moving.handles[0].y = Double(k)
      writer.frame(moving, into: &sink)
    }
    #expect(writer.memory.formatted == parts + 50)
    #expect(writer.memory.copied == 99 * parts + 50 * (parts - 1))
  }

  // MARK: - Helpers

  private func appended(_ value: Double, precision: Int) -> String {
    var text = TextBytes()
    text.append("<")
    text.append(value, precision: precision)
    text.append(">")
    let string = text.string
    return String(string.dropFirst().dropLast())
  }
}

extension SeededGenerator {
  /// A double from a mix that finds the edges: plain coordinates, exact halves and other
  /// ties, values with few decimals, tiny and huge magnitudes, signed zeros, any bits.
  mutating func interestingDouble() -> Double {
    let sign: Double = next() % 2 == 0 ? 1 : -1
    switch next() % 9 {
    case 0: return sign * Double(next() % 2_000_000) / 1000  // Few decimals.
    // Binary fractions, ties.
    case 1: return sign * Double(next() % 100_000) / Double(1 << (next() % 20))
    case 2:
      return sign * (Double(next() % 1_000_000) + 0.5)
        / Double([1, 10, 100, 1000, 10_000][Int(next() % 5)])
    case 3: return sign * Double(next() >> 11) * 0x1p-53 * 2000  // Uniform coordinates.
    // Any scale.
    case 4: return sign * Double(next() >> 11) * 0x1p-53 * pow10(Int(next() % 40) - 20)
    case 5: return sign * Double(next() % 20_000_000_000_000_000)  // Around 9e15 and past it.
    case 6:
      return sign * 9e15 / pow10(Int(next() % 16)) * (1 + Double(Int(next() % 2001) - 1000) * 1e-6)
    case 7: return [0.0, -0.0, 0.5, -0.5, 1e-3, 5e-4, -5e-4, 9e15, 8e15, 1e16][Int(next() % 10)]
    default:
      let bits = Double(bitPattern: next())
      return bits.isFinite ? bits : 0
    }
  }

  private func pow10(_ exponent: Int) -> Double {
    var value = 1.0
    for _ in 0..<abs(exponent) { value *= 10 }
    return exponent < 0 ? 1 / value : value
  }
}

/// The implementations the byte writers replaced, kept as they were to check against.
enum Reference {
  static func format(_ value: Double, precision: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<max(0, min(precision, 15)) { scale *= 10 }
    let rounded = (value * scale).rounded(.toNearestOrAwayFromZero)
    guard abs(rounded) < 9e15 else { return value.shortestDescription }
    let integer = Int64(rounded)
    if integer == 0 { return "0" }
    let negative = integer < 0
    var digits = String(integer.magnitude)
    let decimals = max(0, min(precision, 15))
    if decimals > 0 {
      if digits.count <= decimals {
        digits = String(repeating: "0", count: decimals - digits.count + 1) + digits
      }
      let split = digits.index(digits.endIndex, offsetBy: -decimals)
      var fraction = String(digits[split...])
      while fraction.hasSuffix("0") { fraction.removeLast() }
      digits = String(digits[..<split]) + (fraction.isEmpty ? "" : "." + fraction)
    }
    return (negative ? "-" : "") + digits
  }

  static func quoted(_ value: String) -> String {
    var text = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{8}": text += "\\b"
      case "\u{C}": text += "\\f"
      case "\u{2028}": text += "\\u2028"
      case "\u{2029}": text += "\\u2029"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    return text + "\""
  }

  static func pathData(_ path: Path, precision p: Int) -> String {
    func n(_ value: Double) -> String { format(value, precision: p) }
    func pt(_ point: Point) -> String { n(point.x) + " " + n(point.y) }
    var text = ""
    for subpath in path.subpaths {
      text += "M" + pt(subpath.start)
      for segment in subpath.segments {
        switch segment {
        case .line(_, let b): text += "L" + pt(b)
        case .quadratic(_, let c, let b): text += "Q" + pt(c) + " " + pt(b)
        case .cubic(_, let c1, let c2, let b): text += "C" + pt(c1) + " " + pt(c2) + " " + pt(b)
        }
      }
      if subpath.isClosed { text += "Z" }
    }
    return text
  }

  static func jsonLine(_ frame: Frame, precision p: Int) -> String {
    func n(_ value: Double) -> String { format(value, precision: p) }
    var text = "{\"events\":["
    text += frame.namedEvents.map { event in
      let key = event.type.hasPrefix("link.") || event.type == "dismissed" ? "constraint" : "handle"
      return "{\"\(key)\":\(quoted(event.subject)),\"type\":\(quoted(event.type))}"
    }.joined(separator: ",")
    text += "],\"frame\":\(frame.index),\"handles\":{"
    text += frame.handles.sorted { $0.name < $1.name }.map { h in
      "\(quoted(h.name)):{\"angle\":\(n(h.angle)),\"r\":\(n(h.radius)),\"state\":\"\(h.state.rawValue)\",\"x\":\(n(h.x)),\"y\":\(n(h.y))}"
    }.joined(separator: ",")
    text += "},\"paths\":{"
    text += frame.paths.sorted { $0.name < $1.name }.map { path in
      "\(quoted(path.name)):\(quoted(path.isHidden ? "" : pathData(path.path, precision: p)))"
    }.joined(separator: ",")
    text += "},\"pointers\":["
    text += frame.pointers.map { pointer in
      "{\"down\":\(pointer.isDown),\"id\":\(pointer.id),\"x\":\(n(pointer.x)),\"y\":\(n(pointer.y))}"
    }.joined(separator: ",")
    text += "],\"time\":\(n(frame.time))}"
    return text
  }

  static func csv(_ frame: Frame, precision: Int) -> String {
    func n(_ value: Double) -> String { format(value, precision: precision) }
    return frame.handles.map { h in
      "\(frame.index),\(n(frame.time)),\(h.name),\(n(h.x)),\(n(h.y)),\(n(h.angle)),\(h.state.rawValue)\n"
    }.joined()
  }
}
