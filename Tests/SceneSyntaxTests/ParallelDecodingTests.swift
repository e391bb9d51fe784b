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
    // With a state per piece: every value in place, each piece's state in order.
    for work in [Self.backwards, Self.allCores, ParallelWork.serial] {
      let (values, states) = work.map(
        100, state: { [Int]() },
        { seen, index in
          seen.append(index)
          return "\(index)"
        })
      #expect(values == (0..<100).map { "\($0)" })
      #expect(states == work.pieces(of: 100).map { Array($0) })
    }
  }
}

/// The DSL reads the one-line statements of a long file in pieces that may run side by
/// side: the tree and every message must come out as when read line by line.
@Suite struct ParallelDSLTests {
  /// `cells` cells of DSL statements, with a mistake of a different kind in most of them.
  static func scene(cells: Int) -> String {
    var text = "scene \"Cells\" size=400x300\n\nspring snappy dampingRatio=0.7 duration=0.4s\n"
    for k in 0..<cells {
      switch k % 9 {
      case 1: text += "handle h\(k) position=(\(k), 0 r=6\n  r=7\n"  // unclosed, then a block
      case 2: text += "handle \(k)bad position=(0, 0)\n  move (1, 1)\n"  // an indented line after
      case 3: text += "spring s\(k) dampingRatio=0.5 dampingRatio=0.6\n"  // a repeated key
      case 4: text += "folow h\(k) path=p\(k)\n"  // an unknown statement
      case 5: text += "handle h\(k)\n\tr=4\n"  // a tab
      default: text += "handle h\(k) position=(\(k), \(k) * 2) r=6 draggable fill=#ffb020\n"
      }
      text += "path p\(k) stroke=#3a4458\n  move h\(k)\n  line (\(k), 100)\n"
      text += "follow h\(k) path=p\(k) spring=snappy\n"
      text += "elastic h\(k) resistance=rubberband\(k % 9 == 6 ? " =x" : "")\n"
      if k % 9 == 7 { text += "  # a comment in no block\n" }
    }
    return text + "gesture\n  press h0\n  release\n"
  }

  static func parse(_ text: String, _ parallel: ParallelWork) -> (String, [Diagnostic]) {
    let parsed = DSLParser.parse(SourceFile(name: "cells.scene", text: text), parallel: parallel)
    // Described, so the comparison covers every span (`SourceRef`'s equality ignores them).
    return (parsed.document.map { String(describing: $0) } ?? "no document", parsed.diagnostics)
  }

  @Test func piecesInAnyOrderReadAsLineByLine() {
    let text = Self.scene(cells: 200)
    let serial = Self.parse(text, .serial)
    #expect(serial.1.count > 100)
    #expect(serial.0.contains("cells.scene:"))
    for (name, work) in [
      ("backwards", ParallelDecodingTests.backwards), ("all cores", ParallelDecodingTests.allCores),
    ] {
      let pieces = Self.parse(text, work)
      #expect(pieces.1 == serial.1, "\(name)")
      #expect(pieces.0 == serial.0, "\(name)")
    }
  }
}
