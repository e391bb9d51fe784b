import Foundation
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneRuntime
import SceneTestSupport
import Testing

@testable import SceneOutputs

/// `scenec export swift`: the values it writes give scenec's own springs, glides and
/// curves back through Apple's documented formulas.
@Suite struct SwiftMotionCodeTests {
  static let scenes: [String] = {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: repositoryPath("Scenes"))) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted()
  }()

  static func export(_ scene: String) throws -> (SceneGraph, String) {
    let loaded = try ScenePipeline.load(path: repositoryPath("Scenes/\(scene)"))
    let graph = try #require(loaded.graph, "\(loaded.rendered())")
    return (graph, SwiftMotionCode.source(for: graph, sceneFile: scene))
  }

  /// The numbers written in each `call` … `)` of `text` (`call` ends with its first
  /// label, as `Spring(duration:`), by argument name.
  static func arguments(of call: String, in text: String) -> [[String: Double]] {
    let open = call.firstIndex(of: "(").map { call[...$0] } ?? Substring(call)
    var found: [[String: Double]] = []
    var rest = Substring(text)
    while let start = rest.range(of: call) {
      rest = rest[start.lowerBound...].dropFirst(open.count)
      guard let end = rest.firstIndex(of: ")") else { break }
      var values: [String: Double] = [:]
      for part in rest[..<end].split(separator: ",") {
        let pair = part.split(separator: ":").map {
          $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if pair.count == 2, let value = Double(pair[1]) { values[pair[0]] = value }
      }
      found.append(values)
    }
    return found
  }

  /// Each spring's constants are written exactly, in SwiftUI's, UIKit's and Core
  /// Animation's forms alike.
  @Test(arguments: scenes)
  func theSpringsConstantsAreWrittenExactly(scene: String) throws {
    let (graph, text) = try Self.export(scene)
    let springs = Self.arguments(of: "Spring(mass:", in: text)
    #expect(springs.count == graph.springs.count)
    for (spring, written) in zip(graph.springs, springs) {
      #expect(written["stiffness"] == spring.stiffness, "\(scene): \(spring.name)")
      #expect(written["damping"] == spring.damping, "\(scene): \(spring.name)")
      #expect(text.contains("animation.stiffness = \(spring.stiffness.shortestDescription)"))
      #expect(
        text.contains(
          "UISpringTimingParameters(\n          mass: \(spring.mass.shortestDescription), stiffness: \(spring.stiffness.shortestDescription)"
        ))
    }
    #expect(zip(graph.springs, springs).allSatisfy { $0.mass == $1["mass"] })
  }

  /// SwiftUI's `Spring(duration:bounce:)`, turned back into stiffness and damping by
  /// SwiftUI's documented formulas, is scenec's spring: the same constants to 1e-9, and the
  /// same motion, step by step.
  @Test(arguments: scenes)
  func theSpringByFeelIsTheSameSpring(scene: String) throws {
    let (graph, text) = try Self.export(scene)
    let byFeel = Self.arguments(of: "Spring(duration:", in: text)
    #expect(byFeel.count == graph.springs.count)
    for (spring, written) in zip(graph.springs, byFeel) {
      let duration = try #require(written["duration"])
      let bounce = try #require(written["bounce"])
      let m = spring.mass
      let stiffness = m * (2 * .pi / duration) * (2 * .pi / duration)
      let damping =
        bounce >= 0
        ? 4 * .pi * (1 - bounce) * m / duration : 4 * .pi * m / (duration * (1 + bounce))
      #expect(isApproximatelyEqual(stiffness, spring.stiffness, relativeTolerance: 1e-9))
      #expect(isApproximatelyEqual(damping, spring.damping, relativeTolerance: 1e-9))
      let scenec = SpringModel(
        stiffness: spring.stiffness, damping: spring.damping, mass: m, restThreshold: 0.5)
      let swiftUI = SpringModel(
        stiffness: stiffness, damping: damping, mass: m, restThreshold: 0.5)
      for t in stride(from: 0.05, through: 2, by: 0.05) {
        var a = (displacement: -100.0, velocity: 250.0)
        var b = a
        scenec.propagator(dt: t).step(&a.displacement, &a.velocity)
        swiftUI.propagator(dt: t).step(&b.displacement, &b.velocity)
        #expect(abs(a.displacement - b.displacement) <= 1e-9 * 100, "\(scene) at \(t)")
      }
    }
  }

  /// A glide's deceleration rate gives its time constant back: τ = −0.001 / ln r.
  @Test func theDecelerationRateGivesTheGlidesTimeConstantBack() throws {
    for scene in Self.scenes {
      let (graph, text) = try Self.export(scene)
      let rates = Self.arguments(of: "DecelerationRate(", in: text).compactMap { $0["rawValue"] }
      let momenta = SwiftMotionCode.usedMomenta(graph)
      #expect(rates.count == momenta.count, "\(scene)")
      for (rate, entry) in zip(rates, momenta) {
        let tau = -0.001 / Foundation.log(rate)
        #expect(isApproximatelyEqual(tau, entry.momentum.timeConstant, relativeTolerance: 1e-9))
      }
    }
    #expect(SwiftMotionCode.decelerationRate(timeConstant: -0.001 / Foundation.log(0.998)) == 0.998)
  }

  /// Bounce below 0 (overdamped) maps through SwiftUI's other branch.
  @Test func anOverdampedSpringHasANegativeBounce() {
    let (duration, bounce) = SwiftMotionCode.durationAndBounce(
      mass: 1, stiffness: 4 * .pi * .pi, damping: 2 * 2 * 2 * .pi)
    #expect(isApproximatelyEqual(duration, 1, relativeTolerance: 1e-12))
    #expect(isApproximatelyEqual(bounce, -0.5, relativeTolerance: 1e-12))
  }

  /// The curves are written with their control points, as Core Animation's functions.
  @Test func easingsAreWrittenAsTheirControlPoints() throws {
    let (_, text) = try Self.export("progress-ring.yaml")
    #expect(text.contains(".timingCurve("))
    #expect(text.contains("CAMediaTimingFunction(controlPoints:"))
    let (_, sticky) = try Self.export("sticky-ball-dismiss.yaml")
    #expect(sticky.contains("/// `ease-in`: state 'gone' of machine 'life'."))
    #expect(sticky.contains(".timingCurve(0.42, 0, 1, 1, duration: 0.25)"))
  }

  @Test func namesBecomeSwiftTypeNames() {
    #expect(SwiftMotionCode.typeName("Elastic wave") == "ElasticWave")
    #expect(SwiftMotionCode.typeName("pull-to-refresh") == "PullToRefresh")
    #expect(SwiftMotionCode.typeName("3 dots") == "Scene3Dots")
    #expect(SwiftMotionCode.typeName("") == "Scene")
    #expect(SwiftMotionCode.springTypeName("wave") == "WaveSpring")
  }
}
