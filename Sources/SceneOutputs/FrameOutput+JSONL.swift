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
    /// The previous frame's text, so that what did not change is copied.
    var memory = FrameTextMemory()

    init(context: OutputContext) { self.context = context }

    mutating func frame(_ frame: Frame, into sink: inout TextBytes) {
      JSONLines.write(
        frame, precision: context.precision, sceneText: context.sceneText, memory: &memory,
        to: &sink)
      sink.append(UInt8(ascii: "\n"))
    }
  }

  static func line(for frame: Frame, precision p: Int) -> String {
    var text = TextBytes(capacity: estimatedSize(of: frame))
    var memory = FrameTextMemory()
    write(frame, precision: p, sceneText: nil, memory: &memory, to: &text)
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
  /// frame's handles, saves sorting and escaping their names, and then what `memory` holds
  /// of the previous frame is copied where it did not change (and this frame remembered).
  static func write(
    _ frame: Frame, precision p: Int, sceneText: SceneText?, memory: inout FrameTextMemory,
    to text: inout TextBytes
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
      // Read in place: copying a handle out of the array retains its name.
      handles.withUnsafeBufferPointer { handles in
        writeHandles(handles, precision: p, sceneText: sceneText, memory: &memory, to: &text)
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
    if let sceneText, sceneText.fits(paths) {
      if memory.paths.count != paths.count {
        memory.paths = Array(repeating: FrameTextMemory.PathText(), count: paths.count)
      }
      // Read in place: copying a path or its memory out of its array retains its arrays.
      paths.withUnsafeBufferPointer { paths in
        let copied = memory.paths.withUnsafeMutableBufferPointer { remembered in
          writePaths(
            paths, order: sceneText.sortedPaths, keys: (sceneText.pathKeys, sceneText.pathKeyEnds),
            precision: p, memory: remembered, to: &text)
        }
        memory.copied += copied
        memory.formatted += paths.count - copied
      }
    } else {
      // The same sort as the scene's, for paths it does not describe.
      let order = paths.indices.sorted { paths[$0].name < paths[$1].name }
      paths.withUnsafeBufferPointer { paths in
        _ = writePaths(paths, order: order, keys: nil, precision: p, memory: nil, to: &text)
      }
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

  /// The body of the `handles` object for a frame of the scene `sceneText` describes: each
  /// handle whose values did not change since the previous frame is copied from what
  /// `memory` kept of it (runs of them at once), the rest formatted; then the body is
  /// remembered for the next frame.
  static func writeHandles(
    _ handles: UnsafeBufferPointer<HandleFrame>, precision p: Int, sceneText: SceneText,
    memory: inout FrameTextMemory, to text: inout TextBytes
  ) {
    let order = sceneText.sortedHandles
    let n = order.count
    let remembered = memory.entryStarts.count == n && memory.handleValues.count == n
    if !remembered {
      memory.handleValues = Array(repeating: FrameTextMemory.HandleValues(), count: n)
    }
    let sectionStart = text.count
    memory.nextEntryStarts.removeAll(keepingCapacity: true)
    // A run of unchanged entries still to copy: `runLength` bytes of the remembered text
    // from `runStart`. Entries in name order lie one after another there, so consecutive
    // unchanged handles make one copy.
    var runStart = 0
    var runLength = 0
    var keyStart = 0
    var copied = 0
    for k in 0..<n {
      let i = order[k]
      let keyEnd = sceneText.handleKeyEnds[k]
      defer { keyStart = keyEnd }
      let values = FrameTextMemory.HandleValues(handles[i])
      memory.nextEntryStarts.append(text.count - sectionStart + runLength)
      if remembered && memory.handleValues[i] == values {
        let from = memory.entryStarts[k]
        let to = k + 1 < n ? memory.entryStarts[k + 1] : memory.handleText.count
        if runLength > 0 && runStart + runLength == from {
          runLength += to - from
        } else {
          if runLength > 0 { text.append(memory.handleText, runStart..<runStart + runLength) }
          runStart = from
          runLength = to - from
        }
        copied += 1
        continue
      }
      if runLength > 0 {
        text.append(memory.handleText, runStart..<runStart + runLength)
        runLength = 0
      }
      text.append(sceneText.handleKeys, keyStart..<keyEnd)
      writeFields(
        handles[i].angle, handles[i].radius, handles[i].state, handles[i].x, handles[i].y,
        precision: p, to: &text)
      memory.handleValues[i] = values
    }
    if runLength > 0 { text.append(memory.handleText, runStart..<runStart + runLength) }
    memory.handleText.removeAll(keepingCapacity: true)
    memory.handleText.append(contentsOf: UnsafeBufferPointer(rebasing: text.bytes[sectionStart...]))
    swap(&memory.entryStarts, &memory.nextEntryStarts)
    memory.copied += copied
    memory.formatted += n - copied
  }

  /// The body of the `paths` object, each path in `order`; returns how many were copied.
  ///
  /// With `memory`, a path that did not change since the previous frame is copied from it,
  /// and one that did is formatted and remembered.
  static func writePaths(
    _ paths: UnsafeBufferPointer<PathFrame>, order: [Int], keys: ([UInt8], [Int])?,
    precision p: Int, memory: UnsafeMutableBufferPointer<FrameTextMemory.PathText>?,
    to text: inout TextBytes
  ) -> Int {
    var copied = 0
    var keyStart = 0
    for k in order.indices {
      let i = order[k]
      if let (keyText, keyEnds) = keys {
        text.append(keyText, keyStart..<keyEnds[k])
        keyStart = keyEnds[k]
      } else {
        if k > 0 { text.append(UInt8(ascii: ",")) }
        text.appendQuoted(paths[i].name)
        text.append(":\"")
      }
      // Path data is digits, signs, points, spaces and command letters: nothing to escape.
      if paths[i].isHidden {
        // Nothing to write, and nothing to forget.
      } else if let memory {
        if !memory[i].words.isEmpty,
          FrameTextMemory.path(paths[i].path, matches: memory[i].words)
        {
          text.append(memory[i].text, 0..<memory[i].text.count)
          copied += 1
        } else {
          let start = text.count
          text.append(paths[i].path, precision: p)
          FrameTextMemory.remember(paths[i].path, in: &memory[i].words)
          memory[i].text.removeAll(keepingCapacity: true)
          memory[i].text.append(contentsOf: UnsafeBufferPointer(rebasing: text.bytes[start...]))
        }
      } else {
        text.append(paths[i].path, precision: p)
      }
      text.append(UInt8(ascii: "\""))
    }
    return copied
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
