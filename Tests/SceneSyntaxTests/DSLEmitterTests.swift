import PropertyBased
import SceneDiagnostics
import Testing

@testable import SceneSyntax

// MARK: - Helpers

private func plain(_ text: String) -> DocumentNode {
  DocumentNode(.scalar(DocumentNode.Scalar(text)), at: .synthesized)
}

private func quoted(_ text: String, verbatim: Bool = true) -> DocumentNode {
  DocumentNode(
    .scalar(DocumentNode.Scalar(text, isQuoted: true, isVerbatim: verbatim)), at: .synthesized)
}

private func list(_ items: [DocumentNode]) -> DocumentNode {
  DocumentNode(.sequence(items), at: .synthesized)
}

private func map(_ entries: [(String, DocumentNode)]) -> DocumentNode {
  DocumentNode(
    .mapping(entries.map { DocumentNode.Entry(key: $0.0, keySource: .synthesized, value: $0.1) }),
    at: .synthesized)
}

/// Every scalar's `isVerbatim`, in document order: `==` on nodes ignores it.
private func verbatimFlags(_ node: DocumentNode) -> [Bool] {
  switch node.value {
  case .scalar(let scalar): return [scalar.isVerbatim]
  case .sequence(let items): return items.flatMap(verbatimFlags)
  case .mapping(let entries): return entries.flatMap { verbatimFlags($0.value) }
  }
}

private func reparse(_ text: String) -> (document: DocumentNode?, diagnostics: [Diagnostic]) {
  DSLParser.parse(SourceFile(name: "emitted.scene", text: text))
}

/// Random trees of the schema's shape, with the awkward values the emitter must handle:
/// names and strings that need quotes, escapes, flags, nested attributes.
private struct SchemaTreeGenerator {
  var rng: Xoshiro

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &rng) < probability
  }
  mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

  /// Several distinct items of `pool`, in random order.
  mutating func distinct(_ pool: [String], _ count: ClosedRange<Int>) -> [String] {
    var remaining = pool
    var chosen: [String] = []
    for _ in 0..<min(int(count), pool.count) {
      chosen.append(remaining.remove(at: int(0...remaining.count - 1)))
    }
    return chosen
  }

  static let identifiers = [
    "ball", "badge", "wave", "car", "l3", "c1", "_x", "knob-2", "ünï", "a.b",
  ]
  /// Names are keys, so quoting them loses nothing: these include ones that need quotes.
  static let names =
    identifiers + ["my ball", "a=b", "#tag", "", "q\"uote", "(1, 2)", "tab\tname", "✓ ok", "x\\y"]
  static let attributeValues = [
    "0.57", "0.9s", "#ff8800", "(120, 80)", "ease-out", "cubic-bezier(0.4,0,0.2,1)", "min(a, b)",
    "375x300",
    "true", "false", "f(\"a b\")", "x==1", "-3", "[1, 2]", "{a: 1}", "a\"b\"", "ü", "🎈", "e\u{301}",
    "#",
  ]
  /// Values that stand bare as a statement's value: not `key=…`, not starting with `#`.
  static let values = attributeValues.filter { !$0.hasPrefix("#") && $0 != "x==1" }
  static let quotedTexts = [
    "M30 100 Q 200 0 300 100", "a \"b\"", "tab\there", "line\nbreak", "", "ünï ✓", "back\\slash",
    "# not a comment", "k=v", "plain", "cr\rhere", "\u{7}bell",
  ]
  static let attributeKeys = [
    "r", "fill", "shape", "draggable", "position", "speed", "ease", "over", "by", "to", "velocity",
    "pointer",
    "name", "at", "handle", "anchor", "ball", "y-2", "_k", "ünï",
  ]
  static let expressions = [
    "max(drag.dy, 0)", "min(pull * 0.6, 100)", "a + b", "\"s # t\" + x", "(1, 2)", "x ≈ y",
  ]
  static let expectations = [
    "at 2.5s: c.y ≈ 50 ± 0.5", "event link.broke before 0.8s", "no event dismissed", "x = (1, 2)",
  ]

  /// A scalar: plain from `pool`, or quoted, verbatim when it needs no escapes, as the
  /// parser reads it back.
  mutating func scalar(_ pool: [String]) -> DocumentNode {
    guard chance(0.25) else { return plain(pick(pool)) }
    let text = pick(Self.quotedTexts)
    let needsEscapes = text.unicodeScalars.contains { $0 == "\"" || $0 == "\\" || $0.value < 0x20 }
    return quoted(text, verbatim: !needsEscapes)
  }

  mutating func attributes(_ count: ClosedRange<Int>, excluding: [String] = [], depth: Int = 0)
    -> [(String, DocumentNode)]
  {
    distinct(Self.attributeKeys.filter { !excluding.contains($0) }, count).map { key in
      if depth < 2 && chance(0.15) { return (key, map(attributes(1...3, depth: depth + 1))) }
      return (key, scalar(Self.attributeValues))
    }
  }

  /// `KEYS…` as leading values (each present with some chance, in order), then attributes,
  /// which may include a value key that was not written first.
  mutating func withValues(_ keys: [String], _ count: ClosedRange<Int>) -> DocumentNode {
    var entries: [(String, DocumentNode)] = []
    for key in keys {
      guard chance(0.7) else { break }
      entries.append((key, scalar(Self.values)))
    }
    return map(entries + attributes(count, excluding: entries.map(\.0)))
  }

  mutating func named(_ count: ClosedRange<Int>, _ value: (inout Self) -> DocumentNode)
    -> DocumentNode
  {
    map((0..<int(count)).map { _ in (pick(Self.names), value(&self)) })
  }

  mutating func segment() -> DocumentNode {
    switch int(0...4) {
    case 0: return plain("close")
    case 1: return map([(pick(["move", "line"]), scalar(Self.values))])
    case 2: return map([("quad", list([scalar(Self.values), scalar(Self.values)]))])
    default:
      return map([("cubic", list([scalar(Self.values), scalar(Self.values), scalar(Self.values)]))])
    }
  }

  mutating func step() -> DocumentNode {
    let keyword = pick(DSLParser.stepKeywords)
    switch int(0...3) {
    case 0: return plain(keyword)
    case 1: return map([(keyword, scalar(Self.values))])
    default:
      let value = chance(0.5) ? [("at", scalar(Self.values))] : []
      return map([
        (keyword, map(value + attributes((value.isEmpty ? 1 : 0)...3, excluding: ["at"])))
      ])
    }
  }

  mutating func tree() -> DocumentNode {
    var root: [(String, DocumentNode)] = []
    for _ in 0..<int(0...2) { root.append(("scene", withValues(["name"], 0...4))) }
    if chance(0.6) {
      root.append(
        ("let", map(distinct(Self.identifiers, 1...3).map { ($0, plain(pick(Self.expressions))) })))
    }
    if chance(0.6) {
      root.append(("springs", named(1...3) { generator in map(generator.attributes(0...3)) }))
    }
    if chance(0.8) {
      root.append(("handles", named(1...3) { generator in map(generator.attributes(0...5)) }))
    }
    if chance(0.7) {
      root.append(
        (
          "paths",
          named(1...3) { generator in
            var entries = generator.attributes(0...3)
            if generator.chance(0.7) {
              entries.append(
                ("segments", list((0..<generator.int(1...5)).map { _ in generator.segment() })))
            }
            return map(entries)
          }
        ))
    }
    if chance(0.7) {
      let constraints = (0..<int(1...4)).map { _ in
        let kind = pick(["follow", "elastic", "animate", "gooey"])
        return map([(kind, withValues(kind == "gooey" ? ["anchor", "ball"] : ["handle"], 0...3))])
      }
      root.append(("constraints", list(constraints)))
    }
    if chance(0.7) {
      if chance(0.5) {
        root.append(("gesture", list((0..<int(1...4)).map { _ in step() })))
      } else {
        let pointers = distinct(["0", "1", "2", "3", "10"], 1...3)
        root.append(
          ("gesture", map(pointers.map { ($0, list((0..<int(1...3)).map { _ in step() })) })))
      }
    }
    if chance(0.6) { root.append(("expect", list(distinct(Self.expectations, 1...3).map(plain)))) }
    return map(root)
  }
}

// MARK: - Tests

@Suite struct DSLEmitterTests {
  @Test func theExampleIsWrittenCanonically() {
    let text = DSLEmitter.emit(dslExampleTree, header: "Generated by scenec.\n# kept as it is")
    #expect(
      text == """
        # Generated by scenec.
        # kept as it is

        scene "Elastic wave" size=375x300 fps=60 duration=until-rest background=#101820

        let pull = max(drag.dy, 0)
        let waveHeight = min(pull * 0.6, 100)

        spring wave dampingRatio=0.57 duration=0.9s

        handle ball position=(120, 80) shape=circle r=20 draggable fill=#ff8800

        path curve d="M30 100 Q 200 0 300 100" stroke=#00ff00
        path wave fill=#3a7bd5
          move l3
          line (0, 0)
          quad c1 p
          cubic c1 c2 p
          close

        follow ball path=curve orient ends=clamp
        elastic badge resistance.factor=0.7 return.speed=900 return.ease=ease-out
        gooey a b viscosity=10 name=link
        animate car path=road duration=4s repeat=loop

        gesture 0
          press (187, 60)
          drag by=(0, 200) over=0.6s ease=ease-out
          wait 1.5s
          release
        gesture 1
          wait 0.2s
          tap (10, 10)

        expect
          at 2.5s: c.y ≈ 50 ± 0.5
          event link.broke before 0.8s
          no event dismissed

        """)
  }

  @Test func theExampleRoundTrips() {
    let (document, diagnostics) = reparse(DSLEmitter.emit(dslExampleTree))
    #expect(diagnostics.isEmpty)
    #expect(document == dslExampleTree)
    // A list of steps stays a list; one numbered pointer stays a mapping.
    let single = map([("gesture", list([plain("release")]))])
    #expect(reparse(DSLEmitter.emit(single)).document == single)
    let numbered = map([("gesture", map([("0", list([plain("release")]))]))])
    #expect(reparse(DSLEmitter.emit(numbered)).document == numbered)
  }

  @Test func randomSchemaTreesRoundTrip() {
    var generator = SchemaTreeGenerator(rng: Xoshiro(seed: (9, 10, 11, 12)))
    for _ in 0..<300 {
      let tree = generator.tree()
      let text = DSLEmitter.emit(tree, header: "round trip")
      let (document, diagnostics) = reparse(text)
      #expect(
        diagnostics.isEmpty,
        "\(DiagnosticRenderer(files: [SourceFile(name: "emitted.scene", text: text)]).render(diagnostics))"
      )
      #expect(document == tree, "emitted:\n\(text)")
      #expect(document.map(verbatimFlags) == verbatimFlags(tree), "emitted:\n\(text)")
      if document != tree || !diagnostics.isEmpty { return }
    }
  }

  @Test func scalarsAreQuotedOnlyWhenTheyMustBe() {
    let tree = map([
      (
        "handles",
        map([
          (
            "my ball",
            map([
              ("a", plain("(0, 200)")), ("b", plain("two words")), ("c", plain("#fff")),
              ("d", plain("# x")),
              ("e", plain("")), ("f", quoted("q")), ("g", quoted("say \"hi\"")),
              ("h", quoted("tab", verbatim: false)),
              ("i", plain("f(\"x y\")")), ("j", plain("a\"b")), ("k", plain("true")),
              ("l", quoted("true")), ("m", quoted("a\tb\u{7}\r\n")),
            ])
          ), ("#1", map([])), ("k=v", map([])),
        ])
      ),
      (
        "gesture",
        list([
          map([("tap", plain("#1"))]), map([("tap", plain("k=v"))]),
          map([("press", map([("at", plain("(1, 2)"))]))]),
        ])
      ),
    ])
    #expect(
      DSLEmitter.emit(tree) == #"""
        handle "my ball" a=(0, 200) b="two words" c=#fff d="# x" e="" f="q" g="say \"hi\"" h="tab" i=f("x y") j="a\"b" k l="true" m="a\tb\u{7}\u{d}\n"
        handle "#1"
        handle "k=v"

        gesture
          tap "#1"
          tap "k=v"
          press at=(1, 2)

        """#)
  }

  @Test func aFlagWhereAValueCouldBeIsWrittenWithItsValue() {
    let tree = map([
      ("scene", map([("loop", plain("true")), ("fps", plain("60"))])),
      (
        "constraints",
        list([map([("gooey", map([("anchor", plain("a")), ("stretch", plain("true"))]))])])
      ),
      (
        "gesture", list([map([("drag", map([("fast", plain("true")), ("by", plain("(1, 2)"))]))])])
      ),
    ])
    let text = DSLEmitter.emit(tree)
    #expect(
      text == """
        scene loop=true fps=60

        gooey a stretch=true

        gesture
          drag fast=true by=(1, 2)

        """)
    #expect(reparse(text).document == tree)
  }

  @Test func whatTheDSLCannotSayBecomesAComment() {
    #expect(DSLEmitter.emit(plain("x")) == "# not a scene: the top level is 'x', not a mapping\n")
    let tree = map([
      ("handles", map([("h", plain("x"))])),
      ("constraints", list([map([("glue", map([]))])])),
      ("extra", map([("k", plain("v"))])),
    ])
    #expect(
      DSLEmitter.emit(tree) == """
        # cannot write 'handle h' in the DSL: x

        # cannot write constraint 'glue' in the DSL: {glue: {}}

        # cannot write 'extra' in the DSL: {k: v}

        """)
  }

  @Test func emittingWhatWasParsedIsStable() {
    // Random scenes made of the example's statements: the emitter's text reads back to a
    // tree it writes the same way again (the statement order is canonical after one pass).
    var rng = Xoshiro(seed: (5, 6, 7, 8))
    var statements: [String] = []
    for line in dslExampleScene.split(separator: "\n") where !line.hasPrefix("#") {
      if line.hasPrefix(" "), let last = statements.popLast() {
        statements.append(last + "\n" + line)
      } else {
        statements.append(String(line))
      }
    }
    let gestures = statements.filter { $0.hasPrefix("gesture") }
    let others = statements.filter { !$0.hasPrefix("gesture") }
    for _ in 0..<200 {
      var picked = (0..<Int.random(in: 1...30, using: &rng)).map { _ in
        others.randomElement(using: &rng) ?? ""
      }
      for gesture in gestures where Bool.random(using: &rng) {
        picked.insert(gesture, at: Int.random(in: 0...picked.count, using: &rng))
      }
      let text = picked.joined(separator: "\n")
      let (document, diagnostics) = reparse(text)
      #expect(diagnostics.isEmpty)
      guard let document else { continue }
      let emitted = DSLEmitter.emit(document)
      let (again, againDiagnostics) = reparse(emitted)
      #expect(againDiagnostics.isEmpty)
      #expect(again.map { DSLEmitter.emit($0) } == emitted, "from:\n\(text)")
    }
  }
}
