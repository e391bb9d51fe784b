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
  // Every frame of this take the page was sent, by frame index, for the graph and the
  // timeline; a take made again (tuned) arrives whole in a `history` message.
  var restThresholds = [];
  var history = [], HISTORY_LIMIT = 36000, furthest = -1, shownFrame = -1, replaying = false;
  var timeline = $("timeline"), scrubbing = false;
  var tunables = [], tuneControls = [], tuneTimer = null, tuneQueued = null, saveTimer = null;

  // What tests and tools may read: the scene, the last frame received and the last drawn.
  window.scenecPreview = {
    get scene() { return scene; },
    get lastFrame() { return frames.length ? frames[frames.length - 1] : null; },
    get drawnFrame() { return drawn; },
    get sceneVersion() { return sceneVersion; },
    get connected() { return socket !== null && socket.readyState === 1; },
    get tunables() { return tunables; },
    get historyLength() { return history.length; },
    // The values the graph draws for `name`'s `value` (x, y, speed, angle): [t, v, frame]
    // for each frame the page has (a page that reads slowly misses some live frames).
    graphSeries: function (name, value) { return series(handleIndex(name), value); },
    expressionSeries: function (text) { return expressionSeries(text); },
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
        restThresholds = message.restThresholds || [];
        sceneVersion += 1;
        frames = [];
        drawn = null;
        logList.textContent = "";
        renderer = SceneRenderer.create(canvas, scene);
        renderer.layout([]);
        showInputs = SceneControls.inputs($("inputs"), scene.inputs || [], function (name, value) {
          send({ type: "input", name: name, value: value });
        });
        if (!message.keepHistory) { history = []; forgetGaps(); }
        lastPick = -1;
        fillGraphHandles();
        fit();
        // A new connection starts without guides: ask again.
        if (showGuides) control("show-guides");
        $("stateline").hidden = !(scene.machines && scene.machines.length);
        document.title = scene.name + " — scenec preview";
        $("title").textContent = scene.name;
        break;
      case "frame":
        // The first frame sizes the view, so points outside the scene's canvas show.
        // The guides come beside the frame, when asked for.
        if (message.guides) message.frame.guides = message.guides;
        if (!frames.length && !drawn) { renderer.layout([message.frame]); fit(); }
        noteGap(message.frame.i);
        remember(message.frame);
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
      case "history":
        if (!message.merge) { history = []; forgetGaps(); }
        message.frames.forEach(function (f) {
          // A frame the page missed: its events join the log, in their place.
          if (message.merge && !history[f.i] && f.e && f.e.length) log(f, true);
          remember(f);
        });
        if (message.merge) askForGaps();
        drawGraph();
        break;
      case "tunables":
        showTunables(message);
        break;
      case "tuning-saved":
        $("tunestatus").textContent = message.message;
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
        statusText.textContent = message.replaying ? "replaying this take"
          : message.playingScript ? "playing the scene's gesture" : "live";
        replaying = message.replaying;
        if (message.furthest !== undefined) {
          furthest = message.furthest;
          // Live input after going back drops the rest of the take.
          if (history.length > furthest + 1) history.length = furthest + 1;
          timeline.max = String(Math.max(furthest, 0));
          showTimeline(message.frame);
        }
        break;
      case "saved":
        savedText.textContent = message.message || "saved " + message.files.join(" and ");
        break;
      case "confirm":
        // The server asks; only its token, sent back, lets a save replace a file.
        if (window.confirm(message.message)) {
          save(message.token);
        } else {
          // The user's choice, not a failure.
          savedText.textContent = "not saved: the existing files were kept";
        }
        break;
      case "notice":
        savedText.textContent = message.message;
        break;
      case "error":
        savedText.textContent = "error: " + message.message;
        break;
    }
  }

  function draw() {
    pending = false;
    if (!renderer || !frames.length) return;
    var index = frames.length - 1;
    renderer.draw(frames, index, options);
    if (showGuides && frames[index].guides) drawGuides(frames[index]);
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
    // A hidden handle (a gooey anchor whose link broke) is not moving either.
    var atRest = f.h && f.h.every(function (h) { return !h || h[4] === "idle" || h[4] === "hidden"; });
    $("rest").textContent = atRest ? "at rest" : "moving";
    furthest = Math.max(furthest, f.i);
    timeline.max = String(furthest);
    showTimeline(f.i);
    drawGraph();
  }

  // MARK: guides

  var showGuides = false;
  $("guides").addEventListener("change", function () {
    showGuides = $("guides").checked;
    control(showGuides ? "show-guides" : "hide-guides");
  });

  // The scene's guides over the frame just drawn, in scene coordinates: grab radii
  // (dashed blue), rests (grey crosses), bounds (dashed orange, the overdrag zone beyond
  // them shaded), snap targets (diamonds) and grids (dots), path detents (green), and
  // where a released handle is going (purple).
  function drawGuides(f) {
    var ctx = canvas.getContext("2d");
    var box = canvas.getBoundingClientRect();
    if (!box.width) return;
    var o = renderer.toClient(0, 0), u = renderer.toClient(1, 0);
    var k = canvas.width / box.width, s = (u.x - o.x) * k;
    var view = renderer.toScene(box.left, box.top), far = renderer.toScene(box.right, box.bottom);
    ctx.save();
    ctx.setTransform(s, 0, 0, s, (o.x - box.left) * k, (o.y - box.top) * k);
    ctx.lineWidth = 1 / s;
    ctx.font = (10 / s) + "px system-ui, sans-serif";
    function open(v, fallback) { return v === null ? fallback : v; }
    f.guides.forEach(function (g) {
      var h = f.h[g.h];
      if (!h) return;
      if (g.bounds) {
        var x0 = open(g.bounds[0], view.x - 1e4), x1 = open(g.bounds[1], far.x + 1e4);
        var y0 = open(g.bounds[2], view.y - 1e4), y1 = open(g.bounds[3], far.y + 1e4);
        ctx.fillStyle = "rgba(255, 149, 0, 0.08)";
        ctx.beginPath();
        ctx.rect(view.x - 1e4, view.y - 1e4, far.x - view.x + 2e4, far.y - view.y + 2e4);
        ctx.rect(x0, y0, x1 - x0, y1 - y0);
        ctx.fill("evenodd");
        ctx.strokeStyle = "#ff9500";
        ctx.setLineDash([6 / s, 4 / s]);
        ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
      }
      if (g.hit) {
        ctx.strokeStyle = "rgba(10, 132, 255, 0.8)";
        ctx.setLineDash([3 / s, 3 / s]);
        ctx.beginPath(); ctx.arc(h[0], h[1], g.hit, 0, 2 * Math.PI); ctx.stroke();
      }
      ctx.setLineDash([]);
      if (g.rest) {
        var r = 5 / s;
        ctx.strokeStyle = "#8e8e93";
        ctx.beginPath();
        ctx.moveTo(g.rest[0] - r, g.rest[1] - r); ctx.lineTo(g.rest[0] + r, g.rest[1] + r);
        ctx.moveTo(g.rest[0] + r, g.rest[1] - r); ctx.lineTo(g.rest[0] - r, g.rest[1] + r);
        ctx.stroke();
      }
      function mark(items, color, diamond) {
        (items || []).forEach(function (item) {
          var d = 5 / s;
          ctx.strokeStyle = ctx.fillStyle = color;
          ctx.beginPath();
          if (diamond) {
            ctx.moveTo(item[1], item[2] - d); ctx.lineTo(item[1] + d, item[2]);
            ctx.lineTo(item[1], item[2] + d); ctx.lineTo(item[1] - d, item[2]); ctx.closePath();
          } else {
            ctx.arc(item[1], item[2], d * 0.7, 0, 2 * Math.PI);
          }
          ctx.stroke();
          ctx.fillText(item[0], item[1] + d + 2 / s, item[2] - d);
        });
      }
      mark(g.snap, "#ff9500", true);
      mark(g.detents, "#30d158", false);
      if (g.grid && g.grid[0] > 0 && g.grid[1] > 0) {
        var cx = g.grid[0], cy = g.grid[1];
        var nx = Math.ceil((far.x - view.x) / cx), ny = Math.ceil((far.y - view.y) / cy);
        if (nx * ny <= 4000) {
          ctx.fillStyle = "rgba(255, 149, 0, 0.6)";
          var ix0 = Math.floor((view.x - g.grid[2]) / cx), iy0 = Math.floor((view.y - g.grid[3]) / cy);
          for (var i = ix0; i <= ix0 + nx + 1; i++) {
            for (var j = iy0; j <= iy0 + ny + 1; j++) {
              ctx.fillRect(g.grid[2] + i * cx - 1 / s, g.grid[3] + j * cy - 1 / s, 2 / s, 2 / s);
            }
          }
        }
      }
      if (g.to) {
        ctx.strokeStyle = "#bf5af2";
        ctx.setLineDash([2 / s, 3 / s]);
        ctx.beginPath(); ctx.moveTo(h[0], h[1]); ctx.lineTo(g.to[0], g.to[1]); ctx.stroke();
        ctx.setLineDash([]);
        ctx.beginPath(); ctx.arc(g.to[0], g.to[1], 6 / s, 0, 2 * Math.PI); ctx.stroke();
      }
    });
    ctx.restore();
  }

  // MARK: the timeline

  // A page that reads slowly misses live frames (the server keeps only the newest for
  // it): the frames between are asked for again, a few hundred at a time, and merged.
  var lastLive = -1, gaps = [], gapTimer = null, GAP_BATCH = 600;

  function forgetGaps() { lastLive = -1; gaps = []; }

  function noteGap(index) {
    if (index > lastLive + 1 && index < HISTORY_LIMIT) {
      gaps.push([lastLive + 1, index - 1]);
      if (!gapTimer) gapTimer = setTimeout(askForGaps, 200);
    }
    lastLive = index;
  }

  function askForGaps() {
    gapTimer = null;
    // Frames a replay or a history brought meanwhile need not be asked for.
    while (gaps.length) {
      while (gaps[0][0] <= gaps[0][1] && history[gaps[0][0]]) gaps[0][0] += 1;
      if (gaps[0][0] <= gaps[0][1]) break;
      gaps.shift();
    }
    if (!gaps.length) return;
    var gap = gaps[0], to = Math.min(gap[1], gap[0] + GAP_BATCH - 1);
    send({ type: "frames", from: gap[0], to: to });
    gap[0] = to + 1;
    if (gap[0] > gap[1]) gaps.shift();
  }

  function remember(f) {
    if (f.i >= HISTORY_LIMIT) return;
    history[f.i] = { t: f.t, h: f.h, e: f.e };
  }

  function showTimeline(index) {
    if (index === undefined || index < 0) return;
    shownFrame = index;
    if (!scrubbing) timeline.value = String(index);
    $("timelabel").textContent = "frame " + index + " of " + Math.max(furthest, 0);
  }

  timeline.addEventListener("input", function () {
    scrubbing = true;
    send({ type: "seek", frame: parseInt(timeline.value, 10) || 0 });
  });
  timeline.addEventListener("change", function () { scrubbing = false; });
  $("replay").addEventListener("click", function () { control("replay"); });

  // The canvas fills the width it is given, and no more of the window's height than
  // leaves the controls in view (the shared renderer's fit).
  function fit() {
    if (renderer) renderer.fit(220);
  }
  window.addEventListener("resize", function () { fit(); drawGraph(); });

  // MARK: tuning

  function showTunables(message) {
    var box = $("tunables");
    var numbers = message.numbers || [];
    var same = numbers.length === tunables.length && numbers.every(function (n, k) {
      return n.path === tunables[k].path;
    });
    tunables = numbers;
    if (!same) {
      box.textContent = "";
      tuneControls = [];
      numbers.forEach(function (number, k) {
        var row = document.createElement("label");
        row.className = "tunable";
        var name = document.createElement("span");
        // `springs.wave.dampingRatio` reads as `wave dampingRatio`.
        name.textContent = number.path.replace(/^(springs|let|constraints)\./, "").split(".").join(" · ")
          + (number.unit ? " (" + number.unit + ")" : "");
        name.title = number.path + " (line " + number.line + ")";
        var slider = document.createElement("input");
        slider.type = "range";
        slider.id = "tune-" + k;
        var field = document.createElement("input");
        field.type = "number";
        field.setAttribute("aria-label", number.path);
        [slider, field].forEach(function (control) {
          control.addEventListener("input", function () {
            var value = parseFloat(control.value);
            if (!isFinite(value)) return;
            var n = tunables[k];
            value = Math.min(Math.max(value, n.min), n.max);
            (control === slider ? field : slider).value = String(value);
            tune(k, value);
          });
        });
        row.appendChild(name);
        row.appendChild(slider);
        row.appendChild(field);
        box.appendChild(row);
        tuneControls.push({ slider: slider, field: field });
      });
      if (!numbers.length) box.innerHTML = '<span class="hint">no numbers to tune</span>';
    }
    numbers.forEach(function (number, k) {
      var c = tuneControls[k];
      [c.slider, c.field].forEach(function (control) {
        control.min = String(number.min);
        control.max = String(number.max);
        control.step = String(number.step);
        // Not under the user's hand.
        if (control !== document.activeElement && tuneQueued === null) control.value = String(number.value);
      });
    });
    $("savetuning").disabled = !message.unsaved;
    var status = $("tunestatus");
    if (message.unsaved) {
      status.textContent = "not saved: " + message.changes.join(", ");
    } else if (status.textContent.indexOf("not saved") === 0) {
      status.textContent = "";
    }
    if (message.unsaved && $("autosave").checked) {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(function () { send({ type: "save-tuning" }); }, 400);
    }
  }

  // At most one tune message every 50 ms while a slider moves; the last value always goes.
  function tune(index, value) {
    tuneQueued = { index: index, value: value };
    if (tuneTimer !== null) return;
    (function flush() {
      if (tuneQueued === null) { tuneTimer = null; return; }
      send({ type: "tune", index: tuneQueued.index, value: tuneQueued.value });
      tuneQueued = null;
      tuneTimer = setTimeout(flush, 50);
    })();
  }

  $("savetuning").addEventListener("click", function () { send({ type: "save-tuning" }); });

  // MARK: the graph

  var graphCanvas = $("graph");
  var GRAPH_COLORS = { x: "#0a84ff", y: "#ff375f", speed: "#30d158", angle: "#ff9f0a", expression: "#bf5af2" };

  function fillGraphHandles() {
    var select = $("graphhandle");
    var previous = select.value;
    select.textContent = "";
    scene.handles.forEach(function (h) {
      var option = document.createElement("option");
      option.value = h.name;
      option.textContent = h.name;
      select.appendChild(option);
    });
    if (scene.handles.some(function (h) { return h.name === previous; })) select.value = previous;
  }

  // Until the user picks a handle, the graph shows the one that has moved furthest.
  var handlePicked = false, lastPick = -1;
  $("graphhandle").addEventListener("change", function () { handlePicked = true; });
  function autoPick() {
    if (handlePicked || !scene || scene.handles.length > 256) return;
    if (lastPick >= 0 && history.length - lastPick < 30) return;
    lastPick = history.length;
    var best = -1, bestRange = 0;
    scene.handles.forEach(function (h, k) {
      var range = 0;
      ["x", "y"].forEach(function (v) {
        var s = series(k, v), lo = Infinity, hi = -Infinity;
        s.forEach(function (p) { lo = Math.min(lo, p[1]); hi = Math.max(hi, p[1]); });
        if (s.length) range = Math.max(range, hi - lo);
      });
      if (range > bestRange + 1e-9) { best = k; bestRange = range; }
    });
    if (best >= 0) $("graphhandle").value = scene.handles[best].name;
  }

  function handleIndex(name) {
    if (!scene) return -1;
    for (var k = 0; k < scene.handles.length; k++) if (scene.handles[k].name === name) return k;
    return -1;
  }

  // [t, value, frame] for each frame of the take the page has: x, y and angle as the
  // frames give them, speed as the distance from the frame before over the time step.
  function series(k, value) {
    var out = [];
    if (k < 0) return out;
    var fps = scene.fps || 60, before = null;
    for (var i = 0; i < history.length; i++) {
      var f = history[i];
      if (!f || !f.h || !f.h[k]) { before = null; continue; }
      var h = f.h[k], v;
      if (value === "x") v = h[0];
      else if (value === "y") v = h[1];
      else if (value === "angle") v = h[2];
      else if (before) v = Math.hypot(h[0] - before[0], h[1] - before[1]) * fps;
      else if (i === 0) v = 0;
      else { before = h; continue; }  // After a missing frame: no speed to tell.
      out.push([f.t, v, i]);
      before = h;
    }
    return out;
  }

  // An expression typed under the graph (`c.y - 50`, `hypot(c.x - l1.x, c.y - l1.y)`),
  // over the frames' handle values: numbers, `NAME.x`, `.y`, `.angle`, `.r`, `t`,
  // + - * / ^, parentheses and a few functions. Parsed here, by hand: the page runs no
  // code it is given.
  var FUNCTIONS = {
    abs: Math.abs, sqrt: Math.sqrt, min: Math.min, max: Math.max, hypot: Math.hypot,
    sin: Math.sin, cos: Math.cos, atan2: Math.atan2, round: Math.round, floor: Math.floor,
    ceil: Math.ceil
  };
  var FIELDS = { x: 0, y: 1, angle: 2, r: 3 };

  function compileExpression(text) {
    var tokens = [], i = 0;
    while (i < text.length) {
      var c = text[i];
      if (/\s/.test(c)) { i++; continue; }
      var number = /^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(text.slice(i));
      if (number) { tokens.push({ kind: "number", value: parseFloat(number[0]), at: i }); i += number[0].length; continue; }
      var name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
      if (name) { tokens.push({ kind: "name", value: name[0], at: i }); i += name[0].length; continue; }
      if ("+-*/^(),.".indexOf(c) >= 0) { tokens.push({ kind: c, at: i }); i++; continue; }
      throw new Error("unexpected '" + c + "' at column " + (i + 1));
    }
    var k = 0;
    function peek(kind) { return k < tokens.length && tokens[k].kind === kind; }
    function expect(kind) {
      if (!peek(kind)) throw new Error("expected '" + kind + "'" + (k < tokens.length ? " at column " + (tokens[k].at + 1) : " at the end"));
      return tokens[k++];
    }
    function sum() {
      var left = product();
      while (peek("+") || peek("-")) {
        var op = tokens[k++].kind, a = left, b = product();
        left = op === "+" ? function (f) { return a(f) + b(f); } : function (f) { return a(f) - b(f); };
      }
      return left;
    }
    function product() {
      var left = unary();
      while (peek("*") || peek("/")) {
        var op = tokens[k++].kind, a = left, b = unary();
        left = op === "*" ? function (f) { return a(f) * b(f); } : function (f) { return a(f) / b(f); };
      }
      return left;
    }
    function unary() {
      if (peek("-")) { k++; var a = unary(); return function (f) { return -a(f); }; }
      var base = primary();
      if (peek("^")) { k++; var e = unary(); return function (f) { return Math.pow(base(f), e(f)); }; }
      return base;
    }
    function primary() {
      if (peek("number")) { var v = tokens[k++].value; return function () { return v; }; }
      if (peek("(")) { k++; var inner = sum(); expect(")"); return inner; }
      var token = expect("name");
      if (peek("(")) {
        var fn = FUNCTIONS[token.value];
        if (!fn) throw new Error("unknown function '" + token.value + "'");
        k++;
        var args = [];
        if (!peek(")")) { args.push(sum()); while (peek(",")) { k++; args.push(sum()); } }
        expect(")");
        return function (f) { return fn.apply(null, args.map(function (a) { return a(f); })); };
      }
      if (token.value === "t" && !peek(".")) return function (f) { return f.t; };
      var index = handleIndex(token.value);
      if (index < 0) throw new Error("unknown handle '" + token.value + "'");
      expect(".");
      var field = expect("name").value;
      if (!(field in FIELDS)) throw new Error("'" + field + "' is not x, y, angle or r");
      var slot = FIELDS[field];
      return function (f) { return f.h && f.h[index] ? f.h[index][slot] : NaN; };
    }
    var compiled = sum();
    if (k < tokens.length) throw new Error("unexpected '" + (tokens[k].value || tokens[k].kind) + "' at column " + (tokens[k].at + 1));
    return compiled;
  }

  // [t, value, frame] of the typed expression for each frame the page has; throws what
  // is wrong with it.
  function expressionSeries(text) {
    var evaluate = compileExpression(text), out = [];
    history.forEach(function (f, i) {
      if (!f) return;
      var v = evaluate(f);
      if (isFinite(v)) out.push([f.t, v, i]);
    });
    return out;
  }

  function drawGraph() {
    if (!scene || $("graphs").open === false) return;
    autoPick();
    var ratio = window.devicePixelRatio || 1;
    var w = graphCanvas.clientWidth || 560, hgt = graphCanvas.clientHeight || 200;
    if (graphCanvas.width !== Math.round(w * ratio)) graphCanvas.width = Math.round(w * ratio);
    if (graphCanvas.height !== Math.round(hgt * ratio)) graphCanvas.height = Math.round(hgt * ratio);
    var g = graphCanvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, w, hgt);
    var k = handleIndex($("graphhandle").value);
    var values = ["x", "y", "speed", "angle"].filter(function (v) { return $("graph-" + v).checked; });
    var lines = values.map(function (v) { return { name: v, points: series(k, v) }; });
    var typed = $("graphexpr").value.trim();
    $("graphproblem").textContent = "";
    if (typed) {
      try {
        lines.push({ name: "expression", points: expressionSeries(typed) });
      } catch (error) {
        $("graphproblem").textContent = typed + ": " + error.message;
      }
    }
    var t0 = Infinity, t1 = -Infinity, v0 = Infinity, v1 = -Infinity;
    lines.forEach(function (line) {
      line.points.forEach(function (p) {
        t0 = Math.min(t0, p[0]); t1 = Math.max(t1, p[0]);
        v0 = Math.min(v0, p[1]); v1 = Math.max(v1, p[1]);
      });
    });
    if (!isFinite(t0)) return;
    if (t1 - t0 < 1e-9) t1 = t0 + 1;
    if (v1 - v0 < 1e-9) { v0 -= 1; v1 += 1; }
    var pad = (v1 - v0) * 0.08; v0 -= pad; v1 += pad;
    var left = 44, right = 8, top = 8, bottom = 18;
    function X(t) { return left + (t - t0) / (t1 - t0) * (w - left - right); }
    function Y(v) { return top + (v1 - v) / (v1 - v0) * (hgt - top - bottom); }
    g.font = "10px system-ui, sans-serif";
    g.fillStyle = "#666";
    g.strokeStyle = "#e5e5ea";
    g.lineWidth = 1;
    [v0 + pad, (v0 + v1) / 2, v1 - pad].forEach(function (v) {
      g.beginPath(); g.moveTo(left, Y(v)); g.lineTo(w - right, Y(v)); g.stroke();
      g.fillText(v.toFixed(Math.abs(v) < 10 ? 2 : 0), 2, Y(v) + 3);
    });
    g.fillText(t0.toFixed(2) + " s", left, hgt - 4);
    // The rest threshold around where the handle settled, once it has: its spring calls
    // it at rest within that band.
    var last = history[history.length - 1], threshold = restThresholds[k];
    if (last && last.h && last.h[k] && last.h[k][4] === "idle" && threshold) {
      g.fillStyle = "rgba(48, 209, 88, 0.18)";
      lines.forEach(function (line) {
        if (line.name !== "x" && line.name !== "y" || !line.points.length) return;
        var settled = line.points[line.points.length - 1][1];
        var yTop = Y(settled + threshold), yBottom = Y(settled - threshold);
        g.fillRect(left, yTop, w - left - right, Math.max(1, yBottom - yTop));
      });
      g.fillStyle = "#666";
    }
    g.fillText(t1.toFixed(2) + " s", w - right - 40, hgt - 4);
    // Events of this handle, and state changes, as dashed lines.
    g.setLineDash([4, 3]);
    g.strokeStyle = "#8e8e93";
    var name = k >= 0 ? scene.handles[k].name : "";
    history.forEach(function (f) {
      if (!f || !f.e || !f.e.length) return;
      var mine = f.e.filter(function (e) { return e[0] === "state" || e[1] === name; });
      if (!mine.length) return;
      var x = X(f.t);
      g.beginPath(); g.moveTo(x, top); g.lineTo(x, hgt - bottom); g.stroke();
      var label = mine.map(describe).join(", ");
      // Labels near the right edge read leftwards, so they stay in the graph.
      var leftwards = x > w * 0.6;
      g.textAlign = leftwards ? "right" : "left";
      g.fillText(label, leftwards ? x - 2 : x + 2, top + 9);
      g.textAlign = "left";
    });
    g.setLineDash([]);
    lines.forEach(function (line) {
      g.strokeStyle = GRAPH_COLORS[line.name];
      g.lineWidth = 1.5;
      g.beginPath();
      line.points.forEach(function (p, i) {
        if (i === 0) g.moveTo(X(p[0]), Y(p[1])); else g.lineTo(X(p[0]), Y(p[1]));
      });
      g.stroke();
    });
    // The frame shown.
    var shown = history[shownFrame];
    if (shown) {
      g.strokeStyle = "#3a3a3c";
      g.beginPath(); g.moveTo(X(shown.t), top); g.lineTo(X(shown.t), hgt - bottom); g.stroke();
    }
    graphCanvas.scale = { t0: t0, t1: t1, left: left, right: right, width: w };
  }

  graphCanvas.addEventListener("click", function (event) {
    var s = graphCanvas.scale;
    if (!s) return;
    var box = graphCanvas.getBoundingClientRect();
    var t = s.t0 + (event.clientX - box.left - s.left) / (s.width - s.left - s.right) * (s.t1 - s.t0);
    var best = -1;
    history.forEach(function (f, i) {
      if (f && (best < 0 || Math.abs(f.t - t) < Math.abs(history[best].t - t))) best = i;
    });
    if (best >= 0) send({ type: "seek", frame: best });
  });
  ["graphhandle", "graph-x", "graph-y", "graph-speed", "graph-angle"].forEach(function (id) {
    $(id).addEventListener("change", drawGraph);
  });
  $("graphexpr").addEventListener("input", drawGraph);
  $("graphs").addEventListener("toggle", drawGraph);

  function describe(e) {
    if (e[0] === "state") return e[1] + ": " + e[3] + " → " + e[2];
    return e[0] + " " + e[1] + (e.length > 2 ? " to " + e[2] : "");
  }

  // A control for each input (the shared renderer's); each sets the input on the running
  // engine, and the frames say what each input is, so a value the scene's gesture sets
  // shows too.
  var showInputs = function () {};

  function log(f, inPlace) {
    // In place: before the first entry of a later frame (a missed frame's events).
    var before = null;
    if (inPlace) {
      for (var node = logList.lastChild; node && Number(node.dataset.i) > f.i; node = node.previousSibling) before = node;
    }
    f.e.forEach(function (e) {
      var item = document.createElement("li");
      item.dataset.i = String(f.i);
      item.textContent = f.t.toFixed(3) + " s  frame " + f.i + "  " + describe(e);
      logList.insertBefore(item, before);
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
