import SceneGeometry
import SceneGraph
import SceneSyntax

extension Simulation {
  // MARK: - Constraints

  /// Puts a constraint's handle where the constraint says it starts.
  mutating func setUpConstraint(_ c: Int) {
    switch graph.constraints[c].kind {
    case .follow(let h, let path, let orient, _, _, let rest, _):
      guard let measured = measuredPaths[path] else { return }
      let start = measured.nearest(to: handles[h].position)
      constraints[c].length = start.length
      constraints[c].restLength = rest.map { $0 * measured.length } ?? start.length
      handles[h].position = start.point
      if orient { handles[h].angle = start.position.angle }
    case .elastic:
      break
    case .gooey(let anchor, _, _, _, _, _, _, _):
      constraints[c].anchorRadius = graph.handles[anchor].radius
    case .animate(let h, _, _, _, _, _, _):
      handles[h].mode = .animating
      stepConstraint(c, dt: 0)
    }
  }

  mutating func stepConstraint(_ c: Int, dt: Double) {
    switch graph.constraints[c].kind {
    case .follow(let h, let path, let orient, let wrap, let spring, _, _):
      guard let measured = measuredPaths[path] else { return }
      if constraints[c].springingAlongPath, let spring, dt > 0 {
        // Spring along the path, in arc length: the handle never leaves the path.
        var displacement = constraints[c].length - constraints[c].restLength
        if wrap && measured.length > 0 {
          displacement = displacement.truncatingRemainder(dividingBy: measured.length)
          if displacement > measured.length / 2 { displacement -= measured.length }
          if displacement < -measured.length / 2 { displacement += measured.length }
        }
        var velocity = constraints[c].lengthVelocity
        propagators[spring].step(&displacement, &velocity)
        constraints[c].length = measured.normalizedLength(constraints[c].restLength + displacement)
        constraints[c].lengthVelocity = velocity
        if springModels[spring].isAtRest(displacement: displacement, velocity: velocity) {
          constraints[c].length = constraints[c].restLength
          constraints[c].springingAlongPath = false
          constraints[c].lengthVelocity = 0
          handles[h].mode = .idle
          events.append(SceneEvent("rest", graph.handles[h].name))
        }
      }
      if handles[h].mode != .dragging {
        let position = measured.position(atLength: constraints[c].length)
        handles[h].position = position.point
        if orient { handles[h].angle = position.angle }
      }
      handles[h].rest = measured.position(atLength: constraints[c].restLength).point
    case .elastic:
      break
    case .gooey(let anchor, let ball, let viscosity, let maxDistance, let minRadius, _, _, _):
      guard !constraints[c].broken else { return }
      let distance = handles[ball].position.distance(to: handles[anchor].position)
      let radius = constraints[c].anchorRadius - distance / viscosity
      if distance > maxDistance || radius < minRadius {
        constraints[c].broken = true
        handles[anchor].mode = .hidden
        events.append(SceneEvent("link.broke", constraintName(c)))
      } else {
        handles[anchor].radius = max(radius, 0)
      }
    case .animate(let h, let path, let duration, let repeatMode, let easing, let orient, let delay):
      guard let measured = measuredPaths[path] else { return }
      let local = max(time - delay, 0)
      var pass = local / duration
      var fraction: Double
      switch repeatMode {
      case .once:
        fraction = min(pass, 1)
        if pass >= 1 && handles[h].mode == .animating {
          handles[h].mode = .idle
          events.append(SceneEvent("rest", graph.handles[h].name))
        }
      case .loop:
        pass = pass.rounded(.down)
        fraction = local / duration - pass
      case .pingPong:
        let whole = (local / duration).rounded(.down)
        pass = whole
        let within = local / duration - whole
        fraction = Int(whole) % 2 == 0 ? within : 1 - within
      }
      if repeatMode != .once {
        let completed = Int(pass)
        if completed > constraints[c].passes {
          constraints[c].passes = completed
          events.append(SceneEvent("loop", graph.handles[h].name))
        }
      }
      let eased = TimingCurve(easing).value(at: fraction)
      let position = measured.position(atLength: eased * measured.length)
      handles[h].position = position.point
      if orient { handles[h].angle = position.angle }
    }
  }

  // MARK: - Frames

  mutating func frame() -> Frame {
    var paths: [PathFrame] = []
    for (i, node) in graph.paths.enumerated() {
      paths.append(PathFrame(name: node.name, path: measuredPaths[i]?.path ?? Path(), isHidden: false))
    }
    for (c, constraint) in graph.constraints.enumerated() {
      guard case .gooey(let anchor, let ball, _, let maxDistance, _, _, let style, _) = constraint.kind else { continue }
      let bridge =
        constraints[c].broken
        ? nil
        : GooeyBridge.path(
          anchor: handles[anchor].position, anchorRadius: handles[anchor].radius,
          ball: handles[ball].position, ballRadius: handles[ball].radius,
          style: style == .metaball ? .metaball(maxDistance: maxDistance) : .sticky)
      paths.append(PathFrame(name: constraintName(c), path: bridge ?? Path(), isHidden: bridge == nil))
    }
    let frame = Frame(
      index: frameIndex, time: time,
      handles: handles.indices.map { i in
        HandleFrame(
          name: graph.handles[i].name, x: handles[i].position.x, y: handles[i].position.y,
          angle: handles[i].angle, radius: graph.handles[i].shape == .circle ? handles[i].radius : 0,
          state: handles[i].state)
      },
      paths: paths,
      pointers: pointers.map { PointerFrame(id: $0.id, x: $0.position.x, y: $0.position.y, isDown: $0.isDown) },
      events: events)
    events.removeAll(keepingCapacity: true)
    return frame
  }

  /// Refuses to hand on a non-finite value, naming the part of the scene that made it.
  func checkFinite() throws(RuntimeError) {
    for i in handles.indices {
      let h = handles[i]
      guard !(h.position.isFinite && h.angle.isFinite && h.radius.isFinite) else { continue }
      if let c = mover[i] {
        let constraint = graph.constraints[c]
        throw RuntimeError(
          "handle '\(graph.handles[i].name)' got a non-finite position from its \(keyword(constraint)) constraint at t = \(time)",
          at: constraint.source.span)
      }
      throw RuntimeError(
        "handle '\(graph.handles[i].name)' got a non-finite position from its expression at t = \(time)",
        at: graph.handles[i].spec.position.source.span)
    }
    for (i, value) in slots.enumerated() where !value.isFinite {
      if let l = graph.lets.indices.first(where: { graph.layout.letSlot($0) == i || graph.layout.letSlot($0) + 1 == i }) {
        throw RuntimeError(
          "let '\(graph.lets[l].name)' is not a finite number at t = \(time) (a division by zero?)",
          at: graph.lets[l].source.span)
      }
    }
  }

  func keyword(_ constraint: SceneGraph.Constraint) -> String {
    switch constraint.kind {
    case .follow: return "follow"
    case .elastic: return "elastic"
    case .gooey: return "gooey"
    case .animate: return "animate"
    }
  }
}
