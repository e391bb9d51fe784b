import SceneDiagnostics
import ScenePipeline
import SceneYAML
import Testing

@testable import SceneSyntax

/// The reader's shortcuts: positions mapped from libyaml's scalar indices without
/// decoding the text (exact far into non-ASCII text too), duplicate keys found by
/// scanning small mappings and hashing large ones, and the decoder's lookups.
@Suite struct YAMLReaderPositionTests {
  private func read(_ text: String) throws(YAMLError) -> DocumentNode? {
    try YAMLReader.read(SourceFile(name: "t.yaml", text: text))
  }

  private func failure(_ text: String) -> String {
    do {
      let node = try read(text)
      return "no error: \(String(describing: node))"
    } catch {
      return DiagnosticRenderer(files: [SourceFile(name: "t.yaml", text: text)]).render(
        error.diagnostic)
    }
  }

  private func entries(_ node: DocumentNode?) -> [DocumentNode.Entry] {
    guard let node, case .mapping(let entries) = node.value else { return [] }
    return entries
  }

  private func place(_ span: SourceSpan) -> String {
    "\(span.start.line):\(span.start.column)+\(span.length)"
  }

  @Test func positionsFarIntoMultibyteText() throws {
    // More than 64 multibyte scalars before the nodes, on one line and across lines, so
    // that positions come from the sparse scalar-to-byte table, not the first entry.
    let wide = String(repeating: "é名", count: 100)
    let text =
      "a: \"\(wide)\"\nb: '\(wide) (1 +'\nc: [\(wide), \"x\"]\n# \(wide)\nd: plain \(wide)\n"
    let node = try #require(try read(text))
    let e = entries(node)
    #expect(e.map(\.key) == ["a", "b", "c", "d"])
    // Quoted without escapes: verbatim, the span inside the quotes.
    guard case .scalar(let a) = e[0].value.value else {
      Issue.record("not a scalar")
      return
    }
    #expect(a.isVerbatim && a.text == wide)
    #expect(place(e[0].value.source.span) == "1:5+200")
    #expect(place(e[1].value.source.span) == "2:5+205")
    guard case .sequence(let items) = e[2].value.value else {
      Issue.record("not a list")
      return
    }
    #expect(place(items[1].source.span) == "3:208+1")
    #expect(place(e[3].keySource.span) == "5:1+1")
    #expect(place(e[3].value.source.span) == "5:4+206")
  }

  @Test func quotedTextWithEscapesIsNotVerbatim() throws {
    let node = try #require(try read("a: \"é\\tx\"\nb: 'é''x'\nc: \"éx\"\n"))
    let verbatim = entries(node).map { entry -> Bool in
      guard case .scalar(let s) = entry.value.value else { return true }
      return s.isVerbatim
    }
    #expect(verbatim == [false, false, true])
  }

  @Test func duplicateKeysInLargeMappings() {
    // Beyond the handful of keys that are compared one by one.
    let keys = (0..<20).map { "k\($0): \($0)\n" }.joined()
    #expect(
      failure(keys + "k7: again\n")
        == """
        t.yaml:21:1: error: duplicate key 'k7'
            k7: again
            ^~
        t.yaml:8:1: note: first defined here
            k7: 7
            ^~

        """)
    // The ninth key, where the mapping switches from scanning to hashing.
    let eight = (0..<8).map { "k\($0): \($0)\n" }.joined()
    #expect(failure(eight + "k0: again\n").hasPrefix("t.yaml:9:1: error: duplicate key 'k0'"))
    #expect(
      failure(eight + "k8: 8\nk8: again\n").hasPrefix("t.yaml:10:1: error: duplicate key 'k8'"))
  }

  @Test func mergedKeysKeepTheirPlaceInLargeMappings() throws {
    let explicit = (0..<10).map { "k\($0): \($0)\n" }.joined()
    let text =
      "base: &b { k3: merged, m: merged }\nmap:\n"
      + explicit.split(separator: "\n").map { "  \($0)\n" }.joined()
      + "  <<: *b\n  z: last\n"
    let map = try #require(entries(try read(text)).last?.value)
    #expect(entries(map).map(\.key) == (0..<10).map { "k\($0)" } + ["m", "z"])
    guard case .scalar(let k3) = entries(map)[3].value.value else {
      Issue.record("not a scalar")
      return
    }
    #expect(k3.text == "3")
  }

  @Test func decoderReportsUnknownAndMissingFieldsAsBefore() {
    let text = """
      scene: { size: 100x100 }
      handles:
        a: { positon: [1, 2], r: 3 }
        b: { position: [1, 2], fill: "#f80", radius: 2 }

      """
    let result = SceneLoader.load(SourceFile(name: "t.yaml", text: text), syntax: .yaml)
    #expect(
      result.diagnostics.map { "\($0.span.map(place) ?? "-") \($0.message)" } == [
        "3:8+7 unknown key 'positon' in handle 'a'; did you mean 'position'?",
        "4:40+6 unknown key 'radius' in handle 'b'",
      ])
  }

  @Test func headerStopsAtTheFirstLineThatIsNotAComment() {
    #expect(SceneLoader.header(of: "# one\n#two\n\n# not header\nscene: {}\n") == "# one\n#two")
    #expect(SceneLoader.header(of: "# only") == "# only")
    #expect(SceneLoader.header(of: "scene: {}\n# late") == nil)
    #expect(SceneLoader.header(of: "") == nil)
  }
}
