// The live preview (`scenec preview`): sends the page's pointer events to the engine over
// a WebSocket and draws the frames it sends back with SceneRenderer, the HTML player's own
// renderer. The server steps the real engine; this page only forwards input and draws.
(function () {
  "use strict";
  function $(id) { return document.getElementById(id); }
  var canvas = $("stage");
  var statusText = $("status"), timeText = $("time"), frameText = $("frame");
  var eventsText = $("events"), logList = $("log"), problems = $("problems");
  var recordButton = $("record"), saveBox = $("savebox"), savedText = $("saved");
  var options = { paths: true, points: true, trail: true, vectors: false };
  var KEEP = 64, LOG_LIMIT = 1000;
  var socket = null, scene = null, renderer = null, frames = [], drawn = null;
  var pending = false, recording = false, sceneVersion = 0, namesEdited = false;
  var pointerIds = {}, nextPointer = 0;

  // What tests and tools may read: the scene, the last frame received and the last drawn.
  window.scenecPreview = {
    get scene() { return scene; },
    get lastFrame() { return frames.length ? frames[frames.length - 1] : null; },
    get drawnFrame() { return drawn; },
    get sceneVersion() { return sceneVersion; },
    get connected() { return socket !== null && socket.readyState === 1; },
    toScene: function (x, y) { return renderer ? renderer.toScene(x, y) : null; },
    toClient: function (x, y) { return renderer ? renderer.toClient(x, y) : null; }
  };

  function send(message) {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify(message));
  }

  function connect() {
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    socket = new WebSocket(url);
    statusText.textContent = "connecting…";
    socket.onopen = function () { statusText.textContent = "connected"; };
    socket.onclose = function () {
      statusText.textContent = "disconnected: reconnecting…";
      socket = null;
      setTimeout(connect, 500);
    };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      receive(message);
    };
  }

  function receive(message) {
    switch (message.type) {
      case "scene":
        scene = message.scene;
        sceneVersion += 1;
        frames = [];
        drawn = null;
        logList.textContent = "";
        renderer = SceneRenderer.create(canvas, scene);
        renderer.layout([]);
        makeInputControls(scene.inputs || []);
        $("stateline").hidden = !(scene.machines && scene.machines.length);
        document.title = scene.name + " — scenec preview";
        $("title").textContent = scene.name;
        break;
      case "frame":
        // The first frame sizes the view, so points outside the scene's canvas show.
        if (!frames.length && !drawn) renderer.layout([message.frame]);
        frames.push(message.frame);
        if (frames.length > KEEP) frames.splice(0, frames.length - KEEP);
        log(message.frame);
        if (!pending) {
          pending = true;
          requestAnimationFrame(draw);
          // Where animation frames are throttled (a background tab, some headless
          // browsers), draw anyway, at a slower pace.
          setTimeout(function () { if (pending) draw(); }, 100);
        }
        break;
      case "diagnostics":
        problems.textContent = message.text;
        problems.hidden = !message.text;
        break;
      case "state":
        recording = message.recording;
        recordButton.textContent = recording ? "■ Stop recording" : "● Record";
        $("pause").textContent = message.paused ? "▶ Resume" : "❚❚ Pause";
        $("speed").value = String(message.speed);
        saveBox.hidden = !message.canSave;
        // Names from the scene's own, until the user types others.
        if (!namesEdited && message.traceName) {
          $("tracename").value = message.traceName;
          $("scenename").value = message.sceneName;
        }
        statusText.textContent = message.playingScript ? "playing the scene's gesture" : "live";
        break;
      case "saved":
        savedText.textContent = message.message || "saved " + message.files.join(" and ");
        break;
      case "confirm":
        // The server asks; only its token, sent back, lets a save replace a file.
        if (window.confirm(message.message)) {
          save(message.token);
        } else {
          savedText.textContent = "not saved: the existing files were kept";
        }
        break;
      case "notice":
        savedText.textContent = message.message;
        break;
      case "error":
        savedText.textContent = "";
        statusText.textContent = "error: " + message.message;
        break;
    }
  }

  function draw() {
    pending = false;
    if (!renderer || !frames.length) return;
    var index = frames.length - 1;
    renderer.draw(frames, index, options);
    drawn = frames[index];
    var f = frames[index];
    timeText.textContent = "t = " + f.t.toFixed(3) + " s";
    frameText.textContent = "frame " + f.i;
    eventsText.textContent = f.e.length ? f.e.map(describe).join(", ") : "none";
    if (f.s && scene.machines) {
      $("states").textContent = f.s.map(function (state, k) {
        return scene.machines[k] + ": " + state;
      }).join(", ");
    }
    if (f["in"]) showInputs(f["in"]);
  }

  function describe(e) {
    if (e[0] === "state") return e[1] + ": " + e[3] + " → " + e[2];
    return e[0] + " " + e[1] + (e.length > 2 ? " to " + e[2] : "");
  }

  // A control for each input: a checkbox for a boolean, a slider over its range (or a
  // number field without one) for a number, a button for a trigger. Each sets the input
  // on the running engine; the frames say what each input is, so a value the scene's
  // gesture sets shows too.
  var inputControls = [];
  function makeInputControls(inputs) {
    var box = $("inputs");
    box.textContent = "";
    inputControls = [];
    inputs.forEach(function (input, k) {
      var label = document.createElement("label");
      var control;
      if (input.kind === "trigger") {
        control = document.createElement("button");
        control.type = "button";
        control.textContent = input.name;
        control.addEventListener("click", function () {
          send({ type: "input", name: input.name, value: 1 });
        });
        box.appendChild(control);
        inputControls.push(null);
        return;
      }
      control = document.createElement("input");
      control.id = "input-" + input.name;
      if (input.kind === "boolean") {
        control.type = "checkbox";
        control.checked = input.value !== 0;
        control.addEventListener("change", function () {
          send({ type: "input", name: input.name, value: control.checked ? 1 : 0 });
        });
        label.appendChild(control);
        label.appendChild(document.createTextNode(" " + input.name));
      } else {
        var ranged = input.min !== undefined && input.max !== undefined;
        control.type = ranged ? "range" : "number";
        if (input.min !== undefined) control.min = String(input.min);
        if (input.max !== undefined) control.max = String(input.max);
        control.step = "any";
        control.value = String(input.value);
        var shown = document.createElement("span");
        shown.textContent = " " + input.value;
        control.addEventListener("input", function () {
          var value = parseFloat(control.value);
          if (!isFinite(value)) return;
          shown.textContent = " " + value;
          send({ type: "input", name: input.name, value: value });
        });
        label.appendChild(document.createTextNode(input.name + " "));
        label.appendChild(control);
        label.appendChild(shown);
        control.shown = shown;
      }
      box.appendChild(label);
      inputControls.push(control);
    });
    box.hidden = inputs.length === 0;
  }

  function showInputs(values) {
    values.forEach(function (value, k) {
      var control = inputControls[k];
      // Not while the user holds it.
      if (!control || control === document.activeElement && control.type !== "checkbox") return;
      if (control.type === "checkbox") {
        control.checked = value !== 0;
      } else if (parseFloat(control.value) !== value) {
        control.value = String(value);
        if (control.shown) control.shown.textContent = " " + value;
      }
    });
  }

  function log(f) {
    f.e.forEach(function (e) {
      var item = document.createElement("li");
      item.textContent = f.t.toFixed(3) + " s  frame " + f.i + "  " + describe(e);
      logList.appendChild(item);
    });
    while (logList.childNodes.length > LOG_LIMIT) logList.removeChild(logList.firstChild);
    logList.scrollTop = logList.scrollHeight;
  }

  // Pointer Events, every kind (mouse, touch, pen), several at once by pointerId; each
  // browser pointer becomes a small engine pointer id, reused once it lifts.
  function pointer(phase, event) {
    if (!renderer) return;
    var id = pointerIds[event.pointerId];
    if (phase === "down") {
      if (id === undefined) {
        var used = {};
        Object.keys(pointerIds).forEach(function (k) { used[pointerIds[k]] = true; });
        for (id = 0; used[id]; id++) {}
        pointerIds[event.pointerId] = id;
      }
    } else if (id === undefined) {
      return;
    }
    var p = renderer.toScene(event.clientX, event.clientY);
    send({ type: "pointer", phase: phase, id: id, x: p.x, y: p.y });
    if (phase === "up" || phase === "cancel") delete pointerIds[event.pointerId];
  }

  canvas.addEventListener("pointerdown", function (event) {
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    pointer("down", event);
  });
  canvas.addEventListener("pointermove", function (event) {
    if (pointerIds[event.pointerId] === undefined) return;
    event.preventDefault();
    var events = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
    pointer("move", events.length ? events[events.length - 1] : event);
  });
  canvas.addEventListener("pointerup", function (event) { pointer("up", event); });
  canvas.addEventListener("pointercancel", function (event) { pointer("cancel", event); });

  function control(action) { send({ type: "control", action: action }); }
  $("script").addEventListener("click", function () { control("script"); });
  $("pause").addEventListener("click", function () { control("toggle"); });
  $("step").addEventListener("click", function () { control("step"); });
  $("restart").addEventListener("click", function () { control("restart"); });
  $("speed").addEventListener("change", function () {
    send({ type: "speed", value: parseFloat($("speed").value) || 1 });
  });
  recordButton.addEventListener("click", function () {
    control(recording ? "stop-recording" : "record");
  });
  function save(token) {
    var message = {
      type: "save", trace: $("tracename").value, scene: $("savescene").checked ? $("scenename").value : null
    };
    if (token) message.confirm = token;
    savedText.textContent = "saving…";
    send(message);
  }
  $("save").addEventListener("click", function () { save(null); });
  ["tracename", "scenename"].forEach(function (name) {
    $(name).addEventListener("input", function () { namesEdited = true; });
  });
  ["paths", "points", "trail", "vectors"].forEach(function (name) {
    var box = $(name);
    box.checked = options[name];
    box.addEventListener("change", function () { options[name] = box.checked; draw(); });
  });

  connect();
})();
