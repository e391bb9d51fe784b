import SceneDiagnostics
import ScenePipeline
import SceneResolve
import SceneSyntax
import Testing

@testable import SceneGraph

/// The resolver compiles long lists of expressions in pieces that may run side by side
/// (`ParallelWork`): the graph and every error must come out exactly as when compiled one
/// by one.
@Suite struct ParallelResolveTests {
  /// `cells` cells of bound points and paths through them, with (`mistakes`) one of three
  /// mistakes in three cells of every five.
  static func scene(cells: Int, mistakes: Bool = true) -> String {
    var handles = "let:\n  pull: min(max(drag.dy, 0), 60)\nhandles:\n"
    var paths = "paths:\n"
    for k in 0..<cells {
      let position: String
      switch mistakes ? k % 5 : 0 {
      case 1: position = "\"(\(k) + pul, \(k))\""  // an unknown name
      case 3: position = "\"\(k) + pull\""  // a number, not a point
      default: position = "\"(\(k) + pull * 0.3, 2 * sin(time * 6 + \(k)))\""
      }
      handles += """
          w\(k)_0: { position: \(position), rest: [\(k), 0] }
          w\(k)_1: { position: "(\(k), time)" }

        """
      let through = mistakes && k % 5 == 4 ? "nowhere\(k)" : "w\(k)_1"
      paths += """
          s\(k): { segments: [{ move: w\(k)_0 }, { cubic: [w\(k)_1, \(through), w\(k)_0] }] }

        """
    }
    return handles + paths
  }

  /// Every piece, but the last first (a deterministic order unlike the serial one), and
  /// small pieces, so that a small scene is cut into many.
  static let backwards = ParallelWork(minimumPiece: 7) { count, body in
    for index in (0..<count).reversed() { body(index) }
  }

  /// Every core, in small pieces.
  static let allCores = ParallelWork(minimumPiece: 7, perform: ParallelWork.allCores.perform)

  static func resolve(_ spec: SceneSpec, _ parallel: ParallelWork) -> (String, [ResolveError]) {
    let result = SceneResolver.resolve(spec, parallel: parallel)
    return (result.graph.map { String(describing: $0) } ?? "no graph", result.errors)
  }

  @Test func piecesInAnyOrderResolveAsOneByOne() throws {
    for cells in [100, 99] {
      let text = Self.scene(cells: cells)
      let spec = try #require(
        SceneLoader.load(SourceFile(name: "cells.yaml", text: text), syntax: .yaml).spec)
      let serial = Self.resolve(spec, .serial)
      // Three kinds of mistake, a fifth of the cells each.
      #expect(serial.1.count == (0..<cells).filter { [1, 3, 4].contains($0 % 5) }.count)
      for (name, work) in [("backwards", Self.backwards), ("all cores", Self.allCores)] {
        let pieces = Self.resolve(spec, work)
        #expect(pieces.1 == serial.1, "\(name)")
      }
    }
    // Without mistakes there is a graph, the same whichever way it was compiled.
    let good = try #require(
      SceneLoader.load(
        SourceFile(name: "good.yaml", text: Self.scene(cells: 100, mistakes: false)),
        syntax: .yaml
      ).spec)
    let serial = Self.resolve(good, .serial)
    #expect(serial.1.isEmpty)
    #expect(serial.0.hasPrefix("SceneGraph("))
    for (name, work) in [("backwards", Self.backwards), ("all cores", Self.allCores)] {
      let pieces = Self.resolve(good, work)
      #expect(pieces.0 == serial.0, "\(name)")
      #expect(pieces.1.isEmpty, "\(name)")
    }
  }
}
