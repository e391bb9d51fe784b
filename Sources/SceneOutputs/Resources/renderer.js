// The scene renderer shared by the HTML player (`scenec run -o scene.html`), the
// interactive page (`--interactive`) and the live preview (`scenec preview`): it draws one
// frame of a scene, in the JSON they write, on a canvas. A scene lists its handles and
// paths once with their styles; a frame's `h` holds
// `[x, y, angle, r, state]` per handle (then `rotation, scale, opacity, fill, stroke,
// width, height, cornerRadius, strokeWidth, scaleX, scaleY` for a handle the scene
// animates: its turn is added to the angle, its size multiplied by the scale (and along its
// own x and y by scaleX and scaleY, where not null), and the others, where not null,
// replace the scene's), `p` SVG path data per path (null when hidden),
// `ptr` `[id, x, y, down]` per pointer and `e` `[type, subject]` per event. A handle's
// `children` are drawn in its coordinates (moved, turned and scaled with it, its opacity
// multiplying theirs); a frame's `c` holds, for each child that changes, `[handle, child,
// x, y, rotation, scale, opacity, fill, stroke, r, width, height, cornerRadius,
// strokeWidth, text, scaleX, scaleY]`, null where the scene's value stands; its `ps` holds `[path, opacity,
// fill, stroke, strokeWidth]` for each path whose style changes.
var SceneRenderer = (function () {
  "use strict";
  var TRAIL = 20;

  // The part of the plane to show: the scene's canvas, enlarged to take in every
  // handle (with its radius or size, and the control-point label) and pointer of every
  // frame, so nothing is cut off at the canvas edge without a word.
  function viewBounds(scene, frames) {
    // A handle's scale along its own x (index 14) or y (15) in a frame: 1 unless animated.
    function axisOf(v, index) { return v[index] != null ? v[index] : 1; }
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
        var scale = v.length > 6 ? v[6] : 1;
        var sx = v.length > 15 ? axisOf(v, 14) : 1, sy = v.length > 15 ? axisOf(v, 15) : 1;
        if (h.shape === "none") {
          // A control point and its name, written to its right.
          include(v[0], v[1], 8);
          include(v[0] + 6 + 7 * h.name.length, v[1] - 6, 2);
        } else {
          // An animated width or height (v[10], v[11]) counts as drawn, scale (v[6]) too.
          var w = v.length > 10 && v[10] != null ? v[10] : h.w;
          var ht = v.length > 11 && v[11] != null ? v[11] : h.h;
          var reach = h.shape === "rect" ? Math.sqrt(w * w + ht * ht) / 2 : v[3];
          include(v[0], v[1], (reach || 0) * scale * Math.max(sx, sy) + 2);
        }
        // Its children: the corners of each one's box (a text about 0.6 of its size wide a
        // character), at the scene's own place and size, turned and scaled with it.
        var turn = v.length > 5 ? v[2] + v[5] : v[2];
        var cos = Math.cos(turn), sin = Math.sin(turn);
        (h.children || []).forEach(function (c) {
          var x0, x1, y0, y1;
          if (c.shape === "text") {
            var tw = 0.6 * c.fontSize * Math.max(c.text.length, 4);
            x0 = c.align === "left" ? 0 : c.align === "right" ? -tw : -tw / 2;
            x1 = x0 + tw; y0 = -c.fontSize / 2; y1 = c.fontSize / 2;
          } else {
            var hw = c.shape === "rect" ? c.w / 2 : c.r, hh = c.shape === "rect" ? c.h / 2 : c.r;
            x0 = -hw; x1 = hw; y0 = -hh; y1 = hh;
          }
          var cc = Math.cos(c.rotation), cs = Math.sin(c.rotation);
          [[x0, y0], [x1, y0], [x0, y1], [x1, y1]].forEach(function (p) {
            var px = p[0] * c.scale * c.scaleX, py = p[1] * c.scale * c.scaleY;
            var lx = c.x + px * cc - py * cs, ly = c.y + px * cs + py * cc;
            lx *= scale * sx; ly *= scale * sy;
            include(v[0] + lx * cos - ly * sin, v[1] + lx * sin + ly * cos, 2);
          });
        });
      });
      f.ptr.forEach(function (q) { include(q[1], q[2], 10); });
    });
    var enlarged = minX < 0 || minY < 0 || maxX > scene.width || maxY > scene.height;
    return { x: minX, y: minY, width: maxX - minX, height: maxY - minY, enlarged: enlarged };
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

  // Draws frames[index] of `scene` on `canvas`. `options`: `paths`, `points` (control
  // points), `trail` (pointer trail), `vectors` (velocity vectors, from the previous frame).
  function create(canvas, scene) {
    var ctx = canvas.getContext("2d");
    var ratio = window.devicePixelRatio || 1;
    var view = viewBounds(scene, []);
    var pathCache = scene.paths.map(function () { return { d: null, shape: null }; });

    // Sizes the canvas to show `frames` (see viewBounds); returns the view.
    function layout(frames) {
      view = viewBounds(scene, frames);
      canvas.width = Math.max(1, Math.round(view.width * ratio));
      canvas.height = Math.max(1, Math.round(view.height * ratio));
      canvas.style.width = view.width + "px";
      return view;
    }

    // A point of the page (a pointer event's clientX, clientY) in scene coordinates.
    function toScene(clientX, clientY) {
      var box = canvas.getBoundingClientRect();
      var scale = box.width > 0 ? view.width / box.width : 1;
      return { x: view.x + (clientX - box.left) * scale, y: view.y + (clientY - box.top) * scale };
    }

    function pathShape(i, d) {
      var cached = pathCache[i];
      if (cached.d !== d) { cached.d = d; cached.shape = new Path2D(d); }
      return cached.shape;
    }

    function paint(style, shape, opacity) {
      ctx.globalAlpha = opacity === undefined ? style.opacity : opacity;
      if (style.fill) { ctx.fillStyle = style.fill; ctx.fill(shape); }
      if (style.stroke && style.strokeWidth > 0) {
        ctx.lineWidth = style.strokeWidth;
        ctx.strokeStyle = style.stroke;
        ctx.stroke(shape);
      }
      ctx.globalAlpha = 1;
    }

    var FONT = "system-ui, -apple-system, Helvetica, Arial, sans-serif";

    // Each changing child's values in frame `f`, by "handle.child" index.
    function childValues(f) {
      var values = {};
      (f.c || []).forEach(function (c) { values[c[0] + "." + c[1]] = c; });
      return values;
    }

    // Handle `h`'s children, in its coordinates (the context already moved, turned and
    // scaled), at `opacity` times their own.
    function drawChildren(h, i, values, opacity) {
      h.children.forEach(function (child, k) {
        var c = values[i + "." + k];
        var pick = function (index, fallback) { return c && c[index] != null ? c[index] : fallback; };
        var scale = pick(5, child.scale);
        ctx.save();
        ctx.translate(pick(2, child.x), pick(3, child.y));
        ctx.rotate(pick(4, child.rotation));
        ctx.scale(scale * pick(15, child.scaleX), scale * pick(16, child.scaleY));
        var style = { fill: pick(7, child.fill), stroke: pick(8, child.stroke),
          strokeWidth: pick(13, child.strokeWidth), opacity: 1 };
        var alpha = opacity * (c ? c[6] : child.opacity);
        if (child.shape === "text") {
          var text = pick(14, child.text);
          ctx.font = child.fontWeight + " " + child.fontSize + "px " + FONT;
          ctx.textAlign = child.align;
          ctx.textBaseline = "alphabetic";
          ctx.globalAlpha = alpha;
          if (style.fill) { ctx.fillStyle = style.fill; ctx.fillText(text, 0, child.fontSize * 0.35); }
          if (style.stroke && style.strokeWidth > 0) {
            ctx.lineWidth = style.strokeWidth;
            ctx.strokeStyle = style.stroke;
            ctx.strokeText(text, 0, child.fontSize * 0.35);
          }
          ctx.globalAlpha = 1;
        } else if (child.shape !== "none") {
          var shape = new Path2D();
          if (child.shape === "rect") {
            var w = pick(10, child.w), ht = pick(11, child.h), corner = pick(12, child.cr || 0);
            if (corner > 0) shape.roundRect(-w / 2, -ht / 2, w, ht, Math.min(corner, w / 2, ht / 2));
            else shape.rect(-w / 2, -ht / 2, w, ht);
          } else {
            var r = pick(9, child.r);
            if (r > 0) shape.arc(0, 0, r, 0, 2 * Math.PI);
          }
          paint(style, shape, alpha);
        }
        ctx.restore();
      });
    }

    function drawHandles(f) {
      var values = f.c ? childValues(f) : {};
      scene.handles.forEach(function (h, i) {
        var v = f.h[i];
        if (!v || v[4] === "hidden") return;
        drawOwnShape(h, v);
        if (h.children) drawGroup(h, i, v, values);
      });
    }

    // A handle's children, moved, turned and scaled with it, faded by its opacity.
    function drawGroup(h, i, v, values) {
      var animated = v.length > 5;
      var scale = animated ? v[6] : 1;
      ctx.save();
      ctx.translate(v[0], v[1]);
      ctx.rotate(animated ? v[2] + v[5] : v[2]);
      ctx.scale(scale * axisScale(v, 14), scale * axisScale(v, 15));
      drawChildren(h, i, values, animated && h.animated.indexOf("opacity") >= 0 ? v[7] : h.opacity);
      ctx.restore();
    }

    // A handle's scale along its own x (index 14) or y (15): 1 unless animated.
    function axisScale(v, index) { return v.length > index && v[index] != null ? v[index] : 1; }

    function drawOwnShape(h, v) {
      if (h.shape === "none") return;
      {
        var shape = new Path2D();
        var animated = v.length > 5, scale = animated ? v[6] : 1;
        var sx = axisScale(v, 14), sy = axisScale(v, 15);
        if (h.shape === "rect") {
          var w = (animated && v[10] != null ? v[10] : h.w) * scale * sx;
          var ht = (animated && v[11] != null ? v[11] : h.h) * scale * sy;
          var corner = (animated && v[12] != null ? v[12] : h.cr || 0) * scale;
          if (corner > 0) shape.roundRect(-w / 2, -ht / 2, w, ht, Math.min(corner, w / 2, ht / 2));
          else shape.rect(-w / 2, -ht / 2, w, ht);
        } else {
          if (!(v[3] * scale * sx > 0 && v[3] * scale * sy > 0)) return;
          shape.ellipse(0, 0, v[3] * scale * sx, v[3] * scale * sy, 0, 0, 2 * Math.PI);
        }
        ctx.save();
        ctx.translate(v[0], v[1]);
        ctx.rotate(animated ? v[2] + v[5] : v[2]);
        var style = h;
        if (animated && (v[8] || v[9] || v[13] != null)) {
          style = { fill: v[8] || h.fill, stroke: v[9] || h.stroke,
            strokeWidth: v[13] != null ? v[13] : h.strokeWidth, opacity: h.opacity };
        }
        paint(style, shape, animated && h.animated.indexOf("opacity") >= 0 ? v[7] : undefined);
        ctx.restore();
      }
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

    // Each moving handle's velocity from the previous frame, as an arrow of 0.1 s.
    function drawVectors(previous, f) {
      var dt = f.t - previous.t;
      if (!(dt > 0)) return;
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = "#2e8b57";
      ctx.fillStyle = "#2e8b57";
      scene.handles.forEach(function (h, i) {
        var a = previous.h[i], b = f.h[i];
        if (!a || !b || b[4] === "hidden") return;
        var vx = (b[0] - a[0]) / dt * 0.1, vy = (b[1] - a[1]) / dt * 0.1;
        var length = Math.sqrt(vx * vx + vy * vy);
        if (!(length > 0.5)) return;
        ctx.beginPath();
        ctx.moveTo(b[0], b[1]);
        ctx.lineTo(b[0] + vx, b[1] + vy);
        ctx.stroke();
        var ux = vx / length, uy = vy / length;
        ctx.beginPath();
        ctx.moveTo(b[0] + vx, b[1] + vy);
        ctx.lineTo(b[0] + vx - 6 * ux + 3 * uy, b[1] + vy - 6 * uy - 3 * ux);
        ctx.lineTo(b[0] + vx - 6 * ux - 3 * uy, b[1] + vy - 6 * uy + 3 * ux);
        ctx.closePath();
        ctx.fill();
      });
    }

    function drawTrail(frames, index) {
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

    function draw(frames, index, options) {
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
      if (!frames.length) return;
      var f = frames[index];
      if (options.paths !== false) {
        // A path whose style changes: `ps` has `[path, opacity, fill, stroke, strokeWidth]`.
        var changed = {};
        (f.ps || []).forEach(function (s) { changed[s[0]] = s; });
        scene.paths.forEach(function (style, i) {
          var d = f.p[i];
          var s = changed[i];
          if (s) {
            style = { fill: s[2] || style.fill, stroke: s[3] || style.stroke,
              strokeWidth: s[4] != null ? s[4] : style.strokeWidth,
              opacity: s[1] != null ? s[1] : style.opacity };
          }
          if (typeof d === "string" && d.length) paint(style, pathShape(i, d));
        });
      }
      drawHandles(f);
      if (options.points) drawControlPoints(f);
      if (options.vectors && index > 0) drawVectors(frames[index - 1], f);
      if (options.trail) drawTrail(frames, index);
    }

    // A point of the scene in page coordinates (the inverse of toScene).
    function toClient(x, y) {
      var box = canvas.getBoundingClientRect();
      var scale = view.width > 0 ? box.width / view.width : 1;
      return { x: box.left + (x - view.x) * scale, y: box.top + (y - view.y) * scale };
    }

    // Shows the canvas as wide as its container allows, and no taller than the window's
    // height less `reserved` (what the controls below it need), so a phone shows it whole
    // with its controls; pointers map through the canvas's box (toScene), so scene
    // coordinates stay exact at any size.
    function fit(reserved) {
      if (!canvas.width || !canvas.height) return;
      var box = canvas.parentNode.clientWidth || canvas.width;
      var aspect = canvas.width / canvas.height;
      var tall = Math.max(200, window.innerHeight - reserved);
      canvas.style.width = Math.max(120, Math.min(box, tall * aspect)) + "px";
    }

    return { layout: layout, draw: draw, toScene: toScene, toClient: toClient, fit: fit };
  }

  return { create: create, viewBounds: viewBounds, trailStrokes: trailStrokes };
})();
