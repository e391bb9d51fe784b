import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

// Public initialisers, so the resolver (its own module) and library users can build a
// graph; each takes every stored property, in declaration order.

extension SceneGraph {
  public init(
    name: String, width: Double, height: Double, fps: Double, duration: Duration,
    background: Color?, springs: [Spring], handles: [Handle], paths: [PathNode],
    constraints: [Constraint], gesture: [GestureTrack], expectations: [Expectation],
    layout: SlotLayout, lets: [Let], evaluationOrder: [Node]
  ) {
    self.name = name
    self.width = width
    self.height = height
    self.fps = fps
    self.duration = duration
    self.background = background
    self.springs = springs
    self.handles = handles
    self.paths = paths
    self.constraints = constraints
    self.gesture = gesture
    self.expectations = expectations
    self.layout = layout
    self.lets = lets
    self.evaluationOrder = evaluationOrder
    self.expectationSlots = ExpectationSlots(layout: layout)
  }
}

extension SceneGraph.Handle {
  public init(
    name: String, nameSource: SourceRef, shape: HandleShape, radius: Double, width: Double,
    height: Double, draggable: Bool, hitRadius: Double, spring: Int?, style: SceneGraph.Style,
    position: CompiledExpression? = nil, rest: CompiledExpression? = nil
  ) {
    self.name = name
    self.nameSource = nameSource
    self.shape = shape
    self.radius = radius
    self.width = width
    self.height = height
    self.draggable = draggable
    self.hitRadius = hitRadius
    self.spring = spring
    self.style = style
    self.position = position
    self.rest = rest
  }
}
