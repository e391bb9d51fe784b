import Foundation
import SceneDiagnostics
import SceneGeometry
import ScenePipeline
import SceneResolve
import SceneSyntax
import SceneVocabulary
import Testing

@testable import SceneGraph

@Suite struct SceneResolverTests {
  /// The resolver's diagnostics for a YAML scene, rendered exactly as `scenec check` prints them.
  func problems(_ yaml: String) -> String {
    let file = SourceFile(name: "s.yaml", text: yaml)
    let loaded = SceneLoader.load(file, syntax: .yaml)
    let renderer = DiagnosticRenderer(files: [file])
    guard let spec = loaded.spec else {
      return "load failed:\n" + renderer.render(loaded.diagnostics)
    }
    return renderer.render(SceneResolver.resolve(spec).errors.map(\.diagnostic))
  }

  @Test func unnamedGooeyConstraintsAreNumberedAmongTheGooeyOnes() throws {
    let file = SourceFile(
      name: "s.yaml",
      text: """
        handles:
          a: { position: [0, 0], r: 10 }
          b: { position: [0, 0], r: 10, draggable: true }
          c: { position: [50, 0], r: 10 }
          d: { position: [50, 0], r: 10, draggable: true }
          e: { position: [90, 0], r: 10 }
          f: { position: [90, 0], r: 10, draggable: true }
          g: { position: [0, 50], r: 5, draggable: true }
          h: { position: [0, 80], r: 5, draggable: true }
        constraints:
          - elastic: { handle: g }
          - gooey: { anchor: a, ball: b }
          - elastic: { handle: h, name: pull }
          - gooey: { anchor: c, ball: d, name: drop }
          - gooey: { anchor: e, ball: f }
        """)
    let spec = try #require(SceneLoader.load(file, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    #expect(graph.constraints.map(\.reportedName) == ["", "gooey1", "pull", "drop", "gooey3"])
  }

  @Test func onlyPathsAConstraintReadsGetTheInverseTable() throws {
    let file = SourceFile(
      name: "s.yaml",
      text: """
        handles:
          bead: { position: [0, 0], r: 5, draggable: true }
          car: { position: [0, 0], r: 5 }
        paths:
          track: { d: "M0 0 C 30 80 70 -40 100 0" }
          road: { d: "M0 0 C 50 50 100 -50 150 0" }
          drawn: { d: "M0 0 C 10 10 20 -10 30 0" }
        constraints:
          - follow: { handle: bead, path: track }
          - animate: { handle: car, path: road, duration: 2s }
        """)
    let spec = try #require(SceneLoader.load(file, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    #expect(graph.paths.map { $0.measured?.isPreparedForRepeatedPositions } == [true, true, false])
  }

  @Test func aCleanSceneResolvesWithDefaults() throws {
    let file = SourceFile(
      name: "s.yaml",
      text: """
        springs: { snap: { dampingRatio: 0.5, duration: 0.5s } }
        handles:
          ball: { position: [10, 10], r: 8, draggable: true, spring: snap }
        paths:
          p: { d: "M0 0 L100 0" }
        constraints:
          - follow: { handle: ball, path: p }
        """)
    let spec = try #require(SceneLoader.load(file, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    #expect(graph.fps == 60 && graph.width == 400 && graph.height == 300)
    #expect(graph.duration == .untilRest(limit: 30))
    #expect(graph.handles[0].shape == .circle && graph.handles[0].hitRadius == 22)
    #expect(graph.handles[0].spring == 0)
    // UIKit's spring mapping: k = 4π²m/T², c = 2ζ√(km).
    let spring = graph.springs[0]
    #expect(abs(spring.stiffness - 4 * Double.pi * Double.pi / 0.25) <= 1e-9)
    #expect(abs(spring.damping - 2 * 0.5 * spring.stiffness.squareRoot()) <= 1e-9)
    guard case .follow(let follow) = graph.constraints[0].kind else {
      Issue.record("not a follow constraint")
      return
    }
    #expect(follow.handle == 0 && follow.path == 0 && !follow.wrap && follow.hysteresis == 20)
  }

  @Test func danglingReferencesSuggestTheNearestName() {
    #expect(
      problems(
        """
        handles:
          ball: { position: [10, 10], r: 8 }
        paths:
          curve: { d: "M0 0 L100 0" }
        constraints:
          - follow: { handle: bal, path: curv }
        """) == """
          s.yaml:6:23: error: unknown handle 'bal'; did you mean 'ball'?
                - follow: { handle: bal, path: curv }
                                    ^~~
          s.yaml:6:34: error: unknown path 'curv'; did you mean 'curve'?
                - follow: { handle: bal, path: curv }
                                               ^~~~

          """)
  }

  @Test func gooeyNeedsTwoCircles() {
    #expect(
      problems(
        """
        handles:
          a: { position: [0, 0], r: 10 }
          b: { position: [0, 0] }
        constraints:
          - gooey: { anchor: a, ball: b }
        """) == """
          s.yaml:5:31: error: gooey needs two circles, but handle 'b' is not drawn (shape none)
                - gooey: { anchor: a, ball: b }
                                            ^
          s.yaml:3:3: note: 'b' is defined here
                b: { position: [0, 0] }
                ^

          """)
  }

  @Test func valuesOutOfRangeAreReportedWhereTheyWereWritten() {
    #expect(
      problems(
        """
        scene: { fps: 0, duration: -1s }
        springs: { s: { dampingRatio: 0.5, duration: 0s, mass: -2 } }
        handles:
          ball: { position: [0, 0], r: -3 }
        paths:
          dot: { d: "M5 5" }
        """) == """
          s.yaml:1:15: error: fps must be between 1 and 1000, found 0
              scene: { fps: 0, duration: -1s }
                            ^
          s.yaml:1:28: error: duration must be between 0.001 and 3600, found -1
              scene: { fps: 0, duration: -1s }
                                         ^~~
          s.yaml:2:46: error: spring 's': duration must be between 1ms and 3600s, found 0s
              springs: { s: { dampingRatio: 0.5, duration: 0s, mass: -2 } }
                                                           ^~
          s.yaml:2:56: error: spring 's': mass must be between 1e-06 and 1000000, found -2
              springs: { s: { dampingRatio: 0.5, duration: 0s, mass: -2 } }
                                                                     ^~
          s.yaml:4:32: error: handle 'ball': radius must not be negative, found -3
                ball: { position: [0, 0], r: -3 }
                                             ^~
          s.yaml:6:14: error: path 'dot' has zero length; a path needs at least one segment that goes somewhere
                dot: { d: "M5 5" }
                           ^~~~

          """)
  }

  @Test func aHandleHasOneMoverAndNamesDoNotClash() {
    #expect(
      problems(
        """
        let:
          ball: 3
          time: 4
        handles:
          ball: { position: [0, 0], r: 5 }
        paths:
          p: { d: "M0 0 L10 0" }
        constraints:
          - follow: { handle: ball, path: p, ends: wrap }
          - animate: { handle: ball, path: p, duration: 1s }
        """) == """
          s.yaml:3:3: error: let 'time' hides the built-in name 'time'; choose another name
                time: 4
                ^~~~
          s.yaml:5:3: error: 'ball' names both a let and a handle
                ball: { position: [0, 0], r: 5 }
                ^~~~
          s.yaml:2:3: note: the let 'ball' is defined here
                ball: 3
                ^~~~
          s.yaml:9:44: error: 'ends: wrap' needs a closed path, and path 'p' is open
                - follow: { handle: ball, path: p, ends: wrap }
                                                         ^~~~
          s.yaml:10:24: error: handle 'ball' is already moved by a follow constraint; a handle can be moved by only one follow, elastic, gooey, animate or drag
                - animate: { handle: ball, path: p, duration: 1s }
                                     ^~~~
          s.yaml:9:5: note: the follow constraint is here
                - follow: { handle: ball, path: p, ends: wrap }
                  ^~~~~~

          """)
  }
}

@Suite struct DependencyOrderTests {
  func problems(_ yaml: String) -> String { SceneResolverTests().problems(yaml) }

  @Test func cyclesAreReportedWholeWithEveryPart() {
    #expect(
      problems(
        """
        let:
          a: b + 1
          b: c.x
        handles:
          c: { position: [a, pointer.y] }
        """) == """
          s.yaml:2:3: error: dependency cycle: 'a' → 'b' → 'c' → 'a'
                a: b + 1
                ^
          s.yaml:3:3: note: 'b' is defined here
                b: c.x
                ^
          s.yaml:5:3: note: 'c' is defined here
                c: { position: [a, pointer.y] }
                ^

          """)
    #expect(
      problems("let:\n  a: a * 2\n") == """
        s.yaml:2:3: error: 'a' depends on itself
              a: a * 2
              ^

        """)
  }

  @Test func aPathThatReadsItsFollowerIsACycle() {
    #expect(
      problems(
        """
        handles:
          h: { position: [0, 0], r: 4 }
        paths:
          p:
            segments:
              - move: (0, 0)
              - line: h
        constraints:
          - follow: { handle: h, path: p }
        """) == """
          s.yaml:2:3: error: dependency cycle: 'h' → 'p' → 'h'
                h: { position: [0, 0], r: 4 }
                ^
          s.yaml:4:3: note: 'p' is defined here
                p:
                ^

          """)
  }

  @Test func typesAndNamesAreChecked() {
    #expect(
      problems(
        """
        handles:
          ball: { position: "pointer.x * 2", r: 4 }
        gesture:
          - press: bal
        """) == """
          s.yaml:2:22: error: the position of handle 'ball' must be a point (x, y), found a number
                ball: { position: "pointer.x * 2", r: 4 }
                                   ^~~~~~~~~~~~~
          s.yaml:4:12: error: unknown name 'bal'; did you mean 'ball'?
                - press: bal
                         ^~~

          """)
  }

  @Test func evaluationOrderPutsDependenciesFirst() throws {
    let file = SourceFile(
      name: "s.yaml",
      text: """
        let:
          depth: min(pull * 0.6, 100)
          pull: max(drag.dy, 0)
        handles:
          c: { position: [pointer.x, depth] }
          still: { position: [1, 2] }
        """)
    let spec = try #require(SceneLoader.load(file, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    let order = graph.evaluationOrder
    let pull = try #require(order.firstIndex(of: .letValue(1)))
    let depth = try #require(order.firstIndex(of: .letValue(0)))
    let c = try #require(order.firstIndex(of: .handle(0)))
    #expect(pull < depth && depth < c)
    #expect(graph.handles[0].isBound && !graph.handles[1].isBound)
    #expect(graph.layout.count == SlotLayout.builtinCount + 2 * 2 + 3 * 2)
  }
}
