import SceneGeometry
import SceneGraph
import SceneRuntime
import SceneVocabulary

#if !hasFeature(Embedded)
extension FrameOutput {
  /// A self-contained HTML player: one file with inline CSS and JavaScript, a canvas, and
  /// every frame embedded as JSON, so it opens offline and fetches nothing.
  ///
  /// The page draws each frame on a `<canvas>` (paths through `Path2D` from their SVG path
  /// data, circles and rotated rects for handles, optional control points and a pointer
  /// trail), plays by the frames' own times through `requestAnimationFrame` at 0.25× to 2×,
  /// and has a scrubber, a loop switch, a time and frame readout, the current frame's
  /// events and a running event log. Space plays and pauses; the arrow keys step one frame.
  /// The data sits in `<script type="application/json" id="scene">`, readable by any tool.
  /// The output depends only on the frames and the context: no dates, no random ids.
  ///
  /// Memory: the page's head needs the frame count, so nothing is written until the end.
  /// Each frame's paths, pointers and events are kept as their JSON entry, and its handles
  /// as numbers packed against the frame before (``HandleFrameStream``), which the player
  /// decodes one frame at a time to exactly the numbers the JSON text would give.
  public static let html = FrameOutput(
    name: "html", fileExtensions: ["html", "htm"],
    summary: "a self-contained HTML player (canvas, no network)",
    writer: { HTMLPlayer.Writer(context: $0) })
}
#endif

/// The scene renderer's JavaScript (`Resources/renderer.js`): it draws one frame of the
/// scene JSON the HTML player embeds, and the HTML player and the live preview
/// (`scenec preview`) share it.
public enum SceneRendererScript {
  #if !hasFeature(Embedded)
  public static let source = String(decoding: PackageResources.renderer_js, as: UTF8.self)
  /// The controls for a scene's inputs (`SceneControls`), for the pages that set them.
  public static let controls = String(decoding: PackageResources.controls_js, as: UTF8.self)
  #endif
}

/// The scene as JSON, the way the HTML player embeds it and the live preview sends it.
public enum SceneJSON {
  /// The scene and its styles, up to and including `"frames":[` (close it with `]}`).
  public static func header(context: OutputContext, frameCount: Int) -> String {
    HTMLPlayer.sceneHeader(context: context, frameCount: frameCount)
  }

  /// One frame's compact JSON (see ``SceneRendererScript`` for its fields).
  public static func appendFrame(
    _ frame: Frame, context: OutputContext, to text: inout TextBytes
  ) {
    HTMLPlayer.appendEntry(frame, context: context, handles: true, to: &text)
  }
}

/// The HTML player's text: the page, the scene JSON embedded in it, and the escaping that
/// keeps that JSON inside its script block.
enum HTMLPlayer {
  #if !hasFeature(Embedded)
  /// Turns each frame into its JSON entry (without its handles) and its handles into
  /// numbers (``HandleFrameStream``) as it comes, and writes the page at the end.
  struct Writer: FrameWriter {
    let context: OutputContext
    /// Each frame's entry so far, after `\n` or `,\n`: one array per frame, each its own
    /// size, so keeping them costs what they hold (one growing array could hold twice that).
    var entries: [[UInt8]] = []
    /// Every frame's handles, packed.
    var handleFrames: HandleFrameStream

    init(context: OutputContext) {
      self.context = context
      handleFrames = HandleFrameStream(
        handleCount: context.graph.handles.count, precision: context.precision)
    }

    mutating func frame(_ frame: Frame, into sink: inout TextBytes) {
      var entry = TextBytes(capacity: 64 + 48 * frame.paths.count)
      entry.append(entries.isEmpty ? "\n" : ",\n")
      HTMLPlayer.appendEntry(frame, context: context, handles: false, to: &entry)
      entries.append(Array(entry.bytes))
      handleFrames.append(frame.handles)
    }

    mutating func end(into sink: inout TextBytes) {
      end(into: &sink, flush: { _ in })
    }

    /// The page, with each frame's entry handed to `flush` and let go as it is written.
    mutating func end<Failure: Error>(
      into sink: inout TextBytes, flush: (inout TextBytes) throws(Failure) -> Void
    ) throws(Failure) {
      sink.append(HTMLPlayer.head(context: context, frameCount: entries.count))
      sink.append(HTMLPlayer.sceneHeader(context: context, frameCount: entries.count))
      for i in entries.indices {
        entries[i].withUnsafeBufferPointer { sink.append($0) }
        entries[i] = []
        try flush(&sink)
      }
      entries = []
      sink.append("],\n\"handleFrames\":{\"encoding\":\"")
      sink.append(HandleFrameStream.encoding)
      sink.append("\",\"keyframeEvery\":")
      sink.append(HandleFrameStream.keyframeEvery)
      sink.append(",\"states\":[")
      for (k, state) in HandleFrameStream.states.enumerated() {
        if k > 0 { sink.append(UInt8(ascii: ",")) }
        sink.appendQuoted(state.rawValue)
      }
      sink.append("],\n\"data\":\"")
      try handleFrames.drainBase64 { (text) throws(Failure) in
        sink.append(text)
        try flush(&sink)
      }
      sink.append("\"}}\n</script>\n<script>\n")
      sink.append(HTMLPlayer.script)
      sink.append("</script>\n</body>\n</html>\n")
    }
  }
  #endif

  // MARK: - The page

  /// A self-contained page's start, through its `<h1>` (`title` already escaped): its
  /// Content Security Policy allows inline script and style, WebAssembly compilation
  /// when `webAssembly`, and nothing else (no network); `moreStyle` follows the player's.
  static func documentStart(title: String, webAssembly: Bool = false, moreStyle: String = "")
    -> String
  {
    let script = webAssembly ? "'unsafe-inline' 'wasm-unsafe-eval'" : "'unsafe-inline'"
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src \(script); style-src 'unsafe-inline'">
      <meta name="generator" content="scenec">
      <title>\(title)</title>
      <style>
      \(style)\(moreStyle)</style>
      </head>
      <body>
      <main>
      <h1>\(title)</h1>

      """
  }

  /// The page up to the opening of the scene's JSON block.
  static func head(context: OutputContext, frameCount: Int) -> String {
    let graph = context.graph
    // The same markup escaping as SVG: HTML reads those entities alike.
    let title = SVGText.escaped(graph.name.isEmpty ? "scene" : graph.name)
    let width = NumberText.format(graph.width, precision: 0)
    let height = NumberText.format(graph.height, precision: 0)
    let page =
      documentStart(title: title)
        + """
        <canvas id="stage" width="\(width)" height="\(height)" aria-label="\(title)"></canvas>
        <div class="controls">
        <button id="play" type="button" title="Play or pause (space)">▶ Play</button>
        <input id="scrub" type="range" min="0" max="\(max(0, frameCount - 1))" step="1" value="0" aria-label="Frame">
        <select id="speed" aria-label="Speed">
        <option value="0.25">0.25×</option>
        <option value="0.5">0.5×</option>
        <option value="1" selected>1×</option>
        <option value="2">2×</option>
        </select>
        <label><input id="loop" type="checkbox" checked> loop</label>
        <label><input id="points" type="checkbox" checked> control points</label>
        <label><input id="trail" type="checkbox" checked> pointer trail</label>
        </div>
        <p class="hint" id="viewnote"></p>
        <div class="readout"><span id="time">t = 0 s</span> <span id="frame">frame 0</span></div>
        <div class="events">events: <span id="events">none</span></div>
        <div class="events" id="stateline" hidden>states: <span id="states"></span></div>
        <details open><summary>event log</summary><ol id="log"></ol></details>
        <p class="hint">Space plays and pauses; ← and → step one frame; Home and End jump to the ends.</p>
        </main>
        <script type="application/json" id="scene">
        """
    return page
  }

  // MARK: - The scene as JSON

  /// The scene's JSON up to its frames: the scene and its styles, listed once.
  ///
  /// `handles` and `paths` list the graph's handles and drawn paths
  /// (``SceneGraph/drawnPaths``) in order; a frame's `h` and `p` follow that order (see
  /// ``appendEntry(_:context:to:)``). Every string is script-safe (``jsonString(_:)``).
  static func sceneHeader(context: OutputContext, frameCount: Int) -> String {
    let graph = context.graph
    let p = context.precision
    func n(_ value: Double) -> String { NumberText.format(value, precision: p) }
    func color(_ c: (some CustomStringConvertible)?) -> String {
      c.map { jsonString($0.description) } ?? "null"
    }
    func style(_ s: SceneGraph.Style) -> String {
      "\"fill\":\(color(s.fill)),\"stroke\":\(color(s.stroke)),\"strokeWidth\":\(n(s.strokeWidth)),\"opacity\":\(n(s.opacity))"
    }
    let handleEntries = graph.handles.map { handle in
      "{\"name\":\(jsonString(handle.name)),\"shape\":\(jsonString(handle.shape.rawValue)),"
        + "\"r\":\(n(handle.radius)),\"w\":\(n(handle.width)),\"h\":\(n(handle.height)),\(style(handle.style))"
        // Only for rounded corners, so other scenes' pages stay as they were.
        + (handle.cornerRadius > 0 ? ",\"cr\":\(n(handle.cornerRadius))" : "")
        // Only where the scene animates it, so other scenes' pages stay as they were.
        + (handle.changingProperties.isEmpty
          ? ""
          : ",\"animated\":["
            + handle.changingProperties.map { "\"\($0.key)\"" }.joined(separator: ",") + "]")
        + (handle.children.isEmpty
          ? "" : ",\"children\":[" + handle.children.map(childEntry).joined(separator: ",") + "]")
        + "}"
    }
    // A child as drawn before anything changes it; a frame's `c` has what does.
    func childEntry(_ child: SceneGraph.Handle) -> String {
      var entry =
        "{\"name\":\(jsonString(child.name)),\"shape\":\(jsonString(child.shape.rawValue)),"
        + "\"x\":\(n(child.offset.x)),\"y\":\(n(child.offset.y)),"
        + "\"rotation\":\(n(child.rotation)),\"scale\":\(n(child.scale)),"
        + "\"scaleX\":\(n(child.scaleX)),\"scaleY\":\(n(child.scaleY)),"
        + "\"r\":\(n(child.radius)),\"w\":\(n(child.width)),\"h\":\(n(child.height)),\(style(child.style))"
      if child.cornerRadius > 0 { entry += ",\"cr\":\(n(child.cornerRadius))" }
      if let text = child.text {
        let words = text.isDynamic ? "" : text.text { _ in 0 }
        entry +=
          ",\"text\":\(jsonString(words)),\"fontSize\":\(n(text.fontSize)),"
          + "\"fontWeight\":\(text.fontWeight.cssWeight),\"align\":\(jsonString(text.align.rawValue))"
      }
      return entry + "}"
    }
    let pathEntries = graph.drawnPaths.map {
      "{\"name\":\(jsonString($0.name)),\(style($0.style))}"
    }
    var text =
      "{\"name\":\(jsonString(graph.name)),\"width\":\(n(graph.width)),\"height\":\(n(graph.height))"
    text +=
      ",\"background\":\(color(graph.background)),\"fps\":\(n(context.fps)),\"precision\":\(p)"
    text += ",\"frameCount\":\(frameCount)"
    text += ",\n\"handles\":[" + handleEntries.joined(separator: ",\n") + "]"
    text += ",\n\"paths\":[" + pathEntries.joined(separator: ",\n") + "]"
    if !graph.machines.isEmpty {
      text +=
        ",\n\"machines\":[" + graph.machines.map { jsonString($0.name) }.joined(separator: ",")
        + "]"
    }
    if !graph.inputs.isEmpty {
      // For the live preview's controls: each input's kind, range and default.
      let entries = graph.inputs.map { input -> String in
        var entry = "{\"name\":\(jsonString(input.name)),\"value\":\(n(input.initial)),\"kind\":"
        switch input.kind {
        case .boolean: entry += "\"boolean\""
        case .trigger: entry += "\"trigger\""
        case .number(let range):
          entry += "\"number\""
          if let range, range.lowerBound.isFinite { entry += ",\"min\":\(n(range.lowerBound))" }
          if let range, range.upperBound.isFinite { entry += ",\"max\":\(n(range.upperBound))" }
        }
        return entry + "}"
      }
      text += ",\n\"inputs\":[" + entries.joined(separator: ",") + "]"
    }
    text += ",\n\"frames\":["
    return text
  }

  /// One frame's JSON entry.
  ///
  /// `h` holds `[x, y, angle, r, state]` for each of the graph's handles (with `rotation,
  /// scale, opacity, fill, stroke, width, height, cornerRadius, strokeWidth` after them for
  /// a handle the scene animates)
  /// (or `null`), `p` SVG path data for each drawn path (or `null` when it is hidden),
  /// `ptr` `[id, x, y, down]` for each pointer, `e` `[type, subject]` for each event
  /// (`[type, subject, target]` for `snap`, `[type, machine, to, from]` for `state`), and
  /// `s` the state of each machine and `in` the value of each input, for a scene with them. Without `handles` there is no `h`: the HTML
  /// player's page packs the handles apart (``HandleFrameStream``).
  static func appendEntry(
    _ frame: Frame, context: OutputContext, handles: Bool, to text: inout TextBytes
  ) {
    let graph = context.graph
    let p = context.precision
    text.append("{\"i\":")
    text.append(frame.index)
    text.append(",\"t\":")
    // Times keep enough digits to order frames at any rate, whatever the precision.
    text.append(frame.time, precision: max(p, 6))
    if handles {
      appendHandles(frame, context: context, to: &text)
    } else if graph.handles.contains(where: { !$0.changingProperties.isEmpty }) {
      appendMotions(frame, context: context, to: &text)
    }
    if !frame.children.isEmpty { appendChildren(frame.children, precision: p, to: &text) }
    if !frame.pathStyles.isEmpty {
      // `ps`: `[path, opacity, fill, stroke, strokeWidth]` for each path whose style changes.
      text.append(",\"ps\":[")
      for (k, style) in frame.pathStyles.enumerated() {
        let look = style.look
        text.append(k == 0 ? "[" : ",[")
        text.append(style.path)
        text.append(UInt8(ascii: ","))
        if look.animates(.opacity) {
          text.append(look.opacity, precision: p)
        } else {
          text.append("null")
        }
        appendColor(look.animates(.fill) ? look.fill : nil, to: &text)
        appendColor(look.animates(.stroke) ? look.stroke : nil, to: &text)
        text.append(UInt8(ascii: ","))
        if look.animates(.strokeWidth) {
          text.append(look.strokeWidth, precision: p)
        } else {
          text.append("null")
        }
        text.append(UInt8(ascii: "]"))
      }
      text.append(UInt8(ascii: "]"))
    }
    text.append(",\"p\":[")
    for i in graph.drawnPaths.indices {
      if i > 0 { text.append(UInt8(ascii: ",")) }
      guard i < frame.paths.count, !frame.paths[i].isHidden else {
        text.append("null")
        continue
      }
      // Path data is digits, signs, points, spaces and command letters: nothing to escape.
      text.append(UInt8(ascii: "\""))
      text.append(frame.paths[i].path, precision: p)
      text.append(UInt8(ascii: "\""))
    }
    text.append("],\"ptr\":[")
    for (k, pointer) in frame.pointers.enumerated() {
      text.append(k == 0 ? "[" : ",[")
      text.append(pointer.id)
      text.append(UInt8(ascii: ","))
      text.append(pointer.x, precision: p)
      text.append(UInt8(ascii: ","))
      text.append(pointer.y, precision: p)
      text.append(UInt8(ascii: ","))
      text.append(pointer.isDown)
      text.append(UInt8(ascii: "]"))
    }
    text.append("],\"e\":[")
    for (k, event) in frame.events.enumerated() {
      text.append(k == 0 ? "[" : ",[")
      appendJSONString(event.type, to: &text)
      text.append(UInt8(ascii: ","))
      appendJSONString(event.subjectName(in: frame), to: &text)
      if let target = event.target {
        text.append(UInt8(ascii: ","))
        appendJSONString(target, to: &text)
      }
      if let from = event.from {
        text.append(UInt8(ascii: ","))
        appendJSONString(from, to: &text)
      }
      text.append(UInt8(ascii: "]"))
    }
    text.append(UInt8(ascii: "]"))
    if !frame.inputs.isEmpty {
      text.append(",\"in\":[")
      for (k, value) in frame.inputs.enumerated() {
        if k > 0 { text.append(UInt8(ascii: ",")) }
        text.append(value, precision: p)
      }
      text.append(UInt8(ascii: "]"))
    }
    if !frame.machines.isEmpty {
      text.append(",\"s\":[")
      for (k, machine) in frame.machines.enumerated() {
        if k > 0 { text.append(UInt8(ascii: ",")) }
        appendJSONString(machine.state, to: &text)
      }
      text.append(UInt8(ascii: "]"))
    }
    text.append(UInt8(ascii: "}"))
  }

  /// A frame's `,"h":[…]`.
  static func appendHandles(_ frame: Frame, context: OutputContext, to text: inout TextBytes) {
    let graph = context.graph
    let p = context.precision
    text.append(",\"h\":[")
    for i in graph.handles.indices {
      if i > 0 { text.append(UInt8(ascii: ",")) }
      guard i < frame.handles.count else {
        text.append("null")
        continue
      }
      let h = frame.handles[i]
      text.append(UInt8(ascii: "["))
      text.append(h.x, precision: p)
      text.append(UInt8(ascii: ","))
      text.append(h.y, precision: p)
      text.append(UInt8(ascii: ","))
      text.append(h.angle, precision: p)
      text.append(UInt8(ascii: ","))
      text.append(h.radius, precision: p)
      text.append(",\"")
      text.append(JSONLines.stateText(h.state))
      text.append(UInt8(ascii: "\""))
      if h.animated != 0 { appendAnimated(h, to: &text, precision: p) }
      text.append(UInt8(ascii: "]"))
    }
    text.append(UInt8(ascii: "]"))
  }

  /// A frame's `,"c":[…]`: for each child that changes, `[handle, child, x, y, rotation,
  /// scale, opacity, fill, stroke, r, width, height, cornerRadius, strokeWidth, text, scaleX,
  /// scaleY]`, by
  /// the indices of its handle and of it among the handle's children; `null` for a colour,
  /// a size or a text that does not change.
  static func appendChildren(_ children: [ChildFrame], precision p: Int, to text: inout TextBytes) {
    text.append(",\"c\":[")
    for (k, child) in children.enumerated() {
      let look = child.look
      text.append(k == 0 ? "[" : ",[")
      text.append(child.handle)
      text.append(UInt8(ascii: ","))
      text.append(child.child)
      for value in [look.x, look.y, look.rotation, look.scale] {
        text.append(UInt8(ascii: ","))
        text.append(value, precision: p)
      }
      text.append(UInt8(ascii: ","))
      text.append(look.animates(.opacity) ? look.opacity : 1, precision: p)
      appendColor(look.animates(.fill) ? look.fill : nil, to: &text)
      appendColor(look.animates(.stroke) ? look.stroke : nil, to: &text)
      text.append(UInt8(ascii: ","))
      if look.animates(.radius) {
        text.append(look.radius, precision: p)
      } else {
        text.append("null")
      }
      appendSizes(look, sizes.prefix(4), to: &text, precision: p)
      text.append(UInt8(ascii: ","))
      if look.animates(.textValue) {
        appendJSONString(child.text, to: &text)
      } else {
        text.append("null")
      }
      for value in [look.scaleX, look.scaleY] {
        text.append(UInt8(ascii: ","))
        text.append(value, precision: p)
      }
      text.append(UInt8(ascii: "]"))
    }
    text.append(UInt8(ascii: "]"))
  }

  /// `,rotation,scale,opacity,fill,stroke,width,height,cornerRadius,strokeWidth,scaleX,scaleY`,
  /// the values
  /// a handle the scene animates adds to its `[x, y, angle, r, state]` (neutral, or `null`
  /// for colours and sizes, where not animated).
  static func appendAnimated(_ h: HandleFrame, to text: inout TextBytes, precision p: Int) {
    text.append(UInt8(ascii: ","))
    text.append(h.rotation, precision: p)
    text.append(UInt8(ascii: ","))
    text.append(h.scale, precision: p)
    text.append(UInt8(ascii: ","))
    text.append(h.animates(.opacity) ? h.opacity : 1, precision: p)
    appendColor(h.animates(.fill) ? h.fill : nil, to: &text)
    appendColor(h.animates(.stroke) ? h.stroke : nil, to: &text)
    appendSizes(h, to: &text, precision: p)
  }

  /// `,width,height,cornerRadius,strokeWidth,scaleX,scaleY`, each `null` where not
  /// animated.
  static func appendSizes(
    _ h: HandleFrame, _ properties: ArraySlice<SceneGraph.AnimatedProperty> = sizes[...],
    to text: inout TextBytes, precision p: Int
  ) {
    for property in properties {
      text.append(UInt8(ascii: ","))
      if h.animates(property) {
        text.append(h.drawn(property, declared: nil), precision: p)
      } else {
        text.append("null")
      }
    }
  }

  static let sizes: [SceneGraph.AnimatedProperty] = [
    .width, .height, .cornerRadius, .strokeWidth, .scaleX, .scaleY,
  ]

  /// `,"#rrggbbaa"`, or `,null`.
  static func appendColor(_ color: Color?, to text: inout TextBytes) {
    guard let color else { return text.append(",null") }
    text.append(",\"")
    JSONLines.appendHex(color, to: &text)
    text.append(UInt8(ascii: "\""))
  }

  /// `"m"`: for the page, whose handles are packed apart (``HandleFrameStream``), the
  /// animated values of each handle the scene animates, in scene order, eleven a handle
  /// (see ``appendAnimated(_:to:precision:)``); the player adds them to the unpacked `h`.
  static func appendMotions(_ frame: Frame, context: OutputContext, to text: inout TextBytes) {
    text.append(",\"m\":[")
    var first = true
    for i in context.graph.handles.indices
    where !context.graph.handles[i].changingProperties.isEmpty {
      if !first { text.append(UInt8(ascii: ",")) }
      first = false
      guard i < frame.handles.count else {
        text.append("0,1,1,null,null,null,null,null,null,null,null")  // Without it: neutral.
        continue
      }
      let h = frame.handles[i]
      text.append(h.rotation, precision: context.precision)
      text.append(UInt8(ascii: ","))
      text.append(h.scale, precision: context.precision)
      text.append(UInt8(ascii: ","))
      text.append(h.animates(.opacity) ? h.opacity : 1, precision: context.precision)
      appendColor(h.animates(.fill) ? h.fill : nil, to: &text)
      appendColor(h.animates(.stroke) ? h.stroke : nil, to: &text)
      appendSizes(h, to: &text, precision: context.precision)
    }
    text.append(UInt8(ascii: "]"))
  }

  /// Absolute SVG path data like ``SceneGeometry/Path/svgPathData`` but with numbers at
  /// `precision`: `M0 0C30 80 70 -40 100 0Z`.
  static func pathData(_ path: Path, precision: Int) -> String {
    PathText.data(path, precision: precision)
  }

  // MARK: - Escaping

  /// A JSON string literal that is also a valid JavaScript literal (see ``JSONText``) and
  /// safe inside a script block (``scriptSafe(_:)``): every string the page's JSON holds
  /// is made this way, so the JSON as a whole needs no search afterwards.
  static func jsonString(_ value: String) -> String { scriptSafe(JSONText.quoted(value)) }

  /// ``jsonString(_:)`` appended to `text`, without a `String` for the common case.
  static func appendJSONString(_ value: String, to text: inout TextBytes) {
    if value.utf8.contains(UInt8(ascii: "<")) {
      text.append(jsonString(value))
    } else {
      text.appendQuoted(value)
    }
  }

  /// JSON text made safe to sit between `<script>` and `</script>`.
  ///
  /// Every `</` becomes `<\/`, so no `</script>` can close the block early, and every
  /// `<!--` becomes `<\u0021--`, so no comment opener can put the HTML parser in its
  /// escaped script state. Both are escapes inside JSON strings (the only place JSON text
  /// has a `<`), so the JSON parses to the same value.
  static func scriptSafe(_ json: String) -> String {
    guard json.utf8.contains(UInt8(ascii: "<")) else { return json }
    // Byte by byte (`String.replacing` needs string processing, which the WebAssembly
    // build's Embedded Swift has not): `<` never starts a multi-byte character.
    let bytes = Array(json.utf8)
    var safe: [UInt8] = []
    safe.reserveCapacity(bytes.count + 16)
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
        safe += Array("<\\/".utf8)
        i += 2
      } else if bytes[i] == UInt8(ascii: "<"), bytes[i...].starts(with: Array("<!--".utf8)) {
        safe += Array("<\\u0021--".utf8)
        i += 4
      } else {
        safe.append(bytes[i])
        i += 1
      }
    }
    return String(decoding: safe, as: UTF8.self)
  }

  // MARK: - Inline CSS and JavaScript

  static let style = """
    :root { color-scheme: light dark; }
    body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background: #f4f4f6; color: #222; }
    main { max-width: max-content; margin: 0 auto; padding: 12px; }
    h1 { font-size: 15px; font-weight: 600; margin: 0 0 8px; }
    canvas { display: block; max-width: 100%; height: auto; background: #fff; border: 1px solid #ccc; }
    .controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 8px 0; }
    .controls button { min-width: 6em; }
    #scrub { flex: 1 1 200px; }
    .readout, .events { font-variant-numeric: tabular-nums; margin: 4px 0; }
    #log { max-height: 10em; overflow-y: auto; margin: 4px 0; padding-left: 3em; font: 12px/1.4 ui-monospace, monospace; }
    .hint { color: #777; font-size: 12px; }
    @media (prefers-color-scheme: dark) {
      body { background: #1c1c1e; color: #ddd; }
      canvas { border-color: #444; }
      .hint { color: #999; }
    }

    """

  /// The player's JavaScript: the shared renderer, then the player from
  /// `Resources/player.js` (files of their own so that they can be read, linted and
  /// tested), embedded in the binary at build time.
  #if !hasFeature(Embedded)
  static let script =
    SceneRendererScript.source + String(decoding: PackageResources.player_js, as: UTF8.self)
  #endif
}
