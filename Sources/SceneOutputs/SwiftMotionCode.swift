import RealModule
import SceneGeometry
import SceneGraph
import SceneVocabulary

/// A scene's springs, easings and momentum as Swift source for Apple's frameworks: the
/// values a tuned scene hands to the app that will run the motion for real
/// (`scenec export swift`).
///
/// Every spring is written as SwiftUI's `Spring`, `Animation.interpolatingSpring`,
/// UIKit's `UISpringTimingParameters` and Core Animation's `CASpringAnimation`, all from
/// the same mass, stiffness and damping scenec runs, so each moves exactly as the scene
/// does; SwiftUI's `Spring(duration:bounce:)` beside them gives the same spring through
/// SwiftUI's own formulas. Easings become `Animation.timingCurve` and
/// `CAMediaTimingFunction` values, and a `drag`'s momentum `UIScrollView.DecelerationRate`.
/// A comment beside each value says how it maps.
public enum SwiftMotionCode {
  /// A spring as SwiftUI describes it by its feel: `duration` the period 2π√(m/k), and
  /// `bounce` 1 − ζ for ζ ≤ 1, or 1/ζ − 1 above (so ζ = 1/(1 + bounce)), as SwiftUI's
  /// `Spring(duration:bounce:)` documents.
  public static func durationAndBounce(mass: Double, stiffness: Double, damping: Double) -> (
    duration: Double, bounce: Double
  ) {
    let duration = 2 * Double.pi * (mass / stiffness).squareRoot()
    let ratio = damping / (2 * (stiffness * mass).squareRoot())
    let bounce = ratio <= 1 ? 1 - ratio : 1 / ratio - 1
    return (duration, bounce)
  }

  /// UIKit's deceleration rate (the speed kept each millisecond) of a glide with time
  /// constant `tau` seconds: r = e^(−0.001/τ).
  public static func decelerationRate(timeConstant tau: Double) -> Double {
    Double.exp(-0.001 / tau)
  }

  /// The Swift source for `graph`, read from `sceneFile` (named in its header comment).
  public static func source(for graph: SceneGraph, sceneFile: String) -> String {
    var lines: [String] = []
    let type = typeName(graph.name)
    lines.append("// The springs, easings and momentum of \"\(graph.name)\" (\(sceneFile)),")
    lines.append("// as SwiftUI, UIKit and Core Animation values that move as the scene does.")
    lines.append("// Written by `scenec export swift`; scenec's own numbers, in full.")
    lines.append("")
    lines.append("import QuartzCore")
    lines.append("import SwiftUI")
    lines.append("")
    lines.append("#if canImport(UIKit)")
    lines.append("  import UIKit")
    lines.append("#endif")
    lines.append("")
    lines.append("enum \(type) {")
    var sections: [[String]] = []
    for spring in graph.springs { sections.append(springLines(spring)) }
    let easings = usedEasings(graph)
    if !easings.isEmpty { sections.append(easingLines(easings)) }
    let momenta = usedMomenta(graph)
    if !momenta.isEmpty { sections.append(momentumLines(momenta)) }
    if sections.isEmpty {
      sections.append(["  // The scene has no springs, easings or momentum."])
    }
    lines += sections.map { $0.joined(separator: "\n") }.joined(separator: "\n\n").split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: - Springs

  static func springLines(_ spring: SceneGraph.Spring) -> [String] {
    let m = number(spring.mass)
    let k = number(spring.stiffness)
    let c = number(spring.damping)
    let (duration, bounce) = durationAndBounce(
      mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping)
    let ratio = spring.damping / (2 * (spring.stiffness * spring.mass).squareRoot())
    let name = springTypeName(spring.name)
    return [
      "  /// The spring `\(spring.name)`: mass \(m), stiffness \(k), damping \(c); damping ratio",
      "  /// ζ = c / (2√(km)) = \(number(ratio)), period 2π√(m/k) = \(number(duration)) s.",
      "  /// scenec counts it at rest within \(number(spring.restThreshold)) (points and points per second).",
      "  enum \(name) {",
      "    /// SwiftUI, the same constants: moves exactly as the scene's spring.",
      "    static let spring = Spring(mass: \(m), stiffness: \(k), damping: \(c))",
      "    /// SwiftUI by feel: `duration` is the period, `bounce` 1 − ζ (1/ζ − 1 when ζ > 1);",
      "    /// SwiftUI turns them back into stiffness (2π/duration)²·m and damping",
      "    /// 4π(1 − bounce)·m/duration (4π·m/(duration·(1 + bounce)) below 0): the same spring.",
      "    static let springByFeel = Spring(duration: \(number(duration)), bounce: \(number(bounce)))",
      "    /// SwiftUI's animation of it; give it the gesture's speed as `initialVelocity`.",
      "    static func animation(initialVelocity: Double = 0) -> Animation {",
      "      .interpolatingSpring(",
      "        mass: \(m), stiffness: \(k), damping: \(c), initialVelocity: initialVelocity)",
      "    }",
      "",
      "    #if canImport(UIKit)",
      "      /// UIKit, for `UIViewPropertyAnimator(duration:timingParameters:)`: with mass,",
      "      /// stiffness and damping UIKit ignores the animator's duration and runs the spring",
      "      /// to rest. `initialVelocity` is relative: the gesture's speed over the distance left.",
      "      static func timingParameters(initialVelocity: CGVector = .zero) -> UISpringTimingParameters {",
      "        UISpringTimingParameters(",
      "          mass: \(m), stiffness: \(k), damping: \(c), initialVelocity: initialVelocity)",
      "      }",
      "    #endif",
      "",
      "    /// Core Animation: the same constants; it lasts until it settles.",
      "    static func animation(keyPath: String) -> CASpringAnimation {",
      "      let animation = CASpringAnimation(keyPath: keyPath)",
      "      animation.mass = \(m)",
      "      animation.stiffness = \(k)",
      "      animation.damping = \(c)",
      "      animation.duration = animation.settlingDuration",
      "      return animation",
      "    }",
      "  }",
    ]
  }

  // MARK: - Easings

  /// An easing the scene uses, with its duration when it has a fixed one, and what uses it.
  struct UsedEasing: Equatable {
    var easing: Easing
    var duration: Double?
    var use: String
  }

  static func usedEasings(_ graph: SceneGraph) -> [UsedEasing] {
    var found: [UsedEasing] = []
    func add(_ easing: Easing, _ duration: Double?, _ use: String) {
      let entry = UsedEasing(easing: easing, duration: duration, use: use)
      if !found.contains(entry) { found.append(entry) }
    }
    for constraint in graph.constraints {
      switch constraint.kind {
      case .elastic(let e):
        let handle = graph.handles[e.handle].name
        switch e.returnMotion {
        case .spring: break
        case .speed(let speed, let easing):
          add(easing, nil, "the return of '\(handle)' at \(number(speed)) points per second")
        case .duration(let seconds, let easing):
          add(easing, seconds, "the return of '\(handle)'")
        }
      case .animate(let a):
        add(a.easing, a.duration, "the animation of '\(graph.handles[a.handle].name)'")
      case .follow, .gooey, .drag:
        break
      }
    }
    for handle in graph.handles {
      for motion in handle.motions {
        guard let tween = motion.tween else { continue }
        add(tween.easing, tween.duration, "the \(motion.property.key) of '\(handle.name)'")
      }
      for child in handle.children {
        for motion in child.motions {
          guard let tween = motion.tween else { continue }
          add(
            tween.easing, tween.duration,
            "the \(motion.property.key) of '\(handle.name).\(child.name)'")
        }
      }
    }
    for path in graph.paths {
      for motion in path.motions {
        guard let tween = motion.tween else { continue }
        add(tween.easing, tween.duration, "the \(motion.property.key) of path '\(path.name)'")
      }
    }
    for machine in graph.machines {
      for state in machine.states {
        guard case .tween(let duration, let easing) = state.motion else { continue }
        add(easing, duration, "state '\(state.name)' of machine '\(machine.name)'")
      }
    }
    return found
  }

  static func easingLines(_ easings: [UsedEasing]) -> [String] {
    var lines = [
      "  /// The easings, as cubic Béziers from (0, 0) to (1, 1): scenec's timing curves are",
      "  /// Core Animation's, so these are the same curves.", "  enum Easings {",
    ]
    for (k, used) in easings.enumerated() {
      let p = used.easing.controlPoints
      let points = "\(number(p.x1)), \(number(p.y1)), \(number(p.x2)), \(number(p.y2))"
      let name = "easing\(k + 1)"
      if k > 0 { lines.append("") }
      lines.append("    /// `\(used.easing.description)`: \(used.use).")
      let duration = used.duration.map(number) ?? "duration"
      if used.duration == nil {
        lines.append("    static func \(name)(duration: Double) -> Animation {")
      } else {
        lines.append("    static var \(name): Animation {")
      }
      lines.append("      .timingCurve(\(points), duration: \(duration))")
      lines.append("    }")
      lines.append(
        "    static let \(name)Function = CAMediaTimingFunction(controlPoints: \(points))")
    }
    lines.append("  }")
    return lines
  }

  // MARK: - Momentum

  static func usedMomenta(_ graph: SceneGraph) -> [(handle: String, momentum: SceneGraph.Momentum)]
  {
    var found: [(handle: String, momentum: SceneGraph.Momentum)] = []
    for constraint in graph.constraints {
      switch constraint.kind {
      case .drag(let d):
        if let momentum = d.momentum { found.append((graph.handles[d.handle].name, momentum)) }
      case .follow(let f):
        if let momentum = f.momentum { found.append((graph.handles[f.handle].name, momentum)) }
      case .elastic, .gooey, .animate:
        break
      }
    }
    return found
  }

  static func momentumLines(_ momenta: [(handle: String, momentum: SceneGraph.Momentum)])
    -> [String]
  {
    var lines = [
      "  /// Momentum: a thrown handle glides with its speed decaying as e^(−t/τ).",
      "  enum Momentum {",
    ]
    for (k, entry) in momenta.enumerated() {
      let tau = entry.momentum.timeConstant
      let rate = decelerationRate(timeConstant: tau)
      let name = "\(entry.handle)Deceleration"
      if k > 0 { lines.append("") }
      lines.append(
        "    /// The glide of '\(entry.handle)': τ = \(number(tau)) s, so the speed kept each millisecond is"
      )
      lines.append("    /// e^(−0.001/τ) = \(number(rate)) (`.normal` is 0.998, `.fast` 0.99).")
      if abs(entry.momentum.gain - tau) > 1e-12 * max(1, tau) {
        lines.append(
          "    /// Its glide goes \(number(entry.momentum.gain)) × the release speed (Framer's `power`),"
        )
        lines.append(
          "    /// where a scroll view's goes τ × it: scale a projected distance by \(number(entry.momentum.gain / tau))."
        )
      }
      lines.append("    #if canImport(UIKit)")
      lines.append(
        "      static let \(name) = UIScrollView.DecelerationRate(rawValue: \(number(rate)))")
      lines.append("    #endif")
    }
    lines.append("  }")
    return lines
  }

  // MARK: - Names and numbers

  /// A number as Swift reads it back exactly.
  static func number(_ value: Double) -> String { value.shortestDescription }

  /// `Elastic wave` → `ElasticWave`, `pull-to-refresh` → `PullToRefresh`; a name that
  /// would not start with a letter gets `Scene` before it.
  static func typeName(_ text: String) -> String {
    var result = ""
    var upper = true
    for scalar in text.unicodeScalars {
      let isWordCharacter = scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
      guard scalar.isASCII, isWordCharacter else {
        upper = true
        continue
      }
      result += upper ? String(scalar).uppercased() : String(scalar)
      upper = false
    }
    if result.isEmpty || !(result.unicodeScalars.first?.properties.isAlphabetic ?? false) {
      result = "Scene" + result
    }
    return result
  }

  /// `wave` → `WaveSpring`: a spring's name is an identifier, unique in its scene, so its
  /// first letter raised keeps it unique, and the suffix keeps it apart from `Easings` and
  /// `Momentum`.
  static func springTypeName(_ name: String) -> String {
    name.prefix(1).uppercased() + name.dropFirst() + "Spring"
  }
}
