// The HTML player: plays the frames embedded in the page, drawn by SceneRenderer.
(function () {
  "use strict";
  // Every frame's handles, packed by scenec (encoding "scenec-delta-1", described in
  // Sources/SceneOutputs/HandleFrameStream.swift): seek(k) decodes frame k from the
  // keyframe at or before it, handles() lists the decoded frame's handles as
  // [x, y, angle, r, state] or null, as a frame's `h` would.
  function handleFrames(packed, handleCount, precision) {
    if (packed.encoding !== "scenec-delta-1") throw new Error("unknown handle encoding " + packed.encoding);
    var binary = atob(packed.data), bytes = new Uint8Array(binary.length);
    for (var b = 0; b < binary.length; b++) bytes[b] = binary.charCodeAt(b);
    var data = new DataView(bytes.buffer), end = bytes.length;
    var every = packed.keyframeEvery, names = packed.states, scale = Math.pow(10, precision);
    var n = handleCount, scaled = new Float64Array(4 * n), value = new Float64Array(4 * n);
    var state = new Uint8Array(n), present = new Uint8Array(n);
    var keyframeStarts = [], at = -1, offset = 0;

    function byte() {
      if (offset >= end) throw new Error("the page's handle data is cut short");
      return bytes[offset++];
    }
    function varint() {
      var result = 0, factor = 1, next;
      do { next = byte(); result += (next & 127) * factor; factor *= 128; } while (next & 128);
      return result;
    }
    // Decodes the frame after `at`, which starts at `offset`.
    function decodeNext() {
      if ((at + 1) % every === 0) {
        keyframeStarts[(at + 1) / every] = offset;
        scaled.fill(0); value.fill(0); state.fill(0); present.fill(1);
      }
      for (var i = 0; i < n;) {
        var token = byte();
        if (token & 128) { i += (token & 127) + 1; continue; }
        if (token & 32) { present[i++] = 0; continue; }
        present[i] = 1;
        var raw = token & 64 ? byte() : 0;
        for (var f = 0; f < 4; f++) {
          if (!(token & (1 << f))) continue;
          var j = 4 * i + f;
          if (raw & (1 << f)) {
            if (offset + 8 > end) throw new Error("the page's handle data is cut short");
            value[j] = data.getFloat64(offset, true);
            offset += 8;
            scaled[j] = 0;
          } else {
            var zigzag = varint();
            scaled[j] += zigzag % 2 ? -(zigzag + 1) / 2 : zigzag / 2;
            value[j] = scaled[j] / scale;
          }
        }
        if (token & 16) state[i] = byte();
        i++;
      }
      at++;
    }
    function seek(k) {
      if (k === at) return;
      var keyframe = Math.floor(k / every);
      if ((k < at || keyframe !== Math.floor(at / every)) && keyframeStarts[keyframe] !== undefined) {
        offset = keyframeStarts[keyframe];
        at = keyframe * every - 1;
      } else if (k < at) {
        offset = 0;
        at = -1;
      }
      while (at < k) decodeNext();
    }
    function handles() {
      var h = new Array(n);
      for (var i = 0; i < n; i++) {
        h[i] = present[i]
          ? [value[4 * i], value[4 * i + 1], value[4 * i + 2], value[4 * i + 3], names[state[i]]]
          : null;
      }
      return h;
    }
    return { seek: seek, handles: handles };
  }

  var scene = JSON.parse(document.getElementById("scene").textContent);
  var frames = scene.frames, count = frames.length;
  // A page from scenec packs the handles apart: only the frame on show carries its `h`.
  var packed = scene.handleFrames
    ? handleFrames(scene.handleFrames, scene.handles.length, scene.precision) : null;
  var carrying = -1;
  function unpack(k) {
    if (!packed || k === carrying || k < 0 || k >= count) return;
    if (carrying >= 0) frames[carrying].h = null;
    packed.seek(k);
    var h = packed.handles(), m = frames[k].m, next = 0;
    // Each animated handle's rotation, scale, opacity, fill, stroke, width, height, corner
    // radius, stroke width, scaleX and scaleY, carried beside the packed numbers.
    if (m) scene.handles.forEach(function (d, i) {
      if (d.animated && h[i]) h[i].push.apply(h[i], m.slice(next, next + 11));
      if (d.animated) next += 11;
    });
    frames[k].h = h;
    carrying = k;
  }
  // Every frame in order, each unpacked while it is visited.
  var everyFrame = packed ? {
    forEach: function (visit) { for (var k = 0; k < count; k++) { unpack(k); visit(frames[k], k); } }
  } : frames;
  function $(id) { return document.getElementById(id); }
  var canvas = $("stage"), ctx = canvas.getContext("2d");
  var playButton = $("play"), scrub = $("scrub"), speedSelect = $("speed"), loopBox = $("loop");
  var pointsBox = $("points"), trailBox = $("trail");
  var timeText = $("time"), frameText = $("frame"), eventsText = $("events"), logList = $("log");
  var LOG_LIMIT = 1000;
  var step = scene.fps > 0 ? 1 / scene.fps : (count > 1 ? frames[1].t - frames[0].t : 0);

  var renderer = SceneRenderer.create(canvas, scene);
  var view = renderer.layout(everyFrame);
  if (view.enlarged) {
    $("viewnote").textContent =
      "Some of the scene lies outside its " + scene.width + "×" + scene.height +
      " canvas: the view is enlarged to show it, with the canvas outlined (dashed).";
  }
  scrub.max = String(Math.max(0, count - 1));

  var index = 0, clock = count ? frames[0].t : 0, playing = false, run = 0, loggedThrough = -1;

  function draw() {
    unpack(index);
    renderer.draw(frames, index, { points: pointsBox.checked, trail: trailBox.checked });
  }

  function describe(e) {
    if (e[0] === "state") return e[1] + ": " + e[3] + " → " + e[2];
    return e[0] + " " + e[1] + (e.length > 2 ? " to " + e[2] : "");
  }
  var machineNames = scene.machines || [];
  if (machineNames.length) $("stateline").hidden = false;

  function readout() {
    if (!count) { timeText.textContent = "no frames"; frameText.textContent = ""; return; }
    var f = frames[index];
    timeText.textContent = "t = " + f.t.toFixed(3) + " s";
    frameText.textContent = "frame " + f.i + " / " + frames[count - 1].i;
    eventsText.textContent = f.e.length ? f.e.map(describe).join(", ") : "none";
    if (f.s) {
      $("states").textContent = f.s.map(function (state, k) {
        return machineNames[k] + ": " + state;
      }).join(", ");
    }
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
  // For automation and tests, as the preview's `scenecPreview`: go to a frame, and the
  // frame on show with its handles.
  window.scenecPlayer = { seek: seek, shown: function () { return count ? frames[index] : null; } };
})();
