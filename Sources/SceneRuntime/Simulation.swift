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
  public let graph: SceneGraph
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
  /// Whether any expression reads `pointers` or `pinch`: only then are they kept (with
  /// thousands of fingers down, their bookkeeping costs what the scene does not read).
  let readsFingers: Bool
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
  /// The constraint that moves each handle, if any.
  let mover: [Int?]
  /// Each constraint's kind alone: what every dispatch and per-handle check switches on.
  let keywords: [ConstraintKeyword]
  /// Where each constraint's run-time state and settings are in its kind's storage below.
  let stateSlots: [Int]
  /// Each kind's settings by state slot, copied once from the graph without the
  /// constraints' names and source (see ``ConstraintBehavior``): switching over the graph's
  /// `Kind` would copy the whole enum, as large as its largest kind, at every call.
  let followParameters: [SceneGraph.Follow]
  /// What a frame's step of each `follow` reads (``FollowConstraint/StepParameters``).
  let followSteps: [FollowConstraint.StepParameters]
  let elasticParameters: [SceneGraph.Elastic]
  let gooeyParameters: [SceneGraph.Gooey]
  let animateParameters: [SceneGraph.Animate]
  let dragParameters: [SceneGraph.Drag]
  /// The constraints a step advances and those that draw a path, in scene order (see
  /// ``ConstraintBehavior/stepsEachFrame`` and ``ConstraintBehavior/drawsPath``).
  let steppedConstraints: [Int]
  /// For each of ``steppedConstraints``, whether it and the next are `follow`s: where
  /// ``stepConstraints(dt:)`` hands a run to the shared pass, which costs more to enter
  /// than the step of one `follow` at rest.
  let startsFollowRun: [Bool]
  /// For each of ``steppedConstraints``, its slot in ``followStates`` if it is a `follow`,
  /// else −1: what the shared pass reads in place of three tables.
  let steppedFollowSlots: [Int]
  let drawingConstraints: [Int]
  /// For each constraint that draws a path, that path's index in a frame's paths (the
  /// subject of its `link.*` and `dismissed` events); −1 for the others.
  let constraintPaths: [Int]
  var followStates: [FollowConstraint.State]
  /// For each `follow`, the exact answer where its last press or drag put the handle.
  ///
  /// See ``FollowConstraint/place(_:on:in:)``. Kept apart from ``followStates``, which a
  /// frame streams through: only presses, drags and releases read it.
  var followPlaces: [PathPosition]
  var gooeyStates: [GooeyConstraint.State]
  var animateStates: [AnimateConstraint.State]
  var dragStates: [DragConstraint.State]
  /// The name each constraint is reported by in events and frames
  /// (``SceneGraph/Constraint/reportedName``), read per frame without copying the graph.
  let constraintNames: [String]
  var events: [SceneEvent] = []
  /// The nodes of ``SceneGraph/evaluationOrder`` that can change after the start.
  ///
  /// Lets, handles bound to an expression, segment paths: a scene of many plain handles
  /// then re-evaluates nothing for them each frame and each release.
  let liveNodes: [SceneGraph.Node]
  /// The draggable handles by place, for presses (see ``HitGrid``).
  var hitGrid: HitGrid
  /// For each handle, its place in ``pinchStates`` if a drag with `transform: pinch` holds
  /// it, else −1; empty when no drag has one.
  let pinchSlots: [Int]
  /// The handles with a pinch transform, their settings and snap springs, and their state.
  let pinchHandles: [Int]
  let pinchParameters: [SceneGraph.Drag.PinchTransform]
  let pinchSprings: [SpringModel]
  var pinchStates: [PinchTransformState]
  /// The draggable handles grabbed where their shapes are drawn (groups), tested one by
  /// one at each press instead of by the grid.
  let shapeHitHandles: [Int]
  /// How far each of ``shapeHitHandles`` reaches from its position as drawn, while
  /// `shapeReachesAreCurrent`; how many times they were worked out (tests count it).
  var shapeReaches: [Double] = []
  var shapeReachesAreCurrent = false
  var shapeReachesMade = 0
  /// Whether a draggable handle follows an expression, which a release can move: every
  /// press then scans all the handles.
  let hasBoundDraggable: Bool
  /// Spring propagators for the current `dt`, one per spring preset.
  var propagators: [SpringModel.Propagator] = []
  var propagatorStep = 0.0
  let springModels: [SpringModel]
  /// Each preset's rest threshold, squared (see ``SpringModel/isAtRest(displacement:velocity:)-(Vector,Vector)``).
  let restLimitsSquared: [Double]
  /// Whether a spring on each handle is a plain spring in the plane to a fixed rest: not
  /// bound (whose rest is an expression) and not moved by a `follow` (which springs along
  /// its path), so ``moveAll(dt:)`` steps it in its tight pass.
  let springsInPlane: [Bool]
  /// For a handle moved by a `follow`, its constraint's slot in ``followStates``; −1 for
  /// any other: ``moveAll(dt:)`` skips one springing along its path without a call.
  let followSlotOfHandle: [Int]

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
  /// Whether each path is a segment path, which can change every frame.
  let pathIsDynamic: [Bool]
  /// The segment paths, in scene order.
  let dynamicPaths: [Int]
  /// The handles of the last frame, updated in place by ``checkedFrame()``.
  var publishedHandles: [HandleFrame]
  /// Every path as it is now, as the frame shows it.
  ///
  /// The scene's paths come first, in order, then one entry per drawing constraint.
  /// Segment paths are rewritten in place by ``evaluateNodes(initial:)``, drawn paths by
  /// ``checkedFrame()``.
  var publishedPaths: [PathFrame]
  /// Whether a constraint measures along each path (`follow`, `animate`); a dynamic path
  /// nothing measures is only evaluated, never measured.
  let pathIsMeasured: [Bool]
  /// The measured geometry of each path a constraint measures along, where
  /// `hasMeasurement` says so (an empty placeholder elsewhere).
  ///
  /// Not optionals: reading
  /// through ``measured(_:_:)`` then borrows the value in place instead of copying it.
  var measuredPaths: [MeasuredPath]
  var hasMeasurement: [Bool]

  // Per-handle facts read every frame, kept in flat arrays so a step never copies a
  // handle's whole description out of the graph.
  let handleNames: [String]
  let pathNames: [String]
  let handleIsBound: [Bool]
  /// The bound handles, in scene order: the loops that concern only them do not visit
  /// every handle (a release would otherwise cost the scene's size).
  let boundHandles: [Int]
  /// The handles whose slots ``writeHandleSlots()`` keeps current every frame: those the
  /// frame's own expressions read (see ``handleSlotIsCurrent``), except the bound handles
  /// of ``liveNodes``, whose nodes write their slots.
  let slotReadHandles: [Int]
  /// Whether each handle's slots are kept current every frame.
  ///
  /// Writing every handle's position into the slots each frame was a fifth of the work
  /// of a spring handle, for values nothing read. The other slots go stale; an expression
  /// from elsewhere that reads one (a gesture's press on a handle, a scene test's
  /// expectation) is evaluated on a copy brought up to date (``evaluate(_:)``,
  /// ``slotValues``).
  let handleSlotIsCurrent: [Bool]
  /// Whether each handle follows an expression of time, and so never rests.
  let handleFollowsTime: [Bool]
  let handleIsCircle: [Bool]
  let handleSprings: [Int?]
  /// Every expression evaluated each frame, linked into one program (see
  /// ``ExpressionBatch``); the arrays below hold indices into it.
  let programs: ExpressionBatch
  let letPrograms: [Int]
  let positionPrograms: [Int?]
  let restPrograms: [Int?]
  /// Every animated property of every handle (``SceneGraph/Motion``), in handle order,
  /// with the handle it belongs to; `motionRanges[i]` are handle `i`'s.
  let motions: [SceneGraph.Motion]
  /// The handle each motion belongs to, or −1 for a path's trim.
  let motionHandles: [Int]
  /// For a child's motion, the child's place in the frame's children; −1 for a handle's.
  let motionChildren: [Int]
  /// The frame's children as the last frame showed them.
  var publishedChildren: [ChildFrame] = []
  /// For each of ``publishedChildren``, its text's numbers' motions, in order.
  let childTextMotions: [[Int]]
  /// For a path's style motion, its place in the frame's path styles; −1 for any other.
  let motionPathStyles: [Int]
  /// The paths' styles that change, as the last frame showed them.
  var publishedPathStyles: [PathStyleFrame] = []
  let motionRanges: [Range<Int>]
  /// The paths' trims after the handles' motions: each trimmed path with the motions of its
  /// start and end.
  let pathMotions: Range<Int>
  let trimmedPaths: [(path: Int, start: Int?, end: Int?)]
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
  /// For a motion with a tween: its timing curve, and the tween under way (when it started,
  /// from and to what; `to` NaN while the motion is held, when none runs).
  let motionTweenCurves: [TimingCurve?]
  var motionTweenStarts: [Double]
  var motionTweenFrom: [Double]
  var motionTweenTo: [Double]
  /// The lets in evaluation order, and whether an animated property reads one: then a
  /// pointer event brings them up to date before the properties' targets are read.
  let letOrder: [Int]
  let motionsReadLets: Bool
  /// The segments of every segment path, with their points' programs.
  let segments: SegmentProgram
  /// The most segments a path has (at least 1): the scratch space a pass over the
  /// segment paths needs.
  let longestSegmentPath: Int

  public init(graph: SceneGraph) throws(RuntimeError) {
    try self.init(graph: graph, sharingFrameConstantParts: true)
  }

  /// Makes the simulation; tests turn `sharingFrameConstantParts` off to check, to the bit,
  /// the programs that share parts against the same programs whole (see
  /// ``ExpressionBatch/init(_:frameConstantSlots:firstFreeSlot:)``).
  init(graph: SceneGraph, sharingFrameConstantParts: Bool) throws(RuntimeError) {
    self.graph = graph
    slots = Array(repeating: 0, count: graph.layout.count)
    slots[SlotLayout.width] = graph.width
    slots[SlotLayout.height] = graph.height
    springModels = graph.springs.map {
      SpringModel(
        stiffness: $0.stiffness, damping: $0.damping, mass: $0.mass, restThreshold: $0.restThreshold
      )
    }
    var mover = [Int?](repeating: nil, count: graph.handles.count)
    for (i, constraint) in graph.constraints.enumerated() { mover[constraint.kind.movedHandle] = i }
    self.mover = mover
    let kinds = graph.constraints.map(\.kind)
    keywords = graph.constraints.map(\.kind.keyword)
    var stateSlots: [Int] = []
    var follow: [SceneGraph.Follow] = []
    var elastic: [SceneGraph.Elastic] = []
    var gooey: [SceneGraph.Gooey] = []
    var animate: [SceneGraph.Animate] = []
    var drag: [SceneGraph.Drag] = []
    var stepped: [Int] = []
    var drawing: [Int] = []
    func file<Kind: ConstraintBehavior>(
      _ c: Int, _ p: Kind.Parameters, as kind: Kind.Type, in storage: inout [Kind.Parameters]
    ) {
      stateSlots.append(storage.count)
      storage.append(p)
      if Kind.stepsEachFrame { stepped.append(c) }
      if Kind.drawsPath { drawing.append(c) }
    }
    for (c, kind) in kinds.enumerated() {
      switch kind {
      case .follow(let p): file(c, p, as: FollowConstraint.self, in: &follow)
      case .elastic(let p): file(c, p, as: ElasticConstraint.self, in: &elastic)
      case .gooey(let p): file(c, p, as: GooeyConstraint.self, in: &gooey)
      case .animate(let p): file(c, p, as: AnimateConstraint.self, in: &animate)
      case .drag(let p): file(c, p, as: DragConstraint.self, in: &drag)
      }
    }
    followParameters = follow
    followSteps = follow.map(FollowConstraint.StepParameters.init)
    elasticParameters = elastic
    gooeyParameters = gooey
    animateParameters = animate
    dragParameters = drag
    steppedConstraints = stepped
    let isFollow = graph.constraints.map { $0.kind.keyword == .follow }
    startsFollowRun = stepped.indices.map { i in
      i + 1 < stepped.count && isFollow[stepped[i]] && isFollow[stepped[i + 1]]
    }
    steppedFollowSlots = stepped.map { isFollow[$0] ? stateSlots[$0] : -1 }
    drawingConstraints = drawing
    var constraintPaths = Array(repeating: -1, count: graph.constraints.count)
    for (k, c) in drawing.enumerated() { constraintPaths[c] = graph.paths.count + k }
    self.constraintPaths = constraintPaths
    self.stateSlots = stateSlots
    followStates = Array(repeating: FollowConstraint.State(), count: follow.count)
    followPlaces = Array(
      repeating: PathPosition(
        point: .zero, tangent: .zero, length: .nan, segmentIndex: -1, t: .nan),
      count: follow.count)
    gooeyStates = Array(repeating: GooeyConstraint.State(), count: gooey.count)
    animateStates = Array(repeating: AnimateConstraint.State(), count: animate.count)
    dragStates = Array(repeating: DragConstraint.State(), count: drag.count)
    constraintNames = graph.constraints.map(\.reportedName)
    var pathIsMeasured = [Bool](repeating: false, count: graph.paths.count)
    for kind in kinds { if let path = kind.measuredPath { pathIsMeasured[path] = true } }
    self.pathIsMeasured = pathIsMeasured
    pathIsDynamic = graph.paths.map { !$0.segments.isEmpty }
    dynamicPaths = graph.paths.indices.filter { !graph.paths[$0].segments.isEmpty }
    publishedPaths =
      graph.paths.map {
        PathFrame(name: $0.name, path: $0.measured?.path ?? Path(), isHidden: false)
      }
      + drawing.map {
        PathFrame(name: graph.constraints[$0].reportedName, path: Path(), isHidden: true)
      }
    publishedHandles = graph.handles.map { handle in
      var frame = HandleFrame(name: handle.name, x: 0, y: 0, angle: 0, radius: 0, state: .idle)
      for motion in handle.motions { frame.animated |= 1 << UInt32(motion.property.rawValue) }
      return frame
    }
    // A pinch transform sets its handle's scale and turn.
    for i in drag.filter({ $0.pinch != nil }).map(\.handle) {
      publishedHandles[i].animated |=
        1 << UInt32(SceneGraph.AnimatedProperty.scale.rawValue)
        | 1 << UInt32(SceneGraph.AnimatedProperty.rotation.rawValue)
    }
    var motions: [SceneGraph.Motion] = []
    var motionHandles: [Int] = []
    var motionChildren: [Int] = []
    var motionRanges: [Range<Int>] = []
    var children: [ChildFrame] = []
    var childTextMotions: [[Int]] = []
    for (i, handle) in graph.handles.enumerated() {
      let first = motions.count
      motions += handle.motions
      motionHandles += repeatElement(i, count: handle.motions.count)
      motionChildren += repeatElement(-1, count: handle.motions.count)
      // Then its children's, each child that changes with a slot in the frame's children.
      for (c, child) in handle.children.enumerated() where !child.motions.isEmpty {
        var look = HandleFrame(
          name: child.name, x: child.offset.x, y: child.offset.y, angle: 0,
          radius: child.radius, state: .idle)
        look.rotation = child.rotation
        look.scale = child.scale
        look.scaleX = child.scaleX
        look.scaleY = child.scaleY
        var texts: [Int] = []
        for motion in child.motions {
          look.animated |= 1 << UInt32(motion.property.rawValue)
          if motion.property == .textValue { texts.append(motions.count) }
          motions.append(motion)
          motionHandles.append(i)
          motionChildren.append(children.count)
        }
        children.append(ChildFrame(handle: i, child: c, look: look))
        childTextMotions.append(texts)
      }
      motionRanges.append(first..<motions.count)
    }
    publishedChildren = children
    self.childTextMotions = childTextMotions
    // Then the paths' trims and styles, whose motions belong to no handle.
    var trims: [(path: Int, start: Int?, end: Int?)] = []
    var pathStyles: [PathStyleFrame] = []
    var motionPathStyles = Array(repeating: -1, count: motions.count)
    let firstPathMotion = motions.count
    for (p, path) in graph.paths.enumerated() where !path.motions.isEmpty {
      var trim: (path: Int, start: Int?, end: Int?) = (p, nil, nil)
      var look = HandleFrame(name: path.name, x: 0, y: 0, angle: 0, radius: 0, state: .idle)
      for motion in path.motions {
        switch motion.property {
        case .trimStart: trim.start = motions.count
        case .trimEnd: trim.end = motions.count
        default: look.animated |= 1 << UInt32(motion.property.rawValue)
        }
        motionPathStyles.append(look.animated == 0 ? -1 : pathStyles.count)
        motions.append(motion)
        motionHandles.append(-1)
      }
      if trim.start != nil || trim.end != nil { trims.append(trim) }
      if look.animated != 0 { pathStyles.append(PathStyleFrame(path: p, look: look)) }
    }
    // A trim's motions were numbered before their path's style was known to exist.
    for m in motionPathStyles.indices where m < motions.count {
      let property = motions[m].property
      if property == .trimStart || property == .trimEnd { motionPathStyles[m] = -1 }
    }
    publishedPathStyles = pathStyles
    self.motionPathStyles = motionPathStyles
    pathMotions = firstPathMotion..<motions.count
    trimmedPaths = trims
    publishedTrims = Array(repeating: (.nan, .nan), count: trims.count)
    self.motions = motions
    self.motionHandles = motionHandles
    // The paths' trims belong to no child.
    self.motionChildren =
      motionChildren + repeatElement(-1, count: motions.count - motionChildren.count)
    self.motionRanges = motionRanges
    motionValues = Array(repeating: 0, count: motions.count)
    motionVelocities = Array(repeating: 0, count: motions.count)
    motionTargets = Array(repeating: 0, count: motions.count)
    motionHeld = Array(repeating: false, count: motions.count)
    motionChangeTimes = Array(repeating: 0, count: motions.count)
    motionPreviousValues = Array(repeating: 0, count: motions.count)
    motionPreviousTimes = Array(repeating: 0, count: motions.count)
    motionTweenCurves = motions.map { $0.tween.map { TimingCurve($0.easing) } }
    motionTweenStarts = Array(repeating: 0, count: motions.count)
    motionTweenFrom = Array(repeating: 0, count: motions.count)
    motionTweenTo = Array(repeating: 0, count: motions.count)
    letOrder = graph.evaluationOrder.compactMap {
      if case .letValue(let i) = $0 { i } else { nil }
    }
    let letSlots = graph.layout.letSlot(0)..<graph.layout.handleSlot(0)
    motionsReadLets = motions.contains { motion in
      (motion.target.dependencies + (motion.held?.dependencies ?? [])).contains {
        letSlots.contains($0)
      }
    }
    handles = graph.handles.map { HandleRuntime(radius: $0.radius) }
    tweens = Array(repeating: nil, count: graph.handles.count)
    handleNames = graph.handles.map(\.name)
    pathNames = graph.paths.map(\.name)
    handleIsBound = graph.handles.map(\.isBound)
    restLimitsSquared = springModels.map { $0.restThreshold * $0.restThreshold }
    let keywords = self.keywords
    springsInPlane = graph.handles.indices.map { i in
      !graph.handles[i].isBound && mover[i].map { keywords[$0] != .follow } ?? true
    }
    followSlotOfHandle = mover.map { c in
      c.flatMap { keywords[$0] == .follow ? stateSlots[$0] : nil } ?? -1
    }
    boundHandles = graph.handles.indices.filter { graph.handles[$0].isBound }
    handleFollowsTime = graph.handles.map(\.followsTime)
    handleIsCircle = graph.handles.map { $0.shape == .circle }
    handleSprings = graph.handles.map(\.spring)
    let pinched = drag.filter { $0.pinch != nil }
    pinchHandles = pinched.map(\.handle)
    pinchParameters = pinched.compactMap(\.pinch)
    pinchSprings = pinched.map(\.snapSpring)
    pinchStates = pinched.map { _ in PinchTransformState() }
    var pinchSlots = pinched.isEmpty ? [] : Array(repeating: -1, count: graph.handles.count)
    for (k, p) in pinched.enumerated() { pinchSlots[p.handle] = k }
    self.pinchSlots = pinchSlots
    shapeHitHandles = graph.handles.indices.filter {
      graph.handles[$0].draggable && graph.handles[$0].hitsShapes
    }
    hitGrid = HitGrid(
      draggable: graph.handles.indices.filter {
        graph.handles[$0].draggable && !graph.handles[$0].hitsShapes
      },
      hitRadius: graph.handles.map(\.hitRadius), handleCount: graph.handles.count)
    hasBoundDraggable = graph.handles.contains { $0.draggable && $0.isBound }
    liveNodes = graph.evaluationOrder.filter {
      switch $0 {
      case .letValue: return true
      case .handle(let i): return graph.handles[i].isBound && mover[i] == nil
      case .path(let i): return !graph.paths[i].segments.isEmpty
      }
    }
    var expressions: [CompiledExpression] = []
    func link(_ expression: CompiledExpression) -> Int {
      expressions.append(expression)
      return expressions.count - 1
    }
    letPrograms = graph.lets.map { link($0.value) }
    positionPrograms = graph.handles.map { $0.position.map(link) }
    restPrograms = graph.handles.map { $0.rest.map(link) }
    var pathSegmentStarts = [0]
    var segmentKinds: [SceneGraph.Segment.Kind] = []
    var segmentPointPrograms: [Range<Int>] = []
    for path in graph.paths {
      for segment in path.segments {
        segmentKinds.append(segment.kind)
        let first = expressions.count
        for point in segment.points { _ = link(point) }
        segmentPointPrograms.append(first..<expressions.count)
      }
      pathSegmentStarts.append(segmentKinds.count)
    }
    segments = SegmentProgram(
      starts: pathSegmentStarts, kinds: segmentKinds, points: segmentPointPrograms)
    longestSegmentPath = max(graph.paths.map(\.segments.count).max() ?? 0, 1)
    // Parts that read only the built-in slots (`sin(time * 6)`) are computed once per
    // frame for every program that has them, into slots after the layout's.
    programs = ExpressionBatch(
      expressions,
      frameConstantSlots: sharingFrameConstantParts ? 0..<SlotLayout.builtinCount : 0..<0,
      firstFreeSlot: graph.layout.count)
    if programs.slotCount > slots.count {
      slots += repeatElement(0, count: programs.slotCount - slots.count)
    }
    let linked = programs
    slots.withUnsafeMutableBufferPointer { linked.evaluateShared($0) }
    // The handles whose slots are read every frame: by the programs above, and by the
    // drag constraints' bounds, snap points and grids.
    var slotIsRead = [Bool](repeating: false, count: graph.handles.count)
    let firstHandleSlot = graph.layout.handleSlot(0)
    func markReads(_ expression: CompiledExpression?) {
      for slot in expression?.dependencies ?? [] where slot >= firstHandleSlot {
        let handle = (slot - firstHandleSlot) / 3
        if handle < slotIsRead.count { slotIsRead[handle] = true }
      }
    }
    for expression in expressions { markReads(expression) }
    // Animated properties are evaluated every step too.
    for motion in motions {
      markReads(motion.target)
      markReads(motion.held)
    }
    for p in drag {
      for bound in [p.bounds.minX, p.bounds.maxX, p.bounds.minY, p.bounds.maxY] {
        markReads(bound)
      }
      for target in p.snapPoints { markReads(target.point) }
      markReads(p.grid)
    }
    handleSlotIsCurrent = slotIsRead
    // Whether anything reads the fingers' slots, directly (a let or handle that reads
    // them reads them directly, so nothing else can through it).
    let fingerSlots = SlotLayout.pointersCount..<SlotLayout.builtinCount
    func readsFingerSlots(_ expression: CompiledExpression?) -> Bool {
      expression?.dependencies.contains { fingerSlots.contains($0) } ?? false
    }
    var reads =
      expressions.contains(where: readsFingerSlots)
      || motions.contains { readsFingerSlots($0.target) || readsFingerSlots($0.held) }
    for p in drag where !reads {
      reads =
        [p.bounds.minX, p.bounds.maxX, p.bounds.minY, p.bounds.maxY, p.grid].contains(
          where: readsFingerSlots) || p.snapPoints.contains { readsFingerSlots($0.point) }
    }
    reads =
      reads
      || graph.gesture.contains { track in
        track.steps.contains { Self.expressions(of: $0.action).contains(where: readsFingerSlots) }
      }
    reads =
      reads
      || graph.expectations.contains {
        Self.expressions(of: $0.kind).contains(where: readsFingerSlots)
      }
    // A pinch transform follows two fingers, as `pinch` does.
    readsFingers = reads || !pinchHandles.isEmpty
    // Bound handles without a constraint write their own slots in the node pass, before
    // anything there reads them.
    slotReadHandles = slotIsRead.indices.filter {
      slotIsRead[$0] && !(graph.handles[$0].isBound && mover[$0] == nil)
    }
    // Fixed paths come measured from the resolver (with the dense inverse table where a
    // constraint reads them every frame); segment paths are measured as they are evaluated.
    let placeholder = MeasuredPath(Path())
    measuredPaths = graph.paths.map {
      $0.segments.isEmpty ? $0.measured ?? placeholder : placeholder
    }
    hasMeasurement = graph.paths.map { $0.segments.isEmpty && $0.measured != nil }
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

    /// How far from its place its shape reaches at most, drawn.
    func reach(_ shape: HandleShape) -> Double {
      let stretch = scale * max(scaleX, scaleY)
      switch shape {
      case .circle: return radius * stretch
      case .rect: return (width * width + height * height).squareRoot() / 2 * stretch
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
    var reach = own.reach(handle.shape) / max(own.scale * max(own.scaleX, own.scaleY), 1e-300)
    for (k, child) in handle.children.enumerated() {
      let look = children[k]
      reach = max(reach, (look.x * look.x + look.y * look.y).squareRoot() + look.reach(child.shape))
    }
    let result = reach * own.scale * max(own.scaleX, own.scaleY)
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
    if pointers[index].isDown { pointers[index].record(time: time, position: point) }
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
    case .wait, .replay: return []
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
