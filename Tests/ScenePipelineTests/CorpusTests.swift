import Foundation
import SceneDiagnostics
import ScenePipeline
import SceneRuntime
import Testing

/// The word-for-word corpus past parsing: resolver, trace and runtime errors, encodings
/// (BOM, CRLF, non-ASCII text) and limits at their exact boundaries.
///
/// Each scene in
/// `Corpus/` is loaded through the one pipeline and, if clean, run; what `scenec` would
/// print is compared with `NAME.expected` beside it. Record with
/// `SCENEC_RECORD_CORPUS=1 swift test --filter CorpusTests`, then read every change.
@Suite struct CorpusTests {
  /// Relative to the package, where `swift test` runs, so messages name stable paths.
  static let directory = "Tests/ScenePipelineTests/Corpus"
  static let inputs: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".scene") }.sorted()
  }()

  static func output(_ name: String) throws -> String {
    let loaded = try ScenePipeline.load(path: directory + "/" + name)
    guard let graph = loaded.graph else { return loaded.rendered() }
    do {
      let frames = try SceneRunner.frames(of: graph, traces: loaded.traces)
      return "ok: \(frames.count) frames\n"
    } catch {
      return DiagnosticRenderer(files: loaded.files).render(error.diagnostic)
    }
  }

  @Test func theCorpusCoversEveryStage() {
    for prefix in ["resolve-", "trace-", "run-", "encoding-", "limit-"] {
      #expect(Self.inputs.filter { $0.hasPrefix(prefix) }.count >= 2, "too few \(prefix) cases")
    }
  }

  @Test(arguments: inputs)
  func readsExactlyAsIntended(name: String) throws {
    let text = try Self.output(name)
    let expectedPath = Self.directory + "/" + name + ".expected"
    if ProcessInfo.processInfo.environment["SCENEC_RECORD_CORPUS"] == "1" {
      try Data(text.utf8).write(to: URL(fileURLWithPath: expectedPath))
      return
    }
    let expected = try #require(
      try? String(contentsOfFile: expectedPath, encoding: .utf8),
      "no \(name).expected; record it with SCENEC_RECORD_CORPUS=1 swift test --filter CorpusTests")
    #expect(text == expected)
  }
}
