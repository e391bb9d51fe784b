import Foundation
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneTestSupport
import SceneVocabulary
import Testing

@testable import SceneRuntime

/// State machines and inputs, unit by unit: when a transition is taken, in what order
/// within a frame, how far transitions chain, what a state sets and how it gets there.
@Suite struct MachineTests {
  /// The machine's state in each frame, and each frame's state events as `from>to`.
  static func states(_ run: [Frame], machine: Int = 0) -> [String] {
    run.map { $0.machines[machine].state }
  }

  static func stateEvents(_ frame: Frame) -> [String] {
    frame.events.filter { $0.kind == .state }.map {
      "\($0.subjectName(in: frame)):\($0.from ?? "")>\($0.target ?? "")"
    }
  }

  // MARK: - Timers

  /// Entered at 0 and left 0.37 s later (between frames at every rate): the opacity tween
  /// the new state starts runs from that moment exactly.
  static let timer = """
    scene: { size: 300x200, fps: 60, duration: 1s }
    handles:
      dot: { position: [150, 100], r: 10 }
    states:
      fade:
        initial: shown
        states:
          shown:
          hidden: { duration: 0.5s, set: { dot: { opacity: 0 } } }
        transitions:
          - { from: shown, to: hidden, after: 0.37s }
    """

  @Test(arguments: [30.0, 60, 120, 144])
  func aTimerFiresAtItsOwnMomentAtEveryFrameRate(fps: Double) throws {
    let run = try frames(Self.timer, fps: fps)
    for frame in run {
      let dot = try #require(handle(frame, "dot"))
      let expected = frame.time <= 0.37 ? 1 : max(0, 1 - (frame.time - 0.37) / 0.5)
      #expect(abs(dot.opacity - expected) <= 1e-12, "at \(frame.time): \(dot.opacity)")
      #expect(frame.machines[0].state == (frame.time < 0.37 ? "shown" : "hidden"))
    }
    // The event is in the first frame at or after 0.37 s, once.
    let entered = run.filter { !Self.stateEvents($0).isEmpty }
    #expect(entered.count == 1)
    #expect(entered.first.map(Self.stateEvents) == ["fade:shown>hidden"])
    #expect(entered.first.map { $0.time >= 0.37 && $0.time - 0.37 < 1 / fps } == true)
  }

  /// A spring a timer starts between two frames is where its closed form says at every
  /// frame rate: the run advances to the timer's moment first.
  @Test func aSpringStartedBetweenFramesIsTheSameAtEveryRate() throws {
    let scene = """
      scene: { size: 300x200, fps: 60, duration: 1.5s }
      springs:
        pop: { dampingRatio: 0.5, duration: 0.4s }
      handles:
        dot: { position: [150, 100], r: 10 }
      states:
        grow:
          initial: small
          states:
            small: { set: { dot: { scale: 0.5 } } }
            big: { spring: pop, set: { dot: { scale: 2 } } }
          transitions:
            - { from: small, to: big, after: 0.2345s }
      """
    let reference = try frames(scene, fps: 144)
    let spring = SpringModel(
      stiffness: 4 * .pi * .pi / (0.4 * 0.4), damping: 2 * 0.5 * (2 * .pi / 0.4), mass: 1,
      restThreshold: 0.5)
    for fps in [30.0, 60, 120] {
      let run = try frames(scene, fps: fps)
      for frame in run {
        let scale = try #require(handle(frame, "dot")).scale
        let shared = reference.first { abs($0.time - frame.time) < 1e-9 }
        if let shared {
          let other = try #require(handle(shared, "dot")).scale
          #expect(abs(scale - other) <= 1e-9, "at \(frame.time) at \(fps) fps")
        }
        // The closed form: from 0.5 at rest towards 2, from 0.2345 s.
        if frame.time > 0.2345 && frame.time < 0.5 {
          var displacement = -1.5
          var velocity = 0.0
          spring.propagator(dt: frame.time - 0.2345).step(&displacement, &velocity)
          #expect(abs(scale - (2 + displacement)) <= 1e-9, "at \(frame.time)")
        }
      }
    }
  }

  // MARK: - Order within a frame

  /// A release, the transition it causes, and a second machine's transition on the
  /// first's state event all land in the release's frame, in that order.
  @Test func eventsTransitionsAndOtherMachinesFollowInOrder() throws {
    let scene = """
      scene: { size: 300x200, fps: 60, duration: 0.5s }
      handles:
        knob: { position: [100, 100], r: 20, draggable: true }
      states:
        first:
          initial: a
          states: { a: , b: }
          transitions:
            - { from: a, to: b, on: release of knob }
        second:
          initial: x
          states: { x: , y: }
          transitions:
            - { from: x, to: y, on: state of first to b }
      gesture:
        - press: knob
        - drag: { by: [30, 0], over: 0.1s }
        - release
      """
    let run = try frames(scene)
    let frame = try #require(
      run.first { !$0.events.isEmpty && $0.events.contains { $0.kind == .release } })
    #expect(frame.events.map(\.type) == ["release", "state", "state"])
    #expect(Self.stateEvents(frame) == ["first:a>b", "second:x>y"])
    #expect(frame.machines.map(\.state) == ["b", "y"])
  }

  /// A machine declared earlier sees a later one's state event on the next round, in
  /// the same frame.
  @Test func anEarlierMachineSeesALaterOnesEventAtTheSameMoment() throws {
    let scene = """
      scene: { size: 300x200, fps: 60, duration: 0.2s }
      inputs:
        go: trigger
      states:
        watcher:
          initial: waiting
          states: { waiting: , done: }
          transitions:
            - { from: waiting, to: done, on: state of source to on }
        source:
          initial: off
          states: { off: , on: }
          transitions:
            - { from: off, to: on, on: go }
      gesture:
        - wait: 0.05s
        - fire: go
      """
    let run = try frames(scene)
    let frame = try #require(run.first { !$0.events.isEmpty })
    #expect(Self.stateEvents(frame) == ["source:off>on", "watcher:waiting>done"])
  }

  // MARK: - Chains and loops

  /// Transitions that wait for nothing chain at once: both events in one frame.
  @Test func immediateTransitionsChain() throws {
    let scene = """
      scene: { size: 300x200, fps: 60, duration: 0.1s }
      states:
        m:
          initial: a
          states: { a: , b: , c: }
          transitions:
            - { from: a, to: b, after: 0.05s }
            - { from: b, to: c }
      """
    let run = try frames(scene)
    let frame = try #require(run.first { !$0.events.isEmpty })
    #expect(Self.stateEvents(frame) == ["m:a>b", "m:b>c"])
    #expect(run.last?.machines[0].state == "c")
  }

  /// Conditions that hold both ways round would go for ever: the run stops with an error
  /// at the transition, after the cap.
  @Test func aLoopOfConditionsStopsTheRunAtItsCap() throws {
    let scene = """
      scene: { size: 300x200, fps: 60, duration: 0.1s }
      states:
        m:
          initial: a
          states: { a: , b: }
          transitions:
            - { from: a, to: b, when: time >= 0.05 }
            - { from: b, to: a, when: time > 0.04 }
      """
    #expect(Simulation.transitionLimit == 16)
    let resolved = try graph(scene)
    do throws(RuntimeError) {
      _ = try SceneRunner.frames(of: resolved)
      Issue.record("the run went on")
    } catch {
      #expect(
        error.message
          == "machine 'm' took more than 16 transitions at 0.05 s without stopping; its transitions go round in a loop"
      )
      // The seventeenth, `a -> b` again.
      #expect(error.span?.start.line == 7)
    }
  }

  // MARK: - Inputs and triggers

  /// A fired trigger moves each machine once: two transitions on it take two fires.
  @Test func aTriggerIsConsumedOnce() throws {
    let scene = """
      scene: { size: 300x200, fps: 60, duration: 0.5s }
      inputs:
        next: trigger
      states:
        m:
          initial: a
          states: { a: , b: , c: }
          transitions:
            - { from: a, to: b, on: next }
            - { from: b, to: c, on: next }
      gesture:
        - wait: 0.1s
        - fire: next
        - wait: 0.2s
        - fire: next
      """
    let run = try frames(scene)
    let changes = run.filter { !$0.events.isEmpty }
    #expect(changes.map(Self.stateEvents) == [["m:a>b"], ["m:b>c"]])
    #expect(changes.map(\.time) == [0.1, 0.3].map { (($0 * 60).rounded()) / 60 })
  }

  /// A script sets inputs at their moment; expressions read them; a number stays in its
  /// range; a boolean reads 1 or 0.
  @Test func inputsAreSetAtTheirMomentAndReadByExpressions() throws {
    let scene = """
      scene: { size: 300x200, fps: 60, duration: 0.5s }
      inputs:
        lit: false
        level: { value: 0.5, min: 0, max: 1 }
      handles:
        dot: { position: "(100 + 100 * level, 100 + 50 * lit)", r: 10 }
      gesture:
        - wait: 0.1s
        - set: { lit: true, level: 3 }
      """
    let run = try frames(scene)
    for frame in run {
      let dot = try #require(handle(frame, "dot"))
      let after = frame.time >= 0.1
      #expect(dot.x == (after ? 200 : 150), "at \(frame.time)")
      #expect(dot.y == (after ? 150 : 100), "at \(frame.time)")
      #expect(frame.inputs == (after ? [1, 1] : [0, 0.5]))
    }
  }

  /// `setInput` and `fire` refuse what the input does not take.
  @Test func inputsRefuseWhatTheyDoNotTake() throws {
    let scene = """
      scene: { size: 300x200, fps: 60, duration: 0.1s }
      inputs:
        flag: false
        go: trigger
      """
    var simulation = try Simulation(graph: graph(scene))
    #expect(simulation.setInput(0, to: .nan) == false)
    #expect(simulation.setInput(1, to: 1) == false)
    #expect(simulation.fire(0) == false)
    #expect(simulation.setInput(7, to: 1) == false)
    #expect(simulation.setInput(0, to: 5) == true)
    #expect(simulation.inputValues == [1, 0])
  }

  // MARK: - What states set

  /// A state's rest holds a released bound handle there; leaving it, the handle springs
  /// back to its own rest with its own spring.
  @Test func aStatesRestHoldsAHandleUntilItIsLeft() throws {
    let scene = """
      scene: { size: 300x300, fps: 60, duration: until-rest }
      inputs:
        busy: false
      springs:
        s: { dampingRatio: 1, duration: 0.3s }
      handles:
        c: { position: "(150, 50 + max(drag.dy, 0))", rest: [150, 50], spring: s }
      states:
        m:
          initial: idle
          states:
            idle:
            held: { set: { c: { rest: [150, 120] } } }
          transitions:
            - { from: idle, to: held, when: busy }
            - { from: held, to: idle, when: "!busy" }
      gesture:
        - press: (150, 50)
        - drag: { by: [0, 150], over: 0.3s }
        - set: { busy: true }
        - release
        - wait: 1s
        - set: { busy: false }
      """
    let run = try frames(scene)
    let held = try #require(run.first { abs($0.time - 1.2) < 1e-9 })
    #expect(abs(try #require(handle(held, "c")).y - 120) < 0.01)
    let last = try #require(run.last)
    #expect(try #require(handle(last, "c")).y == 50)
    #expect(last.machines[0].state == "idle")
  }

  /// A state that turns a gooey link off hides its bridge and stops its events; turned
  /// on again, the anchor shows whole.
  @Test func aDisabledLinkIsHiddenAndResumesWhole() throws {
    let run = try frames(
      String(
        decoding: try #require(
          FileManager.default.contents(atPath: repositoryPath("Scenes/sticky-ball-dismiss.yaml"))),
        as: UTF8.self))
    for frame in run where frame.machines[0].state == "gone" {
      #expect(frame.paths[0].isHidden)
      #expect(!frame.events.contains { $0.kind == .linkBroke || $0.kind == .linkRestored })
    }
    let last = try #require(run.last)
    #expect(try #require(handle(last, "anchor")).state == .idle)
    #expect(try #require(handle(last, "anchor")).radius == 30)
    #expect(try #require(handle(last, "ball")).y == 200)
  }

  /// The scenes with states replay identically at every frame rate: the same state at
  /// every shared time, the same state events, each within one frame of the others.
  @Test(arguments: ["pull-to-refresh", "toggle", "sticky-ball-dismiss"])
  func theScenesWithStatesAgreeAcrossFrameRates(scene: String) throws {
    let text = String(
      decoding: try #require(
        FileManager.default.contents(atPath: repositoryPath("Scenes/\(scene).yaml"))),
      as: UTF8.self)
    let reference = try frames(text, fps: 120)
    let referenceEvents = reference.flatMap(Self.stateEvents)
    for fps in [30.0, 60, 144] {
      let run = try frames(text, fps: fps)
      #expect(run.flatMap(Self.stateEvents) == referenceEvents, "at \(fps) fps")
      for frame in run {
        guard let shared = reference.first(where: { abs($0.time - frame.time) < 1e-9 }) else {
          continue
        }
        #expect(frame.machines == shared.machines, "at \(frame.time), \(fps) fps")
      }
    }
  }
}
