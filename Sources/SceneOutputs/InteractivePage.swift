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
    var page = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'">
      <meta name="generator" content="scenec">
      <title>\(title)</title>
      <style>
      \(HTMLPlayer.style)#stage { touch-action: none; cursor: grab; }
      #status.problem { color: #c0392b; white-space: pre-wrap; font: 12px/1.4 ui-monospace, monospace; }
      </style>
      </head>
      <body>
      <main>
      <h1>\(title)</h1>
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
    page += SceneRendererScript.source
    page += String(decoding: PackageResources.interactive_js, as: UTF8.self)
    page += "</script>\n</body>\n</html>\n"
    return page
  }

  /// Standard base64, as `atob` reads it.
  static func base64(_ bytes: [UInt8]) -> String {
    var text = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4)
    let written = Base64.encode(bytes[...], into: &text)
    return String(decoding: text[..<written], as: UTF8.self)
  }
}
#endif
