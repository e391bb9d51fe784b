import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

/// Turns a ``SceneSpec`` back into a ``DocumentNode`` tree of the canonical shape, which
/// ``YAMLEmitter`` and ``DSLEmitter`` print: the inverse of ``SceneDecoder``.
///
/// Keys come in a fixed order, numbers in their shortest round-trip form, times in
/// seconds (`0.9s`), colours as `#rrggbb`, expressions and expectations in their canonical
/// text. Decoding the result gives back an equal spec.
public enum SceneEncoder {
  public static func encode(_ spec: SceneSpec) -> DocumentNode {
    encode(spec, comments: SceneComments())
  }

  /// The tree of `spec`, with `comments` placed before the items they were written before.
  public static func encode(_ spec: SceneSpec, comments: SceneComments) -> DocumentNode {
    // Every item's line in the file, and the comments that go before each.
    var itemLines: [Int] = []
    func line(_ source: SourceRef) -> Int { source.span.start.line }
    itemLines.append(line(spec.header.source))
    itemLines += spec.lets.map { line($0.name.source) } + spec.springs.map { line($0.name.source) }
    itemLines += spec.handles.map { line($0.name.source) } + spec.paths.map { line($0.name.source) }
    itemLines += spec.constraints.map { line($0.source) }
    itemLines +=
      spec.inputs.map { line($0.name.source) } + spec.machines.map { line($0.name.source) }
    itemLines += spec.gesture.flatMap { $0.steps.map { line($0.source) } }
    itemLines += spec.expectations.map { line($0.source) }
    let placed = comments.assign(to: Array(Set(itemLines)).sorted())
    func commented(_ node: DocumentNode, _ source: SourceRef) -> DocumentNode {
      var node = node
      node.comments = placed[line(source)] ?? []
      return node
    }

    var top: [DocumentNode.Entry] = []
    let header = encodeHeader(spec.header)
    if !header.isEmpty {
      top.append(entry("scene", commented(mapping(header), spec.header.source)))
    }
    /// A section of named items (`handles: { ball: … }`), each after its comments.
    func section<Item>(
      _ key: String, _ items: [Item], name: (Item) -> Located<String>,
      encode: (Item) -> DocumentNode
    ) {
      guard !items.isEmpty else { return }
      top.append(
        entry(
          key, mapping(items.map { entry(name($0).value, commented(encode($0), name($0).source)) }))
      )
    }
    section("inputs", spec.inputs, name: { $0.name }, encode: { encodeInput($0) })
    section("let", spec.lets, name: { $0.name }, encode: { scalar($0.value.text) })
    section("springs", spec.springs, name: { $0.name }, encode: { mapping(encodeSpring($0)) })
    section("handles", spec.handles, name: { $0.name }, encode: { mapping(encodeHandle($0)) })
    section("paths", spec.paths, name: { $0.name }, encode: { mapping(encodePath($0)) })
    if !spec.constraints.isEmpty {
      top.append(
        entry(
          "constraints",
          sequence(
            spec.constraints.map {
              commented(mapping([entry($0.keyword, mapping(encodeConstraint($0)))]), $0.source)
            })))
    }
    section("states", spec.machines, name: { $0.name }, encode: { mapping(encodeMachine($0)) })
    func steps(_ track: GestureTrack) -> DocumentNode {
      sequence(track.steps.map { commented(encodeStep($0), $0.source) })
    }
    if !spec.gesture.isEmpty {
      if spec.gesture.count == 1 && spec.gesture[0].pointer.value == 0 {
        top.append(entry("gesture", steps(spec.gesture[0])))
      } else {
        top.append(
          entry("gesture", mapping(spec.gesture.map { entry(String($0.pointer.value), steps($0)) }))
        )
      }
    }
    if !spec.expectations.isEmpty {
      top.append(
        entry("expect", sequence(spec.expectations.map { commented(scalar($0.text), $0.source) })))
    }
    return mapping(top)
  }

  // MARK: - Parts

  static func encodeHeader(_ header: SceneSpec.Header) -> [DocumentNode.Entry] {
    var fields: [DocumentNode.Entry] = []
    if let name = header.name { fields.append(entry("name", quoted(name.value))) }
    if let size = header.size {
      fields.append(
        entry("size", scalar("\(number(size.value.width))x\(number(size.value.height))")))
    }
    if let fps = header.fps { fields.append(entry("fps", scalar(number(fps.value)))) }
    if let duration = header.duration {
      switch duration.value {
      case .seconds(let seconds): fields.append(entry("duration", scalar(time(seconds))))
      case .untilRest: fields.append(entry("duration", scalar("until-rest")))
      }
    }
    if let max = header.maxDuration { fields.append(entry("maxDuration", scalar(time(max.value)))) }
    if let background = header.background {
      fields.append(entry("background", scalar(background.value.description)))
    }
    return fields
  }

  static func encodeInput(_ input: InputSpec) -> DocumentNode {
    switch input.kind {
    case .boolean(let value): return scalar(value.value ? "true" : "false")
    case .trigger: return scalar("trigger")
    case .number(let value, nil, nil): return scalar(number(value.value))
    case .number(let value, let min, let max):
      var fields = [entry("value", scalar(number(value.value)))]
      if let min { fields.append(entry("min", scalar(number(min.value)))) }
      if let max { fields.append(entry("max", scalar(number(max.value)))) }
      return mapping(fields)
    }
  }

  static func encodeMachine(_ machine: MachineSpec) -> [DocumentNode.Entry] {
    var fields = [entry("initial", scalar(machine.initial.value))]
    fields.append(
      entry(
        "states",
        mapping(machine.states.map { entry($0.name.value, encodeState($0)) })))
    if !machine.transitions.isEmpty {
      fields.append(
        entry("transitions", sequence(machine.transitions.map { mapping(encodeTransition($0)) })))
    }
    return fields
  }

  static func encodeState(_ state: StateSpec) -> DocumentNode {
    var fields: [DocumentNode.Entry] = []
    if let spring = state.spring { fields.append(entry("spring", scalar(spring.value))) }
    if let duration = state.duration {
      fields.append(entry("duration", scalar(time(duration.value))))
    }
    if let easing = state.easing { fields.append(entry("ease", scalar(easing.value.description))) }
    switch state.disabled.count {
    case 0: break
    case 1: fields.append(entry("disable", scalar(state.disabled[0].value)))
    default: fields.append(entry("disable", sequence(state.disabled.map { scalar($0.value) })))
    }
    if !state.targets.isEmpty {
      // By handle, in the order each first appears; each handle's properties as written.
      var order: [String] = []
      var properties: [String: [DocumentNode.Entry]] = [:]
      for target in state.targets {
        if properties[target.handle.value] == nil { order.append(target.handle.value) }
        properties[target.handle.value, default: []].append(
          entry(target.property.value, scalar(target.value.text)))
      }
      fields.append(entry("set", mapping(order.map { entry($0, mapping(properties[$0] ?? [])) })))
    }
    return mapping(fields)
  }

  static func encodeTransition(_ transition: TransitionSpec) -> [DocumentNode.Entry] {
    var fields = [
      entry("from", scalar(transition.from.value)), entry("to", scalar(transition.to.value)),
    ]
    switch transition.on {
    case .event(let pattern)?: fields.append(entry("on", scalar(ExpectationSpec.text(of: pattern))))
    case .input(let name)?: fields.append(entry("on", scalar(name.value)))
    case nil: break
    }
    if let when = transition.when { fields.append(entry("when", scalar(when.text))) }
    if let after = transition.after { fields.append(entry("after", scalar(time(after.value)))) }
    return fields
  }

  static func encodeSpring(_ spring: SpringSpec) -> [DocumentNode.Entry] {
    var fields: [DocumentNode.Entry] = []
    switch spring.parameters {
    case .dampingRatio(let ratio, let duration):
      fields.append(entry("dampingRatio", scalar(number(ratio.value))))
      fields.append(entry("duration", scalar(time(duration.value))))
    case .bounce(let bounce, let duration):
      fields.append(entry("duration", scalar(time(duration.value))))
      fields.append(entry("bounce", scalar(number(bounce.value))))
    case .physical(let stiffness, let damping):
      fields.append(entry("stiffness", scalar(number(stiffness.value))))
      fields.append(entry("damping", scalar(number(damping.value))))
    }
    if let mass = spring.mass { fields.append(entry("mass", scalar(number(mass.value)))) }
    if let threshold = spring.restThreshold {
      fields.append(entry("restThreshold", scalar(number(threshold.value))))
    }
    return fields
  }

  static func encodeStyle(_ style: Style) -> [DocumentNode.Entry] {
    var fields: [DocumentNode.Entry] = []
    if let fill = style.fill { fields.append(entry("fill", scalar(fill.value.description))) }
    if let stroke = style.stroke {
      fields.append(entry("stroke", scalar(stroke.value.description)))
    }
    if let width = style.strokeWidth {
      fields.append(entry("strokeWidth", scalar(number(width.value))))
    }
    if let opacity = style.opacity {
      fields.append(entry("opacity", scalar(number(opacity.value))))
    }
    return fields
  }

  static func encodeHandle(_ handle: HandleSpec, isChild: Bool = false) -> [DocumentNode.Entry] {
    var fields: [DocumentNode.Entry] = []
    // A child's position is `(0, 0)` unless written.
    if !isChild || handle.position.text != "(0, 0)" {
      fields.append(entry("position", scalar(handle.position.text)))
    }
    if let shape = handle.shape { fields.append(entry("shape", scalar(shape.value.rawValue))) }
    if let r = handle.radius { fields.append(entry("r", scalar(number(r.value)))) }
    if let width = handle.width { fields.append(entry("width", scalar(number(width.value)))) }
    if let height = handle.height { fields.append(entry("height", scalar(number(height.value)))) }
    if let draggable = handle.draggable {
      fields.append(entry("draggable", scalar(String(draggable.value))))
    }
    if let hit = handle.hitRadius { fields.append(entry("hitRadius", scalar(number(hit.value)))) }
    if let rest = handle.rest { fields.append(entry("rest", scalar(rest.text))) }
    if let spring = handle.spring { fields.append(entry("spring", scalar(spring.value))) }
    if let rotation = handle.rotation { fields.append(entry("rotation", encode(rotation))) }
    if let scale = handle.scale { fields.append(entry("scale", encode(scale))) }
    if let scale = handle.scaleX { fields.append(entry("scaleX", encode(scale))) }
    if let scale = handle.scaleY { fields.append(entry("scaleY", encode(scale))) }
    fields += encodeStyle(handle.style)
    if let opacity = handle.animatedOpacity { fields.append(entry("opacity", encode(opacity))) }
    if let fill = handle.animatedFill { fields.append(entry("fill", encode(fill))) }
    if let stroke = handle.animatedStroke { fields.append(entry("stroke", encode(stroke))) }
    if let corner = handle.cornerRadius {
      fields.append(entry("cornerRadius", scalar(number(corner.value))))
    }
    for key in SceneDecoder.animatedSizeKeys {
      if let value = handle.animatedSizes[key] { fields.append(entry(key, encode(value))) }
    }
    if let text = handle.text {
      fields.append(entry("text", quoted(text.written.text)))
      if let size = text.fontSize { fields.append(entry("fontSize", scalar(number(size.value)))) }
      if let weight = text.fontWeight {
        fields.append(entry("fontWeight", scalar(weight.value.rawValue)))
      }
      if let align = text.align { fields.append(entry("align", scalar(align.value.rawValue))) }
    }
    if !handle.children.isEmpty {
      let children = handle.children.map {
        entry($0.name.value, mapping(encodeHandle($0, isChild: true)))
      }
      fields.append(entry("children", mapping(children)))
    }
    return fields
  }

  /// An animated colour: `mix(…)`, or `{ to: "mix(…)", spring: NAME, held: EXPR }`.
  static func encode(_ mix: ColorMix) -> DocumentNode {
    encode(mix.fraction, to: mix.text)
  }

  /// An animated property: its expression, or `{ to: EXPR, spring: NAME, held: EXPR }`, or
  /// a tween, `{ to: EXPR, duration: T, ease: E, held: EXPR }`.
  static func encode(_ value: AnimatedValue, to text: String? = nil) -> DocumentNode {
    let target = text ?? value.value.text
    guard value.spring != nil || value.duration != nil else { return scalar(target) }
    var entries = [entry("to", scalar(target))]
    if let spring = value.spring { entries.append(entry("spring", scalar(spring.value))) }
    if let duration = value.duration {
      entries.append(entry("duration", scalar(time(duration.value))))
    }
    if let easing = value.easing { entries.append(entry("ease", scalar(easing.value.description))) }
    if let held = value.held { entries.append(entry("held", scalar(held.text))) }
    return mapping(entries)
  }

  static func encodePath(_ path: PathSpec) -> [DocumentNode.Entry] {
    var fields: [DocumentNode.Entry] = []
    switch path.geometry {
    case .data(let data):
      fields.append(entry("d", quoted(path.writtenData?.text ?? data.svgPathData)))
    case .segments(let segments):
      fields.append(entry("segments", sequence(segments.map(encodeSegment))))
    }
    fields += encodeStyle(path.style)
    if let opacity = path.animatedOpacity { fields.append(entry("opacity", encode(opacity))) }
    if let fill = path.animatedFill { fields.append(entry("fill", encode(fill))) }
    if let stroke = path.animatedStroke { fields.append(entry("stroke", encode(stroke))) }
    if let width = path.animatedStrokeWidth { fields.append(entry("strokeWidth", encode(width))) }
    if path.trimStart != nil || path.trimEnd != nil {
      var trim: [DocumentNode.Entry] = []
      if let start = path.trimStart { trim.append(entry("start", encode(start))) }
      if let end = path.trimEnd { trim.append(entry("end", encode(end))) }
      fields.append(entry("trim", mapping(trim)))
    }
    return fields
  }

  static func encodeSegment(_ segment: PathSegmentSpec) -> DocumentNode {
    switch segment.kind {
    case .move(let p): return mapping([entry("move", scalar(p.text))])
    case .line(let p): return mapping([entry("line", scalar(p.text))])
    case .quadratic(let c, let p):
      return mapping([entry("quad", sequence([scalar(c.text), scalar(p.text)]))])
    case .cubic(let c1, let c2, let p):
      return mapping([entry("cubic", sequence([scalar(c1.text), scalar(c2.text), scalar(p.text)]))])
    case .close: return scalar("close")
    }
  }

  static func encodeConstraint(_ constraint: ConstraintSpec) -> [DocumentNode.Entry] {
    var fields: [DocumentNode.Entry] = []
    func add(_ key: String, _ value: String?) {
      if let value { fields.append(entry(key, scalar(value))) }
    }
    switch constraint.kind {
    case .follow(let f):
      add("handle", f.handle.value)
      add("path", f.path.value)
      add("orient", f.orient.map { String($0.value) })
      add("ends", f.ends?.value.rawValue)
      add("spring", f.spring?.value)
      add("rest", f.rest.map { number($0.value) })
      add("hysteresis", f.hysteresis.map { number($0.value) })
      if let momentum = f.momentum { fields.append(entry("momentum", encodeMomentum(momentum))) }
      if !f.snap.isEmpty {
        fields.append(
          entry(
            "snap",
            mapping(f.snap.map { entry($0.name.value, scalar(number($0.fraction.value))) })))
      }
    case .elastic(let e):
      add("handle", e.handle.value)
      if let resistance = e.resistance {
        fields.append(entry("resistance", encodeResistance(resistance)))
      }
      switch e.returnMotion {
      case nil: break
      case .spring(let name)?: add("return", name.value)
      case .speed(let speed, let easing)?:
        var inner = [entry("speed", scalar(number(speed.value)))]
        if let easing { inner.append(entry("ease", scalar(easing.value.description))) }
        fields.append(entry("return", mapping(inner)))
      case .duration(let duration, let easing)?:
        var inner = [entry("duration", scalar(time(duration.value)))]
        if let easing { inner.append(entry("ease", scalar(easing.value.description))) }
        fields.append(entry("return", mapping(inner)))
      }
    case .gooey(let g):
      add("anchor", g.anchor.value)
      add("ball", g.ball.value)
      add("viscosity", g.viscosity.map { number($0.value) })
      add("maxDistance", g.maxDistance.map { number($0.value) })
      add("minRadius", g.minRadius.map { number($0.value) })
      add("spring", g.spring?.value)
      add("style", g.style?.value.rawValue)
      fields += encodeStyle(g.bridgeStyle)
    case .animate(let a):
      add("handle", a.handle.value)
      add("path", a.path.value)
      add("duration", time(a.duration.value))
      add("repeat", a.repeatMode?.value.rawValue)
      add("ease", a.easing?.value.description)
      add("orient", a.orient.map { String($0.value) })
      add("delay", a.delay.map { time($0.value) })
    case .drag(let d):
      add("handle", d.handle.value)
      add("axis", d.axis?.value.rawValue)
      add("lock", d.lock.map { String($0.value) })
      add("paging", d.paging.map { String($0.value) })
      if let bounds = d.bounds {
        let limits = [
          ("minX", bounds.minX), ("maxX", bounds.maxX), ("minY", bounds.minY),
          ("maxY", bounds.maxY),
        ]
        fields.append(
          entry(
            "bounds",
            mapping(limits.compactMap { key, value in value.map { entry(key, scalar($0.text)) } })))
      }
      if let overdrag = d.overdrag { fields.append(entry("overdrag", encodeResistance(overdrag))) }
      if let momentum = d.momentum { fields.append(entry("momentum", encodeMomentum(momentum))) }
      if !d.snap.isEmpty {
        fields.append(
          entry("snap", mapping(d.snap.map { entry($0.name.value, scalar($0.point.text)) })))
      }
      add("grid", d.grid?.text)
      add("spring", d.spring?.value)
      add("bounce", d.bounce?.value)
      add("transform", d.transform?.value.rawValue)
      add("rotate", d.rotate.map { String($0.value) })
      if d.zoomMin != nil || d.zoomMax != nil {
        var zoom: [DocumentNode.Entry] = []
        if let min = d.zoomMin { zoom.append(entry("min", scalar(number(min.value)))) }
        if let max = d.zoomMax { zoom.append(entry("max", scalar(number(max.value)))) }
        fields.append(entry("zoom", mapping(zoom)))
      }
    }
    if let name = constraint.name { fields.append(entry("name", scalar(name.value))) }
    return fields
  }

  static func encodeResistance(_ resistance: ElasticSpec.Resistance) -> DocumentNode {
    switch resistance {
    case .none: return scalar("none")
    case .factor(let factor): return mapping([entry("factor", scalar(number(factor.value)))])
    case .rubberband(let coefficient, nil) where coefficient.value == 0.55:
      return scalar("rubberband")  // The shorthand for iOS's own coefficient.
    case .rubberband(let coefficient, let dimension):
      var inner = [entry("rubberband", scalar(number(coefficient.value)))]
      if let dimension { inner.append(entry("dimension", scalar(number(dimension.value)))) }
      return mapping(inner)
    }
  }

  static func encodeMomentum(_ momentum: MomentumSpec) -> DocumentNode {
    switch momentum {
    case .none: return scalar("none")
    case .preset(let preset): return scalar(preset.value.rawValue)
    case .rate(let rate): return mapping([entry("rate", scalar(number(rate.value)))])
    case .power(let power, let timeConstant):
      var inner: [DocumentNode.Entry] = []
      if let power { inner.append(entry("power", scalar(number(power.value)))) }
      if let timeConstant {
        inner.append(entry("timeConstant", scalar(time(timeConstant.value))))
      }
      return mapping(inner)
    }
  }

  static func encodeStep(_ step: GestureStep) -> DocumentNode {
    func motion(_ m: GestureStep.Motion) -> DocumentNode.Entry {
      switch m {
      case .to(let p): return entry("to", scalar(p.text))
      case .by(let v): return entry("by", scalar(v.text))
      }
    }
    switch step.kind {
    case .press(let p): return mapping([entry("press", scalar(p.text))])
    case .tap(let p): return mapping([entry("tap", scalar(p.text))])
    case .drag(let m, let duration, let easing), .move(let m, let duration, let easing):
      var inner = [motion(m)]
      if let duration { inner.append(entry("over", scalar(time(duration.value)))) }
      if let easing { inner.append(entry("ease", scalar(easing.value.description))) }
      return mapping([entry(step.keyword, mapping(inner))])
    case .fling(let m, let duration, let velocity):
      var inner = [motion(m)]
      if let duration { inner.append(entry("over", scalar(time(duration.value)))) }
      if let velocity { inner.append(entry("velocity", scalar(velocity.text))) }
      return mapping([entry("fling", mapping(inner))])
    case .wait(let seconds):
      return mapping([entry(step.keyword, scalar(time(seconds.value)))])
    case .release(nil): return scalar("release")
    case .release(let velocity?):
      return mapping([entry("release", mapping([entry("velocity", scalar(velocity.text))]))])
    case .replay(let file): return mapping([entry("replay", quoted(file.value))])
    case .pinch(let pinch), .rotate(let pinch):
      var inner: [DocumentNode.Entry] = []
      if case .rotate = step.kind {
        if let by = pinch.rotation { inner.append(entry("by", scalar(by.text))) }
      } else {
        if let scale = pinch.scale { inner.append(entry("scale", scalar(scale.text))) }
        if let rotation = pinch.rotation {
          inner.append(entry("rotation", scalar(rotation.text)))
        }
      }
      inner.append(entry("center", scalar(pinch.center.text)))
      if let distance = pinch.distance {
        inner.append(entry("distance", scalar(distance.text)))
      }
      if let duration = pinch.duration {
        inner.append(entry("over", scalar(time(duration.value))))
      }
      if let easing = pinch.easing { inner.append(entry("ease", scalar(easing.value.description))) }
      return mapping([entry(step.keyword, mapping(inner))])
    case .set(let assignments):
      return mapping([
        entry("set", mapping(assignments.map { entry($0.input.value, scalar($0.value.text)) }))
      ])
    case .fire(let trigger): return mapping([entry("fire", scalar(trigger.value))])
    }
  }

  // MARK: - Building nodes

  static func entry(_ key: String, _ value: DocumentNode) -> DocumentNode.Entry {
    DocumentNode.Entry(key: key, keySource: .synthesized, value: value)
  }
  static func scalar(_ text: String) -> DocumentNode { .scalar(text) }
  static func quoted(_ text: String) -> DocumentNode {
    DocumentNode(
      .scalar(DocumentNode.Scalar(text, isQuoted: true, isVerbatim: false)), at: .synthesized)
  }
  static func mapping(_ entries: [DocumentNode.Entry]) -> DocumentNode {
    DocumentNode(.mapping(entries), at: .synthesized)
  }
  static func sequence(_ items: [DocumentNode]) -> DocumentNode {
    DocumentNode(.sequence(items), at: .synthesized)
  }
  static func number(_ value: Double) -> String { value.shortestDescription }
  static func time(_ seconds: Double) -> String { seconds.shortestDescription + "s" }
}
