import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneSyntax
import SceneVocabulary

// MARK: - Springs, handles, paths

extension SceneResolver {
  mutating func resolveSpring(_ spring: SpringSpec) -> SceneGraph.Spring {
    func what() -> String { "spring '\(spring.name.value)'" }
    let mass = checked(spring.mass, default: 1, "\(what()): mass", in: 1e-6...1e6)
    let threshold = positive(spring.restThreshold, default: 0.5, "\(what()): restThreshold")
    // The conversions are SpringModel's own, so the runtime and the resolver cannot
    // disagree on them; the ranges above keep them away from SpringModel's clamps.
    let model: SpringModel
    switch spring.parameters {
    case .dampingRatio(let ratio, let duration):
      let period = seconds(duration, default: 1, "\(what()): duration")
      let zeta = checked(ratio, default: 1, "\(what()): dampingRatio", in: 0...1000)
      model = SpringModel(
        dampingRatio: zeta, duration: period, mass: mass, restThreshold: threshold)
    case .bounce(let bounce, let duration):
      let period = seconds(duration, default: 1, "\(what()): duration")
      let b = checked(bounce, default: 0, "\(what()): bounce", in: -0.99...1)
      model = SpringModel(duration: period, bounce: b, mass: mass, restThreshold: threshold)
    case .physical(let k, let c):
      let stiffness = checked(k, default: 100, "\(what()): stiffness", in: 1e-6...1e9)
      let damping = checked(c, default: 10, "\(what()): damping", in: 0...1e12)
      model = SpringModel(
        stiffness: stiffness, damping: damping, mass: mass, restThreshold: threshold)
    }
    let stiffness = model.stiffness
    let damping = model.damping
    return SceneGraph.Spring(
      name: spring.name.value, mass: mass, stiffness: stiffness, damping: damping,
      restThreshold: threshold, source: spring.name.source)
  }

  /// The range every duration in a scene must be in: a millisecond to an hour.
  static let durationRange = 0.001...3600.0

  /// A duration in seconds, within ``durationRange``, else an error naming the range.
  mutating func seconds(
    _ value: Located<Double>?, default fallback: Double, _ what: @autoclosure () -> String
  )
    -> Double
  {
    guard let value else { return fallback }
    guard Self.durationRange.contains(value.value) else {
      error(
        "\(what()) must be between 1ms and 3600s, found \(value.value.shortestDescription)s",
        at: value.source)
      return fallback
    }
    return value.value
  }

  mutating func positive(
    _ value: Located<Double>?, default fallback: Double, _ what: @autoclosure () -> String
  )
    -> Double
  {
    guard let value else { return fallback }
    guard value.value > 0 else {
      error(
        "\(what()) must be greater than 0, found \(value.value.shortestDescription)",
        at: value.source
      )
      return fallback
    }
    return value.value
  }

  mutating func nonNegative(
    _ value: Located<Double>?, default fallback: Double, _ what: @autoclosure () -> String
  )
    -> Double
  {
    guard let value else { return fallback }
    guard value.value >= 0 else {
      error(
        "\(what()) must not be negative, found \(value.value.shortestDescription)", at: value.source
      )
      return fallback
    }
    return value.value
  }

  mutating func resolveHandle(_ handle: HandleSpec, parent: String? = nil) -> SceneGraph.Handle {
    // The subject of this handle's messages, built only if one is written: built eagerly,
    // such strings were a tenth of resolving a 10,000-handle scene.
    // Only the name is captured: capturing `handle` copied the whole spec.
    let name = handle.name.value
    func what() -> String { parent.map { "child '\($0).\(name)'" } ?? "handle '\(name)'" }
    let radius = nonNegative(handle.radius, default: 0, "\(what()): radius")
    let width = nonNegative(handle.width, default: 0, "\(what()): width")
    let height = nonNegative(handle.height, default: 0, "\(what()): height")
    let sizes = handle.animatedSizes
    let hasRadius = handle.radius != nil || sizes["r"] != nil
    let hasWidth = handle.width != nil || sizes["width"] != nil
    let hasHeight = handle.height != nil || sizes["height"] != nil
    let shape: HandleShape =
      handle.shape?.value
      ?? (handle.text != nil ? .text : hasRadius ? .circle : hasWidth ? .rect : .none)
    if shape == .text && parent == nil {
      error(
        "\(what()) cannot be text; give it a child that is (children: { label: { text: \"…\" } })",
        at: handle.shape?.source ?? handle.name.source)
    } else if shape == .text && handle.text == nil {
      error("\(what()) is text but has no 'text'", at: handle.shape?.source ?? handle.name.source)
    } else if shape != .text, let text = handle.text {
      error(
        "\(what()) has 'text' but is a \(shape.rawValue); text needs shape text", at: text.source)
    }
    if shape == .circle && !hasRadius {
      error("\(what()) is a circle but has no 'r'", at: handle.shape?.source ?? handle.name.source)
    }
    if shape == .rect && (!hasWidth || !hasHeight) {
      error(
        "\(what()) is a rect but lacks 'width' or 'height'",
        at: handle.shape?.source ?? handle.name.source)
    }
    let hitRadius = nonNegative(handle.hitRadius, default: max(radius, 22), "\(what()): hitRadius")
    let spring = handle.spring.flatMap { lookup($0, in: springIndex, kind: "spring") }
    // An animated stroke counts as a stroke: a shape with one is not filled white unless
    // it says so, as with a constant stroke.
    let stroked = handle.style.stroke != nil || handle.animatedStroke != nil
    let cornerRadius = nonNegative(handle.cornerRadius, default: 0, "\(what()): cornerRadius")
    var resolved = SceneGraph.Handle(
      name: handle.name.value, nameSource: handle.name.source, shape: shape, radius: radius,
      width: width, height: height,
      draggable: handle.draggable?.value ?? false, hitRadius: hitRadius, spring: spring,
      style: style(
        handle.style,
        defaultFill: shape == .none || (stroked && handle.style.fill == nil)
          ? nil : Color(red: 255, green: 255, blue: 255),
        what: what()))
    resolved.cornerRadius = cornerRadius
    if let text = handle.text {
      resolved.text = SceneGraph.TextLook(
        pieces: [], fontSize: positive(text.fontSize, default: 17, "\(what()): fontSize"),
        fontWeight: text.fontWeight?.value ?? .regular, align: text.align?.value ?? .center)
    }
    resolved.children = handle.children.map { resolveHandle($0, parent: name) }
    resolved.hitsShapes = !resolved.children.isEmpty && handle.hitRadius == nil
    return resolved
  }

  mutating func style(
    _ style: Style, defaultFill: Color?, defaultStroke: Color? = nil, defaultWidth: Double = 1,
    what: @autoclosure () -> String
  )
    -> SceneGraph.Style
  {
    let opacity = checked(style.opacity, default: 1, "\(what()): opacity", in: 0...1)
    let width = nonNegative(style.strokeWidth, default: defaultWidth, "\(what()): strokeWidth")
    let fill = style.fill?.value ?? (style.stroke == nil ? defaultFill : nil)
    return SceneGraph.Style(
      fill: fill, stroke: style.stroke?.value ?? (style.fill == nil ? defaultStroke : nil),
      strokeWidth: width,
      opacity: opacity)
  }

  mutating func resolvePath(_ path: PathSpec) -> SceneGraph.PathNode {
    let name = path.name.value
    func what() -> String { "path '\(name)'" }
    var measured: MeasuredPath?
    if case .data(let data) = path.geometry {
      let measure = MeasuredPath(data, sharing: &measurements)
      if !(measure.length > 0) || !measure.length.isFinite {
        error(
          "\(what()) has zero length; a path needs at least one segment that goes somewhere",
          at: path.geometrySource)
      }
      measured = measure
    }
    return SceneGraph.PathNode(
      name: path.name.value, isDynamic: measured == nil, segments: [], measured: measured,
      style: style(
        path.style, defaultFill: nil,
        // An animated fill counts as a fill: such a path is not also stroked white.
        defaultStroke: path.animatedFill == nil ? Color(red: 255, green: 255, blue: 255) : nil,
        defaultWidth: 2, what: what()),
      source: path.name.source)
  }

  /// Compiles each path's `trim` (its start and end) and the parts of its style that
  /// change, as animated values.
  mutating func compileTrims(
    _ paths: inout [SceneGraph.PathNode], specs: [PathSpec], symbols: [String: Symbol],
    layout: SlotLayout, lets: [SceneGraph.Let?]
  ) {
    let timed = timedSlots(layout: layout, lets: lets)
    for i in specs.indices {
      let name = specs[i].name.value
      // Most paths neither trim nor change their style: passed by without copying them.
      guard
        specs[i].trimStart != nil || specs[i].trimEnd != nil || specs[i].animatedOpacity != nil
          || specs[i].animatedFill != nil || specs[i].animatedStroke != nil
          || specs[i].animatedStrokeWidth != nil
      else { continue }
      let spec = specs[i]
      for case (let property, let value?) in [
        (SceneGraph.AnimatedProperty.trimStart, spec.trimStart), (.trimEnd, spec.trimEnd),
        (.opacity, spec.animatedOpacity), (.fill, spec.animatedFill?.fraction),
        (.stroke, spec.animatedStroke?.fraction), (.strokeWidth, spec.animatedStrokeWidth),
      ] {
        let mix =
          property == .fill ? spec.animatedFill : property == .stroke ? spec.animatedStroke : nil
        let what =
          mix != nil
          ? "the fraction of the \(property.key) of path '\(name)'"
          : "the \(property.key) of path '\(name)'"
        guard var motion = motion(property, value, symbols: symbols, what: what, timed: timed)
        else { continue }
        if let mix { motion.colors = (OKLab(mix.from), OKLab(mix.to)) }
        paths[i].motions.append(motion)
      }
    }
  }

  /// The slots that change with time by themselves: time, frame, and lets that read them.
  func timedSlots(layout: SlotLayout, lets: [SceneGraph.Let?]) -> Set<Int> {
    var timed = Set([SlotLayout.time, SlotLayout.frame])
    for (i, definition) in lets.enumerated() {
      guard let definition, definition.value.dependencies.contains(where: timed.contains) else {
        continue
      }
      timed.insert(layout.letSlot(i))
      timed.insert(layout.letSlot(i) + 1)
    }
    return timed
  }

  /// One animated value compiled: a number, with its spring found and its `held`.
  mutating func motion(
    _ property: SceneGraph.AnimatedProperty, _ value: AnimatedValue, symbols: [String: Symbol],
    what: String, timed: Set<Int>
  ) -> SceneGraph.Motion? {
    guard let target = compile(value.value, symbols, expect: .number, what: what) else {
      return nil
    }
    let spring = value.spring.flatMap { lookup($0, in: springIndex, kind: "spring") }
    if value.spring != nil && spring == nil { return nil }
    var motion = SceneGraph.Motion(
      property: property, target: target, spring: spring, source: value.source)
    if let duration = value.duration {
      let seconds = checked(duration, default: 0.3, "'duration' of \(what)", in: 0.001...3600)
      motion.tween = (seconds, value.easing?.value ?? .linear)
    }
    if let held = value.held {
      guard let compiled = compile(held, symbols, expect: .number, what: "'held' of \(what)")
      else { return nil }
      motion.held = compiled
    }
    motion.followsTime = target.dependencies.contains(where: timed.contains)
    return motion
  }

  /// Compiles each handle's animated properties (`rotation`, `scale`, `opacity`, colours,
  /// sizes): numbers, with their springs found, and whether each moves with time by itself.
  mutating func compileMotions(
    _ handles: inout [SceneGraph.Handle], specs: [HandleSpec], symbols: [String: Symbol],
    layout: SlotLayout, lets: [SceneGraph.Let?]
  ) {
    let timed = timedSlots(layout: layout, lets: lets)
    for i in specs.indices where specs[i].movesItsLook {
      let spec = specs[i]
      compileLookMotions(
        &handles[i], spec: spec, subject: "handle '\(spec.name.value)'", symbols: symbols,
        timed: timed)
      for c in spec.children.indices {
        let child = spec.children[c]
        let subject = "child '\(spec.name.value).\(child.name.value)'"
        compileLookMotions(
          &handles[i].children[c], spec: child, subject: subject, symbols: symbols, timed: timed,
          isChild: true)
        compileChildPlace(
          &handles[i].children[c], spec: child, subject: subject, symbols: symbols, timed: timed)
      }
    }
  }

  /// The animated properties of a handle or a child.
  mutating func compileLookMotions(
    _ handle: inout SceneGraph.Handle, spec: HandleSpec, subject: String,
    symbols: [String: Symbol], timed: Set<Int>, isChild: Bool = false
  ) {
    let written: [(SceneGraph.AnimatedProperty, AnimatedValue?)] = [
      (.opacity, spec.animatedOpacity), (.rotation, spec.rotation), (.scale, spec.scale),
      (.scaleX, spec.scaleX), (.scaleY, spec.scaleY),
      (.fill, spec.animatedFill?.fraction), (.stroke, spec.animatedStroke?.fraction),
      (.radius, spec.animatedSizes["r"]), (.width, spec.animatedSizes["width"]),
      (.height, spec.animatedSizes["height"]),
      (.cornerRadius, spec.animatedSizes["cornerRadius"]),
      (.strokeWidth, spec.animatedSizes["strokeWidth"]),
    ]
    for case (let property, let value?) in written {
      let mix =
        property == .fill ? spec.animatedFill : property == .stroke ? spec.animatedStroke : nil
      let what =
        mix != nil
        ? "the fraction of the \(property.key) of \(subject)"
        : "the \(property.key) of \(subject)"
      guard var motion = motion(property, value, symbols: symbols, what: what, timed: timed)
      else { continue }
      // A child's turn or scale that never changes is drawn from the scene, not each frame.
      if isChild, motion.spring == nil, let constant = motion.target.constantValue?.x,
        [.rotation, .scale, .scaleX, .scaleY].contains(property)
      {
        switch property {
        case .rotation: handle.rotation = constant
        case .scale: handle.scale = constant
        case .scaleX: handle.scaleX = constant
        default: handle.scaleY = constant
        }
        continue
      }
      if let mix { motion.colors = (OKLab(mix.from), OKLab(mix.to)) }
      handle.motions.append(motion)
    }
  }

  /// A child's place (a constant, or `x` and `y` motions) and its text's numbers.
  mutating func compileChildPlace(
    _ child: inout SceneGraph.Handle, spec: HandleSpec, subject: String,
    symbols: [String: Symbol], timed: Set<Int>
  ) {
    if let place = compile(
      spec.position, symbols, expect: .point, what: "the position of \(subject)")
    {
      if let value = place.constantValue {
        child.offset = Vector(value.x, value.y)
      } else {
        for property in [SceneGraph.AnimatedProperty.offsetX, .offsetY] {
          var motion = SceneGraph.Motion(
            property: property, target: place, spring: nil, source: spec.position.source)
          motion.followsTime = place.dependencies.contains(where: timed.contains)
          child.motions.append(motion)
        }
      }
    }
    guard let text = spec.text, child.text != nil else { return }
    var pieces: [SceneGraph.TextLook.Piece] = []
    var values = 0
    for piece in text.pieces {
      switch piece {
      case .literal(let words):
        pieces.append(.literal(words))
      case .value(let expression, let decimals):
        guard
          let compiled = compile(
            expression, symbols, expect: .number, what: "a number in the text of \(subject)")
        else { continue }
        var motion = SceneGraph.Motion(
          property: .textValue, target: compiled, spring: nil, source: compiled.source)
        motion.followsTime = compiled.dependencies.contains(where: timed.contains)
        child.motions.append(motion)
        pieces.append(.value(values, decimals: decimals))
        values += 1
      }
    }
    child.text?.pieces = pieces
  }
}
