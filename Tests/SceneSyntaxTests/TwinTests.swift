import Foundation
import SceneDiagnostics
import ScenePipeline
import Testing

@testable import SceneSyntax

/// The two front ends must build the same AST, and formatting must lose nothing: every
/// example is checked through both syntaxes and back.
@Suite struct TwinTests {
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Examples")

  static let yamlExamples: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted()
  }()

  static func load(_ name: String) throws -> SceneSpec {
    let result = try SceneLoader.load(path: examples.appendingPathComponent(name).path)
    let rendered = DiagnosticRenderer(files: result.file.map { [$0] } ?? []).render(
      result.diagnostics)
    return try #require(result.spec, "\(name) did not load:\n\(rendered)")
  }

  static func load(text: String, syntax: SceneLoader.Syntax) throws -> SceneSpec {
    let result = SceneLoader.load(SourceFile(name: "formatted", text: text), syntax: syntax)
    let rendered = DiagnosticRenderer(files: result.file.map { [$0] } ?? []).render(
      result.diagnostics)
    return try #require(result.spec, "formatted text did not load:\n\(rendered)\n\(text)")
  }

  // MARK: - Values too long for one line

  /// A path of 20,000 segments, 5,000 snap targets and long expressions convert to the DSL
  /// (continued over lines of at most about 1,000 characters) and read back the same.
  @Test func longValuesGoOnOverSeveralLinesAndReadBackTheSame() throws {
    let d = "M0 0 " + (1..<20_000).map { "L\($0) \($0 % 7)" }.joined(separator: " ")
    let snaps = (0..<5_000).map { "t\($0): [\($0), 1]" }.joined(separator: ", ")
    let sum = (0..<200).map { "\($0)" }.joined(separator: " + ")
    let yaml = """
      scene: { name: Long, size: 400x300, duration: 1s }
      let:
        total: \(sum)
      paths:
        track: { d: "\(d)" }
      handles:
        ball: { position: [0, 0], shape: circle, r: 5, draggable: true }
      constraints:
        - drag: { handle: ball, snap: { \(snaps) } }
      expect:
        - "at 0s: ball.x < 1 + \(sum)"

      """
    let original = try Self.load(text: yaml, syntax: .yaml)
    let dsl = DSLEmitter.emit(SceneEncoder.encode(original))
    let longest = dsl.split(separator: "\n").map(\.unicodeScalars.count).max() ?? 0
    #expect(longest <= DSLEmitter.wrapWidth + 5)
    #expect(dsl.contains("\\\n"))
    let read = try Self.load(text: dsl, syntax: .dsl)
    #expect(original == read, "\(Self.firstDifference(original, read))")
  }

  // MARK: - Every scene in Scenes/

  static let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenes")

  static let yamlScenes: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: scenes.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted()
  }()

  /// Every scene's DSL twin (written by the emitter, and the hand-written `.scene` where
  /// there is one) builds the same AST as its YAML; a difference is reported at the
  /// first field that differs, not as two pages of dump.
  @Test(arguments: yamlScenes)
  func everySceneReadsTheSameInBothSyntaxes(name: String) throws {
    let result = try SceneLoader.load(path: Self.scenes.appendingPathComponent(name).path)
    let yaml = try #require(result.spec, "\(name) did not load")
    let generated = try Self.load(text: DSLEmitter.emit(SceneEncoder.encode(yaml)), syntax: .dsl)
    #expect(
      yaml == generated,
      "\(name) and its generated DSL twin differ: \(Self.firstDifference(yaml, generated))")
    let twinPath = Self.scenes.appendingPathComponent(
      name.replacingOccurrences(of: ".yaml", with: ".scene")
    ).path
    if FileManager.default.fileExists(atPath: twinPath) {
      let twin = try #require(try SceneLoader.load(path: twinPath).spec)
      #expect(
        yaml == twin, "\(name) and its .scene twin differ: \(Self.firstDifference(yaml, twin))")
    }
  }

  /// The first place two values differ, as a path of fields and indices (`handles[1].radius:
  /// Optional(18.0) ≠ Optional(20.0)`); source locations are skipped, as `==` skips them.
  static func firstDifference(_ a: Any, _ b: Any, path: String = "") -> String {
    if a is SourceRef { return "" }
    let left = Mirror(reflecting: a)
    let right = Mirror(reflecting: b)
    let leftChildren = Array(left.children)
    let rightChildren = Array(right.children)
    if leftChildren.isEmpty || rightChildren.isEmpty || leftChildren.count != rightChildren.count {
      let x = String(describing: a)
      let y = String(describing: b)
      return x == y ? "" : "\(path.isEmpty ? "root" : path): \(x) ≠ \(y)"
    }
    for (index, (l, r)) in zip(leftChildren, rightChildren).enumerated() {
      let label = l.label.map { path.isEmpty ? $0 : path + "." + $0 } ?? path + "[\(index)]"
      let found = firstDifference(l.value, r.value, path: label)
      if !found.isEmpty { return found }
    }
    return ""
  }

  @Test func theDifferenceFinderNamesTheField() {
    let a = HandleSpec(name: Located("ball"), position: Expression(.number(1, nil)))
    var b = a
    b.radius = Located(20)
    #expect(
      Self.firstDifference(a, b)
        == "radius: nil ≠ Optional(SceneSyntax.Located<Swift.Double>(value: 20.0, source: <generated>:1:1))"
    )
    #expect(Self.firstDifference(a, a) == "")
  }

  @Test func everyExampleHasATwin() {
    #expect(Self.yamlExamples.count >= 2)
    for name in Self.yamlExamples {
      let twin = name.replacingOccurrences(of: ".yaml", with: ".scene")
      #expect(
        FileManager.default.fileExists(atPath: Self.examples.appendingPathComponent(twin).path),
        "\(name) has no DSL twin \(twin)")
    }
  }

  @Test(arguments: yamlExamples)
  func yamlAndDSLTwinsBuildTheSameAST(name: String) throws {
    let yaml = try Self.load(name)
    let dsl = try Self.load(name.replacingOccurrences(of: ".yaml", with: ".scene"))
    #expect(yaml == dsl)
  }

  @Test(arguments: yamlExamples)
  func formattingRoundTripsThroughBothSyntaxes(name: String) throws {
    let spec = try Self.load(name)
    let tree = SceneEncoder.encode(spec)
    let yaml = YAMLEmitter.emit(tree)
    let dsl = DSLEmitter.emit(tree)
    #expect(try Self.load(text: yaml, syntax: .yaml) == spec)
    #expect(try Self.load(text: dsl, syntax: .dsl) == spec)
    // Canonical text is a fixed point: formatting it again changes nothing.
    #expect(YAMLEmitter.emit(SceneEncoder.encode(try Self.load(text: yaml, syntax: .yaml))) == yaml)
    #expect(DSLEmitter.emit(SceneEncoder.encode(try Self.load(text: dsl, syntax: .dsl))) == dsl)
  }

  /// The worked example in Grammar.md is real: both of its blocks load, to the same AST.
  @Test func grammarWorkedExampleIsTrue() throws {
    let grammar = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Grammar.md")
    let text = try String(contentsOf: grammar, encoding: .utf8)
    let section = try #require(text.range(of: "## A worked example")).upperBound
    let rest = String(text[section...])
    let blocks = rest.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(
      \.element)
    let yamlBlock = try #require(blocks.first { $0.hasPrefix("yaml\n") }).dropFirst(5)
    let dslBlock = try #require(blocks.dropFirst().first).drop { $0 != "\n" }.dropFirst()
    let yaml = try Self.load(text: String(yamlBlock), syntax: .yaml)
    let dsl = try Self.load(text: String(dslBlock), syntax: .dsl)
    #expect(yaml == dsl)
  }
}

@Suite struct SceneDecoderTests {
  func decode(_ yaml: String) throws -> SceneSpec {
    try TwinTests.load(text: yaml, syntax: .yaml)
  }

  @Test func unitsAreAppliedToTypedFields() throws {
    let spec = try decode(
      """
      scene: { duration: 1500ms, maxDuration: 2 }
      springs: { s: { dampingRatio: 0.5, duration: 900ms } }
      """)
    #expect(spec.header.duration?.value == .seconds(1.5))
    #expect(spec.header.maxDuration?.value == 2)
    guard case .dampingRatio(let ratio, let duration) = spec.springs[0].parameters else {
      Issue.record("wrong spring form")
      return
    }
    #expect(ratio.value == 0.5 && duration.value == 0.9)
  }

  @Test func springFormsAreRecognised() throws {
    let spec = try decode(
      """
      springs:
        a: { duration: 0.5s, bounce: 0.2 }
        b: { duration: 0.5s }
        c: { stiffness: 100, damping: 10, mass: 2 }
      """)
    #expect(
      spec.springs.map(\.parameters) == [
        .bounce(Located(0.2), duration: Located(0.5)),
        .bounce(Located(0), duration: Located(0.5)),
        .physical(stiffness: Located(100), damping: Located(10)),
      ])
    #expect(spec.springs[2].mass?.value == 2)
  }

  @Test func pointsMayBeListsOrExpressions() throws {
    let spec = try decode(
      """
      handles:
        a: { position: [1, 2] }
        b:
          position: (1, 2)
      """)
    #expect(spec.handles[0].position == spec.handles[1].position)
  }

  @Test func expressionLocationsPointInsideTheFile() throws {
    let result = SceneLoader.load(
      SourceFile(name: "x.yaml", text: "let:\n  a: 1 + (2 *\n"), syntax: .yaml)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(
      diagnostic.span?.start == SceneDiagnostics.SourceLocation(file: "x.yaml", line: 2, column: 14)
    )
  }

  @Test func anchorsAndMergeKeysFeedTheSchema() throws {
    let spec = try decode(
      """
      x-base: &base { shape: circle, r: 10 }
      handles:
        a: { <<: *base, position: [0, 0] }
        b: { <<: *base, position: [5, 5], r: 4 }
      """)
    #expect(spec.handles[0].radius?.value == 10)
    #expect(spec.handles[1].radius?.value == 4)
  }

  @Test func unquotedYAMLExpectationsReadAsWritten() throws {
    let spec = try decode("expect:\n  - at 1s: ball.y < 300\n  - \"at 1s: ball.y < 300\"\n")
    #expect(spec.expectations[0] == spec.expectations[1])
  }
}
