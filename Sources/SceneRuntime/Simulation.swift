import RealModule
import SceneGeometry
import SceneGraph
import SceneVocabulary

/// A running scene: feed it pointer events, step it, read frames.
///
/// The same engine serves `scenec run` (driven by the scene's gesture script at a fixed
/// step) and apps (fed real pointer events each display frame). There is no clock
/// inside: time advances only by the `dt` passed to ``step(dt:)``, so the same inputs
/// always give the same frames, bit for bit.
///
/// ```swift
/// var simulation = try Simulation(graph: graph)
/// simulation.pointerDown(id: 0, at: Point(120, 80))
/// let frame = try simulation.step(dt: 1.0 / 60)
/// ```
public struct Simulation: Sendable {
  /// What every run of the scene shares (``SimulationPlan``).
  public let plan: SimulationPlan
  /// The values expressions read (see ``SlotLayout``).
  var slots: [Double]
  public private(set) var time = 0.0
  public private(set) var frameIndex = 0
  /// Every pointer seen so far, down or lifted, in order of id (a frame lists them all).
  var pointers: [PointerRuntime] = [] { didSet { pointerFramesAreStale = true } }
  /// How many of `pointers` are down, so that a step with none down costs nothing per
  /// lifted pointer (a script of 10,000 fingers leaves 10,000 of them).
  var pointersDown = 0
  /// Presses so far, the last one's ``PointerRuntime/pressOrder``.
  var presses = 0
  /// The two-finger gesture under way, if two fingers are down (`pinch`).
  var pinch: Pinch?
  /// The handles a pointer holds (a handle is held by at most one).
  var heldHandles: Set<Int> = []
  /// The pointers as the last frame showed them, remade only after they change.
  var publishedPointers: [PointerFrame] = []
  var pointerFramesAreStale = false
  /// How many times the frame's pointer list was remade (for the tests that count the work).
  var pointerFramesMade = 0
  var handles: [HandleRuntime]
  /// The tween each handle is on, while its mode is `tweening`.
  var tweens: [Tween?]
  var followStates: [FollowConstraint.State]
  /// For each `follow`, the exact answer where its last press or drag put the handle.
  ///
  /// See ``FollowConstraint/place(_:on:in:)``. Kept apart from ``followStates``, which a
  /// frame streams through: only presses, drags and releases read it.
  var followPlaces: [PathPosition]
  var gooeyStates: [GooeyConstraint.State]
  var animateStates: [AnimateConstraint.State]
  var dragStates: [DragConstraint.State]
  var events: [SceneEvent] = []
  /// The draggable handles by place, for presses (see ``HitGrid``).
  var hitGrid: HitGrid
  var pinchStates: [PinchTransformState]
  /// How far each of ``shapeHitHandles`` reaches from its position as drawn, while
  /// `shapeReachesAreCurrent`; how many times they were worked out (tests count it).
  var shapeReaches: [Double] = []
  var shapeReachesAreCurrent = false
  var shapeReachesMade = 0
  /// Spring propagators for the current `dt`, one per spring preset.
  var propagators: [SpringModel.Propagator] = []
  var propagatorStep = 0.0

  /// Whether handle `i` is a `follow` springing along its path: its constraint's step moves
  /// it, in arc length, not the spring step in the plane.
  func isSpringingAlongPath(_ i: Int) -> Bool {
    let slot = followSlotOfHandle[i]
    return slot >= 0 && followStates[slot].springingAlongPath
  }
  /// Whether a step takes runs of `follow`s through
  /// ``FollowConstraint/stepCommonCases(from:dt:in:)``; tests turn it off to check that
  /// pass against the general step, to the bit.
  var stepsFollowsTogether = true
  /// The handles ``moveAll(dt:)`` hands on to the general step, kept to reuse its storage.
  var pendingMoves: [(Int, arrived: Bool)] = []
  /// x − x summed over every let's value and every point of every segment path at the
  /// last ``evaluateNodes(initial:)``, the only place they change: 0 when all are finite,
  /// NaN otherwise, so that a frame scans them (``findNonFinite(checkingHandles:)``) only
  /// when one is not.
  var nodeResidue = 0.0
  /// The handles of the last frame, updated in place by ``checkedFrame()``.
  var publishedHandles: [HandleFrame]
  /// Every path as it is now, as the frame shows it.
  ///
  /// The scene's paths come first, in order, then one entry per drawing constraint.
  /// Segment paths are rewritten in place by ``evaluateNodes(initial:)``, drawn paths by
  /// ``checkedFrame()``.
  var publishedPaths: [PathFrame]
  /// The measured geometry of each path a constraint measures along, where
  /// `hasMeasurement` says so (an empty placeholder elsewhere).
  ///
  /// Not optionals: reading
  /// through ``measured(_:_:)`` then borrows the value in place instead of copying it.
  var measuredPaths: [MeasuredPath]
  var hasMeasurement: [Bool]

  // Per-handle facts read every frame, kept in flat arrays so a step never copies a
  // handle's whole description out of the graph.
  /// The frame's children as the last frame showed them.
  var publishedChildren: [ChildFrame] = []
  /// The paths' styles that change, as the last frame showed them.
  var publishedPathStyles: [PathStyleFrame] = []
  /// The fractions each trimmed path was last drawn at (NaN before its first frame).
  var publishedTrims: [(Double, Double)]
  /// How many times a path was trimmed (for the tests that count the work).
  var trimsDrawn = 0
  /// Each motion's value (as its spring or expression left it, not yet clamped), the
  /// velocity of its spring, and the target its spring follows.
  var motionValues: [Double]
  var motionVelocities: [Double]
  /// Each motion's target as the scene is now: refreshed after every step and every
  /// pointer event (``refreshMotionTargets()``), so a spring holds over a step the target
  /// its start had.
  var motionTargets: [Double]
  /// Whether each motion is held to its target now (``SceneGraph/Motion/held``), and when a
  /// held one's value last changed (its speed is its change over the time since).
  var motionHeld: [Bool]
  var motionChangeTimes: [Double]
  /// A held motion's value before its latest change, and when it took that value: several
  /// changes at one moment (two fingers moving at once) make one step from it.
  var motionPreviousValues: [Double]
  var motionPreviousTimes: [Double]
  var motionTweenStarts: [Double]
  var motionTweenFrom: [Double]
  var motionTweenTo: [Double]
  /// The state machines' states, and the properties they set.
  var machinesNow: MachineRuntime
  /// Set when a machine went round more than ``transitionLimit`` times at one moment.
  ///
  /// The next frame reports it. Kept out of ``machinesNow``, which every step reads.
  var machineFailure: RuntimeError?

  public init(graph: SceneGraph) throws(RuntimeError) {
    try self.init(plan: SimulationPlan(graph: graph))
  }

  /// Makes the simulation from a plan and its graph; tests turn
  /// `sharingFrameConstantParts` off (see ``SimulationPlan/init(graph:sharingFrameConstantParts:)``).
  init(graph: SceneGraph, sharingFrameConstantParts: Bool) throws(RuntimeError) {
    try self.init(
      plan: SimulationPlan(graph: graph, sharingFrameConstantParts: sharingFrameConstantParts))
  }

  /// A new run of the scene `plan` was made for, from its start.
  public init(plan: SimulationPlan) throws(RuntimeError) {
    self.plan = plan
    slots = plan.initialSlots
    pinch = plan.initialPinch
    handles = plan.initialHandles
    tweens = plan.initialTweens
    followStates = plan.initialFollowStates
    followPlaces = plan.initialFollowPlaces
    gooeyStates = plan.initialGooeyStates
    animateStates = plan.initialAnimateStates
    dragStates = plan.initialDragStates
    hitGrid = plan.initialHitGrid
    pinchStates = plan.initialPinchStates
    publishedHandles = plan.initialPublishedHandles
    publishedPaths = plan.initialPublishedPaths
    measuredPaths = plan.initialMeasuredPaths
    hasMeasurement = plan.initialHasMeasurement
    publishedTrims = plan.initialPublishedTrims
    motionValues = plan.initialMotionValues
    motionVelocities = plan.initialMotionVelocities
    motionTargets = plan.initialMotionTargets
    motionHeld = plan.initialMotionHeld
    motionChangeTimes = plan.initialMotionChangeTimes
    motionPreviousValues = plan.initialMotionPreviousValues
    motionPreviousTimes = plan.initialMotionPreviousTimes
    motionTweenStarts = plan.initialMotionTweenStarts
    motionTweenFrom = plan.initialMotionTweenFrom
    motionTweenTo = plan.initialMotionTweenTo
    publishedChildren = plan.initialPublishedChildren
    publishedPathStyles = plan.initialPublishedPathStyles
    machinesNow = MachineRuntime(plan: plan)
    // Initial positions: evaluate every node once, in order.
    for i in graph.handles.indices {
      if let position = graph.handles[i].position, position.isConstant,
        let value = position.constantValue
      {
        handles[i].position = Vector(value.x, value.y)
      }
    }
    // No finger down: `pinch.scale` 1, every `pointers[k].id` −1.
    writeFingerSlots()
    writeAllHandleSlots()
    evaluateNodes(initial: true)
    for c in keywords.indices { setUpConstraint(c) }
    for i in handles.indices {
      handles[i].rest = restPosition(of: i) ?? handles[i].position
    }
    writeHandleSlots()
    evaluateNodes(initial: false)
    if hasMachines {
      enterInitialStates()
      writeHandleSlots()
      evaluateNodes(initial: false)
    }
    // Animated properties start at their values: a spring has nothing to follow yet.
    refreshMotionTargets()
    motionValues = motionTargets
    // Tweens start finished, on their targets.
    motionTweenFrom = motionTargets
    motionTweenTo = motionTargets
    try checkFinite()
  }

  /// The value of a compiled expression in the scene as it is now: for checking a
  /// scene test's expectations against the live state.
  public func value(of expression: CompiledExpression) -> Vector { evaluate(expression) }

  /// Every value expressions read, as laid out by ``SlotLayout``, every handle's current.
  public var slotValues: [Double] { Array(currentSlots().prefix(graph.layout.count)) }

  /// Handle `i`'s velocity in points per second where the engine integrates it: springing
  /// back or held by a pointer (the finger's step); zero at rest; `nil` for motion it
  /// does not integrate (bound, animated, tweened, or springing or gliding along a path).
  public func integratedVelocity(ofHandle i: Int) -> Vector? {
    switch handles[i].mode {
    case .idle, .hidden: return .zero
    case .dragging: return handles[i].velocity
    case .gliding:
      // A `follow` glides in arc length; its velocity in the plane is not integrated.
      if let c = mover[i], keywords[c] == .follow { return nil }
      return handles[i].velocity
    case .springing:
      if isSpringingAlongPath(i) { return nil }
      return handles[i].velocity
    case .tweening, .following, .animating: return nil
    }
  }

  // MARK: - Pointer input

  /// A pointer touches down; it grabs the topmost draggable handle within its hit radius,
  /// keeping the offset so the handle does not jump to the finger.
  public mutating func pointerDown(id: Int, at point: Point) {
    guard point.isFinite else { return }
    // Found before the pointer is pressed anew: a handle it still holds cannot be grabbed.
    let grabbed = grabbableHandle(at: point)
    let index = pointerIndex(id: id)
    if index < pointers.count && pointers[index].id == id {
      if !pointers[index].isDown { pointersDown += 1 }
      // Pressed anew while down, it lets go of what it held without a release.
      if let held = pointers[index].grabbed { heldHandles.remove(held) }
      pointers[index].press(at: point)
    } else {
      pointers.insert(
        PointerRuntime(id: id, position: point, pressPosition: point, isDown: true), at: index)
      pointersDown += 1
    }
    presses += 1
    pointers[index].pressOrder = presses
    pointers[index].pressTime = time
    pointers[index].record(time: time, position: point)
    if let i = grabbed {
      pointers[index].grabbed = i
      heldHandles.insert(i)
      pointers[index].grabOffset = handles[i].position - point
      handles[i].mode = .dragging
      handles[i].velocity = .zero
      events.append(SceneEvent(.grab, i))
    }
    // The second finger down starts a pinch (a later one, if the pair broke up).
    if readsFingers && pinch == nil && pointersDown >= 2 { startPinch() }
    refreshMotionTargets()
  }

  /// The topmost handle a press at `point` grabs.
  ///
  /// A function of its own so the copies of `handles` and `heldHandles` its closures hold are
  /// gone before the press changes a handle: one still alive would make that change copy
  /// the whole array.
  private mutating func grabbableHandle(at point: Point) -> Int? {
    let handles = self.handles
    let held = heldHandles
    let nearest = hitGrid.topmost(
      at: point, scanEveryTime: hasBoundDraggable, position: { handles[$0].position },
      accepts: { i in handles[i].state != .hidden && !held.contains(i) })
    guard !shapeHitHandles.isEmpty else { return nearest }
    // How far each group reaches, worked out at most once a step (as the grid is), so a
    // press measures a distance to each and looks closer only at those it may be on.
    if !shapeReachesAreCurrent {
      shapeReaches = shapeHitHandles.map(shapeReach)
      shapeReachesAreCurrent = true
      shapeReachesMade += 1
    }
    // A group drawn above it (declared later) takes the press first.
    for k in shapeHitHandles.indices.reversed() where shapeHitHandles[k] > (nearest ?? -1) {
      let i = shapeHitHandles[k]
      guard handles[i].position.distance(to: point) <= shapeReaches[k] else { continue }
      if handles[i].state != .hidden && !held.contains(i) && shapes(of: i, contain: point) {
        return i
      }
    }
    return nearest
  }

  /// A shape's place and size as now drawn, for hit testing.
  struct HitLook {
    var x = 0.0, y = 0.0, rotation = 0.0, scale = 1.0, width = 0.0, height = 0.0, radius = 0.0
    var scaleX = 1.0, scaleY = 1.0

    init(_ shape: SceneGraph.Handle) {
      x = shape.offset.x
      y = shape.offset.y
      rotation = shape.rotation
      scale = shape.scale
      width = shape.width
      height = shape.height
      radius = shape.radius
      scaleX = shape.scaleX
      scaleY = shape.scaleY
    }

    /// The most it is scaled along either of its axes.
    var stretch: Double { scale * max(scaleX, scaleY) }

    /// How far from its place its shape reaches at most, before its own scales.
    func extent(_ shape: HandleShape) -> Double {
      switch shape {
      case .circle: return radius
      case .rect: return (width * width + height * height).squareRoot() / 2
      case .none, .text: return 0
      }
    }
  }

  /// Handle `i`'s look and its children's as they are drawn now.
  func hitLooks(of i: Int) -> (own: HitLook, children: [HitLook]) {
    let handle = graph.handles[i]
    var own = HitLook(handle)
    if !pinchSlots.isEmpty && pinchSlots[i] >= 0 {
      own.scale = pinchStates[pinchSlots[i]].scale
      own.rotation = pinchStates[pinchSlots[i]].rotation
    }
    var children = handle.children.map(HitLook.init)
    for m in motionRanges[i] {
      let value = motions[m].property.clamped(motionValues[m])
      let k = motionChildren[m] < 0 ? -1 : publishedChildren[motionChildren[m]].child
      var changed = k < 0 ? own : children[k]
      switch motions[m].property {
      case .rotation: changed.rotation = value
      case .scale: changed.scale = value
      case .scaleX: changed.scaleX = value
      case .scaleY: changed.scaleY = value
      case .width: changed.width = value
      case .height: changed.height = value
      case .radius: changed.radius = value
      case .offsetX: changed.x = value
      case .offsetY: changed.y = value
      default: continue
      }
      if k < 0 { own = changed } else { children[k] = changed }
    }
    return (own, children)
  }

  /// How far from its position group `i`'s shapes reach at most, as drawn now.
  func shapeReach(of i: Int) -> Double {
    let handle = graph.handles[i]
    let (own, children) = hitLooks(of: i)
    // In the handle's coordinates, then scaled as the handle is drawn.
    var reach = own.extent(handle.shape)
    for (k, child) in handle.children.enumerated() {
      let look = children[k]
      let place = (look.x * look.x + look.y * look.y).squareRoot()
      reach = max(reach, place + look.extent(child.shape) * look.stretch)
    }
    let result = reach * own.stretch
    return result.isFinite ? result : .infinity
  }

  /// Whether `point` is on handle `i`'s shape or one of its children's (circles and rects;
  /// text is not counted), each moved, turned and scaled as it is now drawn.
  func shapes(of i: Int, contain point: Point) -> Bool {
    let handle = graph.handles[i]
    let (own, children) = hitLooks(of: i)
    // Into the handle's coordinates, then each shape's own.
    func local(_ p: Vector, at origin: Vector, turn: Double, look: HitLook) -> Vector? {
      let (sx, sy) = (look.scale * look.scaleX, look.scale * look.scaleY)
      guard sx > 0 && sy > 0 else { return nil }
      let d = p - origin
      let (s, c) = (Double.sin(-turn), Double.cos(-turn))
      return Vector((d.x * c - d.y * s) / sx, (d.x * s + d.y * c) / sy)
    }
    func inside(_ p: Vector, _ shape: HandleShape, _ look: HitLook) -> Bool {
      switch shape {
      case .circle: return p.x * p.x + p.y * p.y <= look.radius * look.radius
      case .rect: return abs(p.x) <= look.width / 2 && abs(p.y) <= look.height / 2
      case .none, .text: return false
      }
    }
    guard
      let inHandle = local(
        point, at: handles[i].position, turn: handles[i].angle + own.rotation, look: own)
    else { return false }
    if inside(inHandle, handle.shape, own) { return true }
    for (k, child) in handle.children.enumerated() {
      let shape = children[k]
      guard
        let p = local(
          inHandle, at: Vector(shape.x, shape.y), turn: shape.rotation, look: shape)
      else { continue }
      if inside(p, child.shape, shape) { return true }
    }
    return false
  }

  /// Where pointer `id` is in `pointers`, or where it would go: a binary search, since a
  /// script's fingers can be many.
  func pointerIndex(id: Int) -> Int {
    var low = 0
    var high = pointers.count
    while low < high {
      let middle = (low + high) / 2
      if pointers[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The index of pointer `id`, if it has been seen.
  func existingPointer(id: Int) -> Int? {
    let index = pointerIndex(id: id)
    return index < pointers.count && pointers[index].id == id ? index : nil
  }

  /// Whether pointer `id` is down.
  public func pointerIsDown(id: Int) -> Bool {
    existingPointer(id: id).map { pointers[$0].isDown } ?? false
  }

  /// A pointer moves (down or hovering).
  public mutating func pointerMoved(id: Int, to point: Point) {
    guard point.isFinite else { return }
    guard let index = existingPointer(id: id) else {
      pointers.insert(
        PointerRuntime(id: id, position: point, pressPosition: point, isDown: false),
        at: pointerIndex(id: id))
      refreshMotionTargets()
      return
    }
    pointers[index].position = point
    if pointers[index].isDown {
      pointers[index].record(time: time, position: point)
      if (point - pointers[index].pressPosition).length > SceneEventName.tapSlop {
        pointers[index].wandered = true
      }
    }
    if pinch != nil { turnPinch() }
    refreshMotionTargets()
  }

  /// Applies one pointer event: the one entry the scripted finger, traces and the live
  /// preview all use.
  ///
  /// With `atItsTime`, the scene first advances to the event's time if it is later (a
  /// release between two frames happens then; before the first frame nothing advances).
  /// An `up` lifts the finger where the event says (a trace's `up` sample has its own
  /// place); one for a finger that is not down changes nothing.
  public mutating func apply(_ event: PointerEvent, atItsTime: Bool = true) {
    if atItsTime && event.time > time { advance(to: event.time) }
    switch event.phase {
    case .down: pointerDown(id: event.pointer, at: event.position)
    case .move: pointerMoved(id: event.pointer, to: event.position)
    case .up(let velocity):
      if pointerIsDown(id: event.pointer) { pointerMoved(id: event.pointer, to: event.position) }
      pointerUp(id: event.pointer, velocity: velocity)
    case .input(let index, let value):
      setInput(index, to: value)
      return
    case .fire(let index):
      fire(index)
      return
    }
    // What the finger did may be what a machine waits for; its conditions read the scene
    // as it is after the event (a lifted finger's `drag` is 0 again).
    if hasMachines {
      writeBuiltinSlots()
      writeHandleSlots()
      refreshLets()
      evaluateMachines()
    }
  }

  /// A pointer lifts.
  ///
  /// Without a `velocity` (points per second), it is estimated from the
  /// last 100 ms of motion, as a pan gesture recogniser does.
  public mutating func pointerUp(id: Int, velocity: Vector? = nil) {
    guard let index = existingPointer(id: id), pointers[index].isDown else { return }
    let released =
      velocity.flatMap { $0.isFinite ? $0 : nil } ?? pointers[index].estimatedVelocity(at: time)
    // Bound handles leave from where the finger is now, not from the last frame.
    writeBuiltinSlots()
    evaluateNodes(initial: false)
    pointers[index].isDown = false
    pointersDown -= 1
    if let current = pinch, current.fingers.0 == id || current.fingers.1 == id {
      endPinchTransforms(lifting: id)
      pinch = nil
      startPinch()
    }
    if pointersDown == 0 { releaseBoundHandles() }
    pointers[index].releaseVelocity = released
    if let handle = pointers[index].grabbed {
      // The handle leaves from where the finger last put it, even if no step ran since.
      let velocity = handles[handle].velocity
      drag(handle, to: pointers[index].position + pointers[index].grabOffset, dt: 0)
      hitGrid.move(handle, to: handles[handle].position)
      handles[handle].velocity = velocity
      pointers[index].grabbed = nil
      heldHandles.remove(handle)
      events.append(SceneEvent(.release, handle))
      // Reported only where a machine may wait for it: other scenes' frames stay as they were.
      if hasMachines && !pointers[index].wandered
        && time - pointers[index].pressTime <= SceneEventName.tapDuration
      {
        events.append(SceneEvent(.tap, handle))
      }
      release(handle, velocity: released)
    }
    refreshMotionTargets()
  }

  // MARK: - Stepping

  /// Advances the scene by `dt` seconds and returns the new frame.
  ///
  /// - Throws: ``RuntimeError`` if a computation degenerates to a non-finite value; it
  ///   names the part of the scene responsible instead of writing NaN.
  public mutating func step(dt: Double) throws(RuntimeError) -> Frame {
    try step(to: time + dt)
  }

  /// Advances the scene to `newTime` (seconds since the start) and returns the new frame.
  ///
  /// A fixed-step driver passes `n / fps` so frame times never accumulate rounding.
  public mutating func step(to newTime: Double) throws(RuntimeError) -> Frame {
    // The new frame's number first: expressions evaluated in this step read it.
    frameIndex += 1
    if newTime > time {
      advance(to: newTime)
    } else {
      advance(dt: 0)  // Apply pointer input given since the last step, in no time.
    }
    return try checkedFrame()
  }

  /// Advances the scene's physics to `newTime` without making a frame: for applying a
  /// pointer event at its own time between two frames, so that when a finger lifts does
  /// not depend on the frame rate.
  public mutating func advance(to newTime: Double) {
    // A machine's `after` falls at its own moment, between frames if need be.
    while hasMachines, let due = nextMachineDeadline(after: time), due < newTime {
      let dt = due - time
      guard dt > 0 && dt.isFinite else { break }
      time = due
      advance(dt: dt)
    }
    let dt = newTime - time
    guard dt > 0 && dt.isFinite else { return }
    time = newTime
    advance(dt: dt)
  }

  /// The current frame without advancing time (frame 0 before any step), after applying
  /// the pointer input given since the last step.
  public mutating func currentFrame() throws(RuntimeError) -> Frame {
    advance(dt: 0)
    return try checkedFrame()
  }

  /// The expressions a gesture step evaluates.
  static func expressions(of action: SceneGraph.GestureStep.Action) -> [CompiledExpression?] {
    switch action {
    case .press(let point), .tap(let point): return [point]
    case .release(let velocity): return [velocity]
    case .wait, .replay, .fire: return []
    case .setInputs(let changes): return changes.map({ $0.value })
    case .motion(let motion, _, let lift):
      let target: CompiledExpression
      switch motion {
      case .to(let point), .by(let point): target = point
      }
      if case .up(let velocity) = lift { return [target, velocity] }
      return [target]
    case .pinch(let center, let scale, let rotation, let distance, _):
      return [center, scale, rotation, distance]
    }
  }

  /// The expressions an expectation reads.
  static func expressions(of kind: SceneGraph.Expectation.Kind) -> [CompiledExpression?] {
    switch kind {
    case .value(_, let a, _, let b, let tolerance),
      .extreme(_, let a, _, _, let b, let tolerance),
      .throughout(_, let a, _, let b, let tolerance, _):
      return [a, b, tolerance]
    case .event, .noEvent, .allAtRest: return []
    }
  }
}
