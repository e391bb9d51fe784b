import Foundation
import ScenePipeline
import SceneRuntime
import Testing

@testable import SceneTesting

@Suite struct ExpectationTests {
  /// Runs a scene written to a temporary file and returns its rendered expectation failures.
  func failures(_ yaml: String) throws -> String? {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-expect-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let file = dir.appendingPathComponent("s.yaml")
    try yaml.write(to: file, atomically: true, encoding: .utf8)
    switch SceneTest(scene: file.path).frames() {
    case .success(let run):
      return run.failedExpectations?.replacingOccurrences(of: file.path, with: "s.yaml")
    case .failure(let error): return "invalid: " + error.text
    }
  }

  let base = """
    scene: { duration: 1s, fps: 10 }
    handles:
      h: { position: [10.5, 0], r: 4, draggable: true }

    """

  @Test func tolerancesIncludeTheirBoundary() throws {
    #expect(
      try failures(base + "expect:\n  - at 0s: h.x ≈ 10 ± 0.5\n  - at 0s: h.x <= 10 ± 0.5\n") == nil
    )
    // `<` stays strict at its boundary: 10.5 is not less than 10 + 0.5.
    #expect(try failures(base + "expect:\n  - at 0s: h.x < 10 ± 0.5\n") != nil)
    #expect(
      try failures(base + "expect:\n  - at 0s: h.x ≈ 10 ± 0.4\n") == """
        s.yaml:5:5: error: expectation failed: at 0s: h.x ≈ 10 ± 0.4: was 10.5 at t = 0
              - at 0s: h.x ≈ 10 ± 0.4
                ^~~~~~~~~~~~~~~~~~~~~

        """)
    #expect(try failures(base + "expect:\n  - at 0s: h.x > 11\n") != nil)
    #expect(
      try failures(base + "expect:\n  - at frame 3: h.x == 10.5\n  - at end: h.x >= 10.5\n") == nil)
  }

  @Test func eventsBeforeAfterAndNever() throws {
    let scene =
      base + """
        gesture:
          - press: h
          - wait: 0.3s
          - release
        expect:
          - event grab before 0.1s
          - event release of h after grab of h
          - no event dismissed
          - at end: all at rest

        """
    #expect(try failures(scene) == nil)
    let wrong =
      base + """
        gesture:
          - press: h
          - release
        expect:
          - event rest of h
          - event release before 0s
          - no event grab

        """
    let text = try #require(try failures(wrong))
    #expect(text.contains("expectation failed: event rest of h: 'rest of h' never happened"))
    #expect(text.contains("expectation failed: event release before 0s: 'release' happened at 0 s"))
    #expect(text.contains("expectation failed: no event grab: 'grab' happened at t = 0"))
  }

  /// A handle moved by time: x = 100·t over frames 0 … 10 (0.1 s apart), so every frame's
  /// value is known.
  let ramp = """
    scene: { duration: 1s, fps: 10 }
    handles:
      h: { position: "(100 * time, 0)", r: 4 }
    expect:

    """

  @Test func maxAndMinLookAtEveryFrameOfTheirWindowEdgesIncluded() throws {
    let passing = [
      "max h.x during 0.2s..0.5s ≈ 50", "min h.x during 0.2s..0.5s ≈ 20",
      "max h.x during 0.5s..end == 100", "min h.x during 0s..end == 0",
      "max h.x during 0.3s..0.3s ≈ 30",
    ]
    #expect(try failures(ramp + passing.map { "  - \($0)\n" }.joined()) == nil)
    #expect(
      try failures(ramp + "  - max h.x during 0.2s..0.5s < 40\n") == """
        s.yaml:5:5: error: expectation failed: max h.x during 0.2s..0.5s < 40: the maximum was 50, at t = 0.5
              - max h.x during 0.2s..0.5s < 40
                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

        """)
    let text = try #require(try failures(ramp + "  - min h.x during 2s..3s > 0\n"))
    #expect(
      text.contains(
        "expectation failed: min h.x during 2s..3s > 0: no frame of the run is in its window"))
  }

  @Test func alwaysAndNeverNameTheFirstFrameThatBreaksThem() throws {
    #expect(
      try failures(
        ramp + "  - always h.x <= 100 during 0s..end\n  - never h.x > 100 during 0s..end\n")
        == nil)
    let text = try #require(
      try failures(
        ramp + "  - always h.x < 45 during 0s..end\n  - never h.x > 25 ± 10 during 0.1s..0.8s\n"))
    #expect(
      text.contains(
        "expectation failed: always h.x < 45 during 0s..end: did not hold at t = 0.5, where the left side was 50"
      ))
    // ± widens the assertion, as at a moment: 20 > 25 − 10 holds, so `never` fails there.
    #expect(
      text.contains(
        "expectation failed: never h.x > 25 ± 10 during 0.1s..0.8s: held at t = 0.2, where the left side was 20"
      ))
  }

  /// A handle's children are read by name, as drawn: those that change from the frames,
  /// those that do not from the scene; a child named as a handle's member is not.
  @Test func childrenAreReadAsDrawn() throws {
    let scene = """
      scene: { duration: 0.5s, fps: 10 }
      handles:
        card:
          position: [100, 100]
          r: 5
          children:
            x: { r: 3 }
            badge: { position: [10, 0], r: 3, opacity: 0.5, rotation: 90deg, scaleX: 2 }
            dot: { position: "(time * 10, 1)", r: "2 + time", opacity: 1 - time }
      expect:
        - at 0s: card.badge.x == 10
        - at 0s: card.badge.opacity == 0.5
        - at 0s: card.badge.rotation == 90deg
        - at 0s: card.badge.scaleX * card.badge.scale == 2
        - at 0.2s: card.dot.x ≈ 2 ± 1e-12
        - at 0.2s: card.dot.r ≈ 2.2 ± 1e-12
        - at 0.2s: card.dot.opacity ≈ 0.8 ± 1e-12
        - at end: card.x == 100

      """
    #expect(try failures(scene) == nil)
    #expect(
      try failures(scene.replacingOccurrences(of: "== 0.5\n", with: "== 0.6\n")) == """
        s.yaml:12:5: error: expectation failed: at 0s: card.badge.opacity == 0.6: was 0.5 at t = 0
              - at 0s: card.badge.opacity == 0.6
                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

        """)
  }

  @Test func aMomentPastTheEndFails() throws {
    let text = try #require(try failures(base + "expect:\n  - at 5s: h.x > 0\n"))
    #expect(text.contains("its moment is past the end of the run"))
  }

  @Test func expectationsCompareNumbers() throws {
    let text = try #require(try failures(base + "expect:\n  - at 0s: h < 3\n"))
    #expect(text.contains("an expectation compares numbers; compare a point's .x or .y"))
  }
}

/// Checking is linear.
///
/// A frame visits the checks bound to it and the windows open at it, never every
/// expectation. Counted, not timed.
@Suite struct ExpectationCostTests {
  /// Observes a whole run of `yaml` and returns the checker.
  func checker(_ yaml: String) throws -> ExpectationChecker {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-cost-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("s.yaml")
    try yaml.write(to: file, atomically: true, encoding: .utf8)
    let loaded = try ScenePipeline.load(path: file.path)
    let graph = try #require(loaded.graph, "\(loaded.rendered())")
    var runner = try SceneRunner(graph: graph)
    var checker = ExpectationChecker(graph: graph, fps: runner.fps)
    while let frame = try runner.nextFrame() {
      checker.observe(frame, simulation: runner.simulation)
    }
    checker.finishRun(runner.simulation, stoppedAtLimit: runner.stoppedAtLimit)
    #expect(checker.finish().isEmpty)
    return checker
  }

  /// `count` one-frame windows spread over a 10 s run at 10 fps, and as many moments.
  func scene(_ count: Int, duration: Int) -> String {
    var text =
      "scene: { duration: \(duration)s, fps: 10 }\nhandles:\n  h: { position: [10, 0] }\nexpect:\n"
    for k in 0..<count {
      let t = Double(k % (duration * 10)) / 10
      text += "  - always h.x == 10 during \(t)s..\(t)s\n  - at \(t)s: h.x == 10\n"
    }
    return text
  }

  @Test func visitsGrowWithFramesPlusExpectationsNotTheirProduct() throws {
    let small = try checker(scene(2_000, duration: 10))
    // 101 frames, 2,000 windows of one frame each and 2,000 moments: about 4,000 visits
    // (a window is visited where it opens and once more to drop it), not 101 × 4,000.
    #expect(small.visits <= 2 * 2_000 + 2_000 + 101, "\(small.visits)")
    // Ten times the frames, the same expectations: the visits barely move.
    let long = try checker(scene(2_000, duration: 100))
    #expect(long.visits <= 2 * 2_000 + 2_000 + 1_001, "\(long.visits)")
  }
}
