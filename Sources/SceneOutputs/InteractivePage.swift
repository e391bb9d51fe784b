#if !hasFeature(Embedded)
import SceneGraph

/// One self-contained HTML page that runs the scene in the WebAssembly engine: the reader
/// drags handles (mouse, touch, pen, several pointers), plays the scene's gesture,
/// pauses, scrubs what has been played and resets, offline and from `file://`.
///
/// The page holds the engine (base64), the scene as DSL text (the engine reads the DSL),
/// the scene's JSON header for the renderer (the HTML player's, shared), the renderer and
/// `Resources/interactive.js`. Its Content Security Policy allows inline script and
/// WebAssembly compilation (`'wasm-unsafe-eval'`) and nothing else: no network at all.
public enum InteractivePage {
  /// The page for `context`'s scene, whose DSL text is `sceneText`, running `engine`
  /// (the bytes of `scenec-engine.wasm`); `traces` are the traces its gesture replays, as
  /// CSV text by the name each `replay` step gives, handed to the engine before the scene.
  public static func html(
    context: OutputContext, sceneText: String, traces: [String: String] = [:], engine: [UInt8]
  ) -> String {
    let graph = context.graph
    let title = SVGText.escaped(graph.name.isEmpty ? "scene" : graph.name)
    var page = HTMLPlayer.documentStart(
      title: title, webAssembly: true,
      moreStyle: """
        #stage { touch-action: none; cursor: grab; }
        #status.problem { color: #c0392b; white-space: pre-wrap; font: 12px/1.4 ui-monospace, monospace; }

        """)
    page += """
      <p class="readout" id="status" role="status">starting the engine…</p>
      <canvas id="stage" aria-label="\(title): drag its handles"></canvas>
      <div class="controls">
      <button id="gesture" type="button" disabled>▶ Play the gesture</button>
      <button id="pause" type="button" disabled>❚❚ Pause</button>
      <button id="reset" type="button" disabled>⟲ Reset</button>
      <input id="scrub" type="range" min="0" max="0" step="1" value="0" aria-label="Frame of what has been played">
      </div>
      <div class="controls" id="inputs" hidden aria-label="inputs"></div>
      <div class="readout"><span id="rest">moving</span> · <span id="time">t = 0 s</span> <span id="frame">frame 0</span></div>
      <div class="events">events: <span id="events">none</span></div>
      <details><summary>event log</summary><ol id="log"></ol></details>
      <p class="hint">Drag the handles with a mouse, a finger or a pen. The scene runs in scenec's own engine, compiled to WebAssembly: the motion is the one <code>scenec test</code> checks.</p>
      </main>
      <script type="application/json" id="scene">

      """
    page += HTMLPlayer.sceneHeader(context: context, frameCount: 0)
    page += "]}\n</script>\n<script type=\"application/json\" id=\"source\">"
    page += HTMLPlayer.jsonString(sceneText)
    page += "</script>\n<script type=\"application/json\" id=\"traces\">{"
    page += traces.keys.sorted().map { name in
      HTMLPlayer.jsonString(name) + ":" + HTMLPlayer.jsonString(traces[name] ?? "")
    }.joined(separator: ",\n")
    page += "}</script>\n<script type=\"application/octet-stream\" id=\"engine\">"
    page += base64(engine)
    page += "</script>\n<script>\n"
    page += SceneRendererScript.source + SceneRendererScript.controls
    page += String(decoding: PackageResources.interactive_js, as: UTF8.self)
    page += "</script>\n</body>\n</html>\n"
    return page
  }

  /// The engine's functions the page calls (and its memory): an engine without one of
  /// them (built from an older scenec) would fail in the reader's browser.
  public static let engineExports = [
    "memory", "scenec_add_trace", "scenec_console", "scenec_frame", "scenec_furthest_frame",
    "scenec_input", "scenec_load", "scenec_output", "scenec_output_length", "scenec_play_script",
    "scenec_pointer", "scenec_restart", "scenec_seek", "scenec_set_input",
  ]

  /// The names a WebAssembly module exports, read from its export section; `nil` when
  /// `bytes` is not a module whose sections can be read (truncated or malformed).
  public static func exportedNames(of bytes: [UInt8]) -> [String]? {
    guard bytes.count >= 8, bytes[0..<4] == [0x00, 0x61, 0x73, 0x6D] else { return nil }
    var at = 8
    // An unsigned LEB128 number of at most 32 bits, or nil past the end or if longer.
    func number() -> Int? {
      var value = 0
      var shift = 0
      while at < bytes.count, shift < 35 {
        let byte = bytes[at]
        at += 1
        value |= Int(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return value }
        shift += 7
      }
      return nil
    }
    while at < bytes.count {
      let id = bytes[at]
      at += 1
      guard let size = number(), size <= bytes.count - at else { return nil }
      let end = at + size
      guard id == 7 else {
        at = end
        continue
      }
      guard let count = number() else { return nil }
      var names: [String] = []
      for _ in 0..<min(count, size) {
        guard let length = number(), length <= end - at else { return nil }
        names.append(String(decoding: bytes[at..<at + length], as: UTF8.self))
        at += length
        // The kind (a byte) and the index (a number).
        guard at < end else { return nil }
        at += 1
        guard number() != nil, at <= end else { return nil }
      }
      return names
    }
    return []
  }

  /// Standard base64, as `atob` reads it.
  static func base64(_ bytes: [UInt8]) -> String {
    var text = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4)
    let written = Base64.encode(bytes[...], into: &text)
    return String(decoding: text[..<written], as: UTF8.self)
  }
}
#endif
