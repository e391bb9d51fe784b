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
    writer: { JSONLines.Writer(context: $0) })
}

/// The frame contract's text.
enum JSONLines {
  /// Streams: each frame's line is written as it comes, and nothing is kept.
  struct Writer: FrameWriter {
    let context: OutputContext

    mutating func frame(_ frame: Frame, into sink: inout TextBytes) {
      JSONLines.write(frame, precision: context.precision, sceneText: context.sceneText, to: &sink)
      sink.append(UInt8(ascii: "\n"))
    }
  }

  static func line(for frame: Frame, precision p: Int) -> String {
    var text = TextBytes(capacity: estimatedSize(of: frame))
    write(frame, precision: p, sceneText: nil, to: &text)
    return text.string
  }

  /// Room for a typical line, so the buffer rarely grows.
  static func estimatedSize(of frame: Frame) -> Int {
    var size = 128 + frame.handles.count * 80 + frame.events.count * 48 + frame.pointers.count * 48
    for path in frame.paths {
      size += 16 + path.name.utf8.count
      for subpath in path.path.subpaths { size += 16 + subpath.segments.count * 48 }
    }
    return size
  }

  /// One frame's object, without the line break; `sceneText`, when it describes the
  /// frame's handles, saves sorting and escaping their names.
  static func write(
    _ frame: Frame, precision p: Int, sceneText: SceneText?, to text: inout TextBytes
  ) {
    text.append("{\"events\":[")
    for i in frame.events.indices {
      let event = frame.events[i]
      // Link events concern a constraint; the rest concern a handle.
      let isConstraint = event.type.hasPrefix("link.") || event.type == "dismissed"
      text.append(i == 0 ? "{\"" : ",{\"")
      text.append(isConstraint ? "constraint\":" : "handle\":")
      text.appendQuoted(event.subject)
      if let target = event.target {
        text.append(",\"target\":")
        text.appendQuoted(target)
      }
      text.append(",\"type\":")
      text.appendQuoted(event.type)
      text.append(UInt8(ascii: "}"))
    }
    text.append("],\"frame\":")
    text.append(frame.index)
    text.append(",\"handles\":{")
    let handles = frame.handles
    if let sceneText, sceneText.fits(handles) {
      var start = 0
      for k in sceneText.sortedHandles.indices {
        let i = sceneText.sortedHandles[k]
        let end = sceneText.handleKeyEnds[k]
        text.append(sceneText.handleKeys, start..<end)
        start = end
        writeFields(
          handles[i].angle, handles[i].radius, handles[i].state, handles[i].x, handles[i].y,
          precision: p, to: &text)
      }
    } else {
      // The same sort as the scene's, for handles it does not describe.
      let order = handles.indices.sorted { handles[$0].name < handles[$1].name }
      for k in order.indices {
        let i = order[k]
        if k > 0 { text.append(UInt8(ascii: ",")) }
        text.appendQuoted(handles[i].name)
        text.append(":{\"angle\":")
        writeFields(
          handles[i].angle, handles[i].radius, handles[i].state, handles[i].x, handles[i].y,
          precision: p, to: &text)
      }
    }
    text.append("},\"paths\":{")
    let paths = frame.paths
    let pathOrder =
      sceneText.flatMap { $0.fits(paths) ? $0.sortedPaths : nil }
      ?? paths.indices.sorted { paths[$0].name < paths[$1].name }
    for k in pathOrder.indices {
      let i = pathOrder[k]
      if k > 0 { text.append(UInt8(ascii: ",")) }
      text.appendQuoted(paths[i].name)
      // Path data is digits, signs, points, spaces and command letters: nothing to escape.
      text.append(":\"")
      if !paths[i].isHidden { text.append(paths[i].path, precision: p) }
      text.append(UInt8(ascii: "\""))
    }
    text.append("},\"pointers\":[")
    for i in frame.pointers.indices {
      let pointer = frame.pointers[i]
      text.append(i == 0 ? "{\"down\":" : ",{\"down\":")
      text.append(pointer.isDown)
      text.append(",\"id\":")
      text.append(pointer.id)
      text.append(",\"x\":")
      text.append(pointer.x, precision: p)
      text.append(",\"y\":")
      text.append(pointer.y, precision: p)
      text.append(UInt8(ascii: "}"))
    }
    text.append("],\"time\":")
    text.append(frame.time, precision: p)
    text.append(UInt8(ascii: "}"))
  }

  /// A handle's values after its `{"angle":` key: `0,"r":20,"state":"idle","x":1,"y":2}`.
  @inline(__always)
  static func writeFields(
    _ angle: Double, _ radius: Double, _ state: HandleState, _ x: Double, _ y: Double,
    precision p: Int,
    to text: inout TextBytes
  ) {
    text.append(angle, precision: p)
    text.append(",\"r\":")
    text.append(radius, precision: p)
    text.append(",\"state\":\"")
    text.append(stateText(state))
    text.append("\",\"x\":")
    text.append(x, precision: p)
    text.append(",\"y\":")
    text.append(y, precision: p)
    text.append(UInt8(ascii: "}"))
  }

  /// A state's raw value, without making a string.
  @inline(__always)
  static func stateText(_ state: HandleState) -> StaticString {
    switch state {
    case .idle: "idle"
    case .dragging: "dragging"
    case .animating: "animating"
    case .settling: "settling"
    case .hidden: "hidden"
    }
  }

  static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}

/// SVG path data at a fixed precision: absolute `M L Q C Z`.
enum PathText {
  static func data(_ path: Path, precision p: Int) -> String {
    var text = TextBytes(capacity: 64)
    text.append(path, precision: p)
    return text.string
  }
}
