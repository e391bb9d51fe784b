import SceneDiagnostics
import ScenePipeline
import SceneSyntax
import Testing

@testable import SceneYAML

/// libyaml on a second thread (`YAMLEvents`, for large inputs) must read exactly what it
/// reads on the reader's own thread: the same tree with the same spans, the same first
/// error, and it must stop when the reader stops.
@Suite struct YAMLPipelineTests {
  /// A tree written out with every span, since `DocumentNode`'s equality ignores spans.
  static func outline(_ node: DocumentNode) -> String {
    var out = ""
    func visit(_ node: DocumentNode, _ indent: String) {
      let span = node.source.span
      out += "\(indent)@\(span.start.line):\(span.start.column)+\(span.length) "
      switch node.value {
      case .scalar(let s):
        out +=
          "scalar \(s.isQuoted ? "q" : "p")\(s.isVerbatim ? "v" : "") \(s.text.debugDescription)\n"
      case .sequence(let items):
        out += "list\n"
        for item in items { visit(item, indent + " ") }
      case .mapping(let entries):
        out += "map\n"
        for entry in entries {
          let key = entry.keySource.span
          out += "\(indent) key \(entry.key) @\(key.start.line):\(key.start.column)+\(key.length)\n"
          visit(entry.value, indent + "  ")
        }
      }
    }
    visit(node, "")
    return out
  }

  /// Many times the pipeline's batches of every kind of node: anchors, aliases, merges,
  /// tags, quoted, escaped (a NUL too), block and multi-byte scalars, flow and block
  /// collections.
  static func largeDocument(entries: Int, tail: String = "") -> String {
    var text = "base: &base { r: 6, fill: \"#ffb020\" }\nitems:\n"
    for k in 0..<entries {
      text += """
          h\(k):
            <<: *base
            position: [\(k), \(2 * k)]
            label: 'it''s \(k)'
            note: "tab\\t\(k) é"
            text: |
              line one \(k)
              line two
            tags: [a, b, { c: \(k) }]
            same: *base
            tagged: !!str \(k)
            nul: "a\\0b"
            list: &l\(k) !custom [1, { x: ~ }]
            again: *l\(k)

        """
    }
    return text + tail
  }

  static func read(_ text: String, pipelined: Bool) -> Result<DocumentNode?, YAMLError> {
    Result { () throws(YAMLError) -> DocumentNode? in
      try YAMLReader.read(SourceFile(name: "big.yaml", text: text), pipelined: pipelined)
    }
  }

  @Test func bothThreadsBuildTheSameTree() throws {
    let text = Self.largeDocument(entries: 3_000)
    let events = YAMLReader.statistics(reading: text).events
    // Enough events for many batches, and a partial last one.
    #expect(events > 40 * EventPipeline.batchSize)
    let direct = try #require(try Self.read(text, pipelined: false).get())
    let pipelined = try #require(try Self.read(text, pipelined: true).get())
    #expect(direct == pipelined)
    #expect(Self.outline(direct) == Self.outline(pipelined))
    // The default decides by size: this input is over the threshold.
    #expect(text.utf8.count >= YAMLEvents.pipelineThreshold)
    let chosen = try #require(try YAMLReader.read(SourceFile(name: "big.yaml", text: text)))
    #expect(Self.outline(chosen) == Self.outline(direct))
  }

  @Test func bothThreadsFailWithTheSameError() {
    let large = Self.largeDocument(entries: 1_500)
    let cases: [(String, String)] = [
      ("a libyaml syntax error at the end", large + "broken: [1, 2\n"),
      ("a duplicate key at the end", large + "items: 2\n"),
      ("an unknown alias at the end", large + "last: *nowhere\n"),
      ("too deep at the end", large + "deep: " + String(repeating: "[", count: 200) + "\n"),
      ("a second document at the end", large + "---\nmore: 1\n"),
      ("a duplicate key at the start", "a: 1\na: 2\n" + large),
    ]
    for (what, text) in cases {
      let direct = Self.read(text, pipelined: false)
      let pipelined = Self.read(text, pipelined: true)
      guard case .failure(let expected) = direct, case .failure(let found) = pipelined else {
        Issue.record("\(what): no error")
        continue
      }
      #expect(expected == found, "\(what)")
    }
  }

  @Test func readersOnEveryWorkerThreadAllFinish() throws {
    // Each reader blocks one of the global queue's threads while its libyaml runs: with
    // more readers than cores, libyaml must still get threads of its own.
    let text = Self.largeDocument(entries: 300)
    let expected = try #require(try Self.read(text, pipelined: false).get())
    let readers = 4 * 8
    let outlines = ParallelWork.allCores.map(readers) { _ in
      (try? Self.read(text, pipelined: true).get()).flatMap { $0.map(Self.outline) } ?? "failed"
    }
    #expect(outlines == Array(repeating: Self.outline(expected), count: readers))
  }

  @Test func stoppingEarlyStopsLibYAML() {
    // A duplicate key on line 2 of a file of about 270,000 events: the reader stops
    // there, and libyaml, running ahead, stops within the batches that may wait.
    let text = "a: 1\na: 2\n" + Self.largeDocument(entries: 10_000)
    let statistics = YAMLReader.statistics(reading: text, pipelined: true)
    #expect(statistics.events < 10)
    #expect(statistics.parsedEvents <= (EventPipeline.capacity + 2) * EventPipeline.batchSize)
    // How far it ran depends on the threads, but never past that bound: a small part of
    // the whole file.
    let whole = YAMLReader.statistics(reading: Self.largeDocument(entries: 10_000))
    #expect(whole.parsedEvents > 20 * (EventPipeline.capacity + 2) * EventPipeline.batchSize)
  }

  @Test func libYAMLStopsPastTheDepthLimitOnItsOwn() {
    // The second thread counts nesting itself: it stops at the first collection past
    // the limit, as the reader on one thread does, however deep the text goes.
    let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let statistics = YAMLReader.statistics(reading: text, pipelined: true)
    #expect(statistics.events == 2 + 129)
    #expect(statistics.parsedEvents == 2 + 129)
    #expect(
      Self.read(text, pipelined: true).error
        == .tooDeep(
          limit: 128, at: SourceSpan(SourceLocation(file: "big.yaml", line: 1, column: 129))))
  }

  @Test func onlyLargeInputsUseASecondThread() {
    #expect(!YAMLEvents.isPipelined(byteCount: YAMLEvents.pipelineThreshold - 1))
    #expect(YAMLEvents.isPipelined(byteCount: YAMLEvents.pipelineThreshold))
    // On one thread, libyaml produces exactly the events read.
    let statistics = YAMLReader.statistics(reading: "a: [1, 2]\nb: c\n")
    #expect(statistics.events == 13)
    #expect(statistics.parsedEvents == 13)
  }
}

extension Result {
  fileprivate var error: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
