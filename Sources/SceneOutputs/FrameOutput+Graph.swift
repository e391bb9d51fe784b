import RealModule
import SceneGeometry
import SceneGraph
import SceneRuntime
import SceneVocabulary

#if !hasFeature(Embedded)
extension FrameOutput {
  /// A chart of handles' values over the run, as SVG: for pull requests and docs.
  ///
  /// Time runs along the x axis, in seconds; each plotted value (`--plot c.y`; every
  /// moving handle's x and y by default, eight at most) is a line in its own colour, named
  /// in the legend; the plotted handles' events (grab, release, rest, snap, loop, tap) and
  /// every state change are dashed vertical lines, labelled. The plot area carries its
  /// scales (`data-t0`, `data-t1`, `data-v0`, `data-v1`), so a tool can read the lines back.
  public static let graph = FrameOutput(
    name: "graph", fileExtensions: [],
    summary: "a chart of handles' values over time, as SVG (--plot HANDLE.y, HANDLE.speed, …)"
  ) { context in GraphWriter(context: context) }
}
#endif

/// Keeps each plotted value of every frame, and draws the chart at the end.
struct GraphWriter: FrameWriter {
  let context: OutputContext
  /// What is plotted: the handle's index and the value's name.
  var series: [(handle: Int, value: String)] = []
  var times: [Double] = []
  var values: [[Double]] = []
  /// Each marked event: its time, its label and the handle it concerns (`nil` for a state
  /// change, which is always marked).
  var marks: [(time: Double, label: String, handle: Int?)] = []
  /// Whether each pointer was down in the frame before.
  var pressed: [Bool] = []
  /// Each handle's position in the frame before, for `speed`.
  var previous: [(x: Double, y: Double)] = []
  var failure: String?
  var notes: [String] = []

  static let width = 800.0
  static let height = 420.0
  static let margin = (left: 70.0, right: 160.0, top: 30.0, bottom: 50.0)
  static let colors = [
    "#0a84ff", "#ff375f", "#30d158", "#ff9f0a", "#bf5af2", "#64d2ff", "#ffd60a", "#8e8e93",
  ]
  /// What a handle's value may be: its position, the direction it faces, its speed in
  /// points per second, and the animatable turn, scale and opacity.
  static let valueNames = ["x", "y", "angle", "speed", "rotation", "scale", "opacity"]
  /// Handles whose x and y are kept when nothing is chosen: a chart of more is unreadable,
  /// and keeping every value of a 10,000-handle scene would not fit in memory.
  static let defaultHandleLimit = 32

  init(context: OutputContext) {
    self.context = context
    let names = context.graph.handles.map { $0.name }
    for plot in context.plots {
      let parts = plot.split(separator: ".", maxSplits: 1).map(String.init)
      guard parts.count == 2, let i = names.firstIndex(of: parts[0]),
        Self.valueNames.contains(parts[1])
      else {
        failure =
          "cannot plot '\(plot)': write HANDLE.VALUE, with a handle of the scene and a value among \(Self.valueNames.joined(separator: ", "))"
        return
      }
      series.append((i, parts[1]))
    }
  }

  func value(_ name: String, of handle: Int, in frame: Frame) -> Double {
    let h = frame.handles[handle]
    switch name {
    case "x": return h.x
    case "y": return h.y
    case "angle": return h.angle
    case "rotation": return h.rotation
    case "scale": return h.scale
    case "opacity": return h.opacity
    default:
      // The distance from the frame before over the time step; 0 in the first frame.
      guard handle < previous.count, context.fps > 0 else { return 0 }
      let (dx, dy) = (h.x - previous[handle].x, h.y - previous[handle].y)
      return (dx * dx + dy * dy).squareRoot() * context.fps
    }
  }

  mutating func frame(_ frame: Frame, into sink: inout TextBytes) {
    guard failure == nil else { return }
    if times.isEmpty && series.isEmpty {
      // Chosen at the end by what moved; the first handles' x and y kept until then.
      let kept = min(frame.handles.count, Self.defaultHandleLimit)
      if frame.handles.count > kept {
        notes.append(
          "graph: the scene has \(frame.handles.count) handles; the first \(kept) are charted (choose with --plot HANDLE.y)"
        )
      }
      for i in 0..<kept { series += [(i, "x"), (i, "y")] }
    }
    times.append(frame.time)
    values.append(series.map { value($0.value, of: $0.handle, in: frame) })
    if series.contains(where: { $0.value == "speed" }) {
      previous = frame.handles.map { ($0.x, $0.y) }
    }
    // The finger: pressed and lifted, as the gesture or the user did it.
    for (k, pointer) in frame.pointers.enumerated()
    where k >= pressed.count || pressed[k] != pointer.isDown {
      if k < pressed.count || pointer.isDown {
        marks.append((frame.time, pointer.isDown ? "press" : "lift", nil))
      }
    }
    pressed = frame.pointers.map { $0.isDown }
    let plotted = Set(series.map { $0.handle })
    for event in frame.events {
      if event.kind == .state {
        marks.append(
          (frame.time, "\(event.subjectName(in: frame)): \(event.target ?? "")", nil))
      } else if event.kind.isAboutHandle, plotted.contains(event.subject) {
        marks.append(
          (frame.time, "\(event.type) \(event.subjectName(in: frame))", event.subject))
      }
    }
  }

  mutating func end(into sink: inout TextBytes) {
    guard failure == nil else { return }
    var shown = Array(series.indices)
    if context.plots.isEmpty {
      // By default, the values that move, eight at most: those that move the furthest,
      // kept in the scene's order.
      let ranges = shown.map { s in
        let column = values.map { $0[s] }
        return (column.max() ?? 0) - (column.min() ?? 0)
      }
      shown = shown.filter { ranges[$0] > 1e-9 }
      if shown.count > 8 {
        notes.append(
          "graph: \(shown.count) values move; the 8 that move furthest are plotted (choose with --plot HANDLE.y)"
        )
        shown = Array(shown.sorted { ranges[$0] > ranges[$1] }.prefix(8)).sorted()
      }
      let plotted = Set(shown.map { series[$0].handle })
      marks = marks.filter { mark in mark.handle.map(plotted.contains) ?? true }
    }
    sink.append(svg(shown))
  }

  func n(_ value: Double) -> String { NumberText.format(value, precision: 2) }

  /// Round steps for an axis over `low…high`: 1, 2 or 5 times a power of ten, about six.
  static func ticks(_ low: Double, _ high: Double) -> [Double] {
    let span = max(high - low, 1e-9)
    let raw = span / 6
    let power = Double.pow(10, Int(Double.log10(raw).rounded(.down)))
    let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? raw
    var ticks: [Double] = []
    var t = (low / step).rounded(.up) * step
    while t <= high + step * 1e-9 {
      ticks.append(abs(t) < step * 1e-9 ? 0 : t)
      t += step
    }
    return ticks
  }

  func svg(_ shown: [Int]) -> String {
    let (w, h, m) = (Self.width, Self.height, Self.margin)
    let t0 = times.first ?? 0
    let t1 = max(times.last ?? 1, t0 + 1e-9)
    var v0 = Double.infinity
    var v1 = -Double.infinity
    for s in shown {
      for row in values {
        v0 = min(v0, row[s])
        v1 = max(v1, row[s])
      }
    }
    if !v0.isFinite || !v1.isFinite {
      v0 = 0
      v1 = 1
    }
    if v1 - v0 < 1e-9 {
      v0 -= 1
      v1 += 1
    }
    let pad = (v1 - v0) * 0.05
    v0 -= pad
    v1 += pad
    let plotWidth = w - m.left - m.right
    let plotHeight = h - m.top - m.bottom
    func x(_ t: Double) -> Double { m.left + (t - t0) / (t1 - t0) * plotWidth }
    func y(_ v: Double) -> Double { m.top + (v1 - v) / (v1 - v0) * plotHeight }
    var out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(w))\" height=\"\(n(h))\" viewBox=\"0 0 \(n(w)) \(n(h))\" font-family=\"system-ui, -apple-system, Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
    out += "  <rect width=\"\(n(w))\" height=\"\(n(h))\" fill=\"#ffffff\"/>\n"
    out +=
      "  <text x=\"\(n(m.left))\" y=\"18\" font-size=\"14\" font-weight=\"600\">\(escaped(context.graph.name))</text>\n"
    // Axes, ticks and grid.
    out += "  <g stroke=\"#e5e5ea\">\n"
    for t in Self.ticks(t0, t1) {
      out +=
        "    <line x1=\"\(n(x(t)))\" y1=\"\(n(m.top))\" x2=\"\(n(x(t)))\" y2=\"\(n(m.top + plotHeight))\"/>\n"
    }
    for v in Self.ticks(v0, v1) {
      out +=
        "    <line x1=\"\(n(m.left))\" y1=\"\(n(y(v)))\" x2=\"\(n(m.left + plotWidth))\" y2=\"\(n(y(v)))\"/>\n"
    }
    out += "  </g>\n  <g fill=\"#3a3a3c\">\n"
    for t in Self.ticks(t0, t1) {
      out +=
        "    <text x=\"\(n(x(t)))\" y=\"\(n(m.top + plotHeight + 16))\" text-anchor=\"middle\">\(n(t))</text>\n"
    }
    for v in Self.ticks(v0, v1) {
      out +=
        "    <text x=\"\(n(m.left - 6))\" y=\"\(n(y(v) + 4))\" text-anchor=\"end\">\(n(v))</text>\n"
    }
    out +=
      "    <text x=\"\(n(m.left + plotWidth / 2))\" y=\"\(n(h - 10))\" text-anchor=\"middle\">time (s)</text>\n"
    out +=
      "    <text transform=\"translate(16 \(n(m.top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(unitLabel(shown))</text>\n"
    out += "  </g>\n"
    out +=
      "  <rect x=\"\(n(m.left))\" y=\"\(n(m.top))\" width=\"\(n(plotWidth))\" height=\"\(n(plotHeight))\" fill=\"none\" stroke=\"#8e8e93\" data-t0=\"\(t0)\" data-t1=\"\(t1)\" data-v0=\"\(v0)\" data-v1=\"\(v1)\"/>\n"
    // Events, then the lines over them.
    for (k, mark) in mergedMarks().enumerated() {
      let at = x(mark.time)
      out +=
        "  <line x1=\"\(n(at))\" y1=\"\(n(m.top))\" x2=\"\(n(at))\" y2=\"\(n(m.top + plotHeight))\" stroke=\"#8e8e93\" stroke-dasharray=\"4 3\"/>\n"
      // Labels in the right half read leftwards, so none runs into the legend.
      let leftwards = at > m.left + plotWidth * 0.6
      out +=
        "  <text x=\"\(n(leftwards ? at - 3 : at + 3))\" y=\"\(n(m.top + 12 + Double(k % 4) * 13))\"\(leftwards ? " text-anchor=\"end\"" : "") fill=\"#636366\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\" font-size=\"10\">\(escaped(mark.label))</text>\n"
    }
    let names = context.graph.handles.map { $0.name }
    for (k, s) in shown.enumerated() {
      let color = Self.colors[k % Self.colors.count]
      let label = "\(names[series[s].handle]).\(series[s].value)"
      let points = times.indices.map { "\(n(x(times[$0]))),\(n(y(values[$0][s])))" }
      out +=
        "  <polyline data-series=\"\(escaped(label))\" points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
      let ly = m.top + 10 + Double(k) * 18
      out +=
        "  <line x1=\"\(n(w - m.right + 16))\" y1=\"\(n(ly))\" x2=\"\(n(w - m.right + 36))\" y2=\"\(n(ly))\" stroke=\"\(color)\" stroke-width=\"3\"/>\n"
      out += "  <text x=\"\(n(w - m.right + 42))\" y=\"\(n(ly + 4))\">\(escaped(label))</text>\n"
    }
    out += "</svg>\n"
    return out
  }

  /// The y axis's title: the units of what is plotted.
  func unitLabel(_ shown: [Int]) -> String {
    var units: [String] = []
    for s in shown {
      let unit =
        switch series[s].value {
        case "x", "y": "points"
        case "angle", "rotation": "radians"
        case "speed": "points/s"
        default: "factor"
        }
      if !units.contains(unit) { units.append(unit) }
    }
    return units.isEmpty ? "value" : units.joined(separator: ", ")
  }

  /// The marks with those of one time and kind made one: `rest c, l1, r1`, three names at
  /// most and a count of the others.
  func mergedMarks() -> [(time: Double, label: String)] {
    var merged: [(time: Double, kind: String, names: [String])] = []
    for mark in marks {
      let parts = mark.label.split(separator: " ", maxSplits: 1).map(String.init)
      let (kind, name) = mark.handle == nil ? (mark.label, "") : (parts[0], parts.last ?? "")
      if let last = merged.last, last.time == mark.time, last.kind == kind, mark.handle != nil {
        merged[merged.count - 1].names.append(name)
      } else {
        merged.append((mark.time, kind, name.isEmpty ? [] : [name]))
      }
    }
    return merged.map { mark in
      var names = mark.names.prefix(3).joined(separator: ", ")
      if mark.names.count > 3 { names += " +\(mark.names.count - 3)" }
      return (mark.time, names.isEmpty ? mark.kind : "\(mark.kind) \(names)")
    }
  }

  func escaped(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(c)
      }
    }
    return out
  }
}
