import RealModule
import SceneGeometry
import SceneGraph
import SceneVocabulary

/// What a scene needs to run, worked out once from its graph and shared by every run of it.
///
/// The constraints filed by kind, the programs, the tables of names and flags, and the state
/// a run starts from. A ``Simulation`` is one run: it holds a plan (its arrays shared, not
/// copied) and the state that changes; ``SceneRunner/init(plan:fps:duration:maxFrames:)``
/// and the live preview's restart make new runs of a plan without working it out again.
public struct SimulationPlan: Sendable {
  public let graph: SceneGraph
  /// Whether any expression reads `pointers` or `pinch`: only then are they kept (with
  /// thousands of fingers down, their bookkeeping costs what the scene does not read).
  let readsFingers: Bool
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
  /// The name each constraint is reported by in events and frames
  /// (``SceneGraph/Constraint/reportedName``), read per frame without copying the graph.
  let constraintNames: [String]
  /// The nodes of ``SceneGraph/evaluationOrder`` that can change after the start.
  ///
  /// Lets, handles bound to an expression, segment paths: a scene of many plain handles
  /// then re-evaluates nothing for them each frame and each release.
  let liveNodes: [SceneGraph.Node]
  /// For each handle, its place in ``pinchStates`` if a drag with `transform: pinch` holds
  /// it, else −1; empty when no drag has one.
  let pinchSlots: [Int]
  /// The handles with a pinch transform, their settings and snap springs, and their state.
  let pinchHandles: [Int]
  let pinchParameters: [SceneGraph.Drag.PinchTransform]
  let pinchSprings: [SpringModel]
  /// The draggable handles grabbed where their shapes are drawn (groups), tested one by
  /// one at each press instead of by the grid.
  let shapeHitHandles: [Int]
  /// Whether a draggable handle follows an expression, which a release can move: every
  /// press then scans all the handles.
  let hasBoundDraggable: Bool
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
  /// Whether each path is a segment path, which can change every frame.
  let pathIsDynamic: [Bool]
  /// The segment paths, in scene order.
  let dynamicPaths: [Int]
  /// Whether a constraint measures along each path (`follow`, `animate`); a dynamic path
  /// nothing measures is only evaluated, never measured.
  let pathIsMeasured: [Bool]
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
  /// For each of ``publishedChildren``, its text's numbers' motions, in order.
  let childTextMotions: [[Int]]
  /// For each of the frame's children that change, its text's look (`nil` for a shape).
  let childTexts: [SceneGraph.TextLook?]
  /// For a path's style motion, its place in the frame's path styles; −1 for any other.
  let motionPathStyles: [Int]
  let motionRanges: [Range<Int>]
  /// The paths' trims after the handles' motions: each trimmed path with the motions of its
  /// start and end.
  let pathMotions: Range<Int>
  let trimmedPaths: [(path: Int, start: Int?, end: Int?)]
  /// For a motion with a tween: its timing curve, and the tween under way (when it started,
  /// from and to what; `to` NaN while the motion is held, when none runs).
  let motionTweenCurves: [TimingCurve?]
  /// For each machine, the motions whose targets its states set.
  let machineMotions: [[Int]]
  /// Whether the scene has state machines, and inputs: checked on every step, so kept
  /// here rather than read through the graph.
  let hasMachines: Bool
  let hasInputs: Bool
  /// The slot of the first handle's x (``SlotLayout/handleSlot(_:)``).
  let firstHandleSlot: Int
  /// The lets in evaluation order, and whether an animated property reads one: then a
  /// pointer event brings them up to date before the properties' targets are read.
  let letOrder: [Int]
  let motionsReadLets: Bool
  /// The segments of every segment path, with their points' programs.
  let segments: SegmentProgram
  /// The most segments a path has (at least 1): the scratch space a pass over the
  /// segment paths needs.
  let longestSegmentPath: Int
  /// The state a run starts from, before its first evaluation.
  private(set) var initialSlots: [Double]
  private(set) var initialPinch: Pinch?
  private(set) var initialHandles: [HandleRuntime]
  private(set) var initialTweens: [Tween?]
  private(set) var initialFollowStates: [FollowConstraint.State]
  private(set) var initialFollowPlaces: [PathPosition]
  private(set) var initialGooeyStates: [GooeyConstraint.State]
  private(set) var initialAnimateStates: [AnimateConstraint.State]
  private(set) var initialDragStates: [DragConstraint.State]
  private(set) var initialHitGrid: HitGrid
  private(set) var initialPinchStates: [PinchTransformState]
  private(set) var initialPublishedHandles: [HandleFrame]
  private(set) var initialPublishedPaths: [PathFrame]
  private(set) var initialMeasuredPaths: [MeasuredPath]
  private(set) var initialHasMeasurement: [Bool]
  private(set) var initialPublishedTrims: [(Double, Double)]
  private(set) var initialMotionValues: [Double]
  private(set) var initialMotionVelocities: [Double]
  private(set) var initialMotionTargets: [Double]
  private(set) var initialMotionHeld: [Bool]
  private(set) var initialMotionChangeTimes: [Double]
  private(set) var initialMotionPreviousValues: [Double]
  private(set) var initialMotionPreviousTimes: [Double]
  private(set) var initialMotionTweenStarts: [Double]
  private(set) var initialMotionTweenFrom: [Double]
  private(set) var initialMotionTweenTo: [Double]
  private(set) var initialPublishedChildren: [ChildFrame]
  private(set) var initialPublishedPathStyles: [PathStyleFrame]

  /// Works out the plan of `graph`; tests turn `sharingFrameConstantParts` off to check, to
  /// the bit, the programs that share parts against the same programs whole (see
  /// ``ExpressionBatch/init(_:frameConstantSlots:firstFreeSlot:)``).
  public init(graph: SceneGraph, sharingFrameConstantParts: Bool = true) {
    self.graph = graph
    initialSlots = Array(repeating: 0, count: graph.layout.count)
    initialSlots[SlotLayout.width] = graph.width
    initialSlots[SlotLayout.height] = graph.height
    for (i, input) in graph.inputs.enumerated() {
      initialSlots[graph.layout.inputSlot(i)] = input.initial
    }
    springModels = graph.springs.map {
      SpringModel(
        stiffness: $0.stiffness, damping: $0.damping, mass: $0.mass, restThreshold: $0.restThreshold
      )
    }
    var mover = [Int?](repeating: nil, count: graph.handles.count)
    for (i, constraint) in graph.constraints.enumerated() { mover[constraint.kind.movedHandle] = i }
    self.mover = mover
    let kinds = graph.constraints.map { $0.kind }
    keywords = graph.constraints.map { $0.kind.keyword }
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
    initialFollowStates = Array(repeating: FollowConstraint.State(), count: follow.count)
    initialFollowPlaces = Array(
      repeating: PathPosition(
        point: .zero, tangent: .zero, length: .nan, segmentIndex: -1, t: .nan),
      count: follow.count)
    initialGooeyStates = Array(repeating: GooeyConstraint.State(), count: gooey.count)
    initialAnimateStates = Array(repeating: AnimateConstraint.State(), count: animate.count)
    initialDragStates = Array(repeating: DragConstraint.State(), count: drag.count)
    constraintNames = graph.constraints.map { $0.reportedName }
    var pathIsMeasured = [Bool](repeating: false, count: graph.paths.count)
    for kind in kinds { if let path = kind.measuredPath { pathIsMeasured[path] = true } }
    self.pathIsMeasured = pathIsMeasured
    pathIsDynamic = graph.paths.map { !$0.segments.isEmpty }
    dynamicPaths = graph.paths.indices.filter { !graph.paths[$0].segments.isEmpty }
    initialPublishedPaths =
      graph.paths.map {
        PathFrame(name: $0.name, path: $0.measured?.path ?? Path(), isHidden: false)
      }
      + drawing.map {
        PathFrame(name: graph.constraints[$0].reportedName, path: Path(), isHidden: true)
      }
    initialPublishedHandles = graph.handles.map { handle in
      var frame = HandleFrame(name: handle.name, x: 0, y: 0, angle: 0, radius: 0, state: .idle)
      for motion in handle.motions { frame.animated |= 1 << UInt32(motion.property.rawValue) }
      return frame
    }
    // A initialPinch transform sets its handle's scale and turn.
    for i in drag.filter({ $0.pinch != nil }).map({ $0.handle }) {
      initialPublishedHandles[i].animated |=
        1 << UInt32(SceneGraph.AnimatedProperty.scale.rawValue)
        | 1 << UInt32(SceneGraph.AnimatedProperty.rotation.rawValue)
    }
    var motions: [SceneGraph.Motion] = []
    var motionHandles: [Int] = []
    var motionChildren: [Int] = []
    var motionRanges: [Range<Int>] = []
    var children: [ChildFrame] = []
    var childTextMotions: [[Int]] = []
    var childTexts: [SceneGraph.TextLook?] = []
    for (i, handle) in graph.handles.enumerated() {
      let first = motions.count
      motions += handle.motions
      motionHandles += repeatElement(i, count: handle.motions.count)
      motionChildren += repeatElement(-1, count: handle.motions.count)
      // Then its children's, each child that changes with a slot in the frame's children.
      for (c, child) in handle.children.enumerated() where !child.motions.isEmpty {
        var look = HandleFrame.resting(child)
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
        childTexts.append(child.text)
      }
      motionRanges.append(first..<motions.count)
    }
    initialPublishedChildren = children
    self.childTextMotions = childTextMotions
    self.childTexts = childTexts
    // Then the paths' trims and styles, whose motions belong to no handle.
    var trims: [(path: Int, start: Int?, end: Int?)] = []
    var pathStyles: [PathStyleFrame] = []
    var motionPathStyles = Array(repeating: -1, count: motions.count)
    let firstPathMotion = motions.count
    for (p, path) in graph.paths.enumerated() where !path.motions.isEmpty {
      var trim: (path: Int, start: Int?, end: Int?) = (p, nil, nil)
      var look = HandleFrame(name: path.name, x: 0, y: 0, angle: 0, radius: 0, state: .idle)
      // The slot its style takes in the frame's path styles, if any of it changes.
      let styleSlot = pathStyles.count
      for motion in path.motions {
        switch motion.property {
        case .trimStart: trim.start = motions.count
        case .trimEnd: trim.end = motions.count
        default: look.animated |= 1 << UInt32(motion.property.rawValue)
        }
        let isTrim = motion.property == .trimStart || motion.property == .trimEnd
        motionPathStyles.append(isTrim ? -1 : styleSlot)
        motions.append(motion)
        motionHandles.append(-1)
      }
      if trim.start != nil || trim.end != nil { trims.append(trim) }
      if look.animated != 0 { pathStyles.append(PathStyleFrame(path: p, look: look)) }
    }
    initialPublishedPathStyles = pathStyles
    self.motionPathStyles = motionPathStyles
    pathMotions = firstPathMotion..<motions.count
    trimmedPaths = trims
    initialPublishedTrims = Array(repeating: (.nan, .nan), count: trims.count)
    self.motions = motions
    self.motionHandles = motionHandles
    // The paths' trims belong to no child.
    self.motionChildren =
      motionChildren + repeatElement(-1, count: motions.count - motionChildren.count)
    self.motionRanges = motionRanges
    initialMotionValues = Array(repeating: 0, count: motions.count)
    initialMotionVelocities = Array(repeating: 0, count: motions.count)
    initialMotionTargets = Array(repeating: 0, count: motions.count)
    initialMotionHeld = Array(repeating: false, count: motions.count)
    initialMotionChangeTimes = Array(repeating: 0, count: motions.count)
    initialMotionPreviousValues = Array(repeating: 0, count: motions.count)
    initialMotionPreviousTimes = Array(repeating: 0, count: motions.count)
    motionTweenCurves = motions.map { $0.tween.map { TimingCurve($0.easing) } }
    var machineMotions = Array(repeating: [Int](), count: graph.machines.count)
    for (m, motion) in motions.enumerated() {
      for k in Set(motion.stateTargets.map({ $0.machine })).sorted() { machineMotions[k].append(m) }
    }
    self.machineMotions = machineMotions
    hasMachines = !graph.machines.isEmpty
    hasInputs = !graph.inputs.isEmpty
    firstHandleSlot = graph.layout.handleSlot(0)
    initialMotionTweenStarts = Array(repeating: 0, count: motions.count)
    initialMotionTweenFrom = Array(repeating: 0, count: motions.count)
    initialMotionTweenTo = Array(repeating: 0, count: motions.count)
    letOrder = graph.evaluationOrder.compactMap {
      if case .letValue(let i) = $0 { i } else { nil }
    }
    let letSlots = graph.layout.letSlot(0)..<graph.layout.handleSlot(0)
    motionsReadLets = motions.contains { motion in
      (motion.target.dependencies + (motion.held?.dependencies ?? [])).contains {
        letSlots.contains($0)
      }
    }
    initialHandles = graph.handles.map { HandleRuntime(radius: $0.radius) }
    initialTweens = Array(repeating: nil, count: graph.handles.count)
    handleNames = graph.handles.map { $0.name }
    pathNames = graph.paths.map { $0.name }
    handleIsBound = graph.handles.map { $0.isBound }
    restLimitsSquared = springModels.map { $0.restThreshold * $0.restThreshold }
    let keywords = self.keywords
    springsInPlane = graph.handles.indices.map { i in
      !graph.handles[i].isBound && mover[i].map { keywords[$0] != .follow } ?? true
    }
    followSlotOfHandle = mover.map { c in
      c.flatMap { keywords[$0] == .follow ? stateSlots[$0] : nil } ?? -1
    }
    boundHandles = graph.handles.indices.filter { graph.handles[$0].isBound }
    handleFollowsTime = graph.handles.map { $0.followsTime }
    handleIsCircle = graph.handles.map { $0.shape == .circle }
    handleSprings = graph.handles.map { $0.spring }
    let pinched = drag.filter { $0.pinch != nil }
    pinchHandles = pinched.map { $0.handle }
    pinchParameters = pinched.compactMap { $0.pinch }
    pinchSprings = pinched.map { $0.snapSpring }
    initialPinchStates = pinched.map { _ in PinchTransformState() }
    var pinchSlots = pinched.isEmpty ? [] : Array(repeating: -1, count: graph.handles.count)
    for (k, p) in pinched.enumerated() { pinchSlots[p.handle] = k }
    self.pinchSlots = pinchSlots
    shapeHitHandles = graph.handles.indices.filter {
      graph.handles[$0].draggable && graph.handles[$0].hitsShapes
    }
    initialHitGrid = HitGrid(
      draggable: graph.handles.indices.filter {
        graph.handles[$0].draggable && !graph.handles[$0].hitsShapes
      },
      hitRadius: graph.handles.map { $0.hitRadius }, handleCount: graph.handles.count)
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
    longestSegmentPath = max(graph.paths.map { $0.segments.count }.max() ?? 0, 1)
    // Parts that read only the built-in initialSlots (`sin(time * 6)`) are computed once per
    // frame for every program that has them, into initialSlots after the layout's.
    programs = ExpressionBatch(
      expressions,
      frameConstantSlots: sharingFrameConstantParts ? 0..<SlotLayout.builtinCount : 0..<0,
      firstFreeSlot: graph.layout.count)
    if programs.slotCount > initialSlots.count {
      initialSlots += repeatElement(0, count: programs.slotCount - initialSlots.count)
    }
    let linked = programs
    initialSlots.withUnsafeMutableBufferPointer { linked.evaluateShared($0) }
    // The initialHandles whose initialSlots are read every frame: by the programs above, and by the
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
    // Whether anything reads the fingers' initialSlots, directly (a let or handle that reads
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
        track.steps.contains {
          Simulation.expressions(of: $0.action).contains(where: readsFingerSlots)
        }
      }
    reads =
      reads
      || graph.expectations.contains {
        Simulation.expressions(of: $0.kind).contains(where: readsFingerSlots)
      }
    // A initialPinch transform follows two fingers, as `initialPinch` does.
    readsFingers = reads || !pinchHandles.isEmpty
    // Bound initialHandles without a constraint write their own initialSlots in the node pass, before
    // anything there reads them.
    slotReadHandles = slotIsRead.indices.filter {
      slotIsRead[$0] && !(graph.handles[$0].isBound && mover[$0] == nil)
    }
    // Fixed paths come measured from the resolver (with the dense inverse table where a
    // constraint reads them every frame); segment paths are measured as they are evaluated.
    let placeholder = MeasuredPath(Path())
    initialMeasuredPaths = graph.paths.map {
      $0.segments.isEmpty ? $0.measured ?? placeholder : placeholder
    }
    initialHasMeasurement = graph.paths.map { $0.segments.isEmpty && $0.measured != nil }
  }
}

// The plan's parts, read by the run as its own. (In a pass that holds the run's arrays
// through buffers, read `plan.x` instead: these read all of the run.)
extension Simulation {
  public var graph: SceneGraph { plan.graph }
  var readsFingers: Bool { plan.readsFingers }
  var mover: [Int?] { plan.mover }
  var keywords: [ConstraintKeyword] { plan.keywords }
  var stateSlots: [Int] { plan.stateSlots }
  var followParameters: [SceneGraph.Follow] { plan.followParameters }
  var followSteps: [FollowConstraint.StepParameters] { plan.followSteps }
  var elasticParameters: [SceneGraph.Elastic] { plan.elasticParameters }
  var gooeyParameters: [SceneGraph.Gooey] { plan.gooeyParameters }
  var animateParameters: [SceneGraph.Animate] { plan.animateParameters }
  var dragParameters: [SceneGraph.Drag] { plan.dragParameters }
  var steppedConstraints: [Int] { plan.steppedConstraints }
  var startsFollowRun: [Bool] { plan.startsFollowRun }
  var steppedFollowSlots: [Int] { plan.steppedFollowSlots }
  var drawingConstraints: [Int] { plan.drawingConstraints }
  var constraintPaths: [Int] { plan.constraintPaths }
  var constraintNames: [String] { plan.constraintNames }
  var liveNodes: [SceneGraph.Node] { plan.liveNodes }
  var pinchSlots: [Int] { plan.pinchSlots }
  var pinchHandles: [Int] { plan.pinchHandles }
  var pinchParameters: [SceneGraph.Drag.PinchTransform] { plan.pinchParameters }
  var pinchSprings: [SpringModel] { plan.pinchSprings }
  var shapeHitHandles: [Int] { plan.shapeHitHandles }
  var hasBoundDraggable: Bool { plan.hasBoundDraggable }
  var springModels: [SpringModel] { plan.springModels }
  var restLimitsSquared: [Double] { plan.restLimitsSquared }
  var springsInPlane: [Bool] { plan.springsInPlane }
  var followSlotOfHandle: [Int] { plan.followSlotOfHandle }
  var pathIsDynamic: [Bool] { plan.pathIsDynamic }
  var dynamicPaths: [Int] { plan.dynamicPaths }
  var pathIsMeasured: [Bool] { plan.pathIsMeasured }
  var handleNames: [String] { plan.handleNames }
  var pathNames: [String] { plan.pathNames }
  var handleIsBound: [Bool] { plan.handleIsBound }
  var boundHandles: [Int] { plan.boundHandles }
  var slotReadHandles: [Int] { plan.slotReadHandles }
  var handleSlotIsCurrent: [Bool] { plan.handleSlotIsCurrent }
  var handleFollowsTime: [Bool] { plan.handleFollowsTime }
  var handleIsCircle: [Bool] { plan.handleIsCircle }
  var handleSprings: [Int?] { plan.handleSprings }
  var programs: ExpressionBatch { plan.programs }
  var letPrograms: [Int] { plan.letPrograms }
  var positionPrograms: [Int?] { plan.positionPrograms }
  var restPrograms: [Int?] { plan.restPrograms }
  var motions: [SceneGraph.Motion] { plan.motions }
  var motionHandles: [Int] { plan.motionHandles }
  var motionChildren: [Int] { plan.motionChildren }
  var childTextMotions: [[Int]] { plan.childTextMotions }
  var childTexts: [SceneGraph.TextLook?] { plan.childTexts }
  var motionPathStyles: [Int] { plan.motionPathStyles }
  var motionRanges: [Range<Int>] { plan.motionRanges }
  var pathMotions: Range<Int> { plan.pathMotions }
  var trimmedPaths: [(path: Int, start: Int?, end: Int?)] { plan.trimmedPaths }
  var motionTweenCurves: [TimingCurve?] { plan.motionTweenCurves }
  var hasMachines: Bool { plan.hasMachines }
  var hasInputs: Bool { plan.hasInputs }
  var letOrder: [Int] { plan.letOrder }
  var motionsReadLets: Bool { plan.motionsReadLets }
  var segments: SegmentProgram { plan.segments }
  var longestSegmentPath: Int { plan.longestSegmentPath }
}
