import SceneGeometry
import SceneGraph
import SceneVocabulary

/// The segments of every segment path, path after path, as the simulation evaluates them.
struct SegmentProgram {
  /// Where path `i`'s segments begin; `starts[i + 1]` is where they end.
  let starts: [Int]
  let kinds: [SceneGraph.Segment.Kind]
  /// Each segment's points' programs, which are consecutive.
  let points: [Range<Int>]

  /// Evaluates path `path`'s points on `state` into `heads` and `segments`, which hold
  /// at least as many entries as the path has segments, and returns how many of each it
  /// wrote; adds x − x of every point to `residue`.
  ///
  /// The resolver gives each kind its number of points; a segment with a short list is
  /// skipped, and so are segments before the first move, which have no subpath.
  @inline(__always)
  func write(
    path: Int, machine: ExpressionBatch.Evaluator, state: UnsafeBufferPointer<Double>,
    heads: UnsafeMutableBufferPointer<SubpathHead>, segments: UnsafeMutableBufferPointer<Segment>,
    residue: inout Double
  ) -> (subpaths: Int, segments: Int) {
    @inline(__always)
    func evaluated(_ program: Int) -> Vector {
      let value = machine.evaluate(program, state: state)
      residue += (value.x - value.x) + (value.y - value.y)
      return Vector(value.x, value.y)
    }
    var current = -1
    var count = 0
    var point = Vector.zero
    for segment in starts[path]..<starts[path + 1] {
      let programs = points[segment]
      let first = programs.lowerBound
      let drawn: Segment
      switch kinds[segment] {
      case .move:
        if !programs.isEmpty { point = evaluated(first) }
        current += 1
        heads[current] = SubpathHead(start: point, isClosed: false, segmentCount: 0)
        continue
      case .close:
        guard current >= 0 else { continue }
        heads[current].isClosed = true
        point = heads[current].start
        continue
      case .line:
        guard programs.count == 1 else { continue }
        drawn = .line(point, evaluated(first))
      case .quadratic:
        guard programs.count == 2 else { continue }
        drawn = .quadratic(point, evaluated(first), evaluated(first + 1))
      case .cubic:
        guard programs.count == 3 else { continue }
        drawn = .cubic(
          point, evaluated(first), evaluated(first + 1), evaluated(first + 2))
      }
      point = drawn.end
      guard current >= 0 else { continue }
      segments[count] = drawn
      count += 1
      heads[current].segmentCount += 1
    }
    return (current + 1, count)
  }
}

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
    if readsFingers { writeFingerSlots() }
    refreshSharedValues()
  }

  /// `pointers.count`, `pointers[k]` and `pinch`, from the fingers down.
  mutating func writeFingerSlots() {
    slots[SlotLayout.pointersCount] = Double(pointersDown)
    let first = fingersDown(SlotLayout.readablePointers)
    for k in 0..<SlotLayout.readablePointers {
      let slot = SlotLayout.pointerSlot(k)
      if k < first.count {
        let i = first[k]
        slots[slot] = pointers[i].position.x
        slots[slot + 1] = pointers[i].position.y
        slots[slot + 2] = 1
        slots[slot + 3] = Double(pointers[i].id)
      } else {
        slots[slot] = 0
        slots[slot + 1] = 0
        slots[slot + 2] = 0
        slots[slot + 3] = -1
      }
    }
    if let pinch, let (a, b) = pinchFingers(pinch) {
      let between = b - a
      slots[SlotLayout.pinchScale] =
        pinch.startDistance > 0 ? between.length / pinch.startDistance : 1
      slots[SlotLayout.pinchRotation] = pinch.rotation
      slots[SlotLayout.pinchCenterX] = (a.x + b.x) / 2
      slots[SlotLayout.pinchCenterY] = (a.y + b.y) / 2
      slots[SlotLayout.pinchActive] = 1
      slots[SlotLayout.pinchStartX] = pinch.startCenter.x
      slots[SlotLayout.pinchStartY] = pinch.startCenter.y
    } else {
      slots[SlotLayout.pinchScale] = 1
      slots[SlotLayout.pinchRotation] = 0
      slots[SlotLayout.pinchCenterX] = 0
      slots[SlotLayout.pinchCenterY] = 0
      slots[SlotLayout.pinchActive] = 0
      slots[SlotLayout.pinchStartX] = 0
      slots[SlotLayout.pinchStartY] = 0
    }
  }

  /// Where the two fingers of `pinch` are.
  func pinchFingers(_ pinch: Pinch) -> (Vector, Vector)? {
    guard let first = existingPointer(id: pinch.fingers.0),
      let second = existingPointer(id: pinch.fingers.1)
    else { return nil }
    return (pointers[first].position, pointers[second].position)
  }

  /// The indices in `pointers` of the first `limit` fingers down, in the order they went
  /// down: one pass, keeping the earliest few.
  func fingersDown(_ limit: Int) -> [Int] {
    guard pointersDown > 0 else { return [] }
    var first: [Int] = []
    for i in pointers.indices where pointers[i].isDown {
      let order = pointers[i].pressOrder
      guard first.count < limit || order < pointers[first[first.count - 1]].pressOrder else {
        continue
      }
      let place = first.firstIndex { pointers[$0].pressOrder > order } ?? first.count
      first.insert(i, at: place)
      if first.count > limit { first.removeLast() }
    }
    return first
  }

  /// Begins a two-finger gesture with the first two fingers down, if there are two.
  mutating func startPinch() {
    let first = fingersDown(2)
    guard first.count == 2 else { return }
    var started = Pinch(
      fingers: (pointers[first[0]].id, pointers[first[1]].id), startDistance: 0, lastAngle: 0)
    guard let (a, b) = pinchFingers(started) else { return }
    started.startDistance = (b - a).length
    started.startCenter = (a + b) / 2
    started.lastAngle = (b - a).angle
    pinch = started
    beginPinchTransforms()
  }

  /// Adds the turn of the two fingers since they were last seen to `pinch.rotation`: the
  /// smaller of the two ways round, so a turn past half a circle keeps counting.
  mutating func turnPinch() {
    guard var current = pinch, let (a, b) = pinchFingers(current) else { return }
    let angle = (b - a).angle
    var delta = angle - current.lastAngle
    if delta > .pi { delta -= 2 * .pi } else if delta < -.pi { delta += 2 * .pi }
    current.rotation += delta
    current.lastAngle = angle
    pinch = current
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
  func currentSlots() -> [Double] { expressionReader.currentSlots() }

  /// A handle's position and angle, in its three slots of `state` from `slot`.
  @inline(__always)
  static func store(_ handle: HandleRuntime, at slot: Int, in state: inout [Double]) {
    state[slot] = handle.position.x
    state[slot + 1] = handle.position.y
    state[slot + 2] = handle.angle
  }

  mutating func writeHandleSlot(_ i: Int) {
    Self.store(handles[i], at: graph.layout.handleSlot(i), in: &slots)
  }

  /// The value of an expression from outside the frame's batch (a drag constraint's
  /// bounds, a gesture's points, a scene test's expectation), read on current slots.
  func evaluate(_ expression: CompiledExpression) -> Vector {
    expressionReader.evaluate(expression)
  }

  /// What ``evaluate(_:)`` reads.
  var expressionReader: ExpressionReader {
    ExpressionReader(
      slots: slots, handles: handles, handleSlotIsCurrent: handleSlotIsCurrent,
      firstHandleSlot: plan.firstHandleSlot)
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
  ///
  /// The pass borrows every array it touches once, for all its nodes: through the arrays
  /// themselves, each node paid for their bounds, uniqueness checks and references, more
  /// than for its own work (a segment path of one cubic cost about 450 instructions).
  mutating func evaluateNodes(initial: Bool) {
    let nodes = initial ? graph.evaluationOrder : liveNodes
    // A scene without lets, bound handles or segment paths (springs alone) pays nothing.
    guard !nodes.isEmpty else {
      nodeResidue = 0
      return
    }
    let letPrograms = self.letPrograms
    let positionPrograms = self.positionPrograms
    let handleIsBound = self.handleIsBound
    let mover = self.mover
    let pathIsDynamic = self.pathIsDynamic
    let segments = self.segments
    let firstLet = graph.layout.letSlot(0)
    let firstHandle = graph.layout.handleSlot(0)
    var residue = 0.0
    programs.withEvaluator { machine in
      withUnsafeTemporaryAllocation(of: SubpathHead.self, capacity: longestSegmentPath) { heads in
        withUnsafeTemporaryAllocation(of: Segment.self, capacity: longestSegmentPath) { drawn in
          slots.withUnsafeMutableBufferPointer { slots in
            handles.withUnsafeMutableBufferPointer { handles in
              publishedPaths.withUnsafeMutableBufferPointer { paths in
                let state = UnsafeBufferPointer(slots)
                for node in nodes {
                  switch node {
                  case .letValue(let i):
                    let value = machine.evaluate(letPrograms[i], state: state)
                    residue += (value.x - value.x) + (value.y - value.y)
                    slots[firstLet + 2 * i] = value.x
                    slots[firstLet + 2 * i + 1] = value.y
                  case .handle(let i):
                    if let program = positionPrograms[i] {
                      if initial {
                        let value = machine.evaluate(program, state: state)
                        handles[i].position = Vector(value.x, value.y)
                        if handleIsBound[i] && mover[i] == nil { handles[i].mode = .following }
                      } else if case .following = handles[i].mode {
                        // ``liveNodes`` holds only bound handles without a constraint.
                        let value = machine.evaluate(program, state: state)
                        handles[i].position = Vector(value.x, value.y)
                      }
                    }
                    // Written whether or not the handle follows: ``writeHandleSlots()``
                    // leaves the bound handles of ``liveNodes`` to their nodes.
                    let slot = firstHandle + 3 * i
                    slots[slot] = handles[i].position.x
                    slots[slot + 1] = handles[i].position.y
                    slots[slot + 2] = handles[i].angle
                  case .path(let i):
                    guard pathIsDynamic[i] else { continue }
                    let shape = segments.write(
                      path: i, machine: machine, state: state, heads: heads, segments: drawn,
                      residue: &residue)
                    paths[i].path.overwrite(
                      heads: UnsafeBufferPointer(rebasing: heads[..<shape.subpaths]),
                      segments: UnsafeBufferPointer(rebasing: drawn[..<shape.segments]))
                  }
                }
              }
            }
          }
        }
      }
    }
    // Nothing an expression reads depends on a measurement, so the dynamic paths are
    // measured after the pass rather than where they come in it.
    for i in dynamicPaths where pathIsMeasured[i] {
      measuredPaths[i] = MeasuredPath(publishedPaths[i].path)
      hasMeasurement[i] = true
    }
    nodeResidue = residue
  }

  /// Where handle `i` rests now: where a state puts it, or its own `rest`.
  ///
  /// Inlined: called out of line from a spring's step, it made the step copy the whole
  /// simulation (1.7 KB) first.
  @inline(__always)
  func restPosition(of i: Int) -> Vector? {
    if hasMachines, let placed = machinesNow.restOverrides[i] { return evaluate(placed) }
    return restPrograms[i].map { evaluate(program: $0) }
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
    if let c = mover[i], constraintIsOn(c) {
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
    shapeReachesAreCurrent = false
    if dt > 0 && propagatorStep != dt {
      propagators = springModels.map { $0.propagator(dt: dt) }
      propagatorStep = dt
    }
    if dt > 0 && !motions.isEmpty { stepMotionSprings(dt: dt) }
    if !pinchStates.isEmpty { stepPinchSprings() }
    writeBuiltinSlots()
    // Bound handles follow their expression while a pointer is down.
    if pointersDown > 0 {
      for i in boundHandles where mover[i] == nil && handles[i].mode != .following {
        handles[i].mode = .following
      }
    }
    // Dragged handles go where their pointer says, through their constraint.
    if pointersDown > 0 {
      for pointer in pointers where pointer.isDown {
        guard let i = pointer.grabbed else { continue }
        let target = pinchedPosition(i) ?? pointer.position + pointer.grabOffset
        drag(i, to: target, dt: dt)
      }
    }
    moveAll(dt: dt)
    stepConstraints(dt: dt)
    writeHandleSlots()
    // Writes the slots of its bound handles; the other handles read were written just above.
    evaluateNodes(initial: false)
    if !motions.isEmpty { evaluateMotionExpressions(dt: dt) }
    if hasMachines { evaluateMachines() }
  }

  // MARK: - Animated properties

  /// Moves every animated property that a spring carries through `dt` seconds, towards
  /// its target as the scene is at the start of the step.
  ///
  /// The target is held over the step, as a pointer event between two frames is applied
  /// at its own time: a target that jumps (a press) is followed exactly, at any frame rate.
  /// A spring within its property's rest threshold (``SceneGraph/AnimatedProperty``) of
  /// its target, in distance and speed, comes to rest on it.
  mutating func stepMotionSprings(dt: Double) {
    for m in motions.indices where !motionHeld[m] {
      guard let spring = motionSpring(m) else { continue }
      let target = motionTargets[m]
      var displacement = motionValues[m] - target
      var velocity = motionVelocities[m]
      propagators[spring].step(&displacement, &velocity)
      let threshold = motions[m].property.restThreshold
      if abs(displacement) <= threshold && abs(velocity) <= threshold {
        displacement = 0
        velocity = 0
      }
      motionValues[m] = target + displacement
      motionVelocities[m] = velocity
    }
  }

  /// Evaluates the lets again, in order, on the slots as they are now.
  mutating func refreshLets() {
    let first = graph.layout.letSlot(0)
    let order = letOrder
    let letPrograms = self.letPrograms
    programs.withEvaluator { machine in
      slots.withUnsafeMutableBufferPointer { slots in
        for i in order {
          let value = machine.evaluate(letPrograms[i], state: UnsafeBufferPointer(slots))
          slots[first + 2 * i] = value.x
          slots[first + 2 * i + 1] = value.y
        }
      }
    }
  }

  /// Sets every animated property given by an expression alone, or held to its target,
  /// to its value now, and every spring's target (``refreshMotionTargets()``); a held one
  /// keeps the speed it moved at over the step, for its spring to carry on with.
  mutating func evaluateMotionExpressions(dt: Double) {
    refreshMotionTargets(movingHeld: false)
    for m in motions.indices where motionSpring(m) == nil || motionHeld[m] {
      if motionHeld[m] {
        holdMotion(m)
      } else if motionCurve(m) != nil {
        motionValues[m] = tweenValue(m)
      } else {
        motionValues[m] = motionTargets[m]
      }
    }
  }

  /// Moves held motion `m` to its target now, and works out its speed.
  ///
  /// The speed is the change over the time since it last changed: a finger is sampled at
  /// frames and events, and a target that stood still for a step only waited for the
  /// finger's next sample; still for longer than a pointer's velocity window (100 ms), it
  /// has stopped.
  mutating func holdMotion(_ m: Int) {
    let target = motionTargets[m]
    if target != motionValues[m] {
      // A change at a later moment starts a new step; more at the same moment extend it.
      if time > motionChangeTimes[m] {
        motionPreviousValues[m] = motionValues[m]
        motionPreviousTimes[m] = motionChangeTimes[m]
      }
      let span = time - motionPreviousTimes[m]
      if span > 0 {
        let velocity = (target - motionPreviousValues[m]) / span
        motionVelocities[m] = velocity.isFinite ? velocity : 0
      }
      motionValues[m] = target
      motionChangeTimes[m] = time
    } else if time - motionChangeTimes[m] > 0.1 {
      motionVelocities[m] = 0
    }
  }

  /// Evaluates every animated property's target as the scene is now, after a step or a
  /// pointer event; the built-in slots (the pointer's) are brought up to date first.
  ///
  /// After a pointer event (`movingHeld`), a property held to its target moves with it at
  /// once, keeping its speed: a finger that moves and lifts between two frames hands the
  /// spring the value of that moment.
  mutating func refreshMotionTargets(movingHeld: Bool = true) {
    guard !motions.isEmpty else { return }
    writeBuiltinSlots()
    // Between steps the lets are as the last step left them.
    if movingHeld && motionsReadLets { refreshLets() }
    for m in motions.indices {
      let target = evaluate(motionTarget(m))
      motionTargets[m] = motions[m].property == .offsetY ? target.y : target.x
      if let held = motions[m].held {
        let wasHeld = motionHeld[m]
        motionHeld[m] = evaluate(held).x != 0
        if !wasHeld && motionHeld[m] {
          motionChangeTimes[m] = time
          motionPreviousTimes[m] = time
          motionPreviousValues[m] = motionValues[m]
        }
        if movingHeld && wasHeld && motionHeld[m] { holdMotion(m) }
      }
      if motionCurve(m) != nil { retarget(m) }
    }
  }

  /// Starts a new tween for motion `m`, from where it is now, if its target changed; while
  /// it is held, none runs (NaN is unequal to any target, so letting go starts one).
  mutating func retarget(_ m: Int) {
    if motionHeld[m] {
      motionTweenTo[m] = .nan
    } else if motionTargets[m] != motionTweenTo[m] {
      motionTweenFrom[m] = tweenValue(m)
      motionTweenTo[m] = motionTargets[m]
      motionTweenStarts[m] = time
    }
  }

  /// Motion `m`'s tween's value now: from `from` to `to` along its curve over its
  /// duration, exactly at this time; its value as it is when no tween runs.
  func tweenValue(_ m: Int) -> Double {
    let to = motionTweenTo[m]
    guard !to.isNaN, let curve = motionCurve(m), let tween = motionTween(m) else {
      return motionValues[m]
    }
    let progress = (time - motionTweenStarts[m]) / tween.duration
    guard progress < 1 else { return to }
    let from = motionTweenFrom[m]
    return from + (to - from) * curve.value(at: progress)
  }

  /// Whether handle `i`'s animated properties are still: none reads time, and each spring
  /// is at rest on its target as the scene is now.
  func motionsAreAtRest(handle i: Int) -> Bool { motionsAreAtRest(motionRanges[i]) }

  /// Whether the motions in `range` are still (see ``motionsAreAtRest(handle:)``).
  func motionsAreAtRest(_ range: Range<Int>) -> Bool {
    for m in range {
      if motions[m].followsTime { return false }
      if let tween = motionTween(m), !motionHeld[m] {
        if time < motionTweenStarts[m] + tween.duration && motionTweenTo[m] != motionTweenFrom[m] {
          return false
        }
        continue
      }
      guard motionSpring(m) != nil, !motionHeld[m] else { continue }
      if motionVelocities[m] != 0 || motionValues[m] != motionTargets[m] {
        return false
      }
    }
    return true
  }

  /// Steps every constraint that steps each frame, in scene order.
  ///
  /// Runs of `follow`s in the common cases go through one pass over buffers
  /// (``FollowConstraint/stepCommonCases(from:dt:in:)``); the others, and every other
  /// kind, through their step. A function of its own, so that the steps the dispatch calls
  /// are inlined into this loop as they were into ``advance(dt:)`` before it grew.
  mutating func stepConstraints(dt: Double) {
    var next = 0
    // Read once: no constraint's step turns another off.
    let someAreOff = hasMachines && machinesNow.anyDisabled
    while next < steppedConstraints.count {
      let c = steppedConstraints[next]
      if someAreOff && machinesNow.disabled[c] {
        next += 1
        continue
      }
      // Only for a run of two or more (the stress scene's cells alternate `follow` and
      // `gooey`), and none of them turned off by a state.
      if startsFollowRun[next] && stepsFollowsTogether && !someAreOff {
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
      mover[i].map { c in constraintIsOn(c) && dragConstraint(c, handle: i, to: target) } ?? false
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
    events.append(SceneEvent(.rest, i))
    if let c = mover[i], keywords[c] == .gooey, constraintIsOn(c),
      gooeyStates[stateSlots[c]].releasedBeforeBreak
    {
      gooeyStates[stateSlots[c]].releasedBeforeBreak = false
      events.append(SceneEvent(.linkRestored, constraintPaths[c]))
    }
  }
}

/// The part of a simulation that evaluating an expression from outside the frame's batch
/// reads: three arrays, shared, not copied.
///
/// A caller that evaluates while it changes another part of the run (the gesture player
/// inside ``SceneRunner``) holds this rather than the simulation: a closure reading the
/// simulation itself made the optimiser copy all of it (a retain of each of its arrays)
/// for every gesture track on every frame, 90% of the cost of a script's first frames
/// with a finger per handle.
struct ExpressionReader {
  let slots: [Double]
  let handles: [HandleRuntime]
  /// See ``Simulation/handleSlotIsCurrent``.
  let handleSlotIsCurrent: [Bool]
  let firstHandleSlot: Int

  func evaluate(_ expression: CompiledExpression) -> Vector {
    let value =
      readsStaleSlots(expression)
      ? currentSlots().withUnsafeBufferPointer { expression.evaluate($0) }
      : slots.withUnsafeBufferPointer { expression.evaluate($0) }
    return Vector(value.x, value.y)
  }

  /// Whether `expression` reads the slots of a handle not kept current.
  func readsStaleSlots(_ expression: CompiledExpression) -> Bool {
    for slot in expression.dependencies where slot >= firstHandleSlot {
      let handle = (slot - firstHandleSlot) / 3
      if handle < handleSlotIsCurrent.count && !handleSlotIsCurrent[handle] { return true }
    }
    return false
  }

  /// The slots with every handle's brought up to date.
  func currentSlots() -> [Double] {
    var current = slots
    for i in handles.indices where !handleSlotIsCurrent[i] {
      Simulation.store(handles[i], at: firstHandleSlot + 3 * i, in: &current)
    }
    return current
  }
}
