import Foundation
import SceneDiagnostics
import ScenePipeline
import Testing

@testable import SceneSyntax

/// Every file in `Malformed/` must produce exactly the diagnostics in its `.expected`
/// twin, caret lines included: the error messages are part of the product.
///
/// To re-record after deliberately changing a message, run
/// `SCENEC_RECORD_MALFORMED=1 swift test --filter MalformedCorpusTests` and review the diff.
@Suite struct MalformedCorpusTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Malformed")

  static let inputs: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { !$0.hasSuffix(".expected") }.sorted()
  }()

  static func rendered(_ name: String) throws -> (text: String, errors: Int) {
    let data = try Data(contentsOf: directory.appendingPathComponent(name))
    let syntax: SceneLoader.Syntax = name.hasSuffix(".scene") ? .dsl : .yaml
    let result = SceneLoader.load(data: data, name: name, syntax: syntax)
    let renderer = DiagnosticRenderer(files: result.file.map { [$0] } ?? [])
    return (
      renderer.render(result.diagnostics), result.diagnostics.filter { $0.severity == .error }.count
    )
  }

  @Test func theCorpusIsLargeEnough() {
    #expect(Self.inputs.count >= 40)
  }

  @Test(arguments: inputs)
  func diagnosticsReadExactlyAsIntended(name: String) throws {
    let (text, errors) = try Self.rendered(name)
    #expect(errors > 0, "\(name) should be rejected")
    let expectedURL = Self.directory.appendingPathComponent(name + ".expected")
    if ProcessInfo.processInfo.environment["SCENEC_RECORD_MALFORMED"] == "1" {
      try Data(text.utf8).write(to: expectedURL)
      return
    }
    let expected = try #require(
      try? String(contentsOf: expectedURL, encoding: .utf8),
      "no \(name).expected; record it with SCENEC_RECORD_MALFORMED=1 swift test --filter MalformedCorpusTests"
    )
    #expect(text == expected)
  }

  @Test func anInputOverTheSizeLimitIsRefusedBeforeParsing() {
    let data = Data(repeating: UInt8(ascii: " "), count: (8 << 20) + 1)
    let result = SceneLoader.load(data: data, name: "huge.yaml", syntax: .yaml)
    #expect(
      DiagnosticRenderer().render(result.diagnostics)
        == "error: huge.yaml is larger than the limit of 8388608 bytes (8 MiB by default)\n")
  }

  @Test func randomBytesNeverCrashEitherFrontEnd() {
    var inputs = Xorshift(seed: 77)
    for round in 0..<600 {
      let count = Int(inputs.next() % 200)
      let alphabet = Array("abc:-[]{}()#\"' \n\t,.=0123456789é*&!|>".utf8)
      let bytes = (0..<count).map { _ in alphabet[Int(inputs.next() % UInt64(alphabet.count))] }
      let syntax: SceneLoader.Syntax = round % 2 == 0 ? .yaml : .dsl
      let result = SceneLoader.load(data: Data(bytes), name: "fuzz", syntax: syntax)
      // Either a scene or at least one error: never both, never neither.
      #expect((result.spec == nil) == result.hasErrors)
    }
  }
}

/// A tiny deterministic generator for test inputs.
struct Xorshift {
  var state: UInt64
  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
  mutating func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }
}
