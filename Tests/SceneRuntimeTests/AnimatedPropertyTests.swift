import Foundation
import SceneGeometry
import SceneGraph
import SceneVocabulary
import Testing

@testable import SceneRuntime

/// A handle's `rotation`, `scale` and `opacity` while the scene runs: expressions every
/// frame, springs that follow them exactly at any frame rate, clamped as documented.
@Suite struct AnimatedPropertyTests {
  /// A press at 0 s held until 0.3 s (between frames at 144 fps): the scale follows
  /// `pointer.down ? 0.95 : 1` with a spring of damping ratio 0.7 and duration 0.3 s.
  static let button = """
    scene: { size: 300x200, fps: 60, duration: 1s }
    springs:
      snappy: { dampingRatio: 0.7, duration: 0.3s }
    handles:
      button:
        position: (150, 100)
        shape: rect
        width: 120
        height: 44
        draggable: true
        scale: { to: "pointer.down ? 0.95 : 1", spring: snappy }
        rotation: (pointer.x - 150) * 1deg
        opacity: 1.5 - time
    gesture:
      - press: (150, 100)
      - drag: { by: [30, 0], over: 0.3s }
      - release
    """

  static let model = SpringModel(dampingRatio: 0.7, duration: 0.3)

  /// The scale's closed form: from 1 towards 0.95 from the press, then from where it was at
  /// 0.3 s towards 1.
  static func scale(at t: Double) -> Double {
    let pressed = model.state(after: min(t, 0.3), displacement: 0.05, velocity: 0)
    guard t > 0.3 else { return 0.95 + pressed.displacement }
    let released = model.state(
      after: t - 0.3, displacement: pressed.displacement - 0.05, velocity: pressed.velocity)
    return 1 + released.displacement
  }

  @Test(arguments: [30.0, 60, 120, 144])
  func aSpringOnAScaleFollowsItsClosedFormAtEveryFrameRate(fps: Double) throws {
    let run = try frames(Self.button, fps: fps)
    for frame in run {
      let h = try #require(handle(frame, "button"))
      let expected = Self.scale(at: frame.time)
      // A spring within a thousandth of its target, in distance and speed, rests on it.
      let settled =
        h.scale == (frame.time <= 0.3 ? 0.95 : 1) && abs(expected - h.scale) <= 1e-3
      #expect(
        abs(h.scale - expected) <= 1e-12 || settled,
        "at \(frame.time) s: \(h.scale), expected \(expected)")
    }
    let last = try #require(run.last)
    #expect(try #require(handle(last, "button")).scale == 1)
  }

  @Test func expressionsAreEvaluatedEveryFrameAndOpacityIsClamped() throws {
    let run = try frames(Self.button, fps: 60)
    for frame in run {
      let h = try #require(handle(frame, "button"))
      let x = try #require(frame.pointers.first).x
      #expect(abs(h.rotation - (x - 150) * .pi / 180) <= 1e-12)
      // 1.5 − time, within 0…1.
      #expect(h.opacity == min(max(1.5 - frame.time, 0), 1))
    }
  }

  /// Only what a scene animates is in its frames: a handle that animates nothing reports
  /// neither key nor bit.
  @Test func aFrameSaysWhichPropertiesAHandleAnimates() throws {
    let yaml = Self.button.replacingOccurrences(
      of: "handles:\n", with: "handles:\n  still: { position: [10, 10], r: 4 }\n")
    let frame = try #require(try frames(yaml, fps: 60).first)
    let button = try #require(handle(frame, "button"))
    let still = try #require(handle(frame, "still"))
    #expect([.opacity, .rotation, .scale].allSatisfy { button.animates($0) })
    #expect(!button.animates(.fill) && !button.animates(.stroke))
    #expect(still.animated == 0 && still.scale == 1 && still.rotation == 0 && still.opacity == 1)
  }

  /// An `until-rest` scene waits for a property's spring as for a handle's.
  @Test func aSceneIsNotAtRestWhileAPropertySpringMoves() throws {
    let yaml = """
      scene: { size: 300x200, fps: 60, duration: until-rest }
      springs:
        slow: { dampingRatio: 1, duration: 2s }
      handles:
        dot:
          position: (150, 100)
          r: 10
          draggable: true
          scale: { to: "pointer.down ? 2 : 1", spring: slow }
      gesture:
        - press: (150, 100)
        - wait: 0.2s
        - release
      """
    let run = try frames(yaml, fps: 60)
    let last = try #require(run.last)
    // The press is over at 0.2 s; the scale still has about 2 s to come back.
    #expect(last.time > 1.5)
    #expect(try #require(handle(last, "dot")).scale == 1)
  }

  @Test func aPropertyThatIsNotAFiniteNumberStopsTheRunNamingIt() throws {
    let yaml = """
      scene: { size: 300x200, fps: 60, duration: 1s }
      handles:
        dot: { position: [150, 100], r: 10, scale: 1 / (time - 0.5) * 0 }
      """
    #expect {
      _ = try frames(yaml, fps: 60)
    } throws: { error in
      (error as? RuntimeError)?.message
        == "the scale of handle 'dot' is not a finite number at t = 0.5 (a division by zero?)"
    }
  }
}

/// Colours mix in OKLab: against values worked out independently (Ottosson's formulas in
/// Python), and a spring on a fill's fraction moves every OKLab component as one spring.
@Suite struct ColorMixTests {
  func color(_ text: String) throws -> Color { try #require(Color(parsing: text)) }

  @Test func mixesMatchTheirReferenceValues() throws {
    #expect(
      OKLab(try color("white")).mixed(with: OKLab(try color("black")), 0.5).color
        == Color(red: 99, green: 99, blue: 99))
    #expect(
      OKLab(try color("#ff0000")).mixed(with: OKLab(try color("#0000ff")), 0.5).color
        == Color(red: 140, green: 83, blue: 162))
    #expect(
      OKLab(try color("#0a84ff")).mixed(with: OKLab(try color("#0060df")), 0.5).color
        == Color(red: 3, green: 114, blue: 239))
    // Half-transparent ends mix their alpha linearly.
    #expect(
      OKLab(try color("#ffffff00")).mixed(with: OKLab(try color("#ffffffff")), 0.5).color
        == Color(red: 255, green: 255, blue: 255, alpha: 128))
    // Every colour comes back as itself.
    for text in ["#000000", "#ffffff", "#0a84ff", "#ff9f0a", "#123456", "#fedcba80"] {
      #expect(OKLab(try color(text)).color == (try color(text)), "\(text)")
    }
  }

  @Test(arguments: [30.0, 60, 144])
  func aSpringOnAFillMixesAtItsClosedForm(fps: Double) throws {
    let yaml = """
      scene: { size: 300x200, fps: 60, duration: 0.6s }
      springs:
        snappy: { dampingRatio: 0.7, duration: 0.3s }
      handles:
        dot:
          position: [150, 100]
          r: 10
          fill: { to: "mix(#0a84ff, #0040a0, pointer.down)", spring: snappy }
      gesture:
        - press: [150, 100]
      """
    let from = OKLab(try color("#0a84ff"))
    let to = OKLab(try color("#0040a0"))
    for frame in try frames(yaml, fps: fps) {
      let fill = try #require(handle(frame, "dot")).fill
      let spring = AnimatedPropertyTests.model.state(
        after: frame.time, displacement: -1, velocity: 0)
      let fraction = min(max(1 + spring.displacement, 0), 1)
      let settled = fill == to.color && abs(spring.displacement) <= 1e-3
      #expect(fill == from.mixed(with: to, fraction).color || settled, "at \(frame.time)")
    }
  }
}

/// A path's `trim` while the scene runs: an expression of time draws exactly that part,
/// and a spring on it keeps the scene from resting until it lands.
@Suite struct TrimmedPathTests {
  @Test(arguments: [30.0, 144])
  func aTrimFollowsItsExpressionExactly(fps: Double) throws {
    let yaml = """
      scene: { size: 300x200, fps: 60, duration: 1s }
      paths:
        line: { d: "M0 0 L100 0", trim: { start: time / 4, end: time } }
      """
    for frame in try frames(yaml, fps: fps) {
      let path = try #require(frame.paths.first).path
      let t = frame.time
      guard t > 0 else {
        #expect(path.subpaths.isEmpty)
        continue
      }
      let subpath = try #require(path.subpaths.first)
      #expect(abs(subpath.start.x - 25 * t) <= 1e-9)
      #expect(abs((subpath.segments.last?.end.x ?? 0) - 100 * t) <= 1e-9, "at \(t)")
    }
  }

  /// A trim that stands still is drawn once, not every frame.
  @Test func aStillTrimIsDrawnOnce() throws {
    var simulation = try Simulation(
      graph: graph(
        """
        scene: { size: 300x200, fps: 60, duration: 1s }
        paths:
          line: { d: "M0 0 L100 0", trim: { start: 0.25, end: 0.75 } }
        """))
    var last = try simulation.currentFrame()
    for frame in 1...60 { last = try simulation.step(to: Double(frame) / 60) }
    #expect(simulation.trimsDrawn == 1)
    #expect(abs((last.paths[0].path.subpaths.first?.start.x ?? 0) - 25) <= 1e-9)
  }

  @Test func aSpringOnATrimKeepsTheSceneMovingUntilItLands() throws {
    let yaml = """
      scene: { size: 300x200, fps: 60, duration: until-rest }
      springs:
        slow: { dampingRatio: 1, duration: 1s }
      paths:
        line: { d: "M0 0 L100 0", trim: { end: { to: "pointer.down ? 0 : 1", spring: slow } } }
      gesture:
        - press: [5, 5]
        - wait: 0.5s
        - release
      """
    let run = try frames(yaml, fps: 60)
    let last = try #require(run.last)
    #expect(last.time > 1.2)
    #expect(try #require(last.paths.first).path.subpaths.first?.segments.last?.end.x == 100)
  }
}
