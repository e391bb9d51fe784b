// The interactive page (`scenec run FILE -o x.html --interactive`): the scene runs in
// scenec's engine compiled to WebAssembly, in the page. Pointers (mouse, touch, pen,
// several at once) go to the engine at their own moments; the engine makes each frame at
// the scene's rate and the shared renderer draws it. What has been played is kept (the
// take), so the slider goes back to any frame of it, exactly as it was made; playing on
// from there replays the take until a pointer takes over.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var TAKE_LIMIT = 36000; // ten minutes at 60 fps of frames kept for the slider
  var scene = JSON.parse($("scene").textContent);
  var source = JSON.parse($("source").textContent);
  var traces = JSON.parse($("traces").textContent);
  var canvas = $("stage"), status = $("status"), scrub = $("scrub"), logList = $("log");
  var renderer = SceneRenderer.create(canvas, scene);
  var options = { paths: true, points: false, vectors: false, trail: false };
  var engine = null, memory = null;
  var take = [], shown = -1, paused = false, lastFrameAt = 0, startedAt = 0, made = 0;
  var pointerIds = {};
  var state = {
    ready: false, problem: null, frames: 0, errors: [],
    get shown() { return take[shown] || null; },
    get take() { return take.length; },
    at: function (index) { return take[index] || null; },
    toClient: function (x, y) { return renderer.toClient(x, y); }
  };
  window.scenecInteractive = state;
  // Every script error is kept, for whoever checks the page (a test) to see.
  window.addEventListener("error", function (e) { state.errors.push(String(e.message)); });
  window.addEventListener("unhandledrejection", function (e) { state.errors.push(String(e.reason)); });
  renderer.layout([]);
  // On a phone too, the canvas and the controls under it fit the window.
  renderer.fit(220);
  window.addEventListener("resize", function () { renderer.fit(220); });
  renderer.draw([], 0, options);

  function output() {
    return new TextDecoder().decode(new Uint8Array(memory.buffer, engine.scenec_output(), engine.scenec_output_length()));
  }

  function fail(message) {
    state.problem = message;
    status.textContent = message;
    status.className = "readout problem";
    ["gesture", "pause", "reset"].forEach(function (id) { $(id).disabled = true; });
  }

  // Calls an engine function; a non-zero answer or a trap stops the page with the reason.
  function call(name) {
    var args = Array.prototype.slice.call(arguments, 1);
    try {
      var answer = engine[name].apply(null, args);
      if (answer !== 0) fail(output());
      return answer === 0;
    } catch (error) {
      var said = "";
      try { engine.scenec_console(); said = output(); } catch (ignored) {}
      fail("the engine stopped (" + error.message + ")" + (said ? ": " + said : ""));
      return false;
    }
  }

  function start() {
    var text = atob($("engine").textContent.trim());
    var bytes = new Uint8Array(text.length);
    for (var k = 0; k < text.length; k++) bytes[k] = text.charCodeAt(k);
    WebAssembly.instantiate(bytes, {}).then(function (result) {
      engine = result.instance.exports;
      memory = engine.memory;
      // The traces the gesture replays go first: the scene binds them as it loads.
      var names = Object.keys(traces);
      for (var k = 0; k < names.length; k++) {
        var nameLength = new TextEncoder().encode(names[k]).length;
        var total = writeInput(names[k] + traces[names[k]]);
        if (!call("scenec_add_trace", nameLength, total - nameLength)) return;
      }
      if (!call("scenec_load", writeInput(source), scene.precision)) return;
      showInputs = SceneControls.inputs($("inputs"), scene.inputs || [], setInput);
      status.textContent = "drag the handles";
      ["gesture", "pause", "reset"].forEach(function (id) { $(id).disabled = false; });
      state.ready = true;
      restartClock();
      requestAnimationFrame(tick);
    }, function (error) { fail("the engine could not start: " + error.message); });
  }

  function restartClock() {
    startedAt = performance.now();
    made = 0;
  }

  // Makes the frames due since the clock started (at most four a tick, so a slow
  // machine slows the scene rather than freezing the page).
  function tick(now) {
    if (!state.problem && !paused) {
      var due = Math.floor((now - startedAt) / 1000 * scene.fps) + 1;
      if (due - made > 4) { startedAt = now - made / scene.fps * 1000; due = made + 1; }
      var latest = null;
      while (made < due) {
        if (!call("scenec_frame", 1)) return;
        latest = JSON.parse(output());
        lastFrameAt = now;
        made += 1;
        keep(latest);
      }
      if (latest) show(latest.i);
    }
    requestAnimationFrame(tick);
  }

  function keep(f) {
    if (f.i < TAKE_LIMIT) take[f.i] = f;
    state.frames += 1;
    log(f);
  }

  function show(index) {
    var f = take[index];
    if (!f) return;
    shown = index;
    renderer.draw(take, index, options);
    scrub.max = String(take.length - 1);
    scrub.value = String(index);
    $("time").textContent = "t = " + f.t.toFixed(3) + " s";
    $("frame").textContent = "frame " + f.i;
    $("events").textContent = f.e.length ? f.e.map(describe).join(", ") : "none";
    // A hidden handle (a gooey anchor whose link broke) is not moving either.
    var atRest = f.h.every(function (h) { return !h || h[4] === "idle" || h[4] === "hidden"; });
    $("rest").textContent = atRest ? "at rest" : "moving";
    if (f["in"]) showInputs(f["in"]);
  }

  // As the live preview says it: a machine's change of state as "machine: from → to".
  function describe(e) {
    if (e[0] === "state") return e[1] + ": " + e[3] + " → " + e[2];
    return e[0] + (e[1] === null || e[1] === undefined ? "" : " " + e[1]) + (e.length > 2 ? " to " + e[2] : "");
  }

  function log(f) {
    f.e.forEach(function (e) {
      var item = document.createElement("li");
      item.textContent = f.t.toFixed(3) + " s  frame " + f.i + "  " + describe(e);
      logList.appendChild(item);
    });
    while (logList.childNodes.length > 1000) logList.removeChild(logList.firstChild);
  }

  function setPaused(value) {
    paused = value;
    $("pause").textContent = paused ? "▶ Resume" : "❚❚ Pause";
    if (!paused) {
      // On from the frame shown: the clock starts there.
      startedAt = performance.now() - made / scene.fps * 1000;
    }
  }

  // Pointer Events, every kind, several at once by pointerId; each becomes a small engine
  // pointer id, reused once it lifts.
  var phases = { down: 0, move: 1, up: 2, cancel: 3 };
  function pointer(phase, event) {
    if (!state.ready || state.problem) return;
    var id = pointerIds[event.pointerId];
    if (phase === "down") {
      if (id === undefined) {
        var used = {};
        Object.keys(pointerIds).forEach(function (k) { used[pointerIds[k]] = true; });
        for (id = 0; used[id]; id++) {}
        if (id >= 32) return;
        pointerIds[event.pointerId] = id;
      }
      canvas.setPointerCapture(event.pointerId);
      // A press after going back takes over there: the engine drops the rest of the take.
      if (paused) setPaused(false);
    } else if (id === undefined) {
      return;
    }
    var p = renderer.toScene(event.clientX, event.clientY);
    if (!call("scenec_pointer", phases[phase], id, p.x, p.y, sinceLastFrame())) return;
    // A press while the take replays takes over: the engine drops the rest of it.
    if (phase === "down") take.length = Math.min(take.length, engine.scenec_furthest_frame() + 1);
    if (phase === "up" || phase === "cancel") delete pointerIds[event.pointerId];
    event.preventDefault();
  }
  canvas.addEventListener("pointerdown", function (e) { pointer("down", e); });
  canvas.addEventListener("pointermove", function (e) { pointer("move", e); });
  canvas.addEventListener("pointerup", function (e) { pointer("up", e); });
  canvas.addEventListener("pointercancel", function (e) { pointer("cancel", e); });

  // Text into the engine's input buffer; its length in bytes.
  function writeInput(text) {
    var encoded = new TextEncoder().encode(text);
    var at = engine.scenec_input(encoded.length);
    new Uint8Array(memory.buffer, at, encoded.length).set(encoded);
    return encoded.length;
  }

  // Seconds since the last frame was made, at most one frame: when an event happens.
  function sinceLastFrame() {
    return Math.min(Math.max((performance.now() - lastFrameAt) / 1000, 0), 1 / scene.fps);
  }

  // The live preview's controls for the scene's inputs; each sets the input in the engine
  // at its own moment.
  function setInput(name, value) {
    if (!state.ready || state.problem) return;
    if (paused) setPaused(false);
    if (!call("scenec_set_input", writeInput(name), value, sinceLastFrame())) return;
    // Setting an input while the take replays takes over, as a press does.
    take.length = Math.min(take.length, engine.scenec_furthest_frame() + 1);
  }
  var showInputs = function () {};

  $("gesture").addEventListener("click", function () {
    if (!call("scenec_play_script")) return;
    take = [];
    logList.textContent = "";
    pointerIds = {};
    restartClock();
    setPaused(false);
  });
  $("reset").addEventListener("click", function () {
    if (!call("scenec_restart")) return;
    take = [];
    logList.textContent = "";
    pointerIds = {};
    restartClock();
    setPaused(false);
  });
  $("pause").addEventListener("click", function () { setPaused(!paused); });
  scrub.addEventListener("input", function () {
    var index = Number(scrub.value);
    if (!take[index]) return;
    setPaused(true);
    // The engine goes back there too, so playing on replays the take from this frame.
    if (!call("scenec_seek", index, 1)) return;
    take[index] = JSON.parse(output());
    made = index + 1;
    show(index);
  });
  document.addEventListener("keydown", function (event) {
    if (event.target !== document.body || event.key !== " ") return;
    event.preventDefault();
    setPaused(!paused);
  });

  // The engine compiles in a frame or two: say so until it has.
  start();
})();
