import SceneGeometry
import SceneRuntime

extension FrameOutput {
  /// JSON lines, the frame contract: one object per frame with sorted keys and numbers at
  /// the context's precision, streamed as frames come.
  ///
  /// ```
  /// {"events":[{"handle":"ball","type":"grab"}],"frame":0,"handles":{"ball":{"angle":0,"r":20,"state":"dragging","x":120.5,"y":80}},"paths":{"curve":"M30 100Q200 0 300 100"},"pointers":[{"down":true,"id":0,"x":120.5,"y":80}],"time":0}
  /// ```
  public static let jsonl = FrameOutput(
    name: "jsonl", fileExtensions: ["jsonl", "ndjson"],
    summary: "one JSON object per frame, sorted keys (the default, to stdout)",
    frame: { context, frame in JSONLines.line(for: frame, precision: context.precision) + "\n" })
}

/// The frame contract's text.
enum JSONLines {
  static func line(for frame: Frame, precision p: Int) -> String {
    func n(_ value: Double) -> String { NumberText.format(value, precision: p) }
    var text = "{\"events\":["
    text += frame.events.map { event in
      // Link events concern a constraint; the rest concern a handle.
      let key = event.type.hasPrefix("link.") || event.type == "dismissed" ? "constraint" : "handle"
      return "{\"\(key)\":\(quoted(event.subject)),\"type\":\(quoted(event.type))}"
    }.joined(separator: ",")
    text += "],\"frame\":\(frame.index),\"handles\":{"
    text += frame.handles.sorted { $0.name < $1.name }.map { h in
      "\(quoted(h.name)):{\"angle\":\(n(h.angle)),\"r\":\(n(h.radius)),\"state\":\"\(h.state.rawValue)\",\"x\":\(n(h.x)),\"y\":\(n(h.y))}"
    }.joined(separator: ",")
    text += "},\"paths\":{"
    text += frame.paths.sorted { $0.name < $1.name }.map { path in
      "\(quoted(path.name)):\(quoted(path.isHidden ? "" : PathText.data(path.path, precision: p)))"
    }.joined(separator: ",")
    text += "},\"pointers\":["
    text += frame.pointers.map { pointer in
      "{\"down\":\(pointer.isDown),\"id\":\(pointer.id),\"x\":\(n(pointer.x)),\"y\":\(n(pointer.y))}"
    }.joined(separator: ",")
    text += "],\"time\":\(n(frame.time))}"
    return text
  }

  static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}

/// SVG path data at a fixed precision: absolute `M L Q C Z`.
enum PathText {
  static func data(_ path: Path, precision p: Int) -> String {
    func n(_ value: Double) -> String { NumberText.format(value, precision: p) }
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
}
