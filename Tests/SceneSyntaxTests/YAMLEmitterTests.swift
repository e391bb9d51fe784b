import PropertyBased
import SceneDiagnostics
import SceneYAML
import Testing

@testable import SceneSyntax

// MARK: - Helpers

private func plain(_ text: String) -> DocumentNode {
  DocumentNode(.scalar(DocumentNode.Scalar(text)), at: .synthesized)
}

private func quoted(_ text: String) -> DocumentNode {
  DocumentNode(.scalar(DocumentNode.Scalar(text, isQuoted: true)), at: .synthesized)
}

private func list(_ items: DocumentNode...) -> DocumentNode {
  DocumentNode(.sequence(items), at: .synthesized)
}

private func map(_ entries: (String, DocumentNode)...) -> DocumentNode {
  DocumentNode(
    .mapping(entries.map { DocumentNode.Entry(key: $0.0, keySource: .synthesized, value: $0.1) }),
    at: .synthesized)
}

private func reread(_ yaml: String) throws(YAMLError) -> DocumentNode? {
  try YAMLReader.read(SourceFile(name: "emitted.yaml", text: yaml))
}

/// Plain texts that YAML reads back as the same plain scalar, so the emitter must write
/// them plain: keywords included, as quoting would change what they mean.
private let plainSafe: Set<String> = [
  "", "~", "null", "NULL", "true", "Yes", "off", "-x", "-40", "?x", ":x", "a:b", "x#y", "é名",
  "0.9s",
  "M0 0 C 1 2", "a  b", "a,b", "a[0]", "<<", "---", "...", "wave",
]

/// Texts that are hard to write in YAML.
private let awkward: [String] = [
  "", " ", "a b", "#ff8800", "(x, y)", "a: b", "a:b", "key:", "- x", "-x", "-40", "?x", ":x", "?",
  ":", "-",
  "~", "null", "NULL", "true", "Yes", "off", "<<", "*a", "&a", "!tag", "|", ">", "'", "\"", "%x",
  "@x", "`x",
  "x #y", "x#y", "line\nbreak", "tab\there", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}",
  "\u{FEFF}x",
  "\0", "\u{7F}", "\u{9F}", "é名", "back\\slash", "quote\"d", "it's", "[a]", "{a}", "a,b", "a[0]",
  "---", "...",
  "--- x", "... x", " lead", "trail ", "0.9s", "M0 0 C 1 2", "a  b", "x: ", "wave", "\u{1F600}",
  String(repeating: "long ", count: 20),
]

private let alphabet: [String] = [
  "a", "Z", "0", " ", " ", "-", ":", "#", ",", "[", "]", "{", "}", "'", "\"", "\\", "\n", "\t", "é",
  "名", "!",
  "&", "*", "?", "|", ">", "%", "@", "`", "~", ".", "\u{2028}", "\r", "<",
]

private struct TreeGenerator {
  var rng: Xoshiro

  mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }

  mutating func text() -> String {
    if chance(60) { return awkward[int(0..<awkward.count)] }
    return (0..<int(0..<9)).map { _ in alphabet[int(0..<alphabet.count)] }.joined()
  }

  mutating func key() -> String {
    switch int(0..<10) {
    case 0: return String(repeating: "k", count: 1_100)  // beyond libyaml's 1024 for implicit keys
    case 1, 2, 3: return ["ball", "path", "spring", "dampingRatio", "to", "x", "y"][int(0..<7)]
    default: return text()
    }
  }

  mutating func scalar() -> DocumentNode {
    DocumentNode(.scalar(DocumentNode.Scalar(text(), isQuoted: chance(40))), at: .synthesized)
  }

  mutating func node(depth: Int) -> DocumentNode {
    // The root is a collection: an empty plain root would read back as no document.
    if depth >= 4 || (depth > 0 && chance(45)) {
      return scalar()
    }
    let count = int(0..<6)
    if chance(50) {
      return DocumentNode(
        .sequence((0..<count).map { _ in node(depth: depth + 1) }), at: .synthesized)
    }
    var keys = Set<String>()
    var entries: [DocumentNode.Entry] = []
    for _ in 0..<count {
      let key = key()
      guard keys.insert(key).inserted else { continue }
      entries.append(
        DocumentNode.Entry(key: key, keySource: .synthesized, value: node(depth: depth + 1)))
    }
    return DocumentNode(.mapping(entries), at: .synthesized)
  }
}

/// Checks that `read` says what `original` says: same structure, keys and texts;
/// quoted scalars stay quoted, and plain ones known to be safe stay plain.
private func expectSame(_ read: DocumentNode, _ original: DocumentNode, path: String, yaml: String)
{
  switch (read.value, original.value) {
  case (.scalar(let r), .scalar(let o)):
    #expect(r.text == o.text, "text at \(path) in:\n\(yaml)")
    if o.isQuoted {
      #expect(r.isQuoted, "quoted at \(path) in:\n\(yaml)")
    } else if plainSafe.contains(o.text) {
      #expect(!r.isQuoted, "plain at \(path) in:\n\(yaml)")
    }
  case (.sequence(let r), .sequence(let o)):
    #expect(r.count == o.count, "count at \(path) in:\n\(yaml)")
    for (i, (a, b)) in zip(r, o).enumerated() {
      expectSame(a, b, path: path + "[\(i)]", yaml: yaml)
    }
  case (.mapping(let r), .mapping(let o)):
    #expect(r.map(\.key) == o.map(\.key), "keys at \(path) in:\n\(yaml)")
    for (a, b) in zip(r, o) { expectSame(a.value, b.value, path: path + ".\(b.key)", yaml: yaml) }
  default:
    Issue.record(
      "kind at \(path): \(read.kindDescription) for \(original.kindDescription) in:\n\(yaml)")
  }
}

/// `node` with every scalar's `isVerbatim` cleared, which describes layout, not content.
private func withoutLayout(_ node: DocumentNode) -> DocumentNode {
  switch node.value {
  case .scalar(var scalar):
    scalar.isVerbatim = false
    return DocumentNode(.scalar(scalar), at: node.source)
  case .sequence(let items):
    return DocumentNode(.sequence(items.map(withoutLayout)), at: node.source)
  case .mapping(let entries):
    return DocumentNode(
      .mapping(
        entries.map {
          DocumentNode.Entry(key: $0.key, keySource: $0.keySource, value: withoutLayout($0.value))
        }),
      at: node.source)
  }
}

// MARK: - Tests

@Suite struct YAMLEmitterTests {
  @Test func sceneLikeTree() throws {
    let scene = map(
      ("scene", plain("wave")),
      ("size", list(plain("400"), plain("300"))),
      ("background", plain("#ff8800")),
      (
        "springs",
        map(("snappy", map(("dampingRatio", plain("0.57")), ("duration", plain("0.9s")))))
      ),
      (
        "paths",
        map(
          (
            "arc",
            map(
              ("d", quoted("M0 0 C 30 80 70 -40 100 0")),
              ("controls", list(plain("c1"), plain("c2"), plain("to"))))
          ))
      ),
      (
        "handles",
        list(
          map(("ball", map(("path", plain("arc")), ("offset", plain("-40"))))),
          map(
            ("label", quoted("(x, y)")), ("points", list(quoted("(x, y)"), quoted("(1, 2)"))),
            ("plainPoints", list(plain("(x, y)"), plain("(1, 2)"))))
        )
      ),
      ("note", plain("ratio: 2")),
      (
        "track",
        list(
          map(("press", plain("ball"))),
          map(("move", map(("to", list(plain("10"), plain("20")))))),
          map(("wait", plain("0.5s"))),
          map(("release", plain(""))),
          list(plain("a"), list(plain("b"))),
          list()
        )
      ),
      ("flags", map(("loop", plain("true")), ("debug", plain("off")), ("name", quoted("off")))),
      (
        "keys",
        map(("yes", plain("a")), ("null", plain("b")), ("", plain("c")), ("a, b", plain("d")))
      ),
      ("empty", map()),
      (
        "wide",
        list(
          plain("alpha"), plain("bravo"), plain("charlie"), plain("delta"), plain("echo"),
          plain("foxtrot"),
          plain("golf"), plain("hotel"), plain("india"), plain("juliett"), plain("kilo"))
      ),
      ("text", quoted("line 1\nline 2\t\"quoted\" \\ \u{7}")),
      ("nested", list(list(plain("x"), map(("k", plain("v"))))))
    )
    let expected = """
      # Generated by scenec.
      #
      # Edit freely.

      scene: wave

      size: [400, 300]

      background: "#ff8800"

      springs:
        snappy: { dampingRatio: 0.57, duration: 0.9s }

      paths:
        arc:
          d: "M0 0 C 30 80 70 -40 100 0"
          controls: [c1, c2, to]

      handles:
        - ball: { path: arc, offset: -40 }
        - label: "(x, y)"
          points: ["(x, y)", "(1, 2)"]
          plainPoints:
            - (x, y)
            - (1, 2)

      note: "ratio: 2"

      track:
        - press: ball
        - move:
            to: [10, 20]
        - wait: 0.5s
        - release:
        - - a
          - [b]
        - []

      flags: { loop: true, debug: off, name: "off" }

      keys: { "yes": a, "null": b, "": c, "a, b": d }

      empty: {}

      wide:
        - alpha
        - bravo
        - charlie
        - delta
        - echo
        - foxtrot
        - golf
        - hotel
        - india
        - juliett
        - kilo

      text: "line 1\\nline 2\\t\\"quoted\\" \\\\ \\x07"

      nested:
        - - x
          - k: v

      """
    let yaml = YAMLEmitter.emit(scene, header: "Generated by scenec.\n\n# Edit freely.\n")
    #expect(yaml == expected)
    let back = try #require(try reread(yaml))
    expectSame(back, scene, path: "", yaml: yaml)
    // Only the scalars that had to be quoted come back quoted.
    guard case .mapping(let entries) = back.value else { return }
    #expect(
      entries.first { $0.key == "background" }?.value
        == DocumentNode(.scalar(.init("#ff8800", isQuoted: true)), at: .synthesized))
  }

  @Test func flowStyleOnlyWhenItFits() {
    let items = (1...12).map { plain("item\($0)") }
    let fits = map(("abcdefg", DocumentNode(.sequence(Array(items.prefix(10))), at: .synthesized)))
    // `abcdefg: ` and 71 columns of flow list: 80, still one line.
    let line = "abcdefg: [" + (1...10).map { "item\($0)" }.joined(separator: ", ") + "]"
    #expect(line.count == 80)
    #expect(YAMLEmitter.emit(fits) == line + "\n")
    let tooWide = map(
      ("abcdefgh", DocumentNode(.sequence(Array(items.prefix(10))), at: .synthesized)))
    #expect(YAMLEmitter.emit(tooWide).hasPrefix("abcdefgh:\n  - item1\n  - item2\n"))
    // The root is block style even when it is short.
    #expect(YAMLEmitter.emit(list(plain("a"), plain("b"))) == "- a\n- b\n")
    #expect(YAMLEmitter.emit(map(("a", plain("1")))) == "a: 1\n")
    // Nulls keep a collection in block style: `[a, , b]` is not YAML.
    #expect(YAMLEmitter.emit(map(("a", list(plain("x"), plain(""))))) == "a:\n  - x\n  -\n")
  }

  @Test func quoting() {
    func value(_ scalar: DocumentNode) -> String {
      let yaml = YAMLEmitter.emit(map(("k", scalar)))
      return String(yaml.dropFirst(3).dropLast())
    }
    #expect(value(plain("#ff8800")) == "\"#ff8800\"")
    #expect(value(plain("a: b")) == "\"a: b\"")
    #expect(value(plain("a:b")) == "a:b")
    #expect(value(plain("key:")) == "\"key:\"")
    #expect(value(plain("x #y")) == "\"x #y\"")
    #expect(value(plain("x#y")) == "x#y")
    #expect(value(plain("-40")) == "-40")
    #expect(value(plain("- x")) == "\"- x\"")
    #expect(value(plain("*a")) == "\"*a\"")
    #expect(value(plain(" lead")) == "\" lead\"")
    #expect(value(plain("trail ")) == "\"trail \"")
    #expect(value(plain("tab\there")) == "\"tab\\there\"")
    #expect(value(plain("two\nlines")) == "\"two\\nlines\"")
    #expect(value(plain("\u{2028}\u{85}\0")) == "\"\\u2028\\x85\\0\"")
    #expect(value(plain("é名")) == "é名")
    // Keywords: plain ones stay plain (their meaning), quoted ones stay quoted.
    #expect(value(plain("true")) == "true")
    #expect(value(plain("")) == "")
    #expect(value(quoted("")) == "\"\"")
    #expect(value(quoted("null")) == "\"null\"")
    #expect(value(quoted("plain")) == "\"plain\"")
    // Keys are strings: keywords, merge keys and flow indicators in flow are quoted.
    #expect(
      YAMLEmitter.emit(map(("on", plain("1")), ("<<", plain("2")), ("~", plain("3"))))
        == "\"on\": 1\n\n\"<<\": 2\n\n\"~\": 3\n")
    #expect(YAMLEmitter.emit(map(("---", plain("1")))) == "\"---\": 1\n")
  }

  @Test func headersAndRoots() {
    #expect(
      YAMLEmitter.emit(plain("just text"), header: "# already a comment\nplain")
        == "# already a comment\n# plain\n\njust text\n")
    #expect(YAMLEmitter.emit(plain("--- x")) == "\"--- x\"\n")
    #expect(YAMLEmitter.emit(list()) == "[]\n")
    #expect(YAMLEmitter.emit(map()) == "{}\n")
    #expect(YAMLEmitter.emit(plain("")) == "")
  }

  @Test func longKeysUseExplicitSyntax() throws {
    let key = String(repeating: "k", count: 1_100)
    let node = map(
      (key, plain("v")), ("list", list(plain("a"))),
      (key + "2", map(("x", plain("1")), ("y", list(map(("z", plain("2"))))))))
    let yaml = YAMLEmitter.emit(node)
    #expect(yaml.hasPrefix("? \(key)\n: v\n\nlist: [a]\n\n? \(key)2\n:\n  x: 1\n"))
    #expect(try reread(yaml) == node)
  }

  @Test func roundTripsRandomTrees() throws {
    var generator = TreeGenerator(rng: Xoshiro(seed: (5, 6, 7, 8)))
    for _ in 0..<300 {
      let tree = generator.node(depth: 0)
      let yaml = YAMLEmitter.emit(tree, header: "round trip")
      let back: DocumentNode?
      do {
        back = try reread(yaml)
      } catch {
        Issue.record(
          "\(error.diagnostic.message) at \(error.diagnostic.span.map(\.description) ?? "-") reading:\n\(yaml)"
        )
        continue
      }
      guard let back else {
        Issue.record("no document in:\n\(yaml)")
        continue
      }
      expectSame(back, tree, path: "", yaml: yaml)
      // What comes back is stable: written again, it reads back equal, layout aside.
      let again = YAMLEmitter.emit(back)
      #expect(
        try reread(again).map(withoutLayout) == withoutLayout(back), "second round in:\n\(again)")
      #expect(YAMLEmitter.emit(tree, header: "round trip") == yaml)
    }
  }
}
