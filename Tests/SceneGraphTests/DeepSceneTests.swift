import SceneDiagnostics
import ScenePipeline
import SceneResolve
import SceneSyntax
import Testing

@testable import SceneGraph

/// Scenes built to exhaust a recursive resolver: 60,000 links resolve (or fail) in a
/// test task's small stack, and a huge cycle gives one short error.
@Suite struct DeepSceneTests {
  static let count = 60_000

  func resolve(_ yaml: String) throws -> SceneResolver.Result {
    let loaded = SceneLoader.load(SourceFile(name: "d.yaml", text: yaml), syntax: .yaml)
    let spec = try #require(loaded.spec)
    return SceneResolver.resolve(spec)
  }

  @Test func aLongChainOfLetsResolves() throws {
    let yaml = "let:\n  a0: 1\n" + (1..<Self.count).map { "  a\($0): a\($0 - 1) + 1\n" }.joined()
    let result = try resolve(yaml)
    #expect(result.errors.isEmpty)
    #expect(result.graph?.evaluationOrder.count == Self.count)
  }

  @Test func aLongChainOfHandlesResolves() throws {
    let yaml =
      "handles:\n  h0: { position: [0, 0], draggable: true }\n"
      + (1..<Self.count).map { "  h\($0): { position: h\($0 - 1) }\n" }.joined()
    let result = try resolve(yaml)
    #expect(result.errors.isEmpty)
    #expect(result.graph?.handles.last?.isBound == true)
  }

  @Test func aHugeCycleIsOneShortError() throws {
    let yaml =
      "let:\n" + (0..<Self.count).map { "  a\($0): a\(($0 + 1) % Self.count) + 1\n" }.joined()
    let errors = try resolve(yaml).errors
    #expect(errors.count == 1)
    #expect(
      errors.first?.message
        == "dependency cycle: 'a0' → 'a1' → 'a2' → 'a3' → 'a4' → 'a5' → 'a6' → 'a7' → … → 'a0' (60000 parts)"
    )
    #expect(errors.first?.notes.count == 7)
  }
}
