import RealModule
import SceneGeometry
import SceneGraph

/// Where a handle under a drag's `transform: pinch` stands in its pinch: its scale and
/// turn, what they and its position were when the pinch began, and the spring that brings
/// a scale left outside its zoom back in.
struct PinchTransformState: Sendable {
  var scale = 1.0
  var rotation = 0.0
  /// Whether two fingers, one of them holding it, pinch it now.
  var active = false
  var startScale = 1.0
  var startRotation = 0.0
  var startPosition = Vector.zero
  var startCenter = Vector.zero
  /// Springing back into its zoom since `springStart`, from `springDisplacement` away from
  /// `springTarget` (at rest, so the same at every frame rate).
  var springing = false
  var springStart = 0.0
  var springDisplacement = 0.0
  var springTarget = 1.0
}

extension Simulation {
  /// The scale as shown for the fingers' `raw` scale: itself within the zoom, and past it
  /// rubber-banded as iOS does a scroll view's content: above `max`, max · (1 + (1 − 1 /
  /// (0.55 · (raw / max − 1) + 1))), never twice `max`; below `min`, min · (1 − ½ · (1 −
  /// 1 / (1.1 · (1 − raw / min) + 1))), never under 0.738 × `min`.
  static func resistedScale(_ raw: Double, _ p: SceneGraph.Drag.PinchTransform) -> Double {
    if raw > p.maxScale {
      let excess = raw / p.maxScale - 1
      return p.maxScale * (1 + (1 - 1 / (excess * 0.55 + 1)))
    }
    if raw < p.minScale {
      let shortfall = 1 - raw / p.minScale
      return p.minScale * (1 - 0.5 * (1 - 1 / (shortfall * 1.1 + 1)))
    }
    return raw
  }

  /// Starts the pinch transform of every handle one of the pinch's fingers holds.
  mutating func beginPinchTransforms() {
    guard let current = pinch, !pinchSlots.isEmpty else { return }
    for pointer in pointers where pointer.isDown {
      guard pointer.id == current.fingers.0 || pointer.id == current.fingers.1,
        let i = pointer.grabbed, pinchSlots[i] >= 0
      else { continue }
      let k = pinchSlots[i]
      pinchStates[k].active = true
      pinchStates[k].springing = false
      pinchStates[k].startScale = pinchStates[k].scale
      pinchStates[k].startRotation = pinchStates[k].rotation
      pinchStates[k].startPosition = handles[i].position
      pinchStates[k].startCenter = current.startCenter
    }
  }

  /// Where the pinch puts handle `i`, updating its scale and turn; `nil` unless it is
  /// being pinched.
  ///
  /// Its offset from the point between the fingers when they met is scaled by the zoom
  /// shown and turned by their turn, about the point between them now.
  mutating func pinchedPosition(_ i: Int) -> Vector? {
    let k = pinchSlots.isEmpty ? -1 : pinchSlots[i]
    guard k >= 0, pinchStates[k].active, let current = pinch,
      let (a, b) = pinchFingers(current), current.startDistance > 0
    else { return nil }
    let p = pinchParameters[k]
    let state = pinchStates[k]
    let shown = Self.resistedScale(state.startScale * (b - a).length / current.startDistance, p)
    let turn = p.rotates ? current.rotation : 0
    pinchStates[k].scale = shown
    pinchStates[k].rotation = state.startRotation + turn
    let offset = (state.startPosition - state.startCenter) * (shown / state.startScale)
    let (sine, cosine) = (Double.sin(turn), Double.cos(turn))
    let turned = Vector(offset.x * cosine - offset.y * sine, offset.x * sine + offset.y * cosine)
    return (a + b) / 2 + turned
  }

  /// Ends the pinch transforms the lift of finger `id` ends: a scale outside its zoom
  /// springs back in, and the finger left holds the handle from where it is (the lifting
  /// finger hands it to the other, so one finger goes on dragging it).
  mutating func endPinchTransforms(lifting id: Int) {
    guard let current = pinch, !pinchSlots.isEmpty else { return }
    let other = current.fingers.0 == id ? current.fingers.1 : current.fingers.0
    for k in pinchStates.indices where pinchStates[k].active {
      // Where the fingers are as the pinch ends, even if no step ran since they moved.
      let i = pinchHandles[k]
      if let position = pinchedPosition(i) {
        drag(i, to: position, dt: 0)
        hitGrid.move(i, to: handles[i].position)
      }
      pinchStates[k].active = false
      shapeReachesAreCurrent = false
      let p = pinchParameters[k]
      let scale = pinchStates[k].scale
      let target = min(max(scale, p.minScale), p.maxScale)
      if target != scale {
        pinchStates[k].springing = true
        pinchStates[k].springStart = time
        pinchStates[k].springDisplacement = scale - target
        pinchStates[k].springTarget = target
      }
      guard let lifting = existingPointer(id: id), let staying = existingPointer(id: other),
        pointers[staying].isDown
      else { continue }
      if pointers[lifting].grabbed == i && pointers[staying].grabbed == nil {
        pointers[lifting].grabbed = nil
        pointers[staying].grabbed = i
      }
      if pointers[staying].grabbed == i {
        pointers[staying].grabOffset = handles[i].position - pointers[staying].position
      }
    }
  }

  /// Moves each scale springing back into its zoom to where its spring is now, exactly.
  mutating func stepPinchSprings() {
    for k in pinchStates.indices where pinchStates[k].springing {
      let state = pinchStates[k]
      let model = pinchSprings[k]
      let now = model.state(
        after: time - state.springStart, displacement: state.springDisplacement, velocity: 0)
      if abs(now.displacement) <= SceneGraph.AnimatedProperty.scale.restThreshold
        && abs(now.velocity) <= SceneGraph.AnimatedProperty.scale.restThreshold
      {
        pinchStates[k].scale = state.springTarget
        pinchStates[k].springing = false
      } else {
        pinchStates[k].scale = state.springTarget + now.displacement
      }
    }
  }

  /// Writes each pinched handle's scale and turn into the frame.
  mutating func publishPinchTransforms(residue: inout Double) {
    for k in pinchStates.indices {
      let i = pinchHandles[k]
      let state = pinchStates[k]
      residue += (state.scale - state.scale) + (state.rotation - state.rotation)
      publishedHandles[i].scale = max(state.scale, 0)
      publishedHandles[i].rotation = state.rotation
    }
  }

  /// Whether handle `i`'s pinch transform, if any, is still.
  func pinchTransformIsAtRest(_ i: Int) -> Bool {
    guard !pinchSlots.isEmpty, pinchSlots[i] >= 0 else { return true }
    let state = pinchStates[pinchSlots[i]]
    return !state.active && !state.springing
  }
}
