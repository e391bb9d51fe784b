import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

// Public initialisers, so the resolver (its own module) and library users can build a
// graph; each takes every stored property, in declaration order.

extension SceneGraph {
  public init(
    name: String, width: Double, height: Double, fps: Double, duration: Duration,
    background: Color?, springs: [Spring], handles: [Handle], paths: [PathNode],
    constraints: [Constraint], drawnPaths: [DrawnPath], gesture: [GestureTrack],
    expectations: [Expectation], layout: SlotLayout, lets: [Let], evaluationOrder: [Node]
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
    self.drawnPaths = drawnPaths
    self.gesture = gesture
    self.expectations = expectations
    self.layout = layout
    self.lets = lets
    self.evaluationOrder = evaluationOrder
    self.expectationSlots = ExpectationSlots(layout: layout)
  }

  /// The scene's paths, then each path a constraint makes (a gooey bridge, under the
  /// constraint's reported name, in `styles[c]`), in constraint order: the order in which
  /// a simulation's frames list them.
  public static func drawnPaths(
    paths: [PathNode], constraints: [Constraint], styles: [Style?]
  ) -> [DrawnPath] {
    var drawn = paths.indices.map {
      DrawnPath(name: paths[$0].name, style: paths[$0].style, origin: .path($0))
    }
    for (c, constraint) in constraints.enumerated() {
      switch constraint.kind {
      case .gooey:
        let style = styles.indices.contains(c) ? styles[c] : nil
        drawn.append(
          DrawnPath(
            name: constraint.reportedName,
            style: style ?? Style(fill: nil, stroke: nil, strokeWidth: 1, opacity: 1),
            origin: .constraint(c)))
      case .follow, .elastic, .animate, .drag:
        break
      }
    }
    return drawn
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
