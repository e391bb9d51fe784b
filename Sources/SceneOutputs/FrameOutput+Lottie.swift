import SceneGeometry
import SceneGraph
import SceneRuntime
import SceneVocabulary

#if !hasFeature(Embedded)
extension FrameOutput {
  /// The run baked into a Lottie animation (Bodymovin 5 JSON): a shape layer for every
  /// drawn path and every shaped handle, each value held frame by frame, so a Lottie
  /// player shows exactly the frames scenec made.
  ///
  /// Handles are ellipses and rounded rects in their own layers, moved, turned, scaled
  /// and faded by the layer's transform, with their fills and strokes (keyframed where
  /// they change) and their children as groups inside; paths are shapes whose vertices
  /// are keyframed. Text is not exported (Lottie's text needs its fonts shipped with it):
  /// each text child is named in a note on standard error.
  public static let lottie = FrameOutput(
    name: "lottie", fileExtensions: ["json"],
    summary: "every frame baked into a Lottie animation (shapes and paths, held frame by frame)"
  ) { context in LottieWriter(context: context) }
}
#endif

/// Keeps every frame, and writes the animation at the end.
struct LottieWriter: FrameWriter {
  let context: OutputContext
  var frames: [Frame] = []
  var notes: [String] = []

  init(context: OutputContext) { self.context = context }

  mutating func frame(_ frame: Frame, into sink: inout TextBytes) { frames.append(frame) }

  mutating func end(into sink: inout TextBytes) {
    let graph = context.graph
    var layers: [String] = []
    // Lottie draws its first layer on top: the handles last declared first, then the
    // paths, then the background.
    for i in graph.handles.indices.reversed() {
      if let layer = handleLayer(i) { layers.append(layer) }
    }
    for p in graph.drawnPaths.indices.reversed() { layers.append(pathLayer(p)) }
    if let background = graph.background {
      layers.append(
        layer(
          name: "background", index: 0,
          transform: transform(
            position: .fixed("[0,0,0]"), rotation: nil, scale: nil, opacity: nil),
          shapes: [
            group([
              "{\"ty\":\"rc\",\"p\":{\"a\":0,\"k\":[\(n(graph.width / 2)),\(n(graph.height / 2))]},\"s\":{\"a\":0,\"k\":[\(n(graph.width)),\(n(graph.height))]},\"r\":{\"a\":0,\"k\":0}}",
              fill(.fixed(color(background)), opacity: .fixed("100")),
            ])
          ]))
    }
    let last = max(frames.count, 1)
    var text = "{\"v\":\"5.7.4\",\"fr\":\(n(context.fps)),\"ip\":0,\"op\":\(last),"
    text +=
      "\"w\":\(n(graph.width)),\"h\":\(n(graph.height)),\"nm\":\(JSONText.quoted(graph.name)),"
    text += "\"ddd\":0,\"assets\":[],\"layers\":[" + layers.joined(separator: ",") + "]}\n"
    sink.append(text)
  }

  // MARK: - Values over frames

  /// A property: one value, or a value held from each frame where it changes.
  enum Value {
    case fixed(String)
    case held([(frame: Int, value: String)])

    var json: String {
      switch self {
      case .fixed(let value): return "{\"a\":0,\"k\":\(value)}"
      case .held(let keys):
        if keys.count == 1 { return "{\"a\":0,\"k\":\(keys[0].value)}" }
        return "{\"a\":1,\"k\":["
          + keys.map { "{\"t\":\(Self.time($0.frame)),\"s\":\(Self.wrapped($0.value)),\"h\":1}" }
          .joined(separator: ",") + "]}"
      }
    }

    /// When frame `k`'s value starts: half a frame before it (the start for frame 0), so
    /// that a player shows frame k's value at frame k whichever way it reads a hold at
    /// its exact boundary (players differ there).
    static func time(_ k: Int) -> String { k == 0 ? "0" : "\(k - 1).5" }

    /// Keyframe values are lists: a number is written as a list of one.
    static func wrapped(_ value: String) -> String {
      value.hasPrefix("[") ? value : "[\(value)]"
    }
  }

  /// `value(frame)` for every frame, held where it does not change.
  func over(_ value: (Frame) -> String) -> Value {
    var keys: [(frame: Int, value: String)] = []
    for (k, frame) in frames.enumerated() {
      let v = value(frame)
      if keys.last?.value != v { keys.append((k, v)) }
    }
    if keys.isEmpty { return .fixed("0") }
    return keys.count == 1 ? .fixed(keys[0].value) : .held(keys)
  }

  func n(_ value: Double) -> String { NumberText.format(value, precision: context.precision) }

  func color(_ color: Color) -> String {
    "[\(n(Double(color.red) / 255)),\(n(Double(color.green) / 255)),\(n(Double(color.blue) / 255)),1]"
  }

  // MARK: - Layers

  func layer(name: String, index: Int, transform: String, shapes: [String]) -> String {
    "{\"ddd\":0,\"ind\":\(index),\"ty\":4,\"nm\":\(JSONText.quoted(name)),\"sr\":1,\"ks\":\(transform),"
      + "\"ao\":0,\"shapes\":[" + shapes.joined(separator: ",")
      + "],\"ip\":0,\"op\":\(max(frames.count, 1)),\"st\":0,\"bm\":0}"
  }

  func transform(position: Value, rotation: Value?, scale: Value?, opacity: Value?) -> String {
    "{\"o\":\((opacity ?? .fixed("100")).json),\"r\":\((rotation ?? .fixed("0")).json),"
      + "\"p\":\(position.json),\"a\":{\"a\":0,\"k\":[0,0,0]},"
      + "\"s\":\((scale ?? .fixed("[100,100,100]")).json)}"
  }

  func group(_ items: [String], transform: String? = nil) -> String {
    let tr =
      transform
      ?? "{\"ty\":\"tr\",\"p\":{\"a\":0,\"k\":[0,0]},\"a\":{\"a\":0,\"k\":[0,0]},\"s\":{\"a\":0,\"k\":[100,100]},\"r\":{\"a\":0,\"k\":0},\"o\":{\"a\":0,\"k\":100}}"
    return "{\"ty\":\"gr\",\"it\":[" + (items + [tr]).joined(separator: ",") + "]}"
  }

  func fill(_ color: Value, opacity: Value) -> String {
    "{\"ty\":\"fl\",\"c\":\(color.json),\"o\":\(opacity.json),\"r\":1}"
  }

  func stroke(_ color: Value, width: Value, opacity: Value) -> String {
    "{\"ty\":\"st\",\"c\":\(color.json),\"o\":\(opacity.json),\"w\":\(width.json),\"lc\":2,\"lj\":2}"
  }

  /// A handle's own layer: its shape and children, moved, turned, scaled and faded.
  mutating func handleLayer(_ i: Int) -> String? {
    let declared = context.graph.handles[i]
    let drawn = declared.shape == .circle || declared.shape == .rect
    guard drawn || !declared.children.isEmpty else { return nil }
    let position = over { "[\(n($0.handles[i].x)),\(n($0.handles[i].y)),0]" }
    let rotation = over { n(($0.handles[i].angle + $0.handles[i].rotation) * 180 / .pi) }
    let opacity = over { frame -> String in
      let h = frame.handles[i]
      return h.state == .hidden ? "0" : n(h.drawn(.opacity, declared: declared) * 100)
    }
    var shapes: [String] = []
    for (c, child) in declared.children.enumerated().reversed() {
      if let text = child.text {
        notes.append(
          "Lottie: the text child '\(declared.name).\(child.name)' (\"\(text.text { _ in 0 })\") is not exported; Lottie text needs its fonts shipped with it"
        )
        continue
      }
      guard
        let shape = shapeItems(
          of: child,
          look: { frame in
            frame.children.first { $0.handle == i && $0.child == c }?.look
              ?? HandleFrame.resting(child)
          })
      else { continue }
      let look = { (frame: Frame) in
        frame.children.first { $0.handle == i && $0.child == c }?.look ?? HandleFrame.resting(child)
      }
      let tr =
        "{\"ty\":\"tr\",\"p\":\(over { "[\(n(look($0).x)),\(n(look($0).y))]" }.json),\"a\":{\"a\":0,\"k\":[0,0]},"
        + "\"s\":\(over { "[\(n(look($0).scale * look($0).scaleX * 100)),\(n(look($0).scale * look($0).scaleY * 100))]" }.json),"
        + "\"r\":\(over { n(look($0).rotation * 180 / .pi) }.json),"
        + "\"o\":\(over { n(look($0).drawn(.opacity, declared: child) * 100) }.json)}"
      shapes.append(group(shape, transform: tr))
    }
    if drawn, let own = shapeItems(of: declared, look: { $0.handles[i] }) {
      shapes.append(group(own))
    }
    // The handle's scale, in percent, along its own axes.
    let scale = over { frame -> String in
      let h = frame.handles[i]
      return "[\(n(h.scale * h.scaleX * 100)),\(n(h.scale * h.scaleY * 100)),100]"
    }
    return layer(
      name: declared.name, index: i + 1,
      transform: transform(position: position, rotation: rotation, scale: scale, opacity: opacity),
      shapes: shapes)
  }

  /// An ellipse or rect centred at the origin, with its fill and stroke; `look` gives its
  /// values in each frame.
  func shapeItems(of handle: SceneGraph.Handle, look: (Frame) -> HandleFrame) -> [String]? {
    var items: [String] = []
    switch handle.shape {
    case .circle:
      let size = over { frame -> String in
        let r = look(frame).drawn(.radius, declared: handle)
        return "[\(n(2 * r)),\(n(2 * r))]"
      }
      items.append("{\"ty\":\"el\",\"p\":{\"a\":0,\"k\":[0,0]},\"s\":\(size.json)}")
    case .rect:
      let size = over {
        "[\(n(look($0).drawn(.width, declared: handle))),\(n(look($0).drawn(.height, declared: handle)))]"
      }
      let corner = over { n(look($0).drawn(.cornerRadius, declared: handle)) }
      items.append(
        "{\"ty\":\"rc\",\"p\":{\"a\":0,\"k\":[0,0]},\"s\":\(size.json),\"r\":\(corner.json)}")
    case .none, .text:
      return nil
    }
    let style = handle.style
    if style.fill != nil || handle.motions.contains(where: { $0.property == .fill }) {
      let fill = over { frame -> String in
        let l = look(frame)
        return color(l.animates(.fill) ? l.fill : style.fill ?? Color(red: 0, green: 0, blue: 0))
      }
      items.append(self.fill(fill, opacity: .fixed("100")))
    }
    if style.stroke != nil || handle.motions.contains(where: { $0.property == .stroke }) {
      let strokeColor = over { frame -> String in
        let l = look(frame)
        return color(
          l.animates(.stroke) ? l.stroke : style.stroke ?? Color(red: 0, green: 0, blue: 0))
      }
      let width = over { n(look($0).drawn(.strokeWidth, declared: handle)) }
      items.append(stroke(strokeColor, width: width, opacity: .fixed("100")))
    }
    return items
  }

  /// A drawn path's layer: its subpaths' vertices held frame by frame, filled and stroked.
  func pathLayer(_ p: Int) -> String {
    let drawn = context.graph.drawnPaths[p]
    let styles = { (frame: Frame) in frame.pathStyles.first { $0.path == p }?.look }
    let opacity = over { frame -> String in
      let path = frame.paths[p]
      guard !path.isHidden, !path.path.isEmpty else { return "0" }
      return n(
        (styles(frame)?.animates(.opacity) == true
          ? styles(frame)?.opacity ?? 1 : drawn.style.opacity) * 100)
    }
    var shapes: [String] = []
    let most = frames.reduce(0) { max($0, $1.paths[p].path.subpaths.count) }
    for s in 0..<max(most, 1) {
      let value = over { frame -> String in
        let subpaths = frame.paths[p].path.subpaths
        return s < subpaths.count
          ? Self.shape(subpaths[s], n) : "{\"c\":false,\"v\":[],\"i\":[],\"o\":[]}"
      }
      shapes.append("{\"ty\":\"sh\",\"ks\":\(value.json)}")
    }
    let style = drawn.style
    if style.fill != nil || frames.contains(where: { styles($0)?.animates(.fill) == true }) {
      shapes.append(
        fill(
          over {
            color(
              styles($0)?.animates(.fill) == true
                ? styles($0)?.fill ?? .init(red: 0, green: 0, blue: 0)
                : style.fill ?? .init(red: 0, green: 0, blue: 0))
          },
          opacity: .fixed("100")))
    }
    if style.stroke != nil || frames.contains(where: { styles($0)?.animates(.stroke) == true }) {
      shapes.append(
        stroke(
          over {
            color(
              styles($0)?.animates(.stroke) == true
                ? styles($0)?.stroke ?? .init(red: 0, green: 0, blue: 0)
                : style.stroke ?? .init(red: 0, green: 0, blue: 0))
          },
          width: over {
            n(
              styles($0)?.animates(.strokeWidth) == true
                ? styles($0)?.strokeWidth ?? 1 : style.strokeWidth)
          },
          opacity: .fixed("100")))
    }
    return layer(
      name: drawn.name, index: context.graph.handles.count + p + 1,
      transform: transform(
        position: .fixed("[0,0,0]"), rotation: nil, scale: nil, opacity: opacity),
      shapes: [group(shapes)])
  }

  /// A subpath as Lottie's shape: each segment's start a vertex, with its out tangent
  /// (the first control point less the vertex) and the next vertex's in tangent (the
  /// second control point less it); quadratics raised to cubics.
  static func shape(_ subpath: Subpath, _ n: (Double) -> String) -> String {
    var vertices: [Point] = [subpath.start]
    var ins: [Point] = [Point(0, 0)]
    var outs: [Point] = []
    for segment in subpath.segments {
      let (a, c1, c2, b): (Point, Point, Point, Point)
      switch segment {
      case .line(let p0, let p1): (a, c1, c2, b) = (p0, p0, p1, p1)
      case .quadratic(let p0, let q, let p1):
        (a, c1, c2, b) = (p0, p0 + (q - p0) * (2.0 / 3), p1 + (q - p1) * (2.0 / 3), p1)
      case .cubic(let p0, let q0, let q1, let p1): (a, c1, c2, b) = (p0, q0, q1, p1)
      }
      outs.append(c1 - a)
      vertices.append(b)
      ins.append(c2 - b)
    }
    outs.append(Point(0, 0))
    // A closed subpath that ends where it starts: its last vertex is its first.
    if subpath.isClosed, vertices.count > 1, let last = vertices.last, last == subpath.start {
      vertices.removeLast()
      ins[0] = ins.removeLast()
      outs.removeLast()
    }
    func list(_ points: [Point]) -> String {
      "[" + points.map { "[\(n($0.x)),\(n($0.y))]" }.joined(separator: ",") + "]"
    }
    return
      "{\"c\":\(subpath.isClosed),\"v\":\(list(vertices)),\"i\":\(list(ins)),\"o\":\(list(outs))}"
  }
}
