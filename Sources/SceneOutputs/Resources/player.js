(function () {
  "use strict";
  var scene = JSON.parse(document.getElementById("scene").textContent);
  var frames = scene.frames, count = frames.length;
  function $(id) { return document.getElementById(id); }
  var canvas = $("stage"), ctx = canvas.getContext("2d");
  var playButton = $("play"), scrub = $("scrub"), speedSelect = $("speed"), loopBox = $("loop");
  var pointsBox = $("points"), trailBox = $("trail");
  var timeText = $("time"), frameText = $("frame"), eventsText = $("events"), logList = $("log");
  var TRAIL = 20, LOG_LIMIT = 1000;
  var step = scene.fps > 0 ? 1 / scene.fps : (count > 1 ? frames[1].t - frames[0].t : 0);

  var ratio = window.devicePixelRatio || 1;
  var view = viewBounds(scene, frames);
  canvas.width = Math.max(1, Math.round(view.width * ratio));
  canvas.height = Math.max(1, Math.round(view.height * ratio));
  canvas.style.width = view.width + "px";
  if (view.enlarged) {
    $("viewnote").textContent =
      "Some of the scene lies outside its " + scene.width + "×" + scene.height +
      " canvas: the view is enlarged to show it, with the canvas outlined (dashed).";
  }
  scrub.max = String(Math.max(0, count - 1));

  var index = 0, clock = count ? frames[0].t : 0, playing = false, run = 0, loggedThrough = -1;
  var pathCache = scene.paths.map(function () { return { d: null, shape: null }; });

  // The part of the plane to show: the scene's canvas, enlarged to take in every
  // handle (with its radius or size, and the control-point label) and pointer of every
  // frame, so nothing is cut off at the canvas edge without a word.
  function viewBounds(scene, frames) {
    var minX = 0, minY = 0, maxX = scene.width, maxY = scene.height;
    function include(x, y, pad) {
      if (!isFinite(x) || !isFinite(y)) return;
      minX = Math.min(minX, x - pad); maxX = Math.max(maxX, x + pad);
      minY = Math.min(minY, y - pad); maxY = Math.max(maxY, y + pad);
    }
    frames.forEach(function (f) {
      scene.handles.forEach(function (h, i) {
        var v = f.h[i];
        if (!v || v[4] === "hidden") return;
        if (h.shape === "none") {
          // A control point and its name, written to its right.
          include(v[0], v[1], 8);
          include(v[0] + 6 + 7 * h.name.length, v[1] - 6, 2);
          return;
        }
        var reach = h.shape === "rect" ? Math.sqrt(h.w * h.w + h.h * h.h) / 2 : v[3];
        include(v[0], v[1], (reach || 0) + 2);
      });
      f.ptr.forEach(function (q) { include(q[1], q[2], 10); });
    });
    var enlarged = minX < 0 || minY < 0 || maxX > scene.width || maxY > scene.height;
    return { x: minX, y: minY, width: maxX - minX, height: maxY - minY, enlarged: enlarged };
  }

  function pathShape(i, d) {
    var cached = pathCache[i];
    if (cached.d !== d) { cached.d = d; cached.shape = new Path2D(d); }
    return cached.shape;
  }

  function paint(style, shape) {
    ctx.globalAlpha = style.opacity;
    if (style.fill) { ctx.fillStyle = style.fill; ctx.fill(shape); }
    if (style.stroke && style.strokeWidth > 0) {
      ctx.lineWidth = style.strokeWidth;
      ctx.strokeStyle = style.stroke;
      ctx.stroke(shape);
    }
    ctx.globalAlpha = 1;
  }

  function drawHandles(f) {
    scene.handles.forEach(function (h, i) {
      var v = f.h[i];
      if (!v || v[4] === "hidden" || h.shape === "none") return;
      var shape = new Path2D();
      if (h.shape === "rect") {
        shape.rect(-h.w / 2, -h.h / 2, h.w, h.h);
      } else {
        if (!(v[3] > 0)) return;
        shape.arc(0, 0, v[3], 0, 2 * Math.PI);
      }
      ctx.save();
      ctx.translate(v[0], v[1]);
      ctx.rotate(v[2]);
      paint(h, shape);
      ctx.restore();
    });
  }

  function drawControlPoints(f) {
    ctx.font = "10px system-ui, sans-serif";
    ctx.lineWidth = 1.5;
    scene.handles.forEach(function (h, i) {
      var v = f.h[i];
      if (!v || v[4] === "hidden" || h.shape !== "none") return;
      ctx.beginPath();
      ctx.arc(v[0], v[1], v[4] === "dragging" ? 5 : 3.5, 0, 2 * Math.PI);
      ctx.fillStyle = v[4] === "dragging" ? "#ff8c00" : "#e0457b";
      ctx.strokeStyle = "#fff";
      ctx.fill();
      ctx.stroke();
      ctx.fillStyle = "#e0457b";
      ctx.fillText(h.name, v[0] + 6, v[1] - 6);
    });
  }

  // Each finger's trail over the last `length` frames up to `index`, as strokes: one
  // per touch, broken wherever the finger was up or gone, so one lift is never joined
  // to the next press. Returns { ids, strokes: { id: [[ptr, …], …] } }.
  function trailStrokes(frames, index, length) {
    var strokes = {}, ids = [];
    for (var k = Math.max(0, index - length + 1); k <= index; k++) {
      var seen = {};
      frames[k].ptr.forEach(function (q) {
        if (!strokes[q[0]]) { strokes[q[0]] = [[]]; ids.push(q[0]); }
        var list = strokes[q[0]];
        if (q[3]) list[list.length - 1].push(q); else if (list[list.length - 1].length) list.push([]);
        seen[q[0]] = true;
      });
      ids.forEach(function (id) {
        var list = strokes[id];
        if (!seen[id] && list[list.length - 1].length) list.push([]);
      });
    }
    ids.forEach(function (id) { strokes[id] = strokes[id].filter(function (s) { return s.length; }); });
    return { ids: ids, strokes: strokes };
  }

  function drawTrail() {
    var trail = trailStrokes(frames, index, TRAIL), strokes = trail.strokes, ids = trail.ids;
    var current = {};
    frames[index].ptr.forEach(function (q) { current[q[0]] = q; });
    ids.forEach(function (id) {
      strokes[id].forEach(function (points) {
        ctx.lineWidth = 2;
        ctx.strokeStyle = "rgba(30, 144, 255, 0.45)";
        ctx.beginPath();
        points.forEach(function (q, j) { if (j) ctx.lineTo(q[1], q[2]); else ctx.moveTo(q[1], q[2]); });
        ctx.stroke();
        points.forEach(function (q, j) {
          ctx.globalAlpha = (j + 1) / points.length;
          ctx.fillStyle = "#1e90ff";
          ctx.beginPath();
          ctx.arc(q[1], q[2], 2, 0, 2 * Math.PI);
          ctx.fill();
        });
        ctx.globalAlpha = 1;
      });
      var now = current[id];
      if (!now) return;
      ctx.beginPath();
      ctx.arc(now[1], now[2], 9, 0, 2 * Math.PI);
      ctx.strokeStyle = "#1e90ff";
      ctx.stroke();
      if (now[3]) { ctx.fillStyle = "rgba(30, 144, 255, 0.3)"; ctx.fill(); }
    });
  }

  function draw() {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(ratio, 0, 0, ratio, -view.x * ratio, -view.y * ratio);
    if (scene.background) { ctx.fillStyle = scene.background; ctx.fillRect(0, 0, scene.width, scene.height); }
    if (view.enlarged) {
      ctx.save();
      ctx.setLineDash([4, 3]);
      ctx.lineWidth = 1;
      ctx.strokeStyle = "rgba(128, 128, 128, 0.8)";
      ctx.strokeRect(0, 0, scene.width, scene.height);
      ctx.restore();
    }
    if (!count) return;
    var f = frames[index];
    scene.paths.forEach(function (style, i) {
      var d = f.p[i];
      if (typeof d === "string" && d.length) paint(style, pathShape(i, d));
    });
    drawHandles(f);
    if (pointsBox.checked) drawControlPoints(f);
    if (trailBox.checked) drawTrail();
  }

  function describe(e) { return e[0] + " " + e[1]; }

  function readout() {
    if (!count) { timeText.textContent = "no frames"; frameText.textContent = ""; return; }
    var f = frames[index];
    timeText.textContent = "t = " + f.t.toFixed(3) + " s";
    frameText.textContent = "frame " + f.i + " / " + frames[count - 1].i;
    eventsText.textContent = f.e.length ? f.e.map(describe).join(", ") : "none";
  }

  function syncLog() {
    if (index < loggedThrough) { logList.textContent = ""; loggedThrough = -1; }
    for (var k = loggedThrough + 1; k <= index; k++) {
      frames[k].e.forEach(function (e) {
        var item = document.createElement("li");
        item.textContent = frames[k].t.toFixed(3) + " s  frame " + frames[k].i + "  " + describe(e);
        logList.appendChild(item);
      });
    }
    while (logList.childNodes.length > LOG_LIMIT) logList.removeChild(logList.firstChild);
    loggedThrough = index;
    logList.scrollTop = logList.scrollHeight;
  }

  function show(i) {
    if (!count) { draw(); readout(); return; }
    index = Math.max(0, Math.min(count - 1, i));
    scrub.value = String(index);
    draw();
    readout();
    syncLog();
  }

  function seek(i) {
    show(i);
    if (count) clock = frames[index].t;
  }

  // The last frame at or before time t.
  function frameAt(t) {
    var lo = 0, hi = count - 1;
    if (t < frames[0].t) return 0;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (frames[mid].t <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  function speed() { return parseFloat(speedSelect.value) || 1; }

  function play() {
    if (playing || count < 2) return;
    if (index >= count - 1) seek(0);
    playing = true;
    clock = frames[index].t;
    playButton.textContent = "❚❚ Pause";
    var generation = ++run, last = null;
    function tick(stamp) {
      if (!playing || generation !== run) return;
      if (last !== null) {
        clock += (stamp - last) / 1000 * speed();
        var start = frames[0].t, end = frames[count - 1].t;
        if (clock >= end) {
          if (loopBox.checked) {
            var period = end - start + step;
            if (period > 0 && clock >= end + step) clock = start + ((clock - start) % period);
          } else {
            show(count - 1);
            pause();
            return;
          }
        }
        var k = frameAt(clock);
        if (k !== index) show(k);
      }
      last = stamp;
      requestAnimationFrame(tick);
    }
    requestAnimationFrame(tick);
  }

  function pause() {
    playing = false;
    run++;
    playButton.textContent = "▶ Play";
  }

  function toggle() { if (playing) pause(); else play(); }

  playButton.addEventListener("click", toggle);
  scrub.addEventListener("input", function () { seek(parseInt(scrub.value, 10) || 0); });
  pointsBox.addEventListener("change", draw);
  trailBox.addEventListener("change", draw);
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target, tag = target && target.tagName;
    var isSpace = event.key === " " || event.key === "Spacebar";
    // Let focused controls keep their own keys: a button or checkbox acts on space,
    // a select on every key.
    if (tag === "SELECT" || tag === "TEXTAREA") return;
    if (isSpace && (tag === "BUTTON" || (tag === "INPUT" && target.type !== "range"))) return;
    if (isSpace) { event.preventDefault(); toggle(); }
    else if (event.key === "ArrowRight" || event.key === "ArrowUp") { event.preventDefault(); pause(); seek(index + 1); }
    else if (event.key === "ArrowLeft" || event.key === "ArrowDown") { event.preventDefault(); pause(); seek(index - 1); }
    else if (event.key === "Home") { event.preventDefault(); pause(); seek(0); }
    else if (event.key === "End") { event.preventDefault(); pause(); seek(count - 1); }
  });

  seek(0);
})();
