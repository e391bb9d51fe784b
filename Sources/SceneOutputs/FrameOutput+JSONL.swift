import SceneGeometry
import SceneGraph
import SceneRuntime
import SceneVocabulary

#if !hasFeature(Embedded)
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
#endif

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
    text.append(UInt8(ascii: "{"))
    if !frame.children.isEmpty {
      writeChildren(
        frame.children, of: frame.handles, precision: p, memory: &memory, to: &text)
      text.append(UInt8(ascii: ","))
    }
    text.append("\"events\":[")
    for i in frame.events.indices {
      let event = frame.events[i]
      // Link events concern a constraint; the rest concern a handle.
      if event.kind == .state {
        // `{"from":…,"machine":…,"to":…,"type":"state"}`, keys sorted.
        text.append(i == 0 ? "{\"from\":" : ",{\"from\":")
        text.appendQuoted(event.from ?? "")
        text.append(",\"machine\":")
        text.appendQuoted(event.subjectName(in: frame))
        text.append(",\"to\":")
        text.appendQuoted(event.target ?? "")
        text.append(",\"type\":\"state\"}")
        continue
      }
      text.append(i == 0 ? "{\"" : ",{\"")
      text.append(event.kind.isAboutHandle ? "handle\":" : "constraint\":")
      text.appendQuoted(event.subjectName(in: frame))
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
        writeStart(of: handles[i], precision: p, to: &text)
        text.append(handles[i].x, precision: p)
        text.append(",\"y\":")
        text.append(handles[i].y, precision: p)
        text.append(UInt8(ascii: "}"))
      }
    }
    text.append(UInt8(ascii: "}"))
    if !frame.pathStyles.isEmpty {
      writePathStyles(frame.pathStyles, of: frame.paths, precision: p, to: &text)
    }
    text.append(",\"paths\":{")
    let paths = frame.paths
    if let sceneText, sceneText.fits(paths) {
      if memory.paths.count != paths.count {
        memory.paths = Array(repeating: FrameTextMemory.PathText(), count: paths.count)
      }
      // Read in place: copying a path or its memory out of its array retains its arrays.
      paths.withUnsafeBufferPointer { paths in
        let (copied, formatted) = memory.paths.withUnsafeMutableBufferPointer { remembered in
          writePaths(
            paths, order: sceneText.sortedPaths, keys: (sceneText.pathKeys, sceneText.pathKeyEnds),
            precision: p, memory: remembered, to: &text)
        }
        memory.copied += copied
        memory.formatted += formatted
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
    text.append(UInt8(ascii: "]"))
    if !frame.machines.isEmpty {
      // By machine name, sorted, as every object's keys are.
      text.append(",\"states\":{")
      let order = frame.machines.indices.sorted {
        frame.machines[$0].name < frame.machines[$1].name
      }
      for (k, m) in order.enumerated() {
        if k > 0 { text.append(UInt8(ascii: ",")) }
        text.appendQuoted(frame.machines[m].name)
        text.append(UInt8(ascii: ":"))
        text.appendQuoted(frame.machines[m].state)
      }
      text.append(UInt8(ascii: "}"))
    }
    text.append(",\"time\":")
    text.append(frame.time, precision: p)
    text.append(UInt8(ascii: "}"))
  }

  /// The body of the `handles` object for a frame of the scene `sceneText` describes,
  /// then remembered for the next frame.
  ///
  /// What did not change since the previous frame is copied from what `memory` kept: a
  /// whole entry when none of its values changed (consecutive ones at once), its start up
  /// to `"x":` when only its position did, and its `x` as well when only `y` did (a
  /// handle moving along one axis). The rest is formatted.
  static func writeHandles(
    _ handles: UnsafeBufferPointer<HandleFrame>, precision p: Int, sceneText: SceneText,
    memory: inout FrameTextMemory, to text: inout TextBytes
  ) {
    let order = sceneText.sortedHandles
    let n = order.count
    let remembered = memory.entries.count == n && memory.handleValues.count == n
    if !remembered {
      memory.handleValues = Array(repeating: FrameTextMemory.HandleValues(), count: n)
      memory.animatedValues = Array(repeating: FrameTextMemory.AnimatedValues(), count: n)
    }
    let sectionStart = text.count
    memory.nextEntries.removeAll(keepingCapacity: true)
    // Taken out while it is read, so that it is read in place and, refilled below, never
    // copied.
    var oldText: [UInt8] = []
    swap(&oldText, &memory.handleText)
    var copied = 0
    oldText.withUnsafeBufferPointer { old in
      var pending = PendingCopy()
      var keyStart = 0
      for k in 0..<n {
        let i = order[k]
        let keyEnd = sceneText.handleKeyEnds[k]
        defer { keyStart = keyEnd }
        let values = FrameTextMemory.HandleValues(handles[i])
        let extras =
          values.animated == 0 ? nil : FrameTextMemory.AnimatedValues(handles[i])
        let start = text.count - sectionStart + pending.length
        if !remembered {
          // Nothing to copy.
        } else if memory.handleValues[i] == values
          && (extras == nil || memory.animatedValues[i] == extras)
        {
          let entry = memory.entries[k]
          let end = k + 1 < n ? memory.entries[k + 1].start : old.count
          pending.add(entry.start..<end, from: old, to: &text)
          memory.nextEntries.append(
            .init(
              start: start, x: start + entry.x - entry.start, y: start + entry.y - entry.start))
          copied += 1
          continue
        }
        let x: Int
        var xIsCopied = false
        if remembered && memory.handleValues[i].keepsItsStart(values) {
          // The key, angle, radius and state as they were, up to `"x":`; and `x`, if only
          // `y` changed.
          let entry = memory.entries[k]
          pending.add(entry.start..<entry.x, from: old, to: &text)
          x = text.count - sectionStart + pending.length
          if memory.handleValues[i].x == values.x {
            pending.add(entry.x..<entry.y, from: old, to: &text)
            xIsCopied = true
          }
          pending.flush(from: old, to: &text)
        } else {
          pending.flush(from: old, to: &text)
          text.append(sceneText.handleKeys, keyStart..<keyEnd)
          writeStart(of: handles[i], precision: p, to: &text)
          x = text.count - sectionStart
        }
        if !xIsCopied {
          text.append(handles[i].x, precision: p)
          text.append(",\"y\":")
        }
        let y = text.count - sectionStart
        text.append(handles[i].y, precision: p)
        text.append(UInt8(ascii: "}"))
        memory.nextEntries.append(.init(start: start, x: x, y: y))
        memory.handleValues[i] = values
        if let extras { memory.animatedValues[i] = extras }
      }
      pending.flush(from: old, to: &text)
    }
    oldText.removeAll(keepingCapacity: true)
    oldText.append(contentsOf: UnsafeBufferPointer(rebasing: text.bytes[sectionStart...]))
    swap(&oldText, &memory.handleText)
    swap(&memory.entries, &memory.nextEntries)
    memory.copied += copied
    memory.formatted += n - copied
  }

  /// Bytes of the previous frame's text still to copy: pieces that lie one after another
  /// there (consecutive unchanged entries) make one copy.
  struct PendingCopy {
    var start = 0
    var length = 0

    mutating func add(
      _ range: Range<Int>, from old: UnsafeBufferPointer<UInt8>, to text: inout TextBytes
    ) {
      if length > 0 && start + length == range.lowerBound {
        length += range.count
      } else {
        flush(from: old, to: &text)
        start = range.lowerBound
        length = range.count
      }
    }

    mutating func flush(from old: UnsafeBufferPointer<UInt8>, to text: inout TextBytes) {
      guard length > 0 else { return }
      text.append(UnsafeBufferPointer(rebasing: old[start..<start + length]))
      length = 0
    }
  }

  /// The body of the `paths` object, each path in `order`; returns how many were copied and
  /// how many formatted (a hidden path is neither).
  ///
  /// With `memory`, a path that did not change since the previous frame is copied from it,
  /// and one that did is formatted and remembered.
  static func writePaths(
    _ paths: UnsafeBufferPointer<PathFrame>, order: [Int], keys: ([UInt8], [Int])?,
    precision p: Int, memory: UnsafeMutableBufferPointer<FrameTextMemory.PathText>?,
    to text: inout TextBytes
  ) -> (copied: Int, formatted: Int) {
    var copied = 0
    var formatted = 0
    var keyStart = 0
    let keyText = keys?.0 ?? []
    let keyEnds = keys?.1 ?? []
    for k in order.indices {
      let i = order[k]
      if keys != nil {
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
        if memory[i].isKnown, FrameTextMemory.path(paths[i].path, matches: memory[i].words) {
          memory[i].text.withUnsafeBufferPointer { text.append($0) }
          copied += 1
        } else {
          let start = text.count
          text.append(paths[i].path, precision: p)
          FrameTextMemory.remember(paths[i].path, in: &memory[i].words)
          memory[i].isKnown = true
          formatted += 1
          memory[i].text.removeAll(keepingCapacity: true)
          memory[i].text.append(contentsOf: UnsafeBufferPointer(rebasing: text.bytes[start...]))
        }
      } else {
        text.append(paths[i].path, precision: p)
      }
      text.append(UInt8(ascii: "\""))
    }
    return (copied, formatted)
  }

  /// A handle's values after its `{"angle":` key, up to and with `"x":`: `0,"r":20,
  /// "state":"idle","x":`, with `cornerRadius`, `fill`, `height`, `opacity`, `rotation`,
  /// `scale`, `scaleX`, `scaleY`, `stroke`, `strokeWidth` and `width` in their places (keys in order) for those
  /// the scene animates.
  @inline(__always)
  static func writeStart(of handle: HandleFrame, precision p: Int, to text: inout TextBytes) {
    text.append(handle.angle, precision: p)
    let animated = handle.animated != 0
    if animated && handle.animates(.cornerRadius) {
      text.append(",\"cornerRadius\":")
      text.append(handle.cornerRadius, precision: p)
    }
    if animated && handle.animates(.fill) {
      text.append(",\"fill\":\"")
      appendHex(handle.fill, to: &text)
      text.append(UInt8(ascii: "\""))
    }
    if animated && handle.animates(.height) {
      text.append(",\"height\":")
      text.append(handle.height, precision: p)
    }
    if animated && handle.animates(.opacity) {
      text.append(",\"opacity\":")
      text.append(handle.opacity, precision: p)
    }
    text.append(",\"r\":")
    text.append(handle.radius, precision: p)
    if handle.animated != 0 {
      if handle.animates(.rotation) {
        text.append(",\"rotation\":")
        text.append(handle.rotation, precision: p)
      }
      if handle.animates(.scale) {
        text.append(",\"scale\":")
        text.append(handle.scale, precision: p)
      }
      if handle.animates(.scaleX) {
        text.append(",\"scaleX\":")
        text.append(handle.scaleX, precision: p)
      }
      if handle.animates(.scaleY) {
        text.append(",\"scaleY\":")
        text.append(handle.scaleY, precision: p)
      }
    }
    text.append(",\"state\":\"")
    text.append(stateText(handle.state))
    if animated && handle.animates(.stroke) {
      text.append("\",\"stroke\":\"")
      appendHex(handle.stroke, to: &text)
    }
    guard animated && (handle.animates(.strokeWidth) || handle.animates(.width)) else {
      text.append("\",\"x\":")
      return
    }
    text.append(UInt8(ascii: "\""))
    if handle.animates(.strokeWidth) {
      text.append(",\"strokeWidth\":")
      text.append(handle.strokeWidth, precision: p)
    }
    if handle.animates(.width) {
      text.append(",\"width\":")
      text.append(handle.width, precision: p)
    }
    text.append(",\"x\":")
  }

  /// `"children":{HANDLE:{CHILD:{…}}}`: the values of the children that change, by their
  /// handles' names and their own, sorted, each with only what changes (`x` and `y` for
  /// its place, `text` for its text).
  ///
  /// The sorted order is kept in `memory`: a simulation's frames list the same children,
  /// so it is worked out once, not sorted by name every frame.
  static func writeChildren(
    _ children: [ChildFrame], of handles: [HandleFrame], precision p: Int,
    memory: inout FrameTextMemory, to text: inout TextBytes
  ) {
    text.append("\"children\":{")
    let known =
      memory.childPairs.count == children.count
      && zip(memory.childPairs, children).allSatisfy {
        $0.handle == $1.handle && $0.child == $1.child
      }
    if !known {
      memory.childPairs = children.map { ChildKey(handle: $0.handle, child: $0.child) }
      memory.childOrder = children.indices.sorted {
        let a = handles[children[$0].handle].name
        let b = handles[children[$1].handle].name
        return a != b ? a < b : children[$0].look.name < children[$1].look.name
      }
    }
    var previous = -1
    for k in memory.childOrder {
      let child = children[k]
      if child.handle != previous {
        if previous >= 0 { text.append("},") }
        text.appendQuoted(handles[child.handle].name)
        text.append(":{")
        previous = child.handle
      } else {
        text.append(UInt8(ascii: ","))
      }
      text.appendQuoted(child.look.name)
      text.append(UInt8(ascii: ":"))
      let look = child.look
      var fields = ObjectFields(look, precision: p)
      fields.number(.cornerRadius, "cornerRadius", look.cornerRadius, to: &text)
      fields.color(.fill, "fill", look.fill, to: &text)
      fields.number(.height, "height", look.height, to: &text)
      fields.number(.opacity, "opacity", look.opacity, to: &text)
      fields.number(.radius, "r", look.radius, to: &text)
      fields.number(.rotation, "rotation", look.rotation, to: &text)
      fields.number(.scale, "scale", look.scale, to: &text)
      fields.number(.scaleX, "scaleX", look.scaleX, to: &text)
      fields.number(.scaleY, "scaleY", look.scaleY, to: &text)
      fields.color(.stroke, "stroke", look.stroke, to: &text)
      fields.number(.strokeWidth, "strokeWidth", look.strokeWidth, to: &text)
      if look.animates(.textValue) {
        fields.key("text", to: &text)
        text.appendQuoted(child.text)
      }
      fields.number(.width, "width", look.width, to: &text)
      fields.number(.offsetX, "x", look.x, to: &text)
      fields.number(.offsetY, "y", look.y, to: &text)
      fields.close(to: &text)
    }
    if previous >= 0 { text.append(UInt8(ascii: "}")) }
    text.append(UInt8(ascii: "}"))
  }

  /// `,"pathStyles":{PATH:{…}}`: the styles of the paths whose style changes, by name
  /// (sorted), each with only what changes (`fill`, `opacity`, `stroke`, `strokeWidth`).
  static func writePathStyles(
    _ styles: [PathStyleFrame], of paths: [PathFrame], precision p: Int,
    to text: inout TextBytes
  ) {
    text.append(",\"pathStyles\":{")
    let order = styles.indices.sorted { paths[styles[$0].path].name < paths[styles[$1].path].name }
    for (k, index) in order.enumerated() {
      let look = styles[index].look
      if k > 0 { text.append(UInt8(ascii: ",")) }
      text.appendQuoted(paths[styles[index].path].name)
      text.append(UInt8(ascii: ":"))
      var fields = ObjectFields(look, precision: p)
      fields.color(.fill, "fill", look.fill, to: &text)
      fields.number(.opacity, "opacity", look.opacity, to: &text)
      fields.color(.stroke, "stroke", look.stroke, to: &text)
      fields.number(.strokeWidth, "strokeWidth", look.strokeWidth, to: &text)
      fields.close(to: &text)
    }
    text.append(UInt8(ascii: "}"))
  }

  /// The fields of a child's or a path style's object, each written only where `look`
  /// animates its property, commas between them.
  struct ObjectFields {
    let look: HandleFrame
    let precision: Int
    var opened = false

    init(_ look: HandleFrame, precision: Int) {
      self.look = look
      self.precision = precision
    }

    mutating func key(_ name: StaticString, to text: inout TextBytes) {
      text.append(opened ? ",\"" : "{\"")
      opened = true
      text.append(name)
      text.append("\":")
    }

    mutating func number(
      _ property: SceneGraph.AnimatedProperty, _ name: StaticString, _ value: Double,
      to text: inout TextBytes
    ) {
      guard look.animates(property) else { return }
      key(name, to: &text)
      text.append(value, precision: precision)
    }

    mutating func color(
      _ property: SceneGraph.AnimatedProperty, _ name: StaticString, _ value: Color,
      to text: inout TextBytes
    ) {
      guard look.animates(property) else { return }
      key(name, to: &text)
      text.append(UInt8(ascii: "\""))
      JSONLines.appendHex(value, to: &text)
      text.append(UInt8(ascii: "\""))
    }

    /// `}`, after `{` when no field was written.
    func close(to text: inout TextBytes) {
      text.append(opened ? "}" : "{}")
    }
  }

  /// `rrggbbaa`, lowercase: the animated colours of a frame, alpha always written.
  static func appendHex(_ color: Color, to text: inout TextBytes) {
    text.append(UInt8(ascii: "#"))
    appendHexByte(color.red, to: &text)
    appendHexByte(color.green, to: &text)
    appendHexByte(color.blue, to: &text)
    appendHexByte(color.alpha, to: &text)
  }

  @inline(__always)
  static func appendHexByte(_ byte: UInt8, to text: inout TextBytes) {
    let high = byte >> 4
    let low = byte & 0xF
    text.append(high < 10 ? 0x30 &+ high : 0x61 &+ (high &- 10))
    text.append(low < 10 ? 0x30 &+ low : 0x61 &+ (low &- 10))
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

/// The frame contract's text, one frame at a time, for a caller that makes frames one by
/// one and writes them itself (the WebAssembly engine, which has no registry): each line
/// is the line `scenec run` writes for that frame.
public struct JSONLinesWriter {
  var writer: JSONLines.Writer

  public init(context: OutputContext) { writer = JSONLines.Writer(context: context) }

  /// The next frame's line, with its line break, appended to `sink`.
  public mutating func append(_ frame: Frame, to sink: inout TextBytes) {
    writer.frame(frame, into: &sink)
  }
}
