import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneVocabulary

extension Simulation {
  // MARK: - Frames

  /// The frame as the scene is now, after checking that everything in it is finite
  /// (``checkFinite()``); clears the events it reports.
  ///
  /// The handles are checked in the same pass that copies them into the frame. The handles
  /// and paths are updated in place in arrays the simulation keeps, so a frame costs no
  /// allocation and no copy of a path that did not change, once the previous frame has
  /// been let go (an output that keeps frames makes each step copy).
  mutating func checkedFrame() throws(RuntimeError) -> Frame {
    if let failure = machineFailure { throw failure }
    var residue = 0.0
    let made = frame(handleResidue: &residue)
    try checkFinite(handleResidue: residue)
    return made
  }

  /// The frame; adds to `handleResidue` x − x for every number of every handle (see
  /// ``checkFinite(handleResidue:)``).
  private mutating func frame(handleResidue: inout Double) -> Frame {
    let isCircle = handleIsCircle
    var residue = 0.0
    handles.withUnsafeBufferPointer { moving in
      publishedHandles.withUnsafeMutableBufferPointer { shown in
        for i in shown.indices {
          let handle = moving[i]
          shown[i].x = handle.position.x
          shown[i].y = handle.position.y
          shown[i].angle = handle.angle
          shown[i].radius = isCircle[i] ? handle.radius : 0
          shown[i].state = handle.state
          residue +=
            (handle.position.x - handle.position.x) + (handle.position.y - handle.position.y)
            + (handle.angle - handle.angle) + (handle.radius - handle.radius)
        }
      }
    }
    handleResidue += residue
    if !motions.isEmpty { publishMotions(residue: &handleResidue) }
    if !pinchStates.isEmpty { publishPinchTransforms(residue: &handleResidue) }
    if !trimmedPaths.isEmpty { publishTrims() }
    // Segment paths are already there (``evaluateNodes(initial:)`` writes them in place).
    // Drawn paths follow the scene's, one entry per drawing constraint; the array is
    // moved out while they are redrawn, so that it stays unshared and each is rewritten
    // where it lies.
    var shown: [PathFrame] = []
    swap(&shown, &publishedPaths)
    for (k, c) in drawingConstraints.enumerated() {
      drawConstraint(c, into: &shown[pathNames.count + k])
    }
    swap(&shown, &publishedPaths)
    if pointerFramesAreStale {
      publishedPointers = pointers.map {
        PointerFrame(id: $0.id, x: $0.position.x, y: $0.position.y, isDown: $0.isDown)
      }
      pointerFramesAreStale = false
      pointerFramesMade += 1
    }
    var frame = Frame(
      index: frameIndex, time: time, handles: publishedHandles, paths: publishedPaths,
      pointers: publishedPointers, events: events)
    frame.children = publishedChildren
    frame.pathStyles = publishedPathStyles
    if hasInputs { frame.inputs = inputValues }
    if hasMachines {
      frame.machines = machineFrames
      for k in machinesNow.eventCursors.indices { machinesNow.eventCursors[k] = 0 }
    }
    events.removeAll(keepingCapacity: true)
    return frame
  }

  /// Writes the animated properties into the frame's handles, clamped as drawn; adds
  /// x − x of each to `residue` (see ``checkFinite(handleResidue:)``).
  private mutating func publishMotions(residue: inout Double) {
    var sum = 0.0
    for m in motions.indices {
      let value = motionValues[m]
      sum += value - value
      let shown = motions[m].property.clamped(value)
      let i = motionHandles[m]
      if motionChildren[m] >= 0 {
        publishChildMotion(m, shown)
        continue
      }
      if motionPathStyles[m] >= 0 {
        publishPathStyleMotion(m, shown)
        continue
      }
      switch motions[m].property {
      case .opacity: publishedHandles[i].opacity = shown
      case .rotation: publishedHandles[i].rotation = shown
      case .scale: publishedHandles[i].scale = shown
      case .scaleX: publishedHandles[i].scaleX = shown
      case .scaleY: publishedHandles[i].scaleY = shown
      case .radius: publishedHandles[i].radius = shown
      case .width: publishedHandles[i].width = shown
      case .height: publishedHandles[i].height = shown
      case .cornerRadius: publishedHandles[i].cornerRadius = shown
      case .strokeWidth: publishedHandles[i].strokeWidth = shown
      case .trimStart, .trimEnd, .offsetX, .offsetY, .textValue:
        continue  // Drawn with the paths (``publishTrims()``), or a child's.
      case .fill, .stroke:
        guard let colors = motions[m].colors else { continue }
        let color = colors.from.mixed(with: colors.to, shown).color
        if motions[m].property == .fill {
          publishedHandles[i].fill = color
        } else {
          publishedHandles[i].stroke = color
        }
      }
    }
    residue += sum
    for k in publishedChildren.indices where !childTextMotions[k].isEmpty {
      guard let look = childTexts[k] else { continue }
      let numbers = childTextMotions[k]
      let text = look.text { motionValues[numbers[$0]] }
      if text != publishedChildren[k].text { publishedChildren[k].text = text }
    }
  }

  /// Writes path style motion `m`'s value, `shown`, into its path's style.
  private mutating func publishPathStyleMotion(_ m: Int, _ shown: Double) {
    let k = motionPathStyles[m]
    switch motions[m].property {
    case .opacity: publishedPathStyles[k].look.opacity = shown
    case .strokeWidth: publishedPathStyles[k].look.strokeWidth = shown
    case .fill, .stroke:
      guard let colors = motions[m].colors else { return }
      let color = colors.from.mixed(with: colors.to, shown).color
      if motions[m].property == .fill {
        publishedPathStyles[k].look.fill = color
      } else {
        publishedPathStyles[k].look.stroke = color
      }
    default: return
    }
  }

  /// Writes child motion `m`'s value, `shown`, into its child's frame.
  private mutating func publishChildMotion(_ m: Int, _ shown: Double) {
    let k = motionChildren[m]
    switch motions[m].property {
    case .opacity: publishedChildren[k].look.opacity = shown
    case .rotation: publishedChildren[k].look.rotation = shown
    case .scale: publishedChildren[k].look.scale = shown
    case .scaleX: publishedChildren[k].look.scaleX = shown
    case .scaleY: publishedChildren[k].look.scaleY = shown
    case .radius: publishedChildren[k].look.radius = shown
    case .width: publishedChildren[k].look.width = shown
    case .height: publishedChildren[k].look.height = shown
    case .cornerRadius: publishedChildren[k].look.cornerRadius = shown
    case .strokeWidth: publishedChildren[k].look.strokeWidth = shown
    case .offsetX: publishedChildren[k].look.x = shown
    case .offsetY: publishedChildren[k].look.y = shown
    case .trimStart, .trimEnd, .textValue: break
    case .fill, .stroke:
      guard let colors = motions[m].colors else { return }
      let color = colors.from.mixed(with: colors.to, shown).color
      if motions[m].property == .fill {
        publishedChildren[k].look.fill = color
      } else {
        publishedChildren[k].look.stroke = color
      }
    }
  }

  /// Draws each trimmed path as the part of it between its trim's start and end: a fixed
  /// path from its measurement, a segment path from what this step made of it (which the
  /// next step writes over whole).
  ///
  /// A fixed path whose fractions did not change keeps the part it has: a trim that stands
  /// still costs nothing a frame.
  private mutating func publishTrims() {
    for k in trimmedPaths.indices {
      let trim = trimmedPaths[k]
      let start = trim.start.map { motions[$0].property.clamped(motionValues[$0]) } ?? 0
      let end = trim.end.map { motions[$0].property.clamped(motionValues[$0]) } ?? 1
      let p = trim.path
      if !pathIsDynamic[p] && publishedTrims[k] == (start, end) { continue }
      let whole = pathIsDynamic[p] ? MeasuredPath(publishedPaths[p].path) : graph.paths[p].measured
      guard let whole else { continue }
      publishedPaths[p].path = whole.trimmed(from: start, to: end)
      publishedTrims[k] = (start, end)
      trimsDrawn += 1
    }
  }

  /// Refuses to hand on a non-finite value, naming the part of the scene that made it.
  func checkFinite() throws(RuntimeError) {
    var residue = 0.0
    handles.withUnsafeBufferPointer {
      for h in $0 {
        residue +=
          (h.position.x - h.position.x) + (h.position.y - h.position.y)
          + (h.angle - h.angle) + (h.radius - h.radius)
      }
    }
    try checkFinite(handleResidue: residue)
  }

  /// ``checkFinite()`` with the handles' sum already made.
  ///
  /// x − x is 0 for a finite x and NaN otherwise, so the sum is 0 exactly when every
  /// handle is finite; ``nodeResidue`` says the same of lets and segment paths. The scan
  /// below names the culprit.
  func checkFinite(handleResidue residue: Double) throws(RuntimeError) {
    guard residue != 0 || nodeResidue != 0 else { return }
    try findNonFinite(checkingHandles: residue != 0)
  }

  /// Throws for the first non-finite let, handle (if `checkingHandles`) or segment path.
  func findNonFinite(checkingHandles: Bool) throws(RuntimeError) {
    let now = time.shortestDescription
    // Lets first: a bad let is the cause of whatever reads it.
    for (l, definition) in graph.lets.enumerated() {
      let slot = graph.layout.letSlot(l)
      guard !(slots[slot].isFinite && slots[slot + 1].isFinite) else { continue }
      throw RuntimeError(
        "let '\(definition.name)' is not a finite number at t = \(now) (a division by zero?)",
        at: definition.source.span)
    }
    for i in handles.indices where checkingHandles {
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
    for m in motions.indices where checkingHandles && !motionValues[m].isFinite {
      var owner =
        motionHandles[m] >= 0
        ? "handle '\(handleNames[motionHandles[m]])'"
        : "path '\(trimmedPaths.first { $0.start == m || $0.end == m }.map { pathNames[$0.path] } ?? "")'"
      if motionChildren[m] >= 0 {
        let child = publishedChildren[motionChildren[m]].look.name
        owner = "child '\(handleNames[motionHandles[m]]).\(child)'"
      } else if motionPathStyles[m] >= 0 {
        owner = "path '\(pathNames[publishedPathStyles[motionPathStyles[m]].path])'"
      }
      let what =
        motions[m].property == .textValue
        ? "a number in the text" : "the \(motions[m].property.key)"
      throw RuntimeError(
        "\(what) of \(owner) is not a finite number at t = \(now) (a division by zero?)",
        at: motions[m].source.span)
    }
    for i in dynamicPaths {
      guard
        !publishedPaths[i].path.subpaths.allSatisfy({
          $0.start.isFinite && $0.segments.allSatisfy { segment in segment.isFinite }
        })
      else { continue }
      throw RuntimeError(
        "path '\(graph.paths[i].name)' got a point that is not a finite number at t = \(now)",
        at: graph.paths[i].source.span)
    }
  }
}
