// The HTML player: plays the frames embedded in the page, drawn by SceneRenderer.
(function () {
  "use strict";
  var scene = JSON.parse(document.getElementById("scene").textContent);
  var frames = scene.frames, count = frames.length;
  function $(id) { return document.getElementById(id); }
  var canvas = $("stage"), ctx = canvas.getContext("2d");
  var playButton = $("play"), scrub = $("scrub"), speedSelect = $("speed"), loopBox = $("loop");
  var pointsBox = $("points"), trailBox = $("trail");
  var timeText = $("time"), frameText = $("frame"), eventsText = $("events"), logList = $("log");
  var LOG_LIMIT = 1000;
  var step = scene.fps > 0 ? 1 / scene.fps : (count > 1 ? frames[1].t - frames[0].t : 0);

  var renderer = SceneRenderer.create(canvas, scene);
  var view = renderer.layout(frames);
  if (view.enlarged) {
    $("viewnote").textContent =
      "Some of the scene lies outside its " + scene.width + "×" + scene.height +
      " canvas: the view is enlarged to show it, with the canvas outlined (dashed).";
  }
  scrub.max = String(Math.max(0, count - 1));

  var index = 0, clock = count ? frames[0].t : 0, playing = false, run = 0, loggedThrough = -1;

  function draw() {
    renderer.draw(frames, index, { points: pointsBox.checked, trail: trailBox.checked });
  }

  function describe(e) { return e[0] + " " + e[1] + (e.length > 2 ? " to " + e[2] : ""); }

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
