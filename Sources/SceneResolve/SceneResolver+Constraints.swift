import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneSyntax
import SceneVocabulary

// MARK: - Constraints

extension SceneResolver {
  /// The constraint resolved, with the style of the path it draws, if it draws one (a
  /// gooey bridge); `nil` when a reference is broken (the error is recorded).
  mutating func resolveConstraint(
    _ constraint: ConstraintSpec, handles: [SceneGraph.Handle], paths: [SceneGraph.PathNode],
    springs: [SceneGraph.Spring]
  ) -> (constraint: SceneGraph.Constraint, drawnStyle: SceneGraph.Style?)? {
    func model(_ reference: Reference?, default fallback: SpringModel) -> SpringModel? {
      guard let reference else { return fallback }
      guard let i = lookup(reference, in: springIndex, kind: "spring") else { return nil }
      let s = springs[i]
      return SpringModel(
        stiffness: s.stiffness, damping: s.damping, mass: s.mass, restThreshold: s.restThreshold)
    }
    var drawnStyle: SceneGraph.Style?
    func what() -> String { "\(constraint.kindKeyword.rawValue) constraint" }
    let kind: SceneGraph.Constraint.Kind
    switch constraint.kind {
    case .follow(let f):
      let handle = lookup(f.handle, in: handleIndex, kind: "handle")
      let path = lookup(f.path, in: pathIndex, kind: "path")
      let spring = f.spring.flatMap { lookup($0, in: springIndex, kind: "spring") }
      let rest = f.rest.map {
        Located(checked($0, default: 0, "\(what()): rest", in: 0...1), at: $0.source)
      }
      let hysteresis = nonNegative(
        f.hysteresis, default: MeasuredPath.defaultTrackingHysteresis, "\(what()): hysteresis")
      let momentum = f.momentum.flatMap { resolveMomentum($0, what: what()) }
      var detents: [SceneGraph.Follow.Detent] = []
      for detent in f.snap {
        detents.append(
          SceneGraph.Follow.Detent(
            name: detent.name.value,
            fraction: checked(
              detent.fraction, default: 0, "\(what()): snap target '\(detent.name.value)'",
              in: 0...1)))
      }
      let snapSpring =
        f.snap.isEmpty && momentum == nil
        ? SceneGraph.Drag.defaultSnapSpring
        : model(f.spring, default: SceneGraph.Drag.defaultSnapSpring)
      guard let handle, let path, let snapSpring else { return nil }
      let closed = paths[path].measured?.isClosed ?? false
      var wrap = closed
      if let ends = f.ends {
        wrap = ends.value == .wrap
        if wrap && !closed {
          error(
            "'ends: wrap' needs a closed path, and path '\(f.path.value)' is open", at: ends.source)
        }
      }
      kind = .follow(
        SceneGraph.Follow(
          handle: handle, path: path, orient: f.orient?.value ?? false, wrap: wrap,
          spring: f.snap.isEmpty && momentum == nil ? spring : nil, rest: rest?.value,
          hysteresis: hysteresis, momentum: momentum, detents: detents, snapSpring: snapSpring))
    case .elastic(let e):
      guard let handle = lookup(e.handle, in: handleIndex, kind: "handle") else { return nil }
      let resistance = resolveResistance(e.resistance ?? .factor(Located(0.7)), what: what())
      let motion: SceneGraph.Elastic.Return
      switch e.returnMotion {
      case nil: motion = .speed(900, .easeOut)
      case .spring(let name)?:
        guard let spring = lookup(name, in: springIndex, kind: "spring") else { return nil }
        motion = .spring(spring)
      case .speed(let speed, let easing)?:
        motion = .speed(
          positive(speed, default: 900, "\(what()): speed"), easing?.value ?? .easeOut)
      case .duration(let duration, let easing)?:
        motion = .duration(
          seconds(duration, default: 0.3, "\(what()): duration"), easing?.value ?? .easeOut)
      }
      kind = .elastic(
        SceneGraph.Elastic(handle: handle, resistance: resistance, returnMotion: motion))
    case .gooey(let g):
      let anchor = lookup(g.anchor, in: handleIndex, kind: "handle")
      let ball = lookup(g.ball, in: handleIndex, kind: "handle")
      let spring = g.spring.flatMap { lookup($0, in: springIndex, kind: "spring") }
      let viscosity = positive(g.viscosity, default: 20, "\(what()): viscosity")
      let maxDistance = positive(g.maxDistance, default: 200, "\(what()): maxDistance")
      let minRadius = nonNegative(g.minRadius, default: 6, "\(what()): minRadius")
      guard let anchor, let ball else { return nil }
      for (index, reference) in [(anchor, g.anchor), (ball, g.ball)]
      where handles[index].shape != .circle {
        error(
          "gooey needs two circles, but handle '\(reference.value)' is \(handles[index].shape == .rect ? "a rect" : "not drawn (shape none)")",
          at: reference.source,
          notes: [
            Diagnostic.Note(
              "'\(reference.value)' is defined here", at: handles[index].nameSource.span)
          ])
      }
      if anchor == ball {
        error(
          "gooey needs two different handles, but 'anchor' and 'ball' are both '\(g.ball.value)'",
          at: g.ball.source)
      }
      drawnStyle = style(g.bridgeStyle, defaultFill: handles[anchor].style.fill, what: what())
      kind = .gooey(
        SceneGraph.Gooey(
          anchor: anchor, ball: ball, viscosity: viscosity, maxDistance: maxDistance,
          minRadius: minRadius, spring: spring, style: g.style?.value ?? .sticky))
    case .animate(let a):
      let handle = lookup(a.handle, in: handleIndex, kind: "handle")
      let path = lookup(a.path, in: pathIndex, kind: "path")
      let duration = seconds(a.duration, default: 1, "\(what()): duration")
      let delay = checked(a.delay, default: 0, "\(what()): delay", in: -3600...3600)
      guard let handle, let path else { return nil }
      kind = .animate(
        SceneGraph.Animate(
          handle: handle, path: path, duration: duration,
          repeatMode: a.repeatMode?.value ?? .once, easing: a.easing?.value ?? .linear,
          orient: a.orient?.value ?? false, delay: delay))
    case .drag(let d):
      let handle = lookup(d.handle, in: handleIndex, kind: "handle")
      let snapSpring = model(d.spring, default: SceneGraph.Drag.defaultSnapSpring)
      let bounceSpring = model(d.bounce, default: SceneGraph.Drag.defaultBounceSpring)
      if let lock = d.lock, lock.value, let axis = d.axis {
        error(
          "'lock' chooses an axis on the first movement, but 'axis' already holds the handle to \(axis.value.rawValue); use one",
          at: lock.source)
      }
      if let paging = d.paging, paging.value, d.snap.isEmpty, d.grid == nil {
        error(
          "'paging' limits which snap target a release may reach, but this drag has none; add 'snap' or 'grid'",
          at: paging.source)
      }
      let momentum: SceneGraph.Momentum?
      if let given = d.momentum {
        momentum = resolveMomentum(given, what: what())
      } else {
        momentum = SceneGraph.Drag.defaultMomentum
      }
      let overdrag = resolveResistance(
        d.overdrag ?? .rubberband(coefficient: Located(0.55), dimension: nil), what: what())
      guard let handle, let snapSpring, let bounceSpring else { return nil }
      if !handles[handle].draggable {
        error(
          "a drag constraint needs a draggable handle, but '\(d.handle.value)' is not; add 'draggable: true' to it",
          at: d.handle.source,
          notes: [
            Diagnostic.Note(
              "'\(d.handle.value)' is defined here", at: handles[handle].nameSource.span)
          ])
      }
      // Bounds, snap points and the grid are expressions, compiled with the others once
      // every name is known (``compileDragExpressions``).
      var drag = SceneGraph.Drag(
        handle: handle, axis: d.axis?.value, directionLock: d.lock?.value ?? false,
        bounds: SceneGraph.Drag.Bounds(), overdrag: overdrag, momentum: momentum,
        snapPoints: [], grid: nil, snapSpring: snapSpring, bounceSpring: bounceSpring,
        paging: d.paging?.value ?? false)
      drag.pinch = resolvePinch(d, handle: handle, what: what())
      if drag.pinch != nil { pinchedHandles.append(handle) }
      kind = .drag(drag)
    }
    return (
      SceneGraph.Constraint(name: constraint.name?.value, kind: kind, source: constraint.source),
      drawnStyle
    )
  }

  /// A handle can be positioned by at most one of follow, animate and elastic: two
  /// would fight over where it is.
  mutating func checkExclusiveMovers(_ constraints: [ConstraintSpec]) {
    // The first mover of each handle, by its index: storing the constraints themselves
    // copied each one (and retained everything in it) for every handle of a big scene.
    var mover: [String: Int] = [:]
    mover.reserveCapacity(constraints.count)
    for index in constraints.indices {
      let handle = constraints[index].movedHandle
      if let firstIndex = Self.insertIfAbsent(&mover[handle.value], index) {
        let first = constraints[firstIndex]
        error(
          "handle '\(handle.value)' is already moved by \(first.kindKeyword == .elastic || first.kindKeyword == .animate ? "an" : "a") \(first.keyword) constraint; a handle can be moved by only one \(ConstraintKeyword.listed)",
          at: handle.source,
          notes: [
            Diagnostic.Note("the \(first.keyword) constraint is here", at: first.source.span)
          ])
      }
    }
  }
}

// MARK: - Drag behaviours

extension SceneResolver {
  /// A drag's `transform: pinch` with its `zoom` checked; `nil` without one (where `rotate`
  /// and `zoom` are refused).
  mutating func resolvePinch(_ d: DragSpec, handle: Int, what: @autoclosure () -> String)
    -> SceneGraph.Drag.PinchTransform?
  {
    guard let transform = d.transform else {
      if let rotate = d.rotate {
        error("'rotate' is for a drag with 'transform: pinch'", at: rotate.source)
      }
      if let source = d.zoomSource {
        error("'zoom' is for a drag with 'transform: pinch'", at: source)
      }
      return nil
    }
    let minScale = positive(d.zoomMin, default: 1, "\(what()): zoom min")
    let maxScale = positive(d.zoomMax, default: 4, "\(what()): zoom max")
    if minScale > maxScale {
      error(
        "\(what()): zoom min (\(minScale.shortestDescription)) is above zoom max (\(maxScale.shortestDescription))",
        at: d.zoomSource ?? transform.source)
    }
    // The pinch sets the handle's scale and turn: it cannot have its own.
    let owned = spec.handles[handle]
    for (key, value) in [
      ("scale", owned.scale), ("scaleX", owned.scaleX), ("scaleY", owned.scaleY),
      ("rotation", owned.rotation),
    ] {
      guard let value else { continue }
      error(
        "handle '\(owned.name.value)' has its own '\(key)', but a drag with 'transform: pinch' sets it",
        at: value.source,
        notes: [Diagnostic.Note("the drag is here", at: transform.source.span)])
    }
    return SceneGraph.Drag.PinchTransform(
      minScale: minScale, maxScale: max(maxScale, minScale), rotates: d.rotate?.value ?? true)
  }

  /// A resistance's numbers checked, with `elastic`'s defaults.
  mutating func resolveResistance(
    _ resistance: ElasticSpec.Resistance, what: @autoclosure () -> String
  )
    -> SceneGraph.Elastic.Resistance
  {
    switch resistance {
    case .factor(let factor):
      return .factor(checked(factor, default: 0.7, "\(what()): factor", in: 0...1))
    case .rubberband(let c, let d):
      let coefficient = positive(c, default: 0.55, "\(what()): rubberband coefficient")
      let dimension = positive(d, default: 1, "\(what()): dimension")
      return .rubberband(coefficient: coefficient, dimension: d == nil ? nil : dimension)
    case .none:
      return .none
    }
  }

  /// A momentum setting as a time constant and gain; `nil` for `none`.
  mutating func resolveMomentum(_ momentum: MomentumSpec, what: @autoclosure () -> String)
    -> SceneGraph.Momentum?
  {
    switch momentum {
    case .none:
      return nil
    case .preset(let preset):
      return SceneGraph.Momentum(decelerationRate: preset.value.rate)
    case .rate(let rate):
      if !(rate.value > 0.5 && rate.value < 1) {
        error(
          "\(what()): momentum rate must be above 0.5 and below 1 (the speed kept per millisecond: normal is 0.998, fast 0.99), found \(rate.value.shortestDescription)",
          at: rate.source)
        return nil
      }
      return SceneGraph.Momentum(decelerationRate: rate.value)
    case .power(let power, let timeConstant):
      let p = checked(power, default: 0.8, "\(what()): momentum power", in: 0...100)
      var tau = 0.7
      if let timeConstant {
        if timeConstant.value >= 0.001 && timeConstant.value <= 60 {
          tau = timeConstant.value
        } else {
          error(
            "\(what()): momentum timeConstant must be between 1ms and 60s, found \(timeConstant.value.shortestDescription)s",
            at: timeConstant.source)
        }
      }
      return SceneGraph.Momentum(power: p, timeConstant: tau)
    }
  }

  /// Compiles each drag constraint's bounds, snap points and grid, now every name is known;
  /// `specs` holds the index in the scene's constraints of each of `constraints`.
  mutating func compileDragExpressions(
    _ constraints: inout [SceneGraph.Constraint], specs: [Int],
    symbols: [String: Symbol]
  ) {
    for (c, s) in zip(constraints.indices, specs) {
      guard case .drag = spec.constraints[s].kind, case .drag(var drag) = constraints[c].kind,
        case .drag(let d) = spec.constraints[s].kind
      else { continue }
      func number(_ expression: Expression?, _ key: String) -> CompiledExpression? {
        expression.flatMap {
          compile($0, symbols, expect: .number, what: "drag constraint: bounds '\(key)'")
        }
      }
      if let bounds = d.bounds {
        drag.bounds = SceneGraph.Drag.Bounds(
          minX: number(bounds.minX, "minX"), maxX: number(bounds.maxX, "maxX"),
          minY: number(bounds.minY, "minY"), maxY: number(bounds.maxY, "maxY"))
      }
      drag.snapPoints = d.snap.compactMap { target in
        compile(
          target.point, symbols, expect: .point,
          what: "drag constraint: snap target '\(target.name.value)'"
        ).map { SceneGraph.Drag.SnapPoint(name: target.name.value, point: $0) }
      }
      if let grid = d.grid {
        drag.grid = compile(grid, symbols, expect: .point, what: "drag constraint: grid")
        if let cell = drag.grid?.constantValue,
          cell.x < 0 || cell.y < 0 || !cell.x.isFinite
            || !cell.y.isFinite
        {
          error(
            "drag constraint: grid cells must be 0 (that axis free) or more, found (\(cell.x.shortestDescription), \(cell.y.shortestDescription))",
            at: grid.source)
        }
      }
      constraints[c].kind = .drag(drag)
    }
  }
}
