import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneVocabulary

extension Simulation {
  // MARK: - Frames

  mutating func frame() -> Frame {
    var paths: [PathFrame] = []
    paths.reserveCapacity(pathNames.count + kinds.count)
    for i in currentPaths.indices {
      paths.append(PathFrame(name: pathNames[i], path: currentPaths[i], isHidden: false))
    }
    for c in kinds.indices {
      if let path = constraintPath(c) { paths.append(path) }
    }
    let frame = Frame(
      index: frameIndex, time: time,
      handles: handles.indices.map { i in
        HandleFrame(
          name: handleNames[i], x: handles[i].position.x, y: handles[i].position.y,
          angle: handles[i].angle, radius: handleIsCircle[i] ? handles[i].radius : 0,
          state: handles[i].state)
      },
      paths: paths,
      pointers: pointers.map {
        PointerFrame(id: $0.id, x: $0.position.x, y: $0.position.y, isDown: $0.isDown)
      },
      events: events)
    events.removeAll(keepingCapacity: true)
    return frame
  }

  /// Refuses to hand on a non-finite value, naming the part of the scene that made it.
  func checkFinite() throws(RuntimeError) {
    let now = time.shortestDescription
    // Lets first: a bad let is the cause of whatever reads it.
    for (l, definition) in graph.lets.enumerated() {
      let slot = graph.layout.letSlot(l)
      guard !(slots[slot].isFinite && slots[slot + 1].isFinite) else { continue }
      throw RuntimeError(
        "let '\(definition.name)' is not a finite number at t = \(now) (a division by zero?)",
        at: definition.source.span)
    }
    for i in handles.indices {
      let h = handles[i]
      guard !(h.position.isFinite && h.angle.isFinite && h.radius.isFinite) else { continue }
      if let c = mover[i] {
        let constraint = graph.constraints[c]
        throw RuntimeError(
          "handle '\(graph.handles[i].name)' got a non-finite position from its \(constraint.kind.keyword.rawValue) constraint at t = \(now)",
          at: constraint.source.span)
      }
      throw RuntimeError(
        "handle '\(graph.handles[i].name)' got a non-finite position from its expression at t = \(now)",
        at: (graph.handles[i].position?.source ?? graph.handles[i].nameSource).span)
    }
    for (i, path) in currentPaths.enumerated() where pathIsDynamic[i] {
      guard
        !path.subpaths.allSatisfy({
          $0.start.isFinite && $0.segments.allSatisfy { segment in segment.isFinite }
        })
      else { continue }
      throw RuntimeError(
        "path '\(graph.paths[i].name)' got a point that is not a finite number at t = \(now)",
        at: graph.paths[i].source.span)
    }
  }
}
