import SceneDiagnostics
import SceneSyntax
import Testing

@testable import SceneYAML

// MARK: - Helpers

/// A plain scalar; verbatim unless said otherwise.
private func plain(_ text: String, verbatim: Bool = true) -> DocumentNode {
  DocumentNode(
    .scalar(DocumentNode.Scalar(text, isQuoted: false, isVerbatim: verbatim)), at: .synthesized)
}

/// A quoted (or block) scalar.
private func quoted(_ text: String, verbatim: Bool = true) -> DocumentNode {
  DocumentNode(
    .scalar(DocumentNode.Scalar(text, isQuoted: true, isVerbatim: verbatim)), at: .synthesized)
}

private func list(_ items: DocumentNode...) -> DocumentNode {
  DocumentNode(.sequence(items), at: .synthesized)
}

private func map(_ entries: (String, DocumentNode)...) -> DocumentNode {
  DocumentNode(
    .mapping(entries.map { DocumentNode.Entry(key: $0.0, keySource: .synthesized, value: $0.1) }),
    at: .synthesized)
}

private func read(_ text: String, limits: YAMLReader.Limits = YAMLReader.Limits()) throws(YAMLError)
  -> DocumentNode?
{
  try YAMLReader.read(SourceFile(name: "t.yaml", text: text), limits: limits)
}

/// The error reading `text` gives, rendered with its source line and caret.
private func failure(_ text: String, limits: YAMLReader.Limits = YAMLReader.Limits()) -> String {
  do {
    let node = try read(text, limits: limits)
    return "no error: \(String(describing: node))"
  } catch {
    return DiagnosticRenderer(files: [SourceFile(name: "t.yaml", text: text)]).render(
      error.diagnostic)
  }
}

/// The error reading `text` gives, as a value.
private func error(_ text: String, limits: YAMLReader.Limits = YAMLReader.Limits()) -> YAMLError? {
  do {
    _ = try read(text, limits: limits)
    return nil
  } catch {
    return error
  }
}

/// `line:column+length` of a span, for compact expectations.
private func spanText(_ node: DocumentNode?) -> String {
  guard let span = node?.source.span else { return "none" }
  return "\(span.start.line):\(span.start.column)+\(span.length)"
}

private func spanText(_ span: SourceSpan) -> String {
  "\(span.start.line):\(span.start.column)+\(span.length)"
}

extension DocumentNode {
  /// The value of `key`, if this is a mapping that has it.
  fileprivate subscript(key: String) -> DocumentNode? {
    guard case .mapping(let entries) = value else { return nil }
    return entries.first { $0.key == key }?.value
  }

  /// The entry of `key`, if this is a mapping that has it.
  fileprivate func entry(_ key: String) -> DocumentNode.Entry? {
    guard case .mapping(let entries) = value else { return nil }
    return entries.first { $0.key == key }
  }

  /// Item `index`, if this is a list that long.
  fileprivate subscript(index: Int) -> DocumentNode? {
    guard case .sequence(let items) = value, items.indices.contains(index) else { return nil }
    return items[index]
  }
}

// MARK: - Trees

@Suite struct YAMLReaderTests {
  @Test func readsNestedMappingsAndLists() throws {
    let text = """
      name: wave
      size: [400, 300]
      ball:
        radius: 12
        fill: "#ff8800"
      track:
        - press: ball
        - move: { to: [10, 20], spring: snappy }
        -
      """
    let expected = map(
      ("name", plain("wave")),
      ("size", list(plain("400"), plain("300"))),
      ("ball", map(("radius", plain("12")), ("fill", quoted("#ff8800")))),
      (
        "track",
        list(
          map(("press", plain("ball"))),
          map(("move", map(("to", list(plain("10"), plain("20"))), ("spring", plain("snappy"))))),
          plain("")
        )
      )
    )
    #expect(try read(text) == expected)
  }

  @Test func emptyDocumentsAreNil() throws {
    #expect(try read("") == nil)
    #expect(try read("# only\n# comments\n\n") == nil)
    #expect(try read("---\n") == nil)
    #expect(try read("--- # nothing\n...\n") == nil)
    #expect(try read("~") == plain("~"))
    #expect(try read("''") == quoted(""))
  }

  @Test func scalarStylesAndTags() throws {
    let text = """
      a: one
      b: 'it''s'
      c: "tab\\there"
      d: "plain text"
      e: |
        line 1
        line 2
      f: >-
        folded
        text
      g: !!str 12
      h: !!int 3
      i: first
        second
      j:
      k: "multi
        line"
      """
    let expected = map(
      ("a", plain("one")),
      ("b", quoted("it's", verbatim: false)),
      ("c", quoted("tab\there", verbatim: false)),
      ("d", quoted("plain text")),
      ("e", quoted("line 1\nline 2\n", verbatim: false)),
      ("f", quoted("folded text", verbatim: false)),
      ("g", quoted("12")),
      ("h", plain("3")),
      ("i", plain("first second", verbatim: false)),
      ("j", plain("")),
      ("k", quoted("multi line", verbatim: false))
    )
    let node = try #require(try read(text))
    #expect(node == expected)
    // Spans: plain and verbatim quoted ones cover exactly the text (inside the quotes);
    // others start at the quote or indicator and end with their first line.
    #expect(spanText(node["a"]) == "1:4+3")
    #expect(spanText(node["b"]) == "2:4+7")
    #expect(spanText(node["c"]) == "3:4+11")
    #expect(spanText(node["d"]) == "4:5+10")
    #expect(spanText(node["e"]) == "5:4+1")
    #expect(spanText(node["f"]) == "8:4+2")
    #expect(spanText(node["g"]) == "11:10+2")
    #expect(spanText(node["h"]) == "12:10+1")
    #expect(spanText(node["i"]) == "13:4+5")
    #expect(spanText(node["j"]) == "15:3+0")
    #expect(spanText(node["k"]) == "16:4+6")
    #expect(
      spanText(
        node.entry("k")?.keySource.span ?? SourceSpan(SourceLocation(file: "", line: 0, column: 0)))
        == "16:1+1")
  }

  @Test func columnsCountUnicodeScalarsAfterMultibyteText() throws {
    let text = """
      é名: "x y"
      namé: 名前 # comment
      "ключ": [é, "名", z]
      """
    let node = try #require(try read(text))
    #expect(
      node
        == map(
          ("é名", quoted("x y")), ("namé", plain("名前")),
          ("ключ", list(plain("é"), quoted("名"), plain("z")))))
    #expect(spanText(node.entry("é名")!.keySource.span) == "1:1+2")
    #expect(spanText(node["é名"]) == "1:6+3")
    #expect(spanText(node["namé"]) == "2:7+2")
    #expect(spanText(node.entry("ключ")!.keySource.span) == "3:2+4")
    #expect(spanText(node["ключ"]) == "3:9+1")
    #expect(spanText(node["ключ"]?[1]) == "3:14+1")
    #expect(spanText(node["ключ"]?[2]) == "3:18+1")
    #expect(node.source.span.start == SourceLocation(file: "t.yaml", line: 1, column: 1))
  }

  @Test func linesAndColumnsMatchSourceFile() throws {
    // CRLF and lone CR break lines as SourceFile does; a byte order mark is a column.
    let crlf = try #require(try read("a: 1\r\nb:\r\n  - x\r  - y\r\n"))
    #expect(crlf == map(("a", plain("1")), ("b", list(plain("x"), plain("y")))))
    #expect(spanText(crlf["b"]) == "3:3+1")
    #expect(spanText(crlf["b"]?[1]) == "4:5+1")
    let bom = try #require(try read("\u{FEFF}a: b\n"))
    #expect(bom == map(("a", plain("b"))))
    #expect(spanText(bom["a"]) == "1:5+1")
  }

  @Test func collectionSpansSkipProperties() throws {
    let text = """
      base: &b
        x: 1
      list: &l !!seq
        - 1
      flow: &f [1]
      alias: *b
      """
    let node = try #require(try read(text))
    #expect(spanText(node["base"]) == "2:3+1")
    #expect(spanText(node["list"]) == "4:3+1")
    #expect(spanText(node["flow"]) == "5:10+1")
    // A copy keeps the spans of the text it copies.
    #expect(node["alias"] == map(("x", plain("1"))))
    #expect(spanText(node["alias"]) == "2:3+1")
    #expect(spanText(node) == "1:1+1")
    // An anchored empty scalar ends with its anchor; the next line is not its text.
    let empty = try #require(try read("a: &x\nb: *x\n"))
    #expect(empty == map(("a", plain("")), ("b", plain(""))))
    #expect(spanText(empty["a"]) == "1:6+0")
  }

  // MARK: - Anchors, aliases, merge keys

  @Test func aliasesCopyAnchoredNodes() throws {
    let text = """
      spring: &snappy { dampingRatio: 0.8, duration: 0.3s }
      name: &n ball
      a: *snappy
      b: [*n, *snappy]
      *n : keyed by alias
      """
    let snappy = map(("dampingRatio", plain("0.8")), ("duration", plain("0.3s")))
    #expect(
      try read(text)
        == map(
          ("spring", snappy), ("name", plain("ball")), ("a", snappy),
          ("b", list(plain("ball"), snappy)),
          ("ball", plain("keyed by alias"))))
  }

  @Test func anchorsCanBeRedefined() throws {
    #expect(
      try read("- &a 1\n- *a\n- &a 2\n- *a\n")
        == list(plain("1"), plain("1"), plain("2"), plain("2")))
  }

  @Test func mergeKeyWithAMapping() throws {
    let text = """
      base: &base { a: 1, b: 2 }
      derived:
        <<: *base
        b: 3
        c: 4
      before:
        b: 0
        <<: *base
      inline:
        <<: { x: 1 }
      """
    let node = try read(text)
    #expect(node?["derived"] == map(("a", plain("1")), ("b", plain("3")), ("c", plain("4"))))
    #expect(node?["before"] == map(("b", plain("0")), ("a", plain("1"))))
    #expect(node?["inline"] == map(("x", plain("1"))))
    // Merged entries keep where they were written.
    #expect(
      spanText(
        node?["derived"]?.entry("a")?.keySource.span
          ?? SourceSpan(SourceLocation(file: "", line: 0, column: 0))) == "1:15+1")
  }

  @Test func mergeKeyWithAListOfMappings() throws {
    let text = """
      p: &p { a: p, b: p }
      q: &q { b: q, c: q, d: q }
      r:
        <<: [*p, *q]
        d: own
        e: own
      "<<": not a merge
      """
    let node = try read(text)
    #expect(
      node?["r"]
        == map(
          ("a", plain("p")), ("b", plain("p")), ("c", plain("q")), ("d", plain("own")),
          ("e", plain("own"))))
    #expect(node?["<<"] == plain("not a merge"))
  }

  @Test func mergeKeyErrors() {
    #expect(
      failure("a: 1\nb:\n  <<: 5\n")
        == """
        t.yaml:3:7: error: the value of a merge key '<<' must be a mapping or a list of mappings
              <<: 5
                  ^

        """)
    #expect(
      failure("p: &p {x: 1}\nb:\n  <<: [*p, [2]]\n")
        == """
        t.yaml:3:12: error: the value of a merge key '<<' must be a mapping or a list of mappings
              <<: [*p, [2]]
                       ^

        """)
    #expect(
      failure("p: &p {x: 1}\nb:\n  <<: *p\n  <<: *p\n")
        == """
        t.yaml:4:3: error: duplicate key '<<'
              <<: *p
              ^~
        t.yaml:3:3: note: first defined here
              <<: *p
              ^~

        """)
  }

  @Test func aliasErrors() {
    #expect(
      failure("spring: &snappy 1\na: *snapy\n")
        == """
        t.yaml:2:4: error: unknown anchor 'snapy'; did you mean 'snappy'?
            a: *snapy
               ^~~~~~

        """)
    #expect(
      failure("a: &loop [1, *loop]\n")
        == """
        t.yaml:1:14: error: alias '*loop' refers to a node that contains it
            a: &loop [1, *loop]
                         ^~~~~

        """)
  }

  // MARK: - Syntax errors

  @Test func libyamlSyntaxErrors() {
    #expect(
      failure("a: b: c\n")
        == """
        t.yaml:1:5: error: mapping values are not allowed in this context
            a: b: c
                ^

        """)
    #expect(
      failure("size: [400, 300\nname: x\n")
        == """
        t.yaml:2:5: error: did not find expected ',' or ']'
            name: x
                ^
        t.yaml:1:7: note: while parsing a flow sequence starting here
            size: [400, 300
                  ^

        """)
    #expect(
      failure("ball:\n  x: 1\n y: 2\n")
        == """
        t.yaml:3:2: error: did not find expected key
             y: 2
             ^
        t.yaml:1:1: note: while parsing a block mapping starting here
            ball:
            ^

        """)
    #expect(
      failure("name: \"unterminated\n")
        == """
        t.yaml:2:1: error: found unexpected end of stream
            
            ^
        t.yaml:1:7: note: while scanning a quoted scalar starting here
            name: "unterminated
                  ^

        """)
  }

  @Test func tabIndentationIsExplained() {
    #expect(
      failure("ball:\n\tx: 1\n")
        == """
        t.yaml:2:1: error: found character that cannot start any token, tabs are not allowed for indentation in YAML
             x: 1
            ^

        """)
    // Other characters that cannot start a token keep libyaml's message alone.
    #expect(
      failure("a: 1\n@b: 2\n")
        == """
        t.yaml:2:1: error: found character that cannot start any token
            @b: 2
            ^

        """)
  }

  @Test func duplicateKeys() {
    #expect(
      failure("ball: 1\nhand: 2\nball: 3\n")
        == """
        t.yaml:3:1: error: duplicate key 'ball'
            ball: 3
            ^~~~
        t.yaml:1:1: note: first defined here
            ball: 1
            ^~~~

        """)
    #expect(
      failure("{ 'a': 1, \"a\": 2 }")
        == """
        t.yaml:1:12: error: duplicate key 'a'
            { 'a': 1, "a": 2 }
                       ^
        t.yaml:1:4: note: first defined here
            { 'a': 1, "a": 2 }
               ^

        """)
  }

  @Test func keysMustBeScalars() {
    #expect(
      failure("? [a, b]\n: 1\n")
        == """
        t.yaml:1:3: error: keys must be scalars, not lists or mappings
            ? [a, b]
              ^

        """)
    #expect(
      error("{ {a: 1}: 2 }")
        == .complexKey(at: SourceSpan(SourceLocation(file: "t.yaml", line: 1, column: 3))))
  }

  @Test func oneDocumentOnly() {
    #expect(
      failure("a: 1\n---\nb: 2\n")
        == """
        t.yaml:2:1: error: a second YAML document starts here; a scene file holds exactly one
            ---
            ^~~

        """)
    #expect(
      error("a\n...\n--- b\n")
        == .multipleDocuments(
          at: SourceSpan(SourceLocation(file: "t.yaml", line: 3, column: 1), length: 3)))
  }

  @Test func invalidUTF8IsReportedAtTheByte() {
    let bytes: [UInt8] = Array("name: ok\nfill: ".utf8) + [0xFF, 0x41] + Array("\n".utf8)
    do {
      _ = try YAMLReader.read(bytes: bytes, name: "bad.yaml")
      Issue.record("no error")
    } catch {
      let file = SourceFile(name: "bad.yaml", text: String(decoding: bytes, as: UTF8.self))
      #expect(
        DiagnosticRenderer(files: [file]).render(error.diagnostic)
          == """
          bad.yaml:2:7: error: invalid leading UTF-8 octet 0xFF; scene files must be UTF-8
              fill: \u{FFFD}A
                    ^

          """)
    }
    // A truncated sequence after multibyte text: the column counts scalars, not bytes.
    let truncated: [UInt8] = Array("é: ".utf8) + [0xE5, 0x90]
    #expect(
      throws: YAMLError.invalidUTF8(
        problem: "incomplete UTF-8 octet sequence", byte: nil,
        at: SourceSpan(SourceLocation(file: "b.yaml", line: 1, column: 4)))
    ) {
      try YAMLReader.read(bytes: truncated, name: "b.yaml")
    }
    // UTF-16 is not guessed from its byte order mark.
    #expect(throws: YAMLError.self) {
      try YAMLReader.read(bytes: [0xFF, 0xFE, 0x61, 0x00], name: "u16.yaml")
    }
  }

  @Test func controlCharactersAreRejected() {
    #expect(
      failure("name: a\0b\n")
        == """
        t.yaml:1:8: error: control character U+0000 is not allowed in YAML
            name: a b
                   ^

        """)
    #expect(
      error("a: \u{7}")
        == .controlCharacter(7, at: SourceSpan(SourceLocation(file: "t.yaml", line: 1, column: 4))))
  }

  // MARK: - Limits

  @Test func billionLaughsIsRejectedQuickly() {
    var text = "lol0: &lol0 lol\n"
    for level in 1...9 {
      let aliases = Array(repeating: "*lol\(level - 1)", count: 10).joined(separator: ", ")
      text += "lol\(level): &lol\(level) [\(aliases)]\n"
    }
    let result = error(text)
    // Refused after a few dozen events, not after materializing anything large.
    #expect(YAMLReader.statistics(reading: text).events < 100)
    // lol1 to lol4 materialize 12,340 nodes; the eighth copy of lol4's 11,111 in lol5
    // would cross the budget, before anything larger is built.
    #expect(
      result
        == .aliasBudgetExceeded(
          limit: 100_000,
          at: SourceSpan(SourceLocation(file: "t.yaml", line: 6, column: 63), length: 5)))
    let line6 = "lol5: &lol5 [" + Array(repeating: "*lol4", count: 10).joined(separator: ", ") + "]"
    #expect(
      failure(text)
        == "t.yaml:6:63: error: alias expansion exceeds the budget of 100000 nodes (a \"billion laughs\" document?)\n"
        // The line is shown from 60 columns before the caret, after an ellipsis.
        + "    …\(line6.dropFirst(2))\n" + String(repeating: " ", count: 65) + "^~~~~\n")
  }

  @Test func aliasBudgetCountsWholeSubtrees() throws {
    let limits = YAMLReader.Limits(maxAliasNodes: 7)
    // `*a` materializes 4 nodes (the list and 3 items): one copy fits, two do not.
    #expect(try read("a: &a [1, 2, 3]\nb: *a\n", limits: limits) != nil)
    #expect(
      error("a: &a [1, 2, 3]\nb: *a\nc: *a\n", limits: limits)
        == .aliasBudgetExceeded(
          limit: 7, at: SourceSpan(SourceLocation(file: "t.yaml", line: 3, column: 4), length: 2)))
  }

  @Test func nestingDepthLimit() throws {
    let deepest = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    #expect(try read(deepest) != nil)
    let tooDeep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
    #expect(
      error(tooDeep)
        == .tooDeep(
          limit: 128, at: SourceSpan(SourceLocation(file: "t.yaml", line: 1, column: 129))))
    #expect(
      failure("a:\n  b:\n    c: 1\n", limits: YAMLReader.Limits(maxDepth: 2)) == """
        t.yaml:3:5: error: nesting deeper than 2 levels
                c: 1
                ^

        """)
  }

  @Test func veryDeepNestingIsRejectedQuickly() {
    let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let result = error(text)
    // Refused at the first collection past the limit: libyaml is asked for no more.
    #expect(YAMLReader.statistics(reading: text).events == 2 + 129)
    #expect(
      result
        == .tooDeep(
          limit: 128, at: SourceSpan(SourceLocation(file: "t.yaml", line: 1, column: 129))))
    // Block lists nest as deep on one line: `- - - x`.
    let block = String(repeating: "- ", count: 100_000) + "x\n"
    #expect(
      error(block)
        == .tooDeep(
          limit: 128, at: SourceSpan(SourceLocation(file: "t.yaml", line: 1, column: 257))))
  }

  @Test func wideCollectionsReadInLinearTime() throws {
    // Work is counted, not timed: one event per node, and the duplicate-key check
    // compares at most a handful of keys per entry before it switches to hashing.
    let count = 100_000
    func wide(_ n: Int) -> String { (0..<n).map { "k\($0): [\($0)]\n" }.joined() }
    let text = wide(count)
    let node = try #require(try read(text))
    let half = YAMLReader.statistics(reading: wide(count / 2))
    let whole = YAMLReader.statistics(reading: text)
    // Stream, document and mapping start and end; then a key, a list start, an item and
    // a list end per entry.
    #expect(whole.events == 6 + 4 * count)
    #expect(half.events == 6 + 4 * count / 2)
    #expect(whole.keyComparisons - half.keyComparisons == count / 2)
    guard case .mapping(let entries) = node.value else {
      Issue.record("not a mapping")
      return
    }
    #expect(entries.count == count)
    #expect(entries.last?.value == list(plain("\(count - 1)")))
  }

  @Test func oversizedInputIsRejectedBeforeParsing() {
    let text = String(repeating: "#", count: 9 << 20)
    let result = error(text)
    #expect(result == .tooLarge(bytes: 9 << 20, limit: 8 << 20))
    #expect(
      result.map { DiagnosticRenderer().render($0.diagnostic) }
        == "error: input is 9437184 bytes; the limit is 8388608 (8 MiB)\n")
    #expect(throws: YAMLError.tooLarge(bytes: 11, limit: 10)) {
      try YAMLReader.read(
        bytes: Array("a: 1234567\n".utf8), name: "x", limits: YAMLReader.Limits(maxBytes: 10))
    }
  }
}
