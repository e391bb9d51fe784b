import Foundation
import SceneGeometry
import SceneGraph
import SceneTestSupport
import SceneVocabulary
import Testing

@testable import SceneRuntime

/// A handle's children: placed in its coordinates, changing by expressions and springs
/// exactly at any frame rate, writing numbers into their text, and grabbed with their
/// handle where they are drawn.
@Suite struct GroupTests {
  /// A card whose badge springs to full opacity while the finger is down, whose label
  /// slides with the drag, and whose counter writes the drag's distance.
  static let card = """
    scene: { size: 400x300, fps: 60, duration: 1s }
    springs:
      soft: { dampingRatio: 0.8, duration: 0.4s }
    handles:
      card:
        position: (200, 150)
        shape: rect
        width: 200
        height: 100
        draggable: true
        rotation: 90deg
        children:
          badge: { position: [0, -80], r: 12, opacity: { to: "pointer.down ? 1 : 0.25", spring: soft } }
          label: { position: "(drag.dx / 2, 30)", text: "{drag.dx}pt, {drag.dx / 3:.3f}", fontSize: 12 }
          still: { position: [10, 10], shape: rect, width: 4, height: 4, rotation: 45deg }
    gesture:
      - press: (200, 150)
      - drag: { by: [60, 0], over: 0.3s }
      - release
    """

  static let soft = SpringModel(dampingRatio: 0.8, duration: 0.4)

  /// The badge's opacity in closed form: from 0.25 towards 1 while pressed (0 to 0.3 s),
  /// then back towards 0.25.
  static func badgeOpacity(at t: Double) -> Double {
    let pressed = soft.state(after: min(t, 0.3), displacement: -0.75, velocity: 0)
    guard t > 0.3 else { return 1 + pressed.displacement }
    let released = soft.state(
      after: t - 0.3, displacement: pressed.displacement + 0.75, velocity: pressed.velocity)
    return 0.25 + released.displacement
  }

  func child(_ frame: Frame, _ name: String) -> ChildFrame? {
    frame.children.first { $0.look.name == name }
  }

  @Test(arguments: [30.0, 60, 120, 144])
  func aChildsSpringFollowsItsClosedFormAtEveryFrameRate(fps: Double) throws {
    for frame in try frames(Self.card, fps: fps) {
      let badge = try #require(child(frame, "badge"))
      // Drawn within 0…1: the spring overshoots full opacity, which shows as 1.
      let expected = min(max(Self.badgeOpacity(at: frame.time), 0), 1)
      let target = frame.time <= 0.3 ? 1.0 : 0.25
      let settled = badge.look.opacity == target && abs(expected - target) <= 1e-3
      #expect(
        abs(badge.look.opacity - expected) <= 1e-12 || settled,
        "at \(frame.time) s: \(badge.look.opacity), expected \(expected)")
      #expect(badge.look.animates(.opacity) && !badge.look.animates(.offsetX))
    }
  }

  @Test func aChildsPlaceAndTextFollowTheirExpressionsEveryFrame() throws {
    let run = try frames(Self.card, fps: 60)
    for frame in run {
      let label = try #require(child(frame, "label"))
      // `drag.dx`: the finger's way since the press, while it is down.
      let finger = try #require(frame.pointers.first)
      let dx = finger.isDown ? finger.x - 200 : 0
      #expect(abs(label.look.x - dx / 2) <= 1e-9 && label.look.y == 30)
      let expected =
        SceneGraph.TextLook.number(dx, decimals: nil) + "pt, "
        + SceneGraph.TextLook.number(dx / 3, decimals: 3)
      #expect(label.text == expected)
    }
    let texts = run.compactMap { child($0, "label")?.text }
    #expect(texts.contains("30pt, 10.000") && texts.contains("40pt, 13.333"))
    #expect(texts.last == "0pt, 0.000")
    // A child that never changes is not in the frames; its constant turn is the scene's.
    #expect(run.allSatisfy { child($0, "still") == nil })
    let still = try graph(Self.card).handles[0].children[2]
    #expect(still.rotation == .pi / 4 && still.motions.isEmpty)
  }

  @Test(
    arguments: [
      (12.0, nil, "12"), (0.5, nil, "0.5"), (3.14159, nil, "3.14"), (2.999, nil, "3"),
      (-0.001, nil, "0"), (-1.25, nil, "-1.25"), (2.5, 0, "3"), (-2.5, 0, "-3"),
      (1, 3, "1.000"), (-0.0004, 3, "0.000"), (1e20, nil, "1e+20"),
    ] as [(Double, Int?, String)])
  func numbersInTextAreWrittenAsDocumented(value: Double, decimals: Int?, text: String) {
    #expect(SceneGraph.TextLook.number(value, decimals: decimals) == text)
  }

  /// Seeded: any number up to 10¹¹ at any number of decimals reads back within half its last digit,
  /// with exactly the decimals asked for, and is never `-0`.
  @Test func numbersInTextReadBackWithinTheirRounding() {
    var random = SeededGenerator(seed: 36)
    for _ in 0..<20_000 {
      let magnitude = Double.random(in: -8...11, using: &random)
      let value = (Bool.random(using: &random) ? 1 : -1) * Foundation.pow(10, magnitude)
      let decimals = Int.random(in: -1...6, using: &random)
      let text = SceneGraph.TextLook.number(value, decimals: decimals < 0 ? nil : decimals)
      let places = decimals < 0 ? 2 : decimals
      let read = Double(text) ?? .nan
      // Half the last digit, and the few ulps scaling by 10^places costs.
      let tolerance = 0.5 * Foundation.pow(10, Double(-places)) + abs(value) * 4e-16
      #expect(abs(read - value) <= tolerance, "\(value)")
      #expect(!text.hasPrefix("-0") || read != 0, "\(value) → \(text)")
      if decimals >= 0 {
        let written = text.split(separator: ".").dropFirst().first?.count ?? 0
        #expect(written == decimals, "\(value) → \(text)")
      }
    }
  }

  /// A group is grabbed on its shapes as drawn.
  ///
  /// The card is turned a quarter turn: 100 wide and 200 tall as drawn. A press inside
  /// it as drawn grabs it, one inside it only as it would be unturned does not, and one on
  /// the badge, outside the card, grabs the card.
  @Test(arguments: [
    ((200.0, 240.0), true), ((200.0, 60.0), true), ((200.0, 40.0), false),
    ((120.0, 150.0), false), ((280.0, 150.0), true), ((291.0, 150.0), true),
    ((299.0, 150.0), false),
  ])
  func aGroupIsGrabbedWhereItsShapesAreDrawn(point: (Double, Double), grabs: Bool) throws {
    var simulation = try Simulation(graph: graph(Self.card))
    _ = try simulation.currentFrame()
    simulation.pointerDown(id: 0, at: Vector(point.0, point.1))
    let grabbed = simulation.pointers.first { $0.id == 0 }?.grabbed
    #expect((grabbed == 0) == grabs, "\(point)")
  }

}

/// A path's opacity, colours and line width change as a handle's do: a spring on its
/// opacity follows its closed form at every frame rate, and keeps the scene moving until
/// it lands.
@Suite struct PathStyleTests {
  static let scene = """
    scene: { size: 300x200, fps: 60, duration: until-rest }
    springs:
      soft: { dampingRatio: 1, duration: 0.4s }
    paths:
      line: { d: "M10 10 L 200 100", opacity: { to: "pointer.down ? 0.2 : 1", spring: soft } }
    gesture:
      - press: (100, 100)
      - hold: 0.25s
      - release
    """

  static func opacity(at t: Double) -> Double {
    let model = SpringModel(dampingRatio: 1, duration: 0.4)
    let pressed = model.state(after: min(t, 0.25), displacement: 0.8, velocity: 0)
    guard t > 0.25 else { return 0.2 + pressed.displacement }
    let released = model.state(
      after: t - 0.25, displacement: pressed.displacement - 0.8, velocity: pressed.velocity)
    return 1 + released.displacement
  }

  @Test(arguments: [30.0, 60, 120, 144])
  func aSpringOnAPathsOpacityFollowsItsClosedForm(fps: Double) throws {
    let run = try frames(Self.scene, fps: fps)
    for frame in run {
      let style = try #require(frame.pathStyles.first)
      #expect(style.path == 0 && style.look.animates(.opacity))
      let expected = Self.opacity(at: frame.time)
      let settled = style.look.opacity == 1 && abs(expected - 1) <= 1e-3
      #expect(
        abs(style.look.opacity - expected) <= 1e-12 || settled,
        "at \(frame.time) s: \(style.look.opacity), expected \(expected)")
    }
    // The run goes on until the spring lands, well after the release.
    let last = try #require(run.last)
    #expect(last.time > 0.6 && last.pathStyles.first?.look.opacity == 1)
  }
}

/// Stretched along its own axes, a group is grabbed where it is drawn stretched.
@Suite struct StretchTests {
  static let scene = """
    scene: { size: 400x300, fps: 60, duration: 1s }
    handles:
      bar:
        position: (200, 150)
        shape: rect
        width: 40
        height: 40
        draggable: true
        scaleX: 3
        scaleY: 0.5
        children:
          tip: { position: [30, 0], r: 5 }
    """

  /// 120 wide and 20 tall as drawn; its child's middle is 90 right of its own, and the
  /// child is stretched with it, 15 across and 2.5 high.
  @Test(arguments: [
    ((255.0, 150.0), true), ((200.0, 165.0), false), ((290.0, 150.0), true),
    ((290.0, 154.0), false), ((304.0, 150.0), true), ((306.0, 150.0), false),
  ])
  func aStretchedGroupIsGrabbedWhereItIsDrawn(point: (Double, Double), grabs: Bool) throws {
    var simulation = try Simulation(graph: graph(Self.scene))
    _ = try simulation.currentFrame()
    simulation.pointerDown(id: 0, at: Vector(point.0, point.1))
    let grabbed = simulation.pointers.first { $0.id == 0 }?.grabbed
    #expect((grabbed == 0) == grabs, "\(point)")
  }
}

/// An animated value carried by a tween (`{ to, duration, ease }`): each change of its
/// target starts a tween from where it is, exactly at the change's own time, so it is the
/// same at every frame rate.
@Suite struct TweenedPropertyTests {
  /// Pressed at 0.05 s and let go at 0.18 s, mid-tween (between frames at every rate).
  static let scene = """
    scene: { size: 300x200, fps: 60, duration: 0.6s }
    handles:
      button:
        position: [150, 100]
        r: 30
        draggable: true
        scale: { to: "pointer.down ? 0.9 : 1", duration: 0.2s, ease: ease-out }
        fill: { to: "mix(#0a84ff, #0040a0, pointer.down)", duration: 0.1s }
    gesture:
      - wait: 0.05s
      - press: (150, 100)
      - hold: 0.13s
      - release
    """

  static let easeOut = TimingCurve(.easeOut)

  static func scale(at t: Double) -> Double {
    func pressed(_ t: Double) -> Double {
      1 + (0.9 - 1) * easeOut.value(at: (t - 0.05) / 0.2)
    }
    guard t > 0.05 else { return 1 }
    guard t > 0.18 else { return pressed(t) }
    let from = pressed(0.18)
    return from + (1 - from) * easeOut.value(at: (t - 0.18) / 0.2)
  }

  @Test(arguments: [30.0, 60, 120, 144])
  func aTweenedScaleFollowsItsClosedForm(fps: Double) throws {
    let run = try frames(Self.scene, fps: fps)
    for frame in run {
      let button = try #require(handle(frame, "button"))
      #expect(
        abs(button.scale - Self.scale(at: frame.time)) <= 1e-12,
        "at \(frame.time): \(button.scale), expected \(Self.scale(at: frame.time))")
    }
    let last = try #require(run.last)
    #expect(try #require(handle(last, "button")).scale == 1)
  }

  @Test func aTweenedColourMixesAlongItsFraction() throws {
    let run = try frames(Self.scene, fps: 60)
    let from = try #require(Color(parsing: "#0a84ff"))
    let to = try #require(Color(parsing: "#0040a0"))
    for frame in run {
      let button = try #require(handle(frame, "button"))
      let t = frame.time
      // Linear over 0.1 s from 0 at the press; back from where it was at the release.
      let pressed = { (t: Double) in min(max((t - 0.05) / 0.1, 0), 1) }
      let fraction =
        t <= 0.18 ? pressed(t) : pressed(0.18) * (1 - min((t - 0.18) / 0.1, 1))
      let expected = OKLab(from).mixed(with: OKLab(to), fraction).color
      #expect(button.fill == expected, "at \(t)")
    }
  }
}

/// Presses find groups by how far each reaches, worked out once a step, not by testing
/// every group's shapes: pressing each of many groups in turn grabs the right one.
@Suite struct GroupPressTests {
  @Test func manyPressesBetweenTwoStepsMeasureTheGroupsOnce() throws {
    var yaml = "scene: { size: 2000x200, duration: 1s }\nhandles:\n"
    for k in 0..<200 {
      yaml +=
        "  g\(k): { position: [\(10 * k + 5), 100], shape: rect, width: 8, height: 40, draggable: true, children: { tip: { position: [0, 30], r: 3 } } }\n"
    }
    var simulation = try Simulation(graph: graph(yaml))
    _ = try simulation.currentFrame()
    for k in 0..<200 {
      // On the tip, below the rect: only the group's shapes say it is there.
      simulation.pointerDown(id: k, at: Vector(Double(10 * k + 5), 131))
      #expect(simulation.pointers.first { $0.id == k }?.grabbed == k, "group \(k)")
    }
    #expect(simulation.shapeReachesMade == 1)
    _ = try simulation.step(dt: 1.0 / 60)
    simulation.pointerDown(id: 500, at: Vector(1995, 100))
    #expect(simulation.shapeReachesMade == 2)
  }
}
