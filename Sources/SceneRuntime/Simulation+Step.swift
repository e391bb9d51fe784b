import SceneGeometry
import SceneGraph
import SceneVocabulary

extension Simulation {
  // MARK: - Slots and expressions

  mutating func writeBuiltinSlots() {
    slots[SlotLayout.time] = time
    slots[SlotLayout.frame] = Double(frameIndex)
    // Expressions see pointer 0, or the first pointer when there is no 0.
    if let pointer = pointers.first(where: { $0.id == 0 }) ?? pointers.first {
      slots[SlotLayout.pointerX] = pointer.position.x
      slots[SlotLayout.pointerY] = pointer.position.y
      slots[SlotLayout.pointerDown] = pointer.isDown ? 1 : 0
      let drag = pointer.isDown ? pointer.position - pointer.pressPosition : Vector.zero
      slots[SlotLayout.dragX] = drag.x
      slots[SlotLayout.dragY] = drag.y
      let velocity = pointer.isDown ? pointer.estimatedVelocity(at: time) : pointer.releaseVelocity
      slots[SlotLayout.velocityX] = velocity.x
      slots[SlotLayout.velocityY] = velocity.y
    }
    refreshSharedValues()
  }

  /// Recomputes the parts of programs that read only the built-in slots (see
  /// ``ExpressionBatch/evaluateShared(_:)``): after every write of those slots.
  mutating func refreshSharedValues() {
    guard programs.sharedCount > 0 else { return }
    let programs = self.programs
    slots.withUnsafeMutableBufferPointer { programs.evaluateShared($0) }
  }

  /// Writes the slots of the handles the frame's expressions read (``slotReadHandles``).
  mutating func writeHandleSlots() {
    guard !slotReadHandles.isEmpty else { return }
    let first = graph.layout.handleSlot(0)
    let readers = slotReadHandles
    // Three consecutive slots per handle (see ``SlotLayout/handleSlot(_:)``), in one pass.
    handles.withUnsafeBufferPointer { moving in
      slots.withUnsafeMutableBufferPointer { slots in
        for i in readers {
          slots[first + 3 * i] = moving[i].position.x
          slots[first + 3 * i + 1] = moving[i].position.y
          slots[first + 3 * i + 2] = moving[i].angle
        }
      }
    }
  }

  /// Writes every handle's slots.
  mutating func writeAllHandleSlots() {
    for i in handles.indices { writeHandleSlot(i) }
  }

  /// The slots with every handle's brought up to date, for an expression that reads one
  /// not kept current (see ``handleSlotIsCurrent``).
  func currentSlots() -> [Double] {
    var current = slots
    for i in handles.indices where !handleSlotIsCurrent[i] {
      Self.store(handles[i], at: graph.layout.handleSlot(i), in: &current)
    }
    return current
  }

  /// A handle's position and angle, in its three slots of `state` from `slot`.
  @inline(__always)
  static func store(_ handle: HandleRuntime, at slot: Int, in state: inout [Double]) {
    state[slot] = handle.position.x
    state[slot + 1] = handle.position.y
    state[slot + 2] = handle.angle
  }

  /// Whether `expression` reads the slots of a handle not kept current.
  func readsStaleSlots(_ expression: CompiledExpression) -> Bool {
    let first = graph.layout.handleSlot(0)
    return expression.dependencies.contains { slot in
      let handle = (slot - first) / 3
      return slot >= first && handle < handleSlotIsCurrent.count && !handleSlotIsCurrent[handle]
    }
  }

  mutating func writeHandleSlot(_ i: Int) {
    Self.store(handles[i], at: graph.layout.handleSlot(i), in: &slots)
  }

  /// The value of an expression from outside the frame's batch (a drag constraint's
  /// bounds, a gesture's points, a scene test's expectation), read on current slots.
  func evaluate(_ expression: CompiledExpression) -> Vector {
    let value =
      readsStaleSlots(expression)
      ? currentSlots().withUnsafeBufferPointer { expression.evaluate($0) }
      : slots.withUnsafeBufferPointer { expression.evaluate($0) }
    return Vector(value.x, value.y)
  }

  /// `body` applied to the measured geometry of path `index`, read in place: copying a
  /// `MeasuredPath` out of the array would retain and release every one of its tables,
  /// for every handle, every frame.
  @inline(__always)
  func measured<R>(_ index: Int, _ body: (borrowing MeasuredPath) -> R) -> R? {
    guard hasMeasurement[index] else { return nil }
    // The buffer's subscript is an addressor: the body borrows the element where it lies.
    return measuredPaths.withUnsafeBufferPointer { buffer in body(buffer[index]) }
  }

  /// The value of program `index` of ``programs``.
  func evaluate(program index: Int) -> Vector {
    let value = slots.withUnsafeBufferPointer { programs.evaluate(index, state: $0) }
    return Vector(value.x, value.y)
  }

  /// Evaluates lets, bound handles and segment paths in dependency order.
  ///
  /// Every pass visits every let and every segment path (``liveNodes`` holds them all),
  /// so ``nodeResidue`` afterwards covers all of them.
  mutating func evaluateNodes(initial: Bool) {
    var residue = 0.0
    for node in initial ? graph.evaluationOrder : liveNodes {
      switch node {
      case .letValue(let i):
        let value = evaluate(program: letPrograms[i])
        residue += (value.x - value.x) + (value.y - value.y)
        let slot = graph.layout.letSlot(i)
        slots[slot] = value.x
        slots[slot + 1] = value.y
      case .handle(let i):
        guard initial || (handleIsBound[i] && handles[i].mode == .following && mover[i] == nil),
          let position = positionPrograms[i]
        else { continue }
        if initial {
          handles[i].position = evaluate(program: position)
          if handleIsBound[i] && mover[i] == nil { handles[i].mode = .following }
        } else if handles[i].mode == .following && mover[i] == nil {
          let next = evaluate(program: position)
          handles[i].position = next
        }
        writeHandleSlot(i)
      case .path(let i):
        guard pathIsDynamic[i] else { continue }
        // Taken out while rewritten, so that reading `self` meanwhile is allowed and the
        // path's storage stays unshared (see `Path+Rewriting.swift`).
        var path = Path()
        swap(&path, &publishedPaths[i].path)
        residue += writeSegmentPath(i, into: &path)
        swap(&path, &publishedPaths[i].path)
        if pathIsMeasured[i] {
          measuredPaths[i] = MeasuredPath(publishedPaths[i].path)
          hasMeasurement[i] = true
        }
      }
    }
    nodeResidue = residue
  }

  /// Rewrites `path` as segment path `index` is now, from its compiled points, reusing
  /// its storage.
  ///
  /// Mutating though it changes nothing: called from ``evaluateNodes(initial:)``, a
  /// non-mutating method gets a copy of the whole simulation (700 bytes) on every call.
  ///
  /// - Returns: x − x summed over every point evaluated: 0 when all are finite, NaN
  ///   otherwise (see ``Simulation/nodeResidue``).
  mutating func writeSegmentPath(_ index: Int, into path: inout Path) -> Double {
    var residue = 0.0
    // The subpath being written, and how many have been started; segments before the
    // first move have no subpath and are dropped.
    var current = -1
    var point = Vector.zero
    for segment in pathSegmentStarts[index]..<pathSegmentStarts[index + 1] {
      // The resolver gives each kind its number of points; a short list is skipped.
      let points = segmentPointPrograms[segment]
      switch segmentKinds[segment] {
      case .move:
        if !points.isEmpty { point = evaluatePoint(points.lowerBound, residue: &residue) }
        current += 1
        path.rewriteSubpath(current, start: point)
      case .line:
        guard points.count == 1 else { continue }
        let end = evaluatePoint(points.lowerBound, residue: &residue)
        if current >= 0 { path.subpaths[current].segments.append(.line(point, end)) }
        point = end
      case .quadratic:
        guard points.count == 2 else { continue }
        let control = evaluatePoint(points.lowerBound, residue: &residue)
        let end = evaluatePoint(points.lowerBound + 1, residue: &residue)
        if current >= 0 {
          path.subpaths[current].segments.append(.quadratic(point, control, end))
        }
        point = end
      case .cubic:
        guard points.count == 3 else { continue }
        let first = evaluatePoint(points.lowerBound, residue: &residue)
        let second = evaluatePoint(points.lowerBound + 1, residue: &residue)
        let end = evaluatePoint(points.lowerBound + 2, residue: &residue)
        if current >= 0 {
          path.subpaths[current].segments.append(.cubic(point, first, second, end))
        }
        point = end
      case .close:
        guard current >= 0 else { continue }
        path.subpaths[current].isClosed = true
        point = path.subpaths[current].start
      }
    }
    path.finishRewrite(subpathCount: current + 1)
    return residue
  }

  /// The value of program `index`, adding x − x of it to `residue`.
  @inline(__always)
  func evaluatePoint(_ index: Int, residue: inout Double) -> Vector {
    let point = evaluate(program: index)
    residue += (point.x - point.x) + (point.y - point.y)
    return point
  }

  func restPosition(of i: Int) -> Vector? {
    restPrograms[i].map { evaluate(program: $0) }
  }

  // MARK: - Grab and release

  /// When the last pointer lifts, bound handles with a rest and a spring spring to rest.
  mutating func releaseBoundHandles() {
    for i in boundHandles where mover[i] == nil && handles[i].mode == .following {
      guard let spring = handleSprings[i], restPrograms[i] != nil else { continue }
      // Like the seed's UIView spring: it leaves at rest speed, so where it goes does not
      // depend on how often the finger was sampled.
      handles[i].velocity = .zero
      handles[i].mode = .springing(spring: spring)
    }
  }

  mutating func release(_ i: Int, velocity: Vector) {
    if let c = mover[i] {
      releaseConstraint(c, handle: i, velocity: velocity)
      return
    }
    if let spring = handleSprings[i] {
      handles[i].rest = restPosition(of: i) ?? handles[i].rest
      handles[i].velocity = velocity
      handles[i].mode = .springing(spring: spring)
    } else {
      handles[i].mode = .idle
    }
  }

  // MARK: - One step

  mutating func advance(dt: Double) {
    hitGrid.invalidate()  // Anything may move now.
    if dt > 0 && propagatorStep != dt {
      propagators = springModels.map { $0.propagator(dt: dt) }
      propagatorStep = dt
    }
    writeBuiltinSlots()
    // Bound handles follow their expression while a pointer is down.
    if pointers.contains(where: { $0.isDown }) {
      for i in boundHandles where mover[i] == nil && handles[i].mode != .following {
        handles[i].mode = .following
      }
    }
    // Dragged handles go where their pointer says, through their constraint.
    for pointer in pointers where pointer.isDown {
      guard let i = pointer.grabbed else { continue }
      let target = pointer.position + pointer.grabOffset
      drag(i, to: target, dt: dt)
    }
    moveAll(dt: dt)
    stepConstraints(dt: dt)
    writeHandleSlots()
    // Writes the slots of the bound handles it moves; the others were written just above.
    evaluateNodes(initial: false)
  }

  /// Steps every constraint that steps each frame, in scene order.
  ///
  /// Runs of `follow`s in the common cases go through one pass over buffers
  /// (``FollowConstraint/stepCommonCases(from:dt:in:)``); the others, and every other
  /// kind, through their step. A function of its own, so that the steps the dispatch calls
  /// are inlined into this loop as they were into ``advance(dt:)`` before it grew.
  mutating func stepConstraints(dt: Double) {
    var next = 0
    while next < steppedConstraints.count {
      let c = steppedConstraints[next]
      // Only for a run of two or more (the stress scene's cells alternate `follow` and
      // `gooey`).
      if startsFollowRun[next] && stepsFollowsTogether {
        let stopped = FollowConstraint.stepCommonCases(from: next, dt: dt, in: &self)
        if stopped > next {
          next = stopped
          continue
        }
      }
      stepConstraint(c, dt: dt)
      next += 1
    }
  }

  /// Moves a dragged handle towards `target` the way its constraint allows.
  mutating func drag(_ i: Int, to target: Vector, dt: Double) {
    let previous = handles[i].position
    let placed =
      mover[i].map { c in dragConstraint(c, handle: i, to: target) } ?? false
    if !placed { handles[i].position = target }
    if dt > 0 { handles[i].velocity = (handles[i].position - previous) / dt }
  }

  /// Integrates every handle that is not held.
  ///
  /// Springs in the plane, the common case, are stepped in one tight pass over the
  /// handles, with no call per handle; the rest (tweens, bound handles whose rest moves, a
  /// spring arriving at rest) go through ``move(_:dt:)`` and ``settle(_:)`` afterwards, in
  /// handle order, so events come out as they did from one loop.
  mutating func moveAll(dt: Double) {
    guard dt > 0 else {
      // Without time passing only a tween moves (to where it is at this time): a spring
      // needs a step. Checked here, so the handles at rest cost no call.
      for i in handles.indices {
        if case .tweening = handles[i].mode { move(i, dt: dt) }
      }
      return
    }
    var pending = pendingMoves
    pendingMoves = []
    pending.removeAll(keepingCapacity: true)
    let followSlots = followSlotOfHandle
    // Read through buffers: the spring's index comes from the graph, which the resolver
    // checked, and every array here has an entry per spring or per handle, so the bounds
    // checks of array subscripts were a fifth of this loop's instructions.
    propagators.withUnsafeBufferPointer { propagators in
      restLimitsSquared.withUnsafeBufferPointer { limits in
        springsInPlane.withUnsafeBufferPointer { inPlane in
          handles.withUnsafeMutableBufferPointer { moving in
            for i in moving.indices {
              switch moving[i].mode {
              case .springing(let spring):
                guard inPlane[i] else {
                  // A `follow`'s handle springs only along its path, in its constraint's
                  // step: its release is the one place it is set springing, and it sets
                  // `springingAlongPath` with it (`isSpringingAlongPath` is true). Not
                  // reading the state here keeps a frame from streaming every following
                  // handle's state twice.
                  if followSlots[i] >= 0 { continue }
                  pending.append((i, arrived: false))
                  continue
                }
                var displacement = moving[i].position - moving[i].rest
                var velocity = moving[i].velocity
                propagators[spring].step2D(&displacement, &velocity)
                moving[i].position = moving[i].rest + displacement
                moving[i].velocity = velocity
                // SpringModel.isAtRest, with the squared threshold worked out once.
                if displacement.lengthSquared <= limits[spring]
                  && velocity.lengthSquared <= limits[spring]
                {
                  pending.append((i, arrived: true))
                }
              case .tweening:
                pending.append((i, arrived: false))
              default:
                continue
              }
            }
          }
        }
      }
    }
    for (i, arrived) in pending {
      if arrived { settle(i) } else { move(i, dt: dt) }
    }
    pendingMoves = pending
  }

  /// Integrates a handle that is not held: springs, tweens.
  mutating func move(_ i: Int, dt: Double) {
    switch handles[i].mode {
    case .springing(let spring):
      guard dt > 0 else { return }
      // Done in stepConstraint.
      if isSpringingAlongPath(i) { return }
      if handleIsBound[i], let rest = restPosition(of: i) { handles[i].rest = rest }
      var displacement = handles[i].position - handles[i].rest
      var velocity = handles[i].velocity
      propagators[spring].step2D(&displacement, &velocity)
      handles[i].position = handles[i].rest + displacement
      handles[i].velocity = velocity
      let model = springModels[spring]
      if model.isAtRest(displacement: displacement, velocity: velocity) { settle(i) }
    case .tweening(let start):
      guard let tween = tweens[i] else { return settle(i) }
      handles[i].position = tween.value(at: time - start)
      if tween.isFinished(at: time - start) { settle(i) }
    default:
      break
    }
  }

  /// Snaps a handle exactly to rest and says so.
  mutating func settle(_ i: Int) {
    handles[i].position = handles[i].rest
    handles[i].velocity = .zero
    handles[i].mode = .idle
    tweens[i] = nil
    events.append(SceneEvent("rest", handleNames[i]))
    if let c = mover[i], keywords[c] == .gooey, gooeyStates[stateSlots[c]].releasedBeforeBreak {
      gooeyStates[stateSlots[c]].releasedBeforeBreak = false
      events.append(SceneEvent("link.restored", constraintNames[c]))
    }
  }
}
