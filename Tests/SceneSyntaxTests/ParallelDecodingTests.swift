import SceneDiagnostics
import ScenePipeline
import Testing

@testable import SceneSyntax
@testable import SceneYAML

/// Long lists of handles, paths and constraints are decoded in pieces that may run side by
/// side (`ParallelWork`): the AST, its spans and every message must come out exactly as
/// when decoded one by one.
@Suite struct ParallelDecodingTests {
  /// A scene of `cells` cells, with a mistake of a different kind in every seventh one.
  static func scene(cells: Int) -> String {
    var handles = "handles:\n"
    var paths = "paths:\n"
    var constraints = "constraints:\n"
    for k in 0..<cells {
      let broken = k % 7 == 3
      handles += """
          h\(k): { position: [\(k), \(broken ? "2 +" : "\(k) * 2")], draggable: true }
          g\(k):
            position: (\(k) + sin(time), \(k))
            \(broken ? "colour" : "fill"): "#ffb020"

        """
      if k % 7 == 5 { handles += "  \(k)bad: { position: [0, 0] }\n" }
      paths += """
          p\(k): { d: "M0 0 C 10 \(k) 20 \(broken ? "x" : "0") 30 30" }

        """
      constraints += """
          - follow: { handle: h\(k), path: p\(k)\(broken ? ", spring: 3" : "") }
          - \(k % 7 == 6 ? "folow" : "elastic"): { handle: g\(k) }

        """
    }
    return handles + paths + constraints
  }

  /// Every piece, but the last first (a deterministic order unlike the serial one), and
  /// small pieces, so that a small scene is cut into many.
  static let backwards = ParallelWork(minimumPiece: 7) { count, body in
    for index in (0..<count).reversed() { body(index) }
  }

  /// Every core, in small pieces.
  static let allCores = ParallelWork(minimumPiece: 7, perform: ParallelWork.allCores.perform)

  static func decode(_ text: String, _ parallel: ParallelWork, keysAreUnique: Bool = true)
    throws -> (spec: String, diagnostics: [Diagnostic])
  {
    let document = try #require(
      try YAMLReader.read(SourceFile(name: "cells.yaml", text: text), pipelined: false))
    let result = SceneDecoder.decode(document, keysAreUnique: keysAreUnique, parallel: parallel)
    // Described, so the comparison covers every span (`SourceRef`'s equality ignores them).
    return (String(describing: result.spec), result.diagnostics)
  }

  @Test func piecesInAnyOrderDecodeAsOneByOne() throws {
    let text = Self.scene(cells: 150)
    let serial = try Self.decode(text, .serial)
    // Every kind of mistake is in there, many times over.
    #expect(serial.diagnostics.count > 100)
    #expect(serial.spec.contains("cells.yaml:"))
    for (name, work) in [("backwards", Self.backwards), ("all cores", Self.allCores)] {
      let pieces = try Self.decode(text, work)
      #expect(pieces.diagnostics == serial.diagnostics, "\(name)")
      #expect(pieces.spec == serial.spec, "\(name)")
      // The DSL's tree may repeat keys: duplicates are found before the list is cut.
      #expect(
        try Self.decode(text, work, keysAreUnique: false).diagnostics == serial.diagnostics,
        "\(name)")
    }
  }

  @Test func piecesCoverTheListInOrder() {
    #expect(ParallelWork.serial.pieces(of: 100_000) == [0..<100_000])
    #expect(ParallelWork.allCores.pieces(of: 511) == [0..<511])
    #expect(ParallelWork.allCores.pieces(of: 512) == [0..<256, 256..<512])
    #expect(Self.backwards.pieces(of: 20) == [0..<10, 10..<20])
    for count in [0, 1, 255, 256, 4_095, 4_096, 4_097, 40_000, 1_000_003] {
      let pieces = ParallelWork.allCores.pieces(of: count)
      #expect(pieces.first?.lowerBound == 0)
      #expect(pieces.last?.upperBound == count)
      #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
      #expect(pieces.count <= 16)
      #expect(pieces.count == 1 || pieces.allSatisfy { $0.count >= 256 })
    }
  }

  @Test func mapKeepsTheOrderOfThePieces() {
    let squares = ParallelWork.allCores.map(1_000) { $0 * $0 }
    #expect(squares == (0..<1_000).map { $0 * $0 })
    #expect(Self.backwards.map(3) { "\($0)" } == ["0", "1", "2"])
    #expect(ParallelWork.allCores.map(0) { $0 }.isEmpty)
  }
}
