import SceneDiagnostics
import SceneVocabulary

// MARK: - Constraints

extension SceneDecoder {
  static let constraintKinds = ConstraintKeyword.allCases.map { $0.rawValue }
  static let followKeys = [
    "name", "handle", "path", "orient", "ends", "spring", "rest", "hysteresis", "momentum", "snap",
  ]
  static let dragKeys = [
    "name", "handle", "axis", "lock", "bounds", "overdrag", "momentum", "snap", "grid", "paging",
    "spring",
    "bounce", "transform", "rotate", "zoom",
  ]
  static let boundsKeys = ["minX", "maxX", "minY", "maxY"]
  static let elasticKeys = ["name", "handle", "resistance", "return"]
  static let gooeyKeys =
    ["name", "anchor", "ball", "viscosity", "maxDistance", "minRadius", "spring", "style"]
    + styleKeys
  static let animateKeys = [
    "name", "handle", "path", "duration", "repeat", "ease", "orient", "delay",
  ]
  static let zoomKeys = ["min", "max"]
  static let resistanceKeys = ["factor", "rubberband", "dimension"]
  static let returnKeys = ["spring", "speed", "duration", "ease"]
  static let momentumKeys = ["rate", "power", "timeConstant"]

  mutating func decodeConstraints(_ node: DocumentNode) -> [ConstraintSpec] {
    guard let items = sequence(node, what: "'constraints'") else { return [] }
    return decodeEach(items, splitting: false) { $0.decodeConstraint($1) }
  }

  /// One item of `constraints`: a mapping with the constraint's kind as its one key.
  mutating func decodeConstraint(_ item: DocumentNode) -> ConstraintSpec? {
    guard
      let (kind, keySource, value) = singleEntry(
        item, what: "a constraint (\(ConstraintKeyword.listed))")
    else { return nil }
    let what = "\(kind) constraint"
    switch ConstraintKeyword(keyword: kind) {
    case .follow?:
      guard let f = fields(of: value, what: what, allowed: Self.followKeys),
        let handle = required(
          f, "handle", of: what, at: keySource, { $0.reference($1, what: "'handle'") }),
        let path = required(
          f, "path", of: what, at: keySource, { $0.reference($1, what: "'path'") })
      else { return nil }
      let spec = FollowSpec(
        handle: handle, path: path,
        orient: f["orient"].flatMap { bool($0, what: "'orient'") },
        ends: f["ends"].flatMap { choice($0, what: "'ends'", as: FollowSpec.Ends.self) },
        spring: f["spring"].flatMap { reference($0, what: "'spring'") },
        rest: f["rest"].flatMap { number($0, what: "'rest' (a fraction of the path, 0 to 1)") },
        hysteresis: f["hysteresis"].flatMap { number($0, what: "'hysteresis'") },
        momentum: f["momentum"].flatMap { momentum($0) },
        snap: f["snap"].map { detents($0) } ?? [])
      return ConstraintSpec(name: name(f), kind: .follow(spec), at: keySource)
    case .elastic?:
      guard let f = fields(of: value, what: what, allowed: Self.elasticKeys),
        let handle = required(
          f, "handle", of: what, at: keySource, { $0.reference($1, what: "'handle'") })
      else { return nil }
      let spec = ElasticSpec(
        handle: handle, resistance: f["resistance"].flatMap { resistance($0) },
        returnMotion: f["return"].flatMap { returnMotion($0) })
      return ConstraintSpec(name: name(f), kind: .elastic(spec), at: keySource)
    case .gooey?:
      guard let f = fields(of: value, what: what, allowed: Self.gooeyKeys),
        let anchor = required(
          f, "anchor", of: what, at: keySource, { $0.reference($1, what: "'anchor'") }),
        let ball = required(
          f, "ball", of: what, at: keySource, { $0.reference($1, what: "'ball'") })
      else { return nil }
      let spec = GooeySpec(
        anchor: anchor, ball: ball,
        viscosity: f["viscosity"].flatMap { number($0, what: "'viscosity'") },
        maxDistance: f["maxDistance"].flatMap { number($0, what: "'maxDistance'") },
        minRadius: f["minRadius"].flatMap { number($0, what: "'minRadius'") },
        spring: f["spring"].flatMap { reference($0, what: "'spring'") },
        style: f["style"].flatMap { choice($0, what: "'style'", as: GooeySpec.Style.self) },
        bridgeStyle: style(f))
      return ConstraintSpec(name: name(f), kind: .gooey(spec), at: keySource)
    case .animate?:
      guard let f = fields(of: value, what: what, allowed: Self.animateKeys),
        let handle = required(
          f, "handle", of: what, at: keySource, { $0.reference($1, what: "'handle'") }),
        let path = required(
          f, "path", of: what, at: keySource, { $0.reference($1, what: "'path'") }),
        let duration = required(
          f, "duration", of: what, at: keySource, { $0.time($1, what: "'duration'") })
      else { return nil }
      let spec = AnimateSpec(
        handle: handle, path: path, duration: duration,
        repeatMode: f["repeat"].flatMap {
          choice($0, what: "'repeat'", as: AnimateSpec.Repeat.self)
        },
        easing: f["ease"].flatMap { easing($0, what: "'ease'") },
        orient: f["orient"].flatMap { bool($0, what: "'orient'") },
        delay: f["delay"].flatMap { time($0, what: "'delay'") })
      return ConstraintSpec(name: name(f), kind: .animate(spec), at: keySource)
    case .drag?:
      guard let f = fields(of: value, what: what, allowed: Self.dragKeys),
        let handle = required(
          f, "handle", of: what, at: keySource, { $0.reference($1, what: "'handle'") })
      else { return nil }
      var spec = DragSpec(
        handle: handle, axis: f["axis"].flatMap { choice($0, what: "'axis'", as: DragAxis.self) },
        lock: f["lock"].flatMap { bool($0, what: "'lock'") },
        bounds: f["bounds"].flatMap { bounds($0) },
        overdrag: f["overdrag"].flatMap { resistance($0, what: "'overdrag'") },
        momentum: f["momentum"].flatMap { momentum($0) },
        snap: f["snap"].map { snapPoints($0) } ?? [],
        grid: f["grid"].flatMap { expression($0, what: "'grid'") },
        spring: f["spring"].flatMap { reference($0, what: "'spring'") },
        bounce: f["bounce"].flatMap { reference($0, what: "'bounce'") },
        paging: f["paging"].flatMap { bool($0, what: "'paging'") })
      spec.transform = f["transform"].flatMap {
        choice($0, what: "'transform'", as: DragTransform.self)
      }
      spec.rotate = f["rotate"].flatMap { bool($0, what: "'rotate'") }
      if let zoom = f["zoom"] {
        guard let z = fields(of: zoom, what: "'zoom'", allowed: Self.zoomKeys) else {
          return nil
        }
        spec.zoomMin = z["min"].flatMap { number($0, what: "'min' of 'zoom'") }
        spec.zoomMax = z["max"].flatMap { number($0, what: "'max' of 'zoom'") }
        spec.zoomSource = zoom.source
      }
      return ConstraintSpec(name: name(f), kind: .drag(spec), at: keySource)
    case nil:
      error(
        "unknown constraint '\(kind)'"
          + Self.suggestionOrList(
            kind, among: Self.constraintKinds, list: ConstraintKeyword.listed),
        at: keySource)
    }
    return nil
  }

  /// A field that must be present: decoded, or an error at the constraint's keyword.
  mutating func required<T>(
    _ f: Fields, _ key: String, of what: String, at source: SourceRef,
    _ decode: (inout SceneDecoder, DocumentNode) -> T?
  ) -> T? {
    guard let node = f[key] else {
      if !f.misspelt.contains(key) { error("\(what) needs '\(key)'", at: source) }
      return nil
    }
    return decode(&self, node)
  }

  mutating func name(_ f: Fields) -> Located<String>? {
    guard let node = f["name"], let name = string(node, what: "'name'") else { return nil }
    guard Self.isIdentifier(name.value) else {
      error("constraint name '\(name.value)' is not a valid name", at: node.source)
      return nil
    }
    return name
  }

  mutating func resistance(_ node: DocumentNode, what: String = "'resistance'")
    -> ElasticSpec.Resistance?
  {
    if case .scalar(let s) = node.value {
      switch s.text {
      case "none": return ElasticSpec.Resistance.none
      case "rubberband":
        return .rubberband(coefficient: Located(0.55, at: node.source), dimension: nil)
      default:
        error(
          "expected none, rubberband, { factor: 0.7 } or { rubberband: 0.55, dimension: 300 } for \(what), found '\(s.text)'",
          at: node.source)
        return nil
      }
    }
    guard
      let f = fields(
        of: node, what: what, allowed: Self.resistanceKeys)
    else {
      return nil
    }
    if let factor = f["factor"] {
      if f["rubberband"] != nil || f["dimension"] != nil {
        error("\(what) gives both 'factor' and rubberband settings; use one", at: node.source)
        return nil
      }
      return number(factor, what: "'factor'").map { .factor($0) }
    }
    let coefficient = f["rubberband"].flatMap { number($0, what: "'rubberband'") }
    if f["rubberband"] == nil && f["dimension"] == nil {
      error("\(what) needs 'factor' or 'rubberband'", at: node.source)
      return nil
    }
    return .rubberband(
      coefficient: coefficient ?? Located(0.55, at: node.source),
      dimension: f["dimension"].flatMap { number($0, what: "'dimension'") })
  }

  mutating func returnMotion(_ node: DocumentNode) -> ElasticSpec.Return? {
    if case .scalar = node.value {
      return reference(node, what: "'return' (a spring)").map { .spring($0) }
    }
    guard
      let f = fields(of: node, what: "'return'", allowed: Self.returnKeys)
    else {
      return nil
    }
    let given = ["spring", "speed", "duration"].filter { f[$0] != nil }
    guard given.count == 1 else {
      error("'return' needs exactly one of 'spring', 'speed' or 'duration'", at: node.source)
      return nil
    }
    let ease = f["ease"].flatMap { easing($0, what: "'ease'") }
    switch given[0] {
    case "spring":
      if f["ease"] != nil {
        error("a spring return takes no 'ease'", at: f.keySource("ease") ?? node.source)
      }
      return f["spring"].flatMap { reference($0, what: "'spring'") }.map { .spring($0) }
    case "speed":
      return f["speed"].flatMap { number($0, what: "'speed'") }.map { .speed($0, easing: ease) }
    default:
      return f["duration"].flatMap { shortTime($0, what: "'duration'", plausible: 10) }.map {
        .duration($0, easing: ease)
      }
    }
  }
}

// MARK: - Drag behaviours

extension SceneDecoder {
  /// `none`, `normal`, `fast`, `{ rate: 0.998 }` or `{ power: 0.8, timeConstant: 700ms }`.
  mutating func momentum(_ node: DocumentNode) -> MomentumSpec? {
    if case .scalar(let s) = node.value {
      if s.text == "none" { return MomentumSpec.none }
      if let preset = DecelerationPreset(rawValue: s.text) {
        return .preset(Located(preset, at: node.source))
      }
      error(
        "expected none, normal, fast, { rate: 0.998 } or { power: 0.8, timeConstant: 700ms } for 'momentum', found '\(s.text)'",
        at: node.source)
      return nil
    }
    guard
      let f = fields(of: node, what: "'momentum'", allowed: Self.momentumKeys)
    else { return nil }
    if let rate = f["rate"] {
      if f["power"] != nil || f["timeConstant"] != nil {
        error(
          "'momentum' gives both 'rate' (iOS) and 'power'/'timeConstant' (Framer); use one",
          at: node.source)
        return nil
      }
      return number(rate, what: "'rate'").map { .rate($0) }
    }
    if f["power"] == nil && f["timeConstant"] == nil {
      error("'momentum' needs 'rate', or 'power' and 'timeConstant'", at: node.source)
      return nil
    }
    return .power(
      f["power"].flatMap { number($0, what: "'power'") },
      timeConstant: f["timeConstant"].flatMap { time($0, what: "'timeConstant'") })
  }

  /// `{ NAME: FRACTION, … }`: detents along a path, in the order written.
  mutating func detents(_ node: DocumentNode) -> [DetentSpec] {
    snapTargets(node, what: "'snap' (names of fractions 0 to 1 of the path)") {
      decoder, name, value in
      decoder.number(value, what: "snap target '\(name.value)' (a fraction 0 to 1)").map {
        DetentSpec(name: name, fraction: $0)
      }
    }
  }

  /// `{ NAME: POINT, … }`: named snap points, in the order written.
  mutating func snapPoints(_ node: DocumentNode) -> [SnapPointSpec] {
    snapTargets(node, what: "'snap' (names of points)") { decoder, name, value in
      decoder.expression(value, what: "snap target '\(name.value)'").map {
        SnapPointSpec(name: name, point: $0)
      }
    }
  }

  /// A mapping of snap target names, each checked as a name and its value decoded.
  mutating func snapTargets<T>(
    _ node: DocumentNode, what: String,
    _ decode: (inout SceneDecoder, Located<String>, DocumentNode) -> T?
  ) -> [T] {
    guard let entries = mapping(node, what: what) else { return [] }
    var result: [T] = []
    for entry in unique(entries, what: "snap target") {
      guard identifier(entry.key, at: entry.keySource, what: "snap target"),
        let target = decode(&self, Located(entry.key, at: entry.keySource), entry.value)
      else { continue }
      result.append(target)
    }
    return result
  }

  /// `{ minX: …, maxX: …, minY: …, maxY: … }`, each an expression, any of them missing.
  mutating func bounds(_ node: DocumentNode) -> DragSpec.Bounds? {
    guard let f = fields(of: node, what: "'bounds'", allowed: Self.boundsKeys) else { return nil }
    if case .mapping(let written) = node.value, written.isEmpty {
      error("'bounds' needs at least one of minX, maxX, minY or maxY", at: node.source)
      return nil
    }
    return DragSpec.Bounds(
      minX: f["minX"].flatMap { expression($0, what: "'minX'") },
      maxX: f["maxX"].flatMap { expression($0, what: "'maxX'") },
      minY: f["minY"].flatMap { expression($0, what: "'minY'") },
      maxY: f["maxY"].flatMap { expression($0, what: "'maxY'") })
  }
}
