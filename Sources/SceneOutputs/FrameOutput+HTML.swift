import SceneGeometry
import SceneGraph
import SceneRuntime
import SceneVocabulary

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
  public static let html = FrameOutput(
    name: "html", fileExtensions: ["html", "htm"],
    summary: "a self-contained HTML player (canvas, no network)",
    needsAllFrames: true,
    end: { context, frames in HTMLPlayer.document(context: context, frames: frames) })
}

/// The HTML player's text: the page, the scene JSON embedded in it, and the escaping that
/// keeps that JSON inside its script block.
enum HTMLPlayer {
  // MARK: - The page

  static func document(context: OutputContext, frames: [Frame]) -> String {
    let graph = context.graph
    // The same markup escaping as SVG: HTML reads those entities alike.
    let title = SVGText.escaped(graph.name.isEmpty ? "scene" : graph.name)
    let width = NumberText.format(graph.width, precision: 0)
    let height = NumberText.format(graph.height, precision: 0)
    var page = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
      <meta name="generator" content="scenec">
      <title>\(title)</title>
      <style>
      \(style)</style>
      </head>
      <body>
      <main>
      <h1>\(title)</h1>
      <canvas id="stage" width="\(width)" height="\(height)" aria-label="\(title)"></canvas>
      <div class="controls">
      <button id="play" type="button" title="Play or pause (space)">▶ Play</button>
      <input id="scrub" type="range" min="0" max="\(max(0, frames.count - 1))" step="1" value="0" aria-label="Frame">
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
      <details open><summary>event log</summary><ol id="log"></ol></details>
      <p class="hint">Space plays and pauses; ← and → step one frame; Home and End jump to the ends.</p>
      </main>
      <script type="application/json" id="scene">
      """
    page += scriptSafe(sceneJSON(context: context, frames: frames))
    page += "\n</script>\n<script>\n"
    page += script
    page += "</script>\n</body>\n</html>\n"
    return page
  }

  // MARK: - The scene as JSON

  /// The scene and every frame as compact JSON, not yet made safe for a script block.
  ///
  /// Styles are listed once, in `handles` and `paths`; a frame's `h` and `p` follow the
  /// same order: `h` holds `[x, y, angle, r, state]` or `null`, `p` holds SVG path data or
  /// `null` when the path is hidden; `ptr` holds `[id, x, y, down]`, `e` `[type, subject]`.
  static func sceneJSON(context: OutputContext, frames: [Frame]) -> String {
    let graph = context.graph
    let p = context.precision
    func n(_ value: Double) -> String { NumberText.format(value, precision: p) }
    // Times keep enough digits to order frames at any rate, whatever the precision.
    func t(_ value: Double) -> String { NumberText.format(value, precision: max(p, 6)) }
    func color(_ c: (some CustomStringConvertible)?) -> String {
      c.map { jsonString($0.description) } ?? "null"
    }
    func style(_ s: SceneGraph.Style) -> String {
      "\"fill\":\(color(s.fill)),\"stroke\":\(color(s.stroke)),\"strokeWidth\":\(n(s.strokeWidth)),\"opacity\":\(n(s.opacity))"
    }

    // Handles: the scene's, in order, then any a frame names that the scene does not.
    var handleEntries: [String] = []
    var handleIndex: [String: Int] = [:]
    for handle in graph.handles where handleIndex[handle.name] == nil {
      handleIndex[handle.name] = handleEntries.count
      handleEntries.append(
        "{\"name\":\(jsonString(handle.name)),\"shape\":\(jsonString(handle.shape.rawValue)),"
          + "\"r\":\(n(handle.radius)),\"w\":\(n(handle.width)),\"h\":\(n(handle.height)),\(style(handle.style))}"
      )
    }
    // Paths: the scene's, then each gooey bridge under the name the runtime gives it.
    var pathEntries: [String] = []
    var pathIndex: [String: Int] = [:]
    func addPath(_ name: String, _ s: String) {
      guard pathIndex[name] == nil else { return }
      pathIndex[name] = pathEntries.count
      pathEntries.append("{\"name\":\(jsonString(name)),\(s)}")
    }
    for path in graph.paths { addPath(path.name, style(path.style)) }
    for constraint in graph.constraints {
      guard case .gooey(let gooey) = constraint.kind else { continue }
      let bridgeStyle = gooey.bridgeStyle
      addPath(constraint.reportedName, style(bridgeStyle))
    }
    let unknownStyle = "\"fill\":null,\"stroke\":\"#000000\",\"strokeWidth\":1,\"opacity\":1"
    for frame in frames {
      for handle in frame.handles where handleIndex[handle.name] == nil {
        handleIndex[handle.name] = handleEntries.count
        handleEntries.append(
          "{\"name\":\(jsonString(handle.name)),\"shape\":\"circle\",\"r\":\(n(handle.radius)),\"w\":0,\"h\":0,\(unknownStyle)}"
        )
      }
      for path in frame.paths { addPath(path.name, unknownStyle) }
    }

    var text =
      "{\"name\":\(jsonString(graph.name)),\"width\":\(n(graph.width)),\"height\":\(n(graph.height))"
    text +=
      ",\"background\":\(color(graph.background)),\"fps\":\(n(context.fps)),\"precision\":\(p)"
    text += ",\"frameCount\":\(frames.count)"
    text += ",\n\"handles\":[" + handleEntries.joined(separator: ",\n") + "]"
    text += ",\n\"paths\":[" + pathEntries.joined(separator: ",\n") + "]"
    text += ",\n\"frames\":["
    for (f, frame) in frames.enumerated() {
      var handles = [String](repeating: "null", count: handleEntries.count)
      for h in frame.handles {
        guard let i = handleIndex[h.name] else { continue }
        handles[i] = "[\(n(h.x)),\(n(h.y)),\(n(h.angle)),\(n(h.radius)),\"\(h.state.rawValue)\"]"
      }
      var paths = [String](repeating: "null", count: pathEntries.count)
      for path in frame.paths where !path.isHidden {
        guard let i = pathIndex[path.name] else { continue }
        paths[i] = jsonString(pathData(path.path, precision: p))
      }
      let pointers = frame.pointers.map { "[\($0.id),\(n($0.x)),\(n($0.y)),\($0.isDown)]" }
      let events = frame.events.map { "[\(jsonString($0.type)),\(jsonString($0.subject))]" }
      text += f == 0 ? "\n" : ",\n"
      text +=
        "{\"i\":\(frame.index),\"t\":\(t(frame.time)),\"h\":[" + handles.joined(separator: ",")
      text += "],\"p\":[" + paths.joined(separator: ",")
      text += "],\"ptr\":[" + pointers.joined(separator: ",")
      text += "],\"e\":[" + events.joined(separator: ",") + "]}"
    }
    text += "]}"
    return text
  }

  /// Absolute SVG path data like ``SceneGeometry/Path/svgPathData`` but with numbers at
  /// `precision`: `M0 0C30 80 70 -40 100 0Z`.
  static func pathData(_ path: Path, precision: Int) -> String {
    PathText.data(path, precision: precision)
  }

  // MARK: - Escaping

  /// A JSON string literal that is also a valid JavaScript literal (see ``JSONText``).
  static func jsonString(_ value: String) -> String { JSONText.quoted(value) }

  /// JSON made safe to sit between `<script>` and `</script>`.
  ///
  /// Every `</` becomes `<\/`, so no `</script>` can close the block early, and every
  /// `<!--` becomes `<\u0021--`, so no comment opener can put the HTML parser in its
  /// escaped script state. Both are escapes inside JSON strings (the only place JSON text
  /// has a `<`), so the JSON parses to the same value.
  static func scriptSafe(_ json: String) -> String {
    guard json.contains("<") else { return json }
    return json.replacing("</", with: "<\\/").replacing("<!--", with: "<\\u0021--")
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

  /// The player's JavaScript, from `Resources/player.js` (a file of its own so that it
  /// can be read, linted and tested), embedded in the binary at build time.
  static let script = String(decoding: PackageResources.player_js, as: UTF8.self)
}
