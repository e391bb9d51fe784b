import Foundation
import SceneDiagnostics
import ScenePipeline
import SceneRuntime
import Testing

/// The word-for-word corpus past parsing, one folder per stage.
///
/// The stages: `resolve`, `trace`, `run`, `encoding` (BOM, CRLF, non-ASCII text) and
/// `limit` (each limit at its exact boundary). Each scene is loaded through the one pipeline and, if clean, run; what `scenec` would
/// print is compared with `NAME.expected` beside it. Record with
/// `SCENEC_RECORD_CORPUS=1 swift test --filter CorpusTests`, then read every change.
@Suite struct CorpusTests {
  /// Relative to the package, where `swift test` runs, so messages name stable paths.
  static let directory = "Tests/ScenePipelineTests/Corpus"
  static let stages = ["resolve", "trace", "run", "encoding", "limit"]
  static let inputs: [String] = stages.flatMap { stage in
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + stage)) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".scene") }.sorted().map {
      stage + "/" + $0
    }
  }

  static func output(_ name: String) throws -> String {
    let loaded = try ScenePipeline.load(path: directory + "/" + name)
    guard let graph = loaded.graph else { return loaded.rendered() }
    do {
      let frames = try SceneRunner.frames(of: graph)
      return "ok: \(frames.count) frames\n"
    } catch {
      return DiagnosticRenderer(files: loaded.files).render(error.diagnostic)
    }
  }

  @Test func theCorpusCoversEveryStage() {
    for stage in Self.stages {
      #expect(Self.inputs.filter { $0.hasPrefix(stage + "/") }.count >= 2, "too few \(stage) cases")
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
