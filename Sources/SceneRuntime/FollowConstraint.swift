import SceneGeometry
import SceneGraph
import SceneVocabulary

/// `follow`: the handle stays on a path.
///
/// Dragged, it sits at the nearest point of the
/// path to the finger, tracked so it carries on across self-crossings; released with a
/// spring, it springs back along the path, in arc length, never leaving it.
enum FollowConstraint: ConstraintBehavior {
  typealias Parameters = SceneGraph.Follow

  /// Where the handle is along the path, kept between frames.
  struct State: Sendable {
    // In the order a frame reads them, so that the fields it reads share as few cache
    // lines as they can (a struct's fields are laid out as declared).
    /// A glide or a snap along the path after a release, in arc length, while it moves.
    var glide: Glide? {
      get { storedGlide.glide }
      set { storedGlide.glide = newValue }
    }
    /// Where `glide` is kept; its `isEmpty` is what a frame reads.
    var storedGlide = OutOfLineGlide()
    /// The handle's arc length on the path, and its rest there.
    var length = 0.0
    var lengthVelocity = 0.0
    var restLength = 0.0
    /// The length the handle was last placed at (NaN: not placed since it last moved), and
    /// whether its rest has been placed: on a fixed path neither changes until it moves.
    var placedLength = Double.nan
    var springingAlongPath = false
    var restPlaced = false
    /// Where on the path the handle was last placed, so that placing it a little further
    /// on next frame starts there (see `MeasuredPath.Cursor`).
    var cursor = MeasuredPath.Cursor()
    /// The detent it is snapping to, named in the `snap` event when it arrives.
    var target: String?

    /// Its displacement from rest and its velocity along a path `total` long, one spring
    /// step on: the arithmetic of both the general step and the shared pass
    /// (``FollowConstraint/stepCommonCases(from:dt:in:)``), written once so that the two
    /// agree to the bit.
    @inline(__always)
    func springStep(along total: Double, wraps: Bool, by propagator: SpringModel.Propagator)
      -> (displacement: Double, velocity: Double)
    {
      var displacement = length - restLength
      if wraps && total > 0 {
        // Round a closed path the short way.
        displacement = displacement.truncatingRemainder(dividingBy: total)
        if displacement > total / 2 { displacement -= total }
        if displacement < -total / 2 { displacement += total }
      }
      var velocity = lengthVelocity
      propagator.step(&displacement, &velocity)
      return (displacement, velocity)
    }
  }

  static func setUp(_ c: Int, _ p: Parameters, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    // Read before the call: a capture list reading `sim` made Swift copy the whole
    // simulation for each call.
    let point = sim.handles[p.handle].position
    guard
      let start = sim.measured(p.path, { $0.nearest(to: point) }),
      let total = sim.measured(p.path, { $0.length })
    else { return }
    sim.followStates[s].length = start.length
    sim.followStates[s].restLength = p.rest.map { $0 * total } ?? start.length
    sim.followPlaces[s] = start.position
    sim.handles[p.handle].position = start.point
    if p.orient { sim.handles[p.handle].angle = start.position.angle }
  }

  static func drag(
    _ c: Int, _ p: Parameters, handle h: Int, to target: Vector, in sim: inout Simulation
  ) -> Bool {
    let s = sim.stateSlots[c]
    let continuing = sim.followStates[s].length
    let place = Self.place(s, on: p.path, in: &sim)
    guard
      let answer = sim.measured(
        p.path,
        {
          if let place {
            $0.nearest(
              to: target, continuingFrom: place, hysteresis: p.hysteresis, wraps: p.wrap)
          } else {
            $0.nearest(
              to: target, continuingFrom: continuing, hysteresis: p.hysteresis, wraps: p.wrap)
          }
        })
    else { return false }
    sim.followStates[s].springingAlongPath = false
    sim.followStates[s].glide = nil
    sim.followStates[s].target = nil
    sim.followStates[s].length = answer.length
    sim.followStates[s].placedLength = .nan
    sim.followPlaces[s] = answer.position
    sim.handles[h].position = answer.point
    if p.orient { sim.handles[h].angle = answer.position.angle }
    return true
  }

  static func release(
    _ c: Int, _ p: Parameters, handle h: Int, velocity: Vector, in sim: inout Simulation
  ) {
    let s = sim.stateSlots[c]
    if p.momentum != nil || !p.detents.isEmpty {
      return glide(c, p, handle: h, velocity: velocity, in: &sim)
    }
    let length = sim.followStates[s].length
    let place = Self.place(s, on: p.path, in: &sim)
    guard let spring = p.spring,
      let tangent = sim.measured(
        p.path, { place?.tangent ?? $0.position(atLength: length).tangent })
    else {
      sim.handles[h].mode = .idle
      return
    }
    // The velocity along the path is the release velocity's part along the tangent.
    sim.followStates[s].lengthVelocity = velocity.dot(tangent)
    sim.followStates[s].springingAlongPath = true
    sim.handles[h].mode = .springing(spring: spring)
  }

  /// Released with momentum or detents: glide on along the path, or snap to the detent
  /// nearest where the glide would end, carrying the speed along the tangent.
  static func glide(
    _ c: Int, _ p: Parameters, handle h: Int, velocity: Vector, in sim: inout Simulation
  ) {
    let s = sim.stateSlots[c]
    let length = sim.followStates[s].length
    let place = Self.place(s, on: p.path, in: &sim)
    guard
      let (tangent, total) = sim.measured(
        p.path, { (place?.tangent ?? $0.position(atLength: length).tangent, $0.length) })
    else {
      sim.handles[h].mode = .idle
      return
    }
    let speed = velocity.dot(tangent)
    let motion: Glide
    sim.followStates[s].target = nil
    if !p.detents.isEmpty {
      let projection = p.momentum ?? SceneGraph.Drag.defaultMomentum
      let projected = length + speed * projection.gain
      // The nearest detent to where the glide would end; round a wrapping path the
      // short way.
      var best = (name: p.detents[0].name, target: 0.0, distance: Double.infinity)
      for detent in p.detents {
        var target = detent.fraction * total
        if p.wrap && total > 0 {
          var offset = (target - projected).truncatingRemainder(dividingBy: total)
          if offset > total / 2 { offset -= total }
          if offset < -total / 2 { offset += total }
          target = projected + offset
        } else {
          target = min(max(target, 0), total)
        }
        let distance = abs(target - projected)
        if distance < best.distance { best = (detent.name, target, distance) }
      }
      sim.followStates[s].target = best.name
      motion = Glide(
        springFrom: length, velocity: speed, to: best.target, model: p.snapSpring, at: sim.time)
    } else if let momentum = p.momentum {
      motion = Glide(
        glideFrom: length, velocity: speed, momentum: momentum, lower: p.wrap ? nil : 0,
        upper: p.wrap ? nil : total, bounce: p.snapSpring, at: sim.time)
    } else {
      motion = Glide(still: length)
    }
    if motion.isMoving {
      sim.followStates[s].glide = motion
      sim.handles[h].mode = .gliding
    } else {
      sim.handles[h].mode = .idle
      arrive(c, handle: h, in: &sim)
    }
  }

  /// Where the last press or drag put the handle of follow slot `s` on `path`, while that
  /// still holds.
  ///
  /// It holds while the state's length is still its length, bit for bit, and the path does
  /// not move. Position along a fixed path is a function of arc length, so an older answer
  /// at the same length (the handle sprang back to where it was placed) holds too.
  ///
  /// `inout` though it changes nothing: passed by value from a caller holding it `inout`,
  /// the whole simulation (700 bytes) was copied for each drag and release.
  static func place(_ s: Int, on path: Int, in sim: inout Simulation) -> PathPosition? {
    let place = sim.followPlaces[s]
    guard place.length == sim.followStates[s].length, !sim.pathIsDynamic[path] else {
      return nil
    }
    return place
  }

  static func arrive(_ c: Int, handle h: Int, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    sim.reportSnap(of: h, to: sim.followStates[s].target)
    sim.followStates[s].target = nil
  }

  /// The settings a frame's step reads, without the detents array and the rest: copying
  /// these costs no retain and release per constraint per frame.
  struct StepParameters: Sendable {
    var handle: Int
    var path: Int
    var orient: Bool
    var wrap: Bool
    var spring: Int?

    init(_ p: Parameters) {
      handle = p.handle
      path = p.path
      orient = p.orient
      wrap = p.wrap
      spring = p.spring
    }
  }

  static func step(_ c: Int, _ p: Parameters, dt: Double, in sim: inout Simulation) {
    step(c, StepParameters(p), dt: dt, in: &sim)
  }

  static func step(_ c: Int, _ p: StepParameters, dt: Double, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    let h = p.handle
    if !sim.followStates[s].storedGlide.isEmpty { stepGlide(c, p, in: &sim) }
    let pathMoves = sim.pathIsDynamic[p.path]
    // A handle at rest on a path that does not change stays where it was placed: the
    // inverse arc length, the costly part, runs only when something moved.
    if !pathMoves && !sim.followStates[s].springingAlongPath
      && sim.followStates[s].restPlaced
      && (sim.handles[h].mode == .dragging
        || sim.followStates[s].placedLength
          == sim.followStates[s].length)
    {
      return
    }
    guard sim.hasMeasurement[p.path] else { return }
    // The measured path is read in place, never copied out of its array: a copy retains
    // its storage, a cache miss per handle per frame once thousands of paths do not fit.
    if sim.followStates[s].springingAlongPath, let spring = p.spring, dt > 0 {
      let (displacement, velocity) = sim.followStates[s].springStep(
        along: sim.measuredPaths[p.path].length, wraps: p.wrap, by: sim.propagators[spring])
      let length = sim.followStates[s].restLength + displacement
      sim.followStates[s].length = sim.measuredPaths.withUnsafeBufferPointer {
        $0[p.path].normalizedLength(length, wraps: p.wrap)
      }
      sim.followStates[s].lengthVelocity = velocity
      if sim.springModels[spring].isAtRest(displacement: displacement, velocity: velocity) {
        sim.followStates[s].length = sim.followStates[s].restLength
        sim.followStates[s].springingAlongPath = false
        sim.followStates[s].lengthVelocity = 0
        sim.handles[h].mode = .idle
        sim.events.append(SceneEvent(.rest, h))
      }
    }
    if sim.handles[h].mode != .dragging
      && (pathMoves
        || sim.followStates[s].placedLength
          != sim.followStates[s].length)
    {
      let length = sim.followStates[s].length
      if p.orient {
        let position = sim.measuredPaths.withUnsafeBufferPointer {
          $0[p.path].position(atLength: length, cursor: &sim.followStates[s].cursor)
        }
        sim.handles[h].position = position.point
        sim.handles[h].angle = position.angle
      } else {
        // No tangent needed: the point alone skips its square root.
        sim.handles[h].position = sim.measuredPaths.withUnsafeBufferPointer {
          $0[p.path].point(atLength: length, cursor: &sim.followStates[s].cursor)
        }
      }
      sim.followStates[s].placedLength = length
    }
    if pathMoves || !sim.followStates[s].restPlaced {
      let restLength = sim.followStates[s].restLength
      sim.handles[h].rest = sim.measuredPaths.withUnsafeBufferPointer {
        $0[p.path].point(atLength: restLength)
      }
      sim.followStates[s].restPlaced = true
    }
  }

  /// Steps a run of `follow`s in one pass, where each is in a case of nearly every frame.
  ///
  /// It steps the constraints of ``Simulation/steppedConstraints`` from index `start` on,
  /// in order, for as long as each is at rest where it was placed, or springing along a
  /// fixed path and not arriving. Returns the index of the first constraint it left alone
  /// (not a `follow`, or one that needs the general step: a glide, a path that moves, an
  /// arrival with its event, a rest not yet placed).
  ///
  /// The arithmetic is that step's, in the same order, so the positions are the same to
  /// the bit; one that falls back has changed nothing, and its step starts from the same
  /// state. What differs is the cost: one pass over buffers, where the step through
  /// `Simulation`'s arrays paid a uniqueness check, bounds checks and a retain on nearly
  /// every access (about 215 of a following handle's 640 instructions per frame).
  static func stepCommonCases(from start: Int, dt: Double, in sim: inout Simulation) -> Int {
    guard sim.stepsFollowsTogether, dt > 0, start < sim.steppedConstraints.count,
      sim.keywords[sim.steppedConstraints[start]] == .follow
    else {
      return start
    }
    // The plan's arrays are read as `sim.plan`'s stored parts, apart from the run's arrays
    // the buffers below hold exclusively (through `Simulation`'s forwarding properties they
    // would read all of `sim`, and copied they cost the pass seven retains a call).
    var next = start
    sim.measuredPaths.withUnsafeBufferPointer { paths in
      sim.handles.withUnsafeMutableBufferPointer { handles in
        sim.followStates.withUnsafeMutableBufferPointer { states in
          while next < sim.plan.steppedConstraints.count {
            let s = sim.plan.steppedFollowSlots[next]
            guard s >= 0 else { return }
            let p = sim.plan.followSteps[s]
            let h = p.handle
            guard states[s].storedGlide.isEmpty, !sim.plan.pathIsDynamic[p.path],
              states[s].restPlaced
            else {
              return
            }
            guard states[s].springingAlongPath else {
              // At rest where it was placed, or held: the step would return at once.
              guard handles[h].mode == .dragging || states[s].placedLength == states[s].length
              else { return }
              next += 1
              continue
            }
            guard let spring = p.spring, sim.hasMeasurement[p.path], handles[h].mode != .dragging
            else {
              return
            }
            let (displacement, velocity) = states[s].springStep(
              along: paths[p.path].length, wraps: p.wrap, by: sim.propagators[spring])
            // Arriving sets it at rest and reports it: the step does that, from the state
            // as it was, which nothing here has changed yet.
            if sim.plan.springModels[spring].isAtRest(
              displacement: displacement, velocity: velocity)
            {
              return
            }
            let length = paths[p.path].normalizedLength(
              states[s].restLength + displacement, wraps: p.wrap)
            states[s].length = length
            states[s].lengthVelocity = velocity
            if states[s].placedLength != length {
              if p.orient {
                let position = paths[p.path].position(atLength: length, cursor: &states[s].cursor)
                handles[h].position = position.point
                handles[h].angle = position.angle
              } else {
                handles[h].position = paths[p.path].point(
                  atLength: length, cursor: &states[s].cursor)
              }
              states[s].placedLength = length
            }
            next += 1
          }
        }
      }
    }
    return next
  }

  /// Moves a gliding or snapping handle to where its glide is now, in arc length.
  static func stepGlide(_ c: Int, _ p: StepParameters, in sim: inout Simulation) {
    let s = sim.stateSlots[c]
    let h = p.handle
    guard sim.handles[h].mode == .gliding, var glide = sim.followStates[s].glide else {
      sim.followStates[s].glide = nil
      return
    }
    let sample = glide.sample(at: sim.time)
    sim.followStates[s].length =
      sim.measured(p.path, { $0.normalizedLength(sample.value, wraps: p.wrap) })
      ?? sim.followStates[s].length
    sim.followStates[s].lengthVelocity = sample.velocity
    if glide.isMoving {
      sim.followStates[s].glide = glide
      return
    }
    sim.followStates[s].glide = nil
    sim.followStates[s].lengthVelocity = 0
    sim.followStates[s].restLength = sim.followStates[s].length
    sim.followStates[s].restPlaced = false
    sim.handles[h].mode = .idle
    sim.events.append(SceneEvent(.rest, h))
    arrive(c, handle: h, in: &sim)
  }
}
