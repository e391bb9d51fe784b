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
    main { max-width: 1200px; margin: 0 auto; padding: 12px; }
    .workbench { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
    .stage { flex: 1 1 360px; min-width: 0; }
    .panel { flex: 1 1 340px; min-width: 0; max-width: 560px; }
    .timeline { display: flex; align-items: center; gap: 8px; margin: 6px 0; }
    .timeline input[type=range] { flex: 1; }
    .tunable { display: grid; grid-template-columns: 1fr 5.5em; column-gap: 6px; align-items: center; margin: 4px 0; }
    .tunable span { grid-column: 1 / 3; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 12px; color: #555; }
    .tunable input[type=number] { width: 5em; }
    #graph { width: 100%; height: 200px; background: #fff; border: 1px solid #ccc; cursor: default; touch-action: auto; }
    .message { min-height: 1.4em; }
    details { margin: 6px 0; }
    summary { font-weight: 600; cursor: pointer; }
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
    <div class="workbench">
    <div class="stage">
    <canvas id="stage" width="400" height="300" aria-label="scene"></canvas>
    <div class="timeline">
    <button id="replay" type="button" title="Play this take again from its first frame">⟲ Replay</button>
    <input id="timeline" type="range" min="0" max="0" value="0" step="1" aria-label="timeline of this take">
    <span id="timelabel" class="hint">frame 0 of 0</span>
    </div>
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
    <label title="Hit radii, rests, bounds and the overdrag zone, snap targets and grids, path detents, and where a released handle is going"><input id="guides" type="checkbox"> guides</label>
    </div>
    <div class="controls" id="inputs" hidden aria-label="inputs"></div>
    <div class="controls" id="savebox" hidden>
    <label>trace <input id="tracename" value="gesture.csv" size="18"></label>
    <label><input id="savescene" type="checkbox" checked> and a copy of the scene replaying it:</label>
    <input id="scenename" value="scene-recorded.yaml" size="22">
    <button id="save" type="button">Save</button>
    <span id="saved" class="hint message"></span>
    </div>
    <div class="readout"><span id="status">connecting…</span> · <span id="rest">moving</span> · <span id="time">t = 0 s</span> <span id="frame">frame 0</span></div>
    <div class="events">events: <span id="events">none</span></div>
    <div class="events" id="stateline" hidden>states: <span id="states"></span></div>
    <details open><summary>event log</summary><ol id="log"></ol></details>
    <p class="hint">Drag with a mouse, a finger or a pen: the real engine runs on the server. Saving the scene file reloads it.</p>
    </div>
    <div class="panel">
    <details id="tuning" open><summary>Tune</summary>
    <div id="tunables"><span class="hint">no numbers to tune</span></div>
    <div class="controls">
    <button id="savetuning" type="button" disabled title="Write the tuned numbers into the scene file">Save to file</button>
    <label><input id="autosave" type="checkbox"> save as I tune</label>
    </div>
    <div id="tunestatus" class="hint message"></div>
    </details>
    <details id="graphs" open><summary>Graph</summary>
    <div class="controls">
    <select id="graphhandle" aria-label="handle to graph"></select>
    <label><input id="graph-x" type="checkbox"> x</label>
    <label><input id="graph-y" type="checkbox" checked> y</label>
    <label><input id="graph-speed" type="checkbox"> speed</label>
    <label><input id="graph-angle" type="checkbox"> angle</label>
    <input id="graphexpr" size="22" placeholder="and an expression: c.y - 50" aria-label="expression to graph" spellcheck="false">
    </div>
    <div id="graphproblem" class="hint message"></div>
    <canvas id="graph" width="560" height="200" aria-label="graph of the handle's values over time"></canvas>
    <div class="hint">Dashed lines: the handle's events and state changes; the grey line is the frame shown; the green band, once the handle has settled, is its spring's rest threshold; the purple line is the expression (handles' x, y, angle and r, t, + − × ÷ ^ and abs, sqrt, min, max, hypot, sin, cos, atan2, round, floor, ceil). Click the graph to go to that time.</div>
    </details>
    </div>
    </div>
    </main>
    <script>

    """ + SceneRendererScript.source + SceneRendererScript.controls + script + """
      </script>
      </body>
      </html>

      """
}
