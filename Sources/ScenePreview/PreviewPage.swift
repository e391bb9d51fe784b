import SceneOutputs

/// The preview's one page: a canvas drawn by the HTML player's own renderer
/// (``SceneRendererScript``), the controls, and `Resources/preview.js`, which forwards
/// Pointer Events to the server and draws the frames it sends.
enum PreviewPage {
  static let script = String(decoding: PackageResources.preview_js, as: UTF8.self)

  /// Inline scripts and styles only, and WebSocket connections to this server.
  static let contentSecurityPolicy =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self' ws: wss:; frame-ancestors 'none'"

  static let html = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="generator" content="scenec preview">
    <title>scenec preview</title>
    <style>
    :root { color-scheme: light dark; }
    [hidden] { display: none !important; }
    body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background: #f4f4f6; color: #222; }
    main { max-width: max-content; margin: 0 auto; padding: 12px; }
    h1 { font-size: 15px; font-weight: 600; margin: 0 0 8px; }
    canvas { display: block; max-width: 100%; height: auto; background: #fff; border: 1px solid #ccc; touch-action: none; cursor: grab; }
    canvas:active { cursor: grabbing; }
    .controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 8px 0; }
    .controls button { min-width: 5em; }
    #problems { white-space: pre; font: 12px/1.4 ui-monospace, monospace; background: #fff0f0; color: #a00; border: 1px solid #e99; padding: 6px 8px; overflow-x: auto; }
    .readout, .events { font-variant-numeric: tabular-nums; margin: 4px 0; }
    #log { max-height: 10em; overflow-y: auto; margin: 4px 0; padding-left: 3em; font: 12px/1.4 ui-monospace, monospace; }
    .hint { color: #777; font-size: 12px; }
    @media (prefers-color-scheme: dark) {
      body { background: #1c1c1e; color: #ddd; }
      canvas { border-color: #444; }
      #problems { background: #3a1f1f; color: #f99; }
    }
    </style>
    </head>
    <body>
    <main>
    <h1 id="title">scenec preview</h1>
    <pre id="problems" hidden></pre>
    <canvas id="stage" width="400" height="300" aria-label="scene"></canvas>
    <div class="controls">
    <button id="script" type="button" title="Restart and play the scene's own gesture">▶ Gesture</button>
    <button id="pause" type="button">❚❚ Pause</button>
    <button id="step" type="button" title="One frame">Step</button>
    <button id="restart" type="button">Restart</button>
    <select id="speed" aria-label="Speed">
    <option value="0.1">0.1×</option>
    <option value="0.25">0.25×</option>
    <option value="0.5">0.5×</option>
    <option value="1" selected>1×</option>
    <option value="2">2×</option>
    </select>
    <button id="record" type="button" title="Restart and record your pointers">● Record</button>
    </div>
    <div class="controls">
    <label><input id="paths" type="checkbox"> paths</label>
    <label><input id="points" type="checkbox"> control points</label>
    <label><input id="vectors" type="checkbox"> velocity vectors</label>
    <label><input id="trail" type="checkbox"> pointer trail</label>
    </div>
    <div class="controls" id="inputs" hidden aria-label="inputs"></div>
    <div class="controls" id="savebox" hidden>
    <label>trace <input id="tracename" value="gesture.csv" size="18"></label>
    <label><input id="savescene" type="checkbox" checked> and a copy of the scene replaying it:</label>
    <input id="scenename" value="scene-recorded.yaml" size="22">
    <button id="save" type="button">Save</button>
    <span id="saved" class="hint"></span>
    </div>
    <div class="readout"><span id="status">connecting…</span> · <span id="time">t = 0 s</span> <span id="frame">frame 0</span></div>
    <div class="events">events: <span id="events">none</span></div>
    <div class="events" id="stateline" hidden>states: <span id="states"></span></div>
    <details open><summary>event log</summary><ol id="log"></ol></details>
    <p class="hint">Drag with a mouse, a finger or a pen: the real engine runs on the server. Saving the scene file reloads it.</p>
    </main>
    <script>

    """ + SceneRendererScript.source + script + """
      </script>
      </body>
      </html>

      """
}
