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
    _ constraint: ConstraintSpec, handles: [SceneGraph.Handle], paths: [SceneGraph.PathNode]
  ) -> (constraint: SceneGraph.Constraint, drawnStyle: SceneGraph.Style?)? {
    var drawnStyle: SceneGraph.Style?
    let what = "\(constraint.kindKeyword.rawValue) constraint"
    let kind: SceneGraph.Constraint.Kind
    switch constraint.kind {
    case .follow(let f):
      let handle = lookup(f.handle, in: handleIndex, kind: "handle")
      let path = lookup(f.path, in: pathIndex, kind: "path")
      let spring = f.spring.flatMap { lookup($0, in: springIndex, kind: "spring") }
      let rest = f.rest.map {
        Located(checked($0, default: 0, "\(what): rest", in: 0...1), at: $0.source)
      }
      let hysteresis = nonNegative(
        f.hysteresis, default: MeasuredPath.defaultTrackingHysteresis, "\(what): hysteresis")
      guard let handle, let path else { return nil }
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
          handle: handle, path: path, orient: f.orient?.value ?? false, wrap: wrap, spring: spring,
          rest: rest?.value, hysteresis: hysteresis))
    case .elastic(let e):
      guard let handle = lookup(e.handle, in: handleIndex, kind: "handle") else { return nil }
      let resistance: SceneGraph.Elastic.Resistance
      switch e.resistance ?? .factor(Located(0.7)) {
      case .factor(let factor):
        resistance = .factor(checked(factor, default: 0.7, "\(what): factor", in: 0...1))
      case .rubberband(let c, let d):
        let coefficient = positive(c, default: 0.55, "\(what): rubberband coefficient")
        let dimension = positive(d, default: 1, "\(what): dimension")
        resistance = .rubberband(coefficient: coefficient, dimension: d == nil ? nil : dimension)
      case .none:
        resistance = .none
      }
      let motion: SceneGraph.Elastic.Return
      switch e.returnMotion {
      case nil: motion = .speed(900, .easeOut)
      case .spring(let name)?:
        guard let spring = lookup(name, in: springIndex, kind: "spring") else { return nil }
        motion = .spring(spring)
      case .speed(let speed, let easing)?:
        motion = .speed(positive(speed, default: 900, "\(what): speed"), easing?.value ?? .easeOut)
      case .duration(let duration, let easing)?:
        motion = .duration(
          seconds(duration, default: 0.3, "\(what): duration"), easing?.value ?? .easeOut)
      }
      kind = .elastic(
        SceneGraph.Elastic(handle: handle, resistance: resistance, returnMotion: motion))
    case .gooey(let g):
      let anchor = lookup(g.anchor, in: handleIndex, kind: "handle")
      let ball = lookup(g.ball, in: handleIndex, kind: "handle")
      let spring = g.spring.flatMap { lookup($0, in: springIndex, kind: "spring") }
      let viscosity = positive(g.viscosity, default: 20, "\(what): viscosity")
      let maxDistance = positive(g.maxDistance, default: 200, "\(what): maxDistance")
      let minRadius = nonNegative(g.minRadius, default: 6, "\(what): minRadius")
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
      drawnStyle = style(g.bridgeStyle, defaultFill: handles[anchor].style.fill, what: what)
      kind = .gooey(
        SceneGraph.Gooey(
          anchor: anchor, ball: ball, viscosity: viscosity, maxDistance: maxDistance,
          minRadius: minRadius, spring: spring, style: g.style?.value ?? .sticky))
    case .animate(let a):
      let handle = lookup(a.handle, in: handleIndex, kind: "handle")
      let path = lookup(a.path, in: pathIndex, kind: "path")
      let duration = seconds(a.duration, default: 1, "\(what): duration")
      let delay = checked(a.delay, default: 0, "\(what): delay", in: -3600...3600)
      guard let handle, let path else { return nil }
      kind = .animate(
        SceneGraph.Animate(
          handle: handle, path: path, duration: duration,
          repeatMode: a.repeatMode?.value ?? .once, easing: a.easing?.value ?? .linear,
          orient: a.orient?.value ?? false, delay: delay))
    }
    return (
      SceneGraph.Constraint(name: constraint.name?.value, kind: kind, source: constraint.source),
      drawnStyle
    )
  }

  /// A handle can be positioned by at most one of follow, animate and elastic: two
  /// would fight over where it is.
  mutating func checkExclusiveMovers(_ constraints: [ConstraintSpec]) {
    var mover: [String: ConstraintSpec] = [:]
    for constraint in constraints {
      let moved: [Reference]
      switch constraint.kind {
      case .follow(let f): moved = [f.handle]
      case .animate(let a): moved = [a.handle]
      case .elastic(let e): moved = [e.handle]
      case .gooey(let g): moved = [g.ball]
      }
      for handle in moved {
        if let first = mover[handle.value] {
          error(
            "handle '\(handle.value)' is already moved by \(first.kindKeyword == .elastic || first.kindKeyword == .animate ? "an" : "a") \(first.keyword) constraint; a handle can be moved by only one follow, elastic, gooey or animate",
            at: handle.source,
            notes: [
              Diagnostic.Note("the \(first.keyword) constraint is here", at: first.source.span)
            ])
        } else {
          mover[handle.value] = constraint
        }
      }
    }
  }
}
