import SceneGeometry
import SceneGraph
import SceneRuntime
import SceneVocabulary

#if !hasFeature(Embedded)
extension FrameOutput {
  /// One frame as a standalone SVG 1.1 document: the last of the frames it is given (the
  /// CLI passes only the frame chosen with `--frame N` or `--at T`).
  ///
  /// The scene's background first, then every visible path (gooey bridges included, in
  /// the bridge's style), then every visible handle in declaration order: a circle as a
  /// `<circle>`, a rect as a `<rect>` centred on its position and turned by its angle; a
  /// handle of shape `none` draws nothing. Numbers have the context's precision.
  ///
  /// ```
  /// <?xml version="1.0" encoding="UTF-8"?>
  /// <svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
  ///   <title>scene</title>
  ///   <path id="curve" d="M30 100Q200 0 300 100" fill="none" stroke="#ffffff" stroke-width="2"/>
  ///   <circle id="ball" cx="120.5" cy="80" r="20" fill="#ffffff"/>
  /// </svg>
  /// ```
  public static let svg = FrameOutput(
    name: "svg", fileExtensions: ["svg"],
    summary: "one frame as a standalone SVG (--frame N or --at T)",
    isStill: true,
    writer: { SVGText.StillWriter(context: $0) })

  /// Every frame as one animated SVG that plays in any browser: each element animates with
  /// SMIL (`<animate>` with `calcMode="discrete"`, one value per frame, looping), so the
  /// drawing shows exactly the frames the simulation made, each for one frame's time.
  ///
  /// Paths animate `d`, circles `cx`, `cy` and `r`, rects `x`, `y` and their rotation (an
  /// `<animateTransform>`), and anything hidden in some frames `visibility`. An attribute
  /// that never changes is written once, without an animation; an element hidden in every
  /// frame is left out. `keyTimes` are the frames' times over the whole duration (the last
  /// frame's time plus one frame).
  ///
  /// Memory: it needs every frame before it can write anything, so it holds the whole run
  /// (and the document, a few numbers per element per frame) in memory; prefer `jsonl` for
  /// very long runs.
  public static let animatedSVG = FrameOutput(
    name: "animated-svg", fileExtensions: [],
    summary: "every frame as one animated SVG (SMIL), plays in any browser",
    writer: { SVGText.AnimatedWriter(context: $0) })
}
#endif

/// The text of the SVG formats.
enum SVGText {
  // MARK: - One frame

  /// Keeps only the latest frame, and draws it at the end.
  struct StillWriter: FrameWriter {
    let context: OutputContext
    var latest: Frame?

    mutating func frame(_ frame: Frame, into sink: inout TextBytes) { latest = frame }

    mutating func end(into sink: inout TextBytes) {
      SVGText.still(latest, context: context, into: &sink)
    }
  }

  /// Keeps every frame, and writes the animation at the end.
  struct AnimatedWriter: FrameWriter {
    let context: OutputContext
    var frames: [Frame] = []

    mutating func frame(_ frame: Frame, into sink: inout TextBytes) { frames.append(frame) }

    mutating func end(into sink: inout TextBytes) {
      sink.append(SVGText.animated(frames, context: context))
    }
  }

  static func still(_ frame: Frame?, context: OutputContext, into out: inout TextBytes) {
    let p = context.precision
    let styles = Styles(context.graph)
    var ids = IDs()
    out.append(prologue(context))
    if let frame {
      // Neighbouring shapes mostly share a paint: its attributes are made once.
      var lastPaint: Paint?
      var lastAttributes = ""
      var changedStyles: [Int: HandleFrame] = [:]
      for style in frame.pathStyles { changedStyles[style.path] = style.look }
      for i in frame.paths.indices {
        let path = frame.paths[i]
        guard !path.isHidden, !path.path.isEmpty else { continue }
        var paint = styles.path(at: i)
        if let look = changedStyles[i] { paint = paint.changed(by: look) }
        if paint != lastPaint {
          lastPaint = paint
          lastAttributes = paint.attributes(precision: p)
        }
        out.append("  <path")
        ids.append(idFor: path.name, to: &out)
        out.append(" d=\"")
        out.append(path.path, precision: p)
        out.append("\"")
        out.append(lastAttributes)
        out.append("/>\n")
      }

      // When the frame's handles are the scene's, whose names are distinct, a handle's
      // name can only be taken by a path: those few are looked up instead of every
      // handle's name being hashed.
      let sceneText = context.sceneText
      var takenByPath: [Bool]? = nil
      if sceneText.handleNamesAreDistinct, sceneText.fits(frame.handles) {
        var taken = [Bool](repeating: false, count: frame.handles.count)
        for name in ids.used {
          if let index = sceneText.handleIndex(named: name) { taken[index] = true }
        }
        takenByPath = taken
      } else {
        ids.used.reserveCapacity(ids.used.count + frame.handles.count)
      }
      let handles = context.graph.handles
      var lastStyle: SceneGraph.Style?
      var lastHandleAttributes = ""
      var changingChildren: [ChildKey: ChildFrame] = [:]
      for child in frame.children {
        changingChildren[ChildKey(handle: child.handle, child: child.child)] = child
      }
      for i in frame.handles.indices {
        let h = frame.handles[i]
        guard h.state != .hidden, let j = styles.handleIndex(at: i) else { continue }
        // After the handle's own shape, whichever way the rest of the loop ends.
        defer {
          if !handles[j].children.isEmpty {
            group(
              h, handles[j], children: { changingChildren[ChildKey(handle: i, child: $0)] },
              precision: p,
              into: &out)
          }
        }
        let shape = handles[j].shape
        guard shape == .circle || shape == .rect else { continue }
        var style = handles[j].style
        // An animated opacity, fill or stroke replaces the style's.
        if h.animated != 0 {
          if h.animates(.opacity) { style.opacity = h.opacity }
          if h.animates(.fill) { style.fill = h.fill }
          if h.animates(.stroke) { style.stroke = h.stroke }
          if h.animates(.strokeWidth) { style.strokeWidth = h.strokeWidth }
        }
        if !same(style, lastStyle) {
          lastStyle = style
          lastHandleAttributes = Paint(style).attributes(precision: p)
        }
        // Drawn at its scale, turned by its angle and its rotation (1 and 0 unless animated).
        let scale = h.scale
        let stretched = h.animated != 0 && (h.animates(.scaleX) || h.animates(.scaleY))
        if shape == .circle && stretched {
          // Stretched along its own axes: an ellipse, turned as a rect is.
          let rotation = degrees(h.angle + h.rotation, precision: p)
          out.append("  <ellipse")
          ids.append(idFor: h.name, at: i, takenByPath: takenByPath, to: &out)
          out.append(" cx=\"")
          out.append(h.x, precision: p)
          out.append("\" cy=\"")
          out.append(h.y, precision: p)
          out.append("\" rx=\"")
          out.append(h.radius * scale * h.scaleX, precision: p)
          out.append("\" ry=\"")
          out.append(h.radius * scale * h.scaleY, precision: p)
          out.append("\"")
          if rotation != "0" {
            out.append(" transform=\"rotate(\(rotation) ")
            out.append(h.x, precision: p)
            out.append(UInt8(ascii: " "))
            out.append(h.y, precision: p)
            out.append(")\"")
          }
        } else if shape == .circle {
          out.append("  <circle")
          ids.append(idFor: h.name, at: i, takenByPath: takenByPath, to: &out)
          out.append(" cx=\"")
          out.append(h.x, precision: p)
          out.append("\" cy=\"")
          out.append(h.y, precision: p)
          out.append("\" r=\"")
          out.append(scale == 1 ? h.radius : h.radius * scale, precision: p)
          out.append("\"")
        } else {
          let width = h.drawn(.width, declared: handles[j]) * scale * h.scaleX
          let height = h.drawn(.height, declared: handles[j]) * scale * h.scaleY
          let corner = h.drawn(.cornerRadius, declared: handles[j]) * scale
          let rotation = degrees(h.rotation == 0 ? h.angle : h.angle + h.rotation, precision: p)
          out.append("  <rect")
          ids.append(idFor: h.name, at: i, takenByPath: takenByPath, to: &out)
          out.append(" x=\"")
          out.append(h.x - width / 2, precision: p)
          out.append("\" y=\"")
          out.append(h.y - height / 2, precision: p)
          out.append("\" width=\"")
          out.append(width, precision: p)
          out.append("\" height=\"")
          out.append(height, precision: p)
          out.append("\"")
          if corner > 0 {
            out.append(" rx=\"")
            out.append(corner, precision: p)
            out.append("\"")
          }
          if rotation != "0" {
            out.append(" transform=\"rotate(")
            out.append(rotation)
            out.append(UInt8(ascii: " "))
            out.append(h.x, precision: p)
            out.append(UInt8(ascii: " "))
            out.append(h.y, precision: p)
            out.append(")\"")
          }
        }
        out.append(lastHandleAttributes)
        out.append("/>\n")
      }
    }
    out.append("</svg>\n")
  }

  /// `scale(S)`, or `scale(SX SY)` when a look is stretched along its own axes.
  static func scaleTransform(_ look: HandleFrame, precision p: Int) -> String {
    "scale(\(scaleValues(look, precision: p)))"
  }

  /// `S`, or `SX SY` when a look is stretched along its own axes: a `scale`'s values.
  static func scaleValues(_ look: HandleFrame, precision p: Int) -> String {
    let x = NumberText.format(look.scale * look.scaleX, precision: p)
    let y = NumberText.format(look.scale * look.scaleY, precision: p)
    return x == y ? x : "\(x) \(y)"
  }

  /// The font families text is drawn in, here and in the pages' renderer.
  static let fontFamily = "system-ui, -apple-system, Helvetica, Arial, sans-serif"

  /// A handle's children: a `<g>` moved, turned and scaled as the handle is drawn, with its
  /// opacity, holding each child in the handle's coordinates; `changing(k)` is child `k`'s
  /// values in this frame when they change.
  static func group(
    _ h: HandleFrame, _ handle: SceneGraph.Handle, children changing: (Int) -> ChildFrame?,
    precision p: Int, into out: inout TextBytes
  ) {
    func n(_ value: Double) -> String { NumberText.format(value, precision: p) }
    let opacity = h.drawn(.opacity, declared: handle)
    out.append(
      "  <g transform=\"translate(\(n(h.x)) \(n(h.y))) rotate(\(degrees(h.angle + h.rotation, precision: p))) \(scaleTransform(h, precision: p))\""
    )
    if opacity != 1 {
      out.append(" opacity=\"\(NumberText.format(opacity, precision: max(p, 3)))\"")
    }
    out.append(">\n")
    for (k, child) in handle.children.enumerated() {
      let frame = changing(k)
      let look = frame?.look ?? HandleFrame.resting(child)
      let text = frame.flatMap { $0.look.animates(.textValue) ? $0.text : nil }
      out.append(childElement(child, look, text: text, precision: p))
    }
    out.append("  </g>\n")
  }

  /// One child as an element centred on its place and turned and scaled there.
  static func childElement(
    _ child: SceneGraph.Handle, _ look: HandleFrame, text: String?, precision p: Int
  ) -> String {
    func n(_ value: Double) -> String { NumberText.format(value, precision: p) }
    var style = child.style
    if look.animated != 0 {
      if look.animates(.opacity) { style.opacity = look.opacity }
      if look.animates(.fill) { style.fill = look.fill }
      if look.animates(.stroke) { style.stroke = look.stroke }
      if look.animates(.strokeWidth) { style.strokeWidth = look.strokeWidth }
    }
    let paint = Paint(style).attributes(precision: p)
    var transform = "translate(\(n(look.x)) \(n(look.y)))"
    if look.rotation != 0 { transform += " rotate(\(degrees(look.rotation, precision: p)))" }
    if look.scale != 1 || look.scaleX != 1 || look.scaleY != 1 {
      transform += " " + scaleTransform(look, precision: p)
    }
    let placed = " transform=\"\(transform)\""
    switch child.shape {
    case .circle:
      return "    <circle r=\"\(n(look.drawn(.radius, declared: child)))\"\(placed)\(paint)/>\n"
    case .rect:
      let width = look.drawn(.width, declared: child)
      let height = look.drawn(.height, declared: child)
      let corner = look.drawn(.cornerRadius, declared: child)
      return
        "    <rect x=\"\(n(-width / 2))\" y=\"\(n(-height / 2))\" width=\"\(n(width))\" height=\"\(n(height))\""
        + (corner > 0 ? " rx=\"\(n(corner))\"" : "") + placed + paint + "/>\n"
    case .text:
      guard let font = child.text else { return "" }
      let words = text ?? font.text { _ in 0 }
      return "    <text font-family=\"\(fontFamily)\" font-size=\"\(n(font.fontSize))\""
        + " font-weight=\"\(font.fontWeight.cssWeight)\" text-anchor=\"\(font.align.anchor)\""
        + " y=\"\(n(font.baselineDrop))\"\(placed)\(paint)>\(escaped(words))</text>\n"
    case .none:
      return ""
    }
  }

  /// Whether two styles are equal, field by field (quicker than their `==` from another module).
  @inline(__always)
  static func same(_ a: SceneGraph.Style, _ b: SceneGraph.Style?) -> Bool {
    guard let b else { return false }
    return a.strokeWidth == b.strokeWidth && a.opacity == b.opacity
      && a.fill?.red == b.fill?.red && a.fill?.green == b.fill?.green
      && a.fill?.blue == b.fill?.blue && a.fill?.alpha == b.fill?.alpha
      && a.stroke?.red == b.stroke?.red && a.stroke?.green == b.stroke?.green
      && a.stroke?.blue == b.stroke?.blue && a.stroke?.alpha == b.stroke?.alpha
  }

  // MARK: - Every frame

  static func animated(_ frames: [Frame], context: OutputContext) -> String {
    let p = context.precision
    func n(_ value: Double) -> String { NumberText.format(value, precision: p) }
    let styles = Styles(context.graph)
    var ids = IDs()
    var out = prologue(context)
    guard !frames.isEmpty else { return out + "</svg>\n" }
    let timing = Timing(frames, fps: context.fps, precision: p)

    // Paths: one track per drawn path, by its index in the frames.
    let pathTracks = tracks(of: frames, { $0.paths }, name: { $0.name })
    for track in pathTracks {
      let data: [String?] = track.items.map { item in
        guard let path = item, !path.isHidden, !path.path.isEmpty else { return nil }
        return PathText.data(path.path, precision: p)
      }
      guard let d = filled(data) else { continue }  // Hidden throughout.
      // A style that changes: each frame's paint, from the frame's path styles.
      // The same paths in every frame of a simulation: found once, checked in each.
      let slot = frames.first?.pathStyles.firstIndex { $0.path == track.index }
      let looks = frames.map { frame -> HandleFrame? in
        if let slot, slot < frame.pathStyles.count, frame.pathStyles[slot].path == track.index {
          return frame.pathStyles[slot].look
        }
        return frame.pathStyles.first { $0.path == track.index }?.look
      }
      let base = styles.path(at: track.index)
      let paints = looks.map { $0.map(base.changed) ?? base }
      var paint = paints[0]
      if looks.contains(where: { $0 != nil }) {
        // Opacity and colours in their own attributes, each animated where it changes.
        paint.opacity = 1
        let opacities = paints.map { NumberText.format($0.opacity, precision: max(p, 3)) }
        func colors(_ name: String, _ color: (Paint) -> RGBA?) -> [String?] {
          let values = paints.map(color)
          guard values[0] != nil, values.allSatisfy({ $0 != nil }) else { return [] }
          return [
            timing.animate(name, values.map { $0?.hex ?? "none" }),
            timing.animate(name + "-opacity", values.map { $0?.opacity ?? "1" }),
          ]
        }
        let styleAnimations =
          [
            timing.animate("opacity", opacities),
            timing.animate("stroke-width", paints.map { n($0.strokeWidth) }),
          ] + colors("fill", { $0.fill }) + colors("stroke", { $0.stroke })
        let visibility = data.map { $0 == nil ? "hidden" : "visible" }
        out +=
          "  <path\(ids.attribute(for: track.name)) d=\"\(d[0])\"" + paint.attributes(precision: p)
          + (opacities[0] != "1" ? " opacity=\"\(opacities[0])\"" : "")
        out += visibility[0] == "hidden" ? " visibility=\"hidden\"" : ""
        out += body(
          [timing.animate("d", d), timing.animate("visibility", visibility)] + styleAnimations,
          closing: "path")
        continue
      }
      let visibility = data.map { $0 == nil ? "hidden" : "visible" }
      out +=
        "  <path\(ids.attribute(for: track.name)) d=\"\(d[0])\"" + paint.attributes(precision: p)
      out += visibility[0] == "hidden" ? " visibility=\"hidden\"" : ""
      out += body(
        [timing.animate("d", d), timing.animate("visibility", visibility)], closing: "path")
    }

    // Handles, in declaration order.
    let handleTracks = tracks(of: frames, { $0.handles }, name: { $0.name })
    for track in handleTracks {
      // A group's children follow its own shape, whichever way the rest of the loop ends.
      defer {
        if let handle = styles.handle(at: track.index), !handle.children.isEmpty {
          out += animatedGroup(track, handle, frames: frames, timing: timing, precision: p)
        }
      }
      guard let handle = styles.handle(at: track.index),
        handle.shape == .circle || handle.shape == .rect
      else { continue }
      let shown: [HandleFrame?] = track.items.map { item in
        guard let h = item, h.state != .hidden else { return nil }
        return h
      }
      guard let states = filled(shown) else { continue }  // Hidden throughout.
      // An animated opacity replaces the style's, frame by frame.
      let fadesOut = states[0].animates(.opacity)
      var style = handle.style
      if fadesOut { style.opacity = 1 }
      if states[0].animates(.fill) { style.fill = states[0].fill }
      if states[0].animates(.stroke) { style.stroke = states[0].stroke }
      if states[0].animates(.strokeWidth) { style.strokeWidth = states[0].strokeWidth }
      let strokeWidths =
        states[0].animates(.strokeWidth)
        ? timing.animate("stroke-width", states.map { n($0.strokeWidth) }) : nil
      let opacities = fadesOut ? states.map { n($0.opacity) } : []
      let paint =
        Paint(style).attributes(precision: p) + (fadesOut ? " opacity=\"\(opacities[0])\"" : "")
      let opacity = fadesOut ? timing.animate("opacity", opacities) : nil
      // Animated colours: the colour and, where any frame is not opaque, its opacity.
      func paints(_ property: SceneGraph.AnimatedProperty, _ color: (HandleFrame) -> Color)
        -> [String?]
      {
        guard states[0].animates(property) else { return [] }
        let colors = states.map(color)
        let name = property.key
        let opaque = colors.map { Color(red: $0.red, green: $0.green, blue: $0.blue).description }
        let alphas = colors.map { n(Double($0.alpha) / 255) }
        return [
          timing.animate(name, opaque),
          colors.allSatisfy { $0.alpha == 255 } ? nil : timing.animate(name + "-opacity", alphas),
        ]
      }
      let colorAnimations =
        paints(.fill, { $0.fill }) + paints(.stroke, { $0.stroke }) + [strokeWidths]
      let visibility = shown.map { $0 == nil ? "hidden" : "visible" }
      let hiddenAttribute = visibility[0] == "hidden" ? " visibility=\"hidden\"" : ""
      let id = ids.attribute(for: track.name)
      let stretched = states[0].animates(.scaleX) || states[0].animates(.scaleY)
      if handle.shape == .circle && stretched {
        // Stretched along its own axes: an ellipse, turned as a rect is.
        let cx = states.map { n($0.x) }
        let cy = states.map { n($0.y) }
        let rx = states.map { n($0.radius * $0.scale * $0.scaleX) }
        let ry = states.map { n($0.radius * $0.scale * $0.scaleY) }
        let rotations = states.map { degrees($0.angle + $0.rotation, precision: p) }
        let rotate = states.indices.map { "\(rotations[$0]) \(cx[$0]) \(cy[$0])" }
        let turns = rotations.contains { $0 != "0" }
        out +=
          "  <ellipse\(id) cx=\"\(cx[0])\" cy=\"\(cy[0])\" rx=\"\(rx[0])\" ry=\"\(ry[0])\""
          + (turns ? " transform=\"rotate(\(rotate[0]))\"" : "") + paint + hiddenAttribute
        out += body(
          [
            timing.animate("cx", cx), timing.animate("cy", cy), timing.animate("rx", rx),
            timing.animate("ry", ry), turns ? timing.animateRotation(rotate) : nil, opacity,
          ] + colorAnimations + [timing.animate("visibility", visibility)], closing: "ellipse")
      } else if handle.shape == .circle {
        let cx = states.map { n($0.x) }
        let cy = states.map { n($0.y) }
        let r = states.map { n($0.radius * $0.scale) }
        out +=
          "  <circle\(id) cx=\"\(cx[0])\" cy=\"\(cy[0])\" r=\"\(r[0])\"" + paint + hiddenAttribute
        out += body(
          [
            timing.animate("cx", cx), timing.animate("cy", cy), timing.animate("r", r), opacity,
          ] + colorAnimations + [timing.animate("visibility", visibility)], closing: "circle")
      } else {
        func width(_ h: HandleFrame) -> Double { h.drawn(.width, declared: handle) * h.scaleX }
        func height(_ h: HandleFrame) -> Double { h.drawn(.height, declared: handle) * h.scaleY }
        func corner(_ h: HandleFrame) -> Double {
          h.drawn(.cornerRadius, declared: handle) * h.scale
        }
        let x = states.map { n($0.x - width($0) * $0.scale / 2) }
        let y = states.map { n($0.y - height($0) * $0.scale / 2) }
        let widths = states.map { n(width($0) * $0.scale) }
        let heights = states.map { n(height($0) * $0.scale) }
        let corners = states.map { n(corner($0)) }
        let rounded = states.contains { corner($0) > 0 }
        let rotations = states.map { degrees($0.angle + $0.rotation, precision: p) }
        let rotate = states.indices.map { "\(rotations[$0]) \(n(states[$0].x)) \(n(states[$0].y))" }
        out +=
          "  <rect\(id) x=\"\(x[0])\" y=\"\(y[0])\" width=\"\(widths[0])\" height=\"\(heights[0])\""
          + (rounded ? " rx=\"\(corners[0])\"" : "")
        // Without a turn in any frame, no transform at all.
        if rotations.contains(where: { $0 != "0" }) { out += " transform=\"rotate(\(rotate[0]))\"" }
        out += paint + hiddenAttribute
        out += body(
          [
            timing.animate("x", x), timing.animate("y", y), timing.animate("width", widths),
            timing.animate("height", heights), rounded ? timing.animate("rx", corners) : nil,
            rotations.contains(where: { $0 != "0" }) ? timing.animateRotation(rotate) : nil,
            opacity,
          ] + colorAnimations + [timing.animate("visibility", visibility)], closing: "rect")
      }
    }
    return out + "</svg>\n"
  }

  /// A handle's children through every frame, in three nested groups.
  ///
  /// The groups move, turn and scale (and fade and hide) as the handle does, holding each
  /// child the same way in the handle's coordinates. A text that changes is one `<text>` per text it shows, each
  /// visible in its frames.
  static func animatedGroup(
    _ track: Track<HandleFrame>, _ handle: SceneGraph.Handle, frames: [Frame], timing: Timing,
    precision p: Int
  ) -> String {
    func n(_ value: Double) -> String { NumberText.format(value, precision: p) }
    let shown: [HandleFrame?] = track.items.map { item in
      guard let h = item, h.state != .hidden else { return nil }
      return h
    }
    guard let states = filled(shown) else { return "" }
    // Nested `<g>`s, one per transform, each animated where it changes; closed by `closing`.
    func groups(_ indent: String, _ transforms: [(type: String, values: [String])], extra: String)
      -> (open: String, close: String)
    {
      var open = ""
      var close = ""
      for (k, transform) in transforms.enumerated() {
        let indent = indent + String(repeating: "  ", count: k)
        let animation =
          transform.values.contains(where: { $0 != transform.values[0] })
          ? "\(indent)  <animateTransform attributeName=\"transform\" type=\"\(transform.type)\" "
            + "values=\"\(transform.values.joined(separator: ";"))\" \(timing.attributes)/>\n" : ""
        let attributes = k == transforms.count - 1 ? extra : ""
        open +=
          "\(indent)<g transform=\"\(transform.type)(\(transform.values[0]))\"\(attributes)>\n"
          + animation
        close = "\(indent)</g>\n" + close
      }
      return (open, close)
    }
    let opacities = states.map { n($0.drawn(.opacity, declared: handle)) }
    let visibility = shown.map { $0 == nil ? "hidden" : "visible" }
    var extra = opacities.contains(where: { $0 != "1" }) ? " opacity=\"\(opacities[0])\"" : ""
    extra += visibility[0] == "hidden" ? " visibility=\"hidden\"" : ""
    let (open, close) = groups(
      "  ",
      [
        ("translate", states.map { "\(n($0.x)) \(n($0.y))" }),
        ("rotate", states.map { degrees($0.angle + $0.rotation, precision: p) }),
        (
          "scale",
          states.map { scaleValues($0, precision: p) }
        ),
      ], extra: extra)
    var out = open
    for line in [timing.animate("opacity", opacities), timing.animate("visibility", visibility)] {
      if let line { out += "        " + line + "\n" }
    }
    for (k, child) in handle.children.enumerated() {
      let rest = HandleFrame.resting(child)
      // A simulation lists the same children in every frame: where the first frame has
      // this one, every other has it too (looked for only if not).
      let slot = frames.first?.children.firstIndex { $0.handle == track.index && $0.child == k }
      let changing = frames.map { frame -> ChildFrame? in
        if let slot, slot < frame.children.count, frame.children[slot].handle == track.index,
          frame.children[slot].child == k
        {
          return frame.children[slot]
        }
        return frame.children.first { $0.handle == track.index && $0.child == k }
      }
      let looks = changing.map { $0?.look ?? rest }
      var transforms: [(type: String, values: [String])] = [
        ("translate", looks.map { "\(n($0.x)) \(n($0.y))" })
      ]
      let rotations = looks.map { degrees($0.rotation, precision: p) }
      if rotations.contains(where: { $0 != "0" }) { transforms.append(("rotate", rotations)) }
      let scales = looks.map {
        scaleValues($0, precision: p)
      }
      if scales.contains(where: { $0 != "1" }) { transforms.append(("scale", scales)) }
      let (childOpen, childClose) = groups("        ", transforms, extra: "")
      out += childOpen
      var style = child.style
      if looks[0].animates(.fill) { style.fill = looks[0].fill }
      if looks[0].animates(.stroke) { style.stroke = looks[0].stroke }
      if looks[0].animates(.strokeWidth) { style.strokeWidth = looks[0].strokeWidth }
      let childOpacities = looks.map { n($0.drawn(.opacity, declared: child)) }
      style.opacity = 1
      let paint =
        Paint(style).attributes(precision: p)
        + (childOpacities[0] != "1" ? " opacity=\"\(childOpacities[0])\"" : "")
      func colors(_ property: SceneGraph.AnimatedProperty, _ color: (HandleFrame) -> Color)
        -> [String?]
      {
        guard looks[0].animates(property) else { return [] }
        let values = looks.map(color)
        let opaque = values.map { Color(red: $0.red, green: $0.green, blue: $0.blue).description }
        let alphas = values.map { n(Double($0.alpha) / 255) }
        return [
          timing.animate(property.key, opaque),
          values.allSatisfy { $0.alpha == 255 }
            ? nil : timing.animate(property.key + "-opacity", alphas),
        ]
      }
      var animations =
        [timing.animate("opacity", childOpacities)] + colors(.fill, { $0.fill })
        + colors(.stroke, { $0.stroke })
        + [timing.animate("stroke-width", looks.map { n($0.drawn(.strokeWidth, declared: child)) })]
      let indent = String(repeating: " ", count: 8 + 2 * transforms.count)
      switch child.shape {
      case .circle:
        let radii = looks.map { n($0.drawn(.radius, declared: child)) }
        animations.append(timing.animate("r", radii))
        out += indent + "<circle r=\"\(radii[0])\"\(paint)" + body(animations, indent, "circle")
      case .rect:
        let widths = looks.map { $0.drawn(.width, declared: child) }
        let heights = looks.map { $0.drawn(.height, declared: child) }
        let corners = looks.map { n($0.drawn(.cornerRadius, declared: child)) }
        animations += [
          timing.animate("x", widths.map { n(-$0 / 2) }),
          timing.animate("y", heights.map { n(-$0 / 2) }),
          timing.animate("width", widths.map(n)), timing.animate("height", heights.map(n)),
          timing.animate("rx", corners),
        ]
        out +=
          indent
          + "<rect x=\"\(n(-widths[0] / 2))\" y=\"\(n(-heights[0] / 2))\" width=\"\(n(widths[0]))\" height=\"\(n(heights[0]))\""
          + (corners.contains(where: { $0 != "0" }) ? " rx=\"\(corners[0])\"" : "") + paint
          + body(animations, indent, "rect")
      case .text:
        guard let font = child.text else { break }
        let fixed = font.text { _ in 0 }
        let texts = changing.map {
          $0.flatMap { $0.look.animates(.textValue) ? $0.text : nil } ?? fixed
        }
        var distinct: [String] = []
        for text in texts where !distinct.contains(text) { distinct.append(text) }
        let start =
          "<text font-family=\"\(fontFamily)\" font-size=\"\(n(font.fontSize))\""
          + " font-weight=\"\(font.fontWeight.cssWeight)\" text-anchor=\"\(font.align.anchor)\""
          + " y=\"\(n(font.baselineDrop))\"\(paint)"
        for words in distinct {
          let seen = texts.map { $0 == words ? "visible" : "hidden" }
          let shownAnimations =
            distinct.count > 1 ? animations + [timing.animate("visibility", seen)] : animations
          let lines = shownAnimations.compactMap { $0 }
          // The words first and the animations right after, with no space between: spaces
          // in a text are drawn.
          out += indent + start + (seen[0] == "hidden" ? " visibility=\"hidden\"" : "") + ">"
          out += escaped(words) + lines.joined() + "</text>\n"
        }
      case .none:
        break
      }
      out += childClose
    }
    return out + close
  }

  /// `/>` for an element without animations, or its animations at `indent` and its
  /// closing tag.
  static func body(_ animations: [String?], _ indent: String, _ name: String) -> String {
    let lines = animations.compactMap { $0 }
    guard !lines.isEmpty else { return "/>\n" }
    return ">\n" + lines.map { indent + "  " + $0 + "\n" }.joined() + indent + "</\(name)>\n"
  }

  /// `/>` for an element without animations, or the animations and its closing tag.
  static func body(_ animations: [String?], closing name: String) -> String {
    let lines = animations.compactMap { $0 }
    guard !lines.isEmpty else { return "/>\n" }
    return ">\n" + lines.map { "    " + $0 + "\n" }.joined() + "  </\(name)>\n"
  }

  /// One element of the frames, followed through every frame.
  struct Track<Element> {
    var name: String
    /// Its index in a frame, the same in every frame of the scene's own simulation.
    var index: Int
    /// Per frame: the element, or `nil` when that frame does not have it.
    var items: [Element?]
  }

  /// The elements of every frame as tracks by index: element `i` of one frame is element
  /// `i` of the next (frames list a scene's handles and paths in the graph's order).
  static func tracks<Element>(
    of frames: [Frame], _ elements: (Frame) -> [Element], name: (Element) -> String
  ) -> [Track<Element>] {
    var tracks: [Track<Element>] = []
    for (f, frame) in frames.enumerated() {
      let items = elements(frame)
      for i in items.indices {
        if i == tracks.count {
          tracks.append(
            Track(name: name(items[i]), index: i, items: Array(repeating: nil, count: frames.count))
          )
        }
        tracks[i].items[f] = items[i]
      }
    }
    return tracks
  }

  /// Every gap filled with the value before it (or, at the start, the first value), so a
  /// hidden element keeps still; `nil` when there is no value at all.
  static func filled<Value>(_ values: [Value?]) -> [Value]? {
    guard let first = values.first(where: { $0 != nil }) ?? nil else { return nil }
    var last = first
    return values.map { value in
      if let value { last = value }
      return last
    }
  }

  /// When each frame shows, as SMIL timing shared by every animation of the document.
  struct Timing {
    var keyTimes: String
    var duration: String

    init(_ frames: [Frame], fps: Double, precision: Int) {
      let start = frames[0].time
      let span = (frames.last?.time ?? start) - start
      // Each frame shows for one frame's time, the last one included.
      var step = fps.isFinite && fps > 0 ? 1 / fps : 0
      if !(step > 0), frames.count > 1 { step = span / Double(frames.count - 1) }
      if !(step > 0) || !step.isFinite { step = 1 }
      var total = span + step
      var fractions = frames.map { ($0.time - start) / total }
      let increasing = zip(fractions, fractions.dropFirst()).allSatisfy { $0 < $1 }
      if !(total > 0) || !total.isFinite || !increasing
        || fractions.contains(where: { !$0.isFinite })
      {
        // Times that do not increase: show the frames one after the other instead.
        total = Double(frames.count) * step
        fractions = frames.indices.map { Double($0) / Double(frames.count) }
      }
      keyTimes = Timing.text(fractions, precision: precision)
      duration = NumberText.format(total, precision: max(precision, 6)) + "s"
    }

    /// The fractions at the fewest decimals (at least the context's and 3) that keep them
    /// strictly increasing.
    static func text(_ fractions: [Double], precision: Int) -> String {
      var texts: [String] = []
      for decimals in max(precision, 3)...15 {
        texts = fractions.map { NumberText.format($0, precision: decimals) }
        let values = texts.map { Double($0) ?? 0 }
        if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) { break }
      }
      return texts.joined(separator: ";")
    }

    var attributes: String {
      "keyTimes=\"\(keyTimes)\" dur=\"\(duration)\" repeatCount=\"indefinite\" calcMode=\"discrete\""
    }

    /// An `<animate>` of `attribute` through `values`, one per frame; `nil` when they never change.
    func animate(_ attribute: String, _ values: [String]) -> String? {
      guard let first = values.first, values.contains(where: { $0 != first }) else { return nil }
      return
        "<animate attributeName=\"\(attribute)\" values=\"\(values.joined(separator: ";"))\" \(attributes)/>"
    }

    /// An `<animateTransform>` of a rotation through `values` (`degrees cx cy`), one per frame.
    func animateRotation(_ values: [String]) -> String? {
      guard let first = values.first, values.contains(where: { $0 != first }) else { return nil }
      return "<animateTransform attributeName=\"transform\" type=\"rotate\" "
        + "values=\"\(values.joined(separator: ";"))\" \(attributes)/>"
    }
  }

  // MARK: - Shared parts

  /// The XML declaration, the `<svg>` start tag, the scene's name and its background.
  static func prologue(_ context: OutputContext) -> String {
    let graph = context.graph
    let w = NumberText.format(graph.width, precision: context.precision)
    let h = NumberText.format(graph.height, precision: context.precision)
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n"
    if !graph.name.isEmpty { out += "  <title>\(escaped(graph.name))</title>\n" }
    if let background = graph.background.map({
      RGBA(red: $0.red, green: $0.green, blue: $0.blue, alpha: $0.alpha)
    }) {
      out += "  <rect width=\"\(w)\" height=\"\(h)\" fill=\"\(background.hex)\""
      if let alpha = background.opacity { out += " fill-opacity=\"\(alpha)\"" }
      out += "/>\n"
    }
    return out
  }

  /// Radians as the degrees SVG's `rotate()` takes: both turn clockwise in y-down coordinates.
  static func degrees(_ radians: Double, precision: Int) -> String {
    NumberText.format(radians * 180 / Double.pi, precision: precision)
  }

  /// Text made safe for an XML attribute value or element content: markup characters as
  /// entities, line breaks and tabs as character references (so an attribute keeps them),
  /// and characters XML 1.0 forbids as U+FFFD.
  static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += "&#10;"
      case "\r": out += "&#13;"
      case "\t": out += "&#9;"
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        out += "\u{FFFD}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Unique `id` attributes for the elements' names: a name becomes the `id` of the first
  /// element it names when it is a valid XML name (ASCII letters, digits, `_`, `-`, `.`,
  /// not starting with a digit, `-` or `.`); other elements get none.
  struct IDs {
    var used: Set<String> = []

    mutating func attribute(for name: String) -> String {
      guard IDs.isValid(name), used.insert(name).inserted else { return "" }
      return " id=\"\(escaped(name))\""
    }

    /// ``attribute(for:)``'s text written to `text`.
    mutating func append(idFor name: String, to text: inout TextBytes) {
      guard IDs.isValid(name), used.insert(name).inserted else { return }
      // A valid name has nothing to escape.
      text.append(" id=\"")
      text.append(name)
      text.append(UInt8(ascii: "\""))
    }

    /// ``append(idFor:to:)`` for the frame's handle `index`, knowing from `takenByPath`,
    /// when there is one, which handles' names a path took (and that no two handles
    /// share a name).
    @inline(__always)
    mutating func append(
      idFor name: String, at index: Int, takenByPath: [Bool]?, to text: inout TextBytes
    ) {
      guard let takenByPath else { return append(idFor: name, to: &text) }
      guard !takenByPath[index], IDs.isValid(name) else { return }
      text.append(" id=\"")
      text.append(name)
      text.append(UInt8(ascii: "\""))
    }

    /// Whether `name` is a valid XML name of the kind used: ASCII only, so its UTF-8 bytes
    /// are its characters.
    static func isValid(_ name: String) -> Bool {
      var name = name
      return name.withUTF8 { bytes in
        guard let first = bytes.first, isLetterOrUnderscore(first) else { return false }
        for byte in bytes {
          guard
            isLetterOrUnderscore(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
              || byte == 0x2E
          else { return false }
        }
        return true
      }
    }

    private static func isLetterOrUnderscore(_ byte: UInt8) -> Bool {
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
    }
  }

  /// Where the frames' paths and handles get their styles: by index, from the graph's
  /// ``SceneGraph/drawnPaths`` and ``SceneGraph/handles``.
  struct Styles {
    let graph: SceneGraph

    init(_ graph: SceneGraph) { self.graph = graph }

    /// The paint of the frame's path `index`; a path the scene does not draw gets a path's
    /// default paint.
    func path(at index: Int) -> Paint {
      if index < graph.drawnPaths.count { return Paint(graph.drawnPaths[index].style) }
      return Paint(
        fill: nil, stroke: RGBA(red: 255, green: 255, blue: 255, alpha: 255), strokeWidth: 2,
        opacity: 1)
    }

    /// The scene's handle for the frame's handle `index`.
    func handle(at index: Int) -> SceneGraph.Handle? {
      handleIndex(at: index).map { graph.handles[$0] }
    }

    /// The index among the scene's handles of ``handle(at:)``.
    func handleIndex(at index: Int) -> Int? { index < graph.handles.count ? index : nil }
  }

  /// What a shape is drawn with.
  struct Paint: Equatable {
    var fill: RGBA?
    var stroke: RGBA?
    var strokeWidth: Double
    var opacity: Double

    init(fill: RGBA?, stroke: RGBA?, strokeWidth: Double, opacity: Double) {
      self.fill = fill
      self.stroke = stroke
      self.strokeWidth = strokeWidth
      self.opacity = opacity
    }

    init(_ style: SceneGraph.Style) {
      self.init(
        fill: style.fill.map { RGBA(red: $0.red, green: $0.green, blue: $0.blue, alpha: $0.alpha) },
        stroke: style.stroke.map {
          RGBA(red: $0.red, green: $0.green, blue: $0.blue, alpha: $0.alpha)
        },
        strokeWidth: style.strokeWidth, opacity: style.opacity)
    }

    /// This paint with what `look` (a path's changing style) changes.
    func changed(by look: HandleFrame) -> Paint {
      var paint = self
      func rgba(_ c: Color) -> RGBA {
        RGBA(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
      }
      if look.animates(.fill) { paint.fill = rgba(look.fill) }
      if look.animates(.stroke) { paint.stroke = rgba(look.stroke) }
      if look.animates(.strokeWidth) { paint.strokeWidth = look.strokeWidth }
      if look.animates(.opacity) { paint.opacity = look.opacity }
      return paint
    }

    /// ` fill="…"`, then the stroke's attributes if there is one, then `opacity` if not 1.
    ///
    /// A colour's alpha goes in `fill-opacity` or `stroke-opacity`: SVG 1.1 has no `#rrggbbaa`.
    func attributes(precision: Int) -> String {
      var out = " fill=\"\(fill?.hex ?? "none")\""
      if let alpha = fill?.opacity { out += " fill-opacity=\"\(alpha)\"" }
      if let stroke {
        out += " stroke=\"\(stroke.hex)\""
        if let alpha = stroke.opacity { out += " stroke-opacity=\"\(alpha)\"" }
        out += " stroke-width=\"\(NumberText.format(strokeWidth, precision: precision))\""
      }
      if opacity != 1 {
        out += " opacity=\"\(NumberText.format(opacity, precision: max(precision, 3)))\""
      }
      return out
    }
  }

  /// A colour's channels, 0–255.
  struct RGBA: Equatable {
    var red: UInt8
    var green: UInt8
    var blue: UInt8
    var alpha: UInt8

    init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
      self.red = red
      self.green = green
      self.blue = blue
      self.alpha = alpha
    }

    /// `#rrggbb`.
    var hex: String {
      func two(_ v: UInt8) -> String {
        let text = String(v, radix: 16)
        return text.count == 1 ? "0" + text : text
      }
      return "#" + two(red) + two(green) + two(blue)
    }

    /// The alpha as an opacity with 3 decimals, or `nil` when opaque.
    var opacity: String? {
      alpha == 255 ? nil : NumberText.format(Double(alpha) / 255, precision: 3)
    }
  }
}
