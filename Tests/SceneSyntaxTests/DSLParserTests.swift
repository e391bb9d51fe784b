import Foundation
import PropertyBased
import SceneDiagnostics
import ScenePipeline
import Testing

@testable import SceneSyntax

// MARK: - Helpers

/// A plain (unquoted, verbatim) scalar.
private func plain(_ text: String) -> DocumentNode {
  DocumentNode(.scalar(DocumentNode.Scalar(text)), at: .synthesized)
}

/// A double-quoted scalar; verbatim when it had no escapes.
private func quoted(_ text: String, verbatim: Bool = true) -> DocumentNode {
  DocumentNode(
    .scalar(DocumentNode.Scalar(text, isQuoted: true, isVerbatim: verbatim)), at: .synthesized)
}

private func list(_ items: DocumentNode...) -> DocumentNode {
  DocumentNode(.sequence(items), at: .synthesized)
}

private func map(_ entries: KeyValuePairs<String, DocumentNode>) -> DocumentNode {
  DocumentNode(
    .mapping(
      entries.map { DocumentNode.Entry(key: $0.key, keySource: .synthesized, value: $0.value) }),
    at: .synthesized)
}

private func mapping(_ entries: [(String, DocumentNode)]) -> DocumentNode {
  DocumentNode(
    .mapping(entries.map { DocumentNode.Entry(key: $0, keySource: .synthesized, value: $1) }),
    at: .synthesized)
}

private func parse(_ text: String) -> (document: DocumentNode?, diagnostics: [Diagnostic]) {
  DSLParser.parse(SourceFile(name: "test.scene", text: text))
}

/// Every diagnostic of parsing `text`, rendered clang-style with source lines and carets.
private func rendered(_ text: String) -> String {
  let file = SourceFile(name: "test.scene", text: text)
  return DiagnosticRenderer(files: [file]).render(DSLParser.parse(file).diagnostics)
}

/// The node at a path of mapping keys and list indices.
private func node(_ root: DocumentNode?, _ path: Any...) -> DocumentNode? {
  var current = root
  for step in path {
    switch (current?.value, step) {
    case (.mapping(let entries), let key as String):
      current = entries.first { $0.key == key }?.value
    case (.sequence(let items), let index as Int) where items.indices.contains(index):
      current = items[index]
    default:
      return nil
    }
  }
  return current
}

/// The entry of `key` in the mapping at `path`.
private func entry(_ root: DocumentNode?, _ path: [Any], _ key: String) -> DocumentNode.Entry? {
  guard case .mapping(let entries)? = node(root, path)?.value else { return nil }
  return entries.first { $0.key == key }
}

/// `line:column+length`, for compact span expectations.
private func place(_ span: SourceSpan?) -> String {
  guard let span else { return "none" }
  return "\(span.start.line):\(span.start.column)+\(span.length)"
}

private func place(_ node: DocumentNode?) -> String { place(node?.source.span) }

/// How a scalar was written: "plain" or "quoted", then "verbatim" or "escaped".
private func how(_ node: DocumentNode?) -> String {
  guard case .scalar(let scalar)? = node?.value else { return "not a scalar" }
  return (scalar.isQuoted ? "quoted " : "plain ") + (scalar.isVerbatim ? "verbatim" : "escaped")
}

/// The example of the language reference, in the DSL.
let dslExampleScene = """
  # a comment: '#' where a token could start runs to the end of the line
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
  gesture
    press (187, 60)
    drag by=(0, 200) over=0.6s ease=ease-out
    wait 1.5s
    release
  gesture 1
    wait 0.2s
    tap (10, 10)
  expect at 2.5s: c.y ≈ 50 ± 0.5
  expect
    event link.broke before 0.8s
    no event dismissed

  """

/// The tree the example must give, built by hand.
let dslExampleTree: DocumentNode = map([
  "scene": map([
    "name": quoted("Elastic wave"), "size": plain("375x300"), "fps": plain("60"),
    "duration": plain("until-rest"), "background": plain("#101820"),
  ]),
  "let": map(["pull": plain("max(drag.dy, 0)"), "waveHeight": plain("min(pull * 0.6, 100)")]),
  "springs": map(["wave": map(["dampingRatio": plain("0.57"), "duration": plain("0.9s")])]),
  "handles": map([
    "ball": map([
      "position": plain("(120, 80)"), "shape": plain("circle"), "r": plain("20"),
      "draggable": plain("true"),
      "fill": plain("#ff8800"),
    ])
  ]),
  "paths": map([
    "curve": map(["d": quoted("M30 100 Q 200 0 300 100"), "stroke": plain("#00ff00")]),
    "wave": map([
      "fill": plain("#3a7bd5"),
      "segments": list(
        map(["move": plain("l3")]), map(["line": plain("(0, 0)")]),
        map(["quad": list(plain("c1"), plain("p"))]),
        map(["cubic": list(plain("c1"), plain("c2"), plain("p"))]), plain("close")),
    ]),
  ]),
  "constraints": list(
    map([
      "follow": map([
        "handle": plain("ball"), "path": plain("curve"), "orient": plain("true"),
        "ends": plain("clamp"),
      ])
    ]),
    map([
      "elastic": map([
        "handle": plain("badge"), "resistance": map(["factor": plain("0.7")]),
        "return": map(["speed": plain("900"), "ease": plain("ease-out")]),
      ])
    ]),
    map([
      "gooey": map([
        "anchor": plain("a"), "ball": plain("b"), "viscosity": plain("10"), "name": plain("link"),
      ])
    ]),
    map([
      "animate": map([
        "handle": plain("car"), "path": plain("road"), "duration": plain("4s"),
        "repeat": plain("loop"),
      ])
    ])),
  "gesture": map([
    "0": list(
      map(["press": plain("(187, 60)")]),
      map([
        "drag": map(["by": plain("(0, 200)"), "over": plain("0.6s"), "ease": plain("ease-out")])
      ]),
      map(["wait": plain("1.5s")]), plain("release")),
    "1": list(map(["wait": plain("0.2s")]), map(["tap": plain("(10, 10)")])),
  ]),
  "expect": list(
    plain("at 2.5s: c.y ≈ 50 ± 0.5"), plain("event link.broke before 0.8s"),
    plain("no event dismissed")),
])

// MARK: - Trees

@Suite struct DSLParserTests {
  @Test func theFullExampleGivesTheSchemaTree() {
    let (document, diagnostics) = parse(dslExampleScene)
    #expect(diagnostics.isEmpty)
    #expect(document == dslExampleTree)
  }

  @Test func anEmptyOrCommentOnlyFileHasNoDocument() {
    for text in ["", "\n\n", "# only a comment\n   # another\n\n", "  \t \n"] {
      let (document, diagnostics) = parse(text)
      #expect(document == nil)
      #expect(diagnostics.isEmpty)
    }
  }

  @Test func oneBareGestureIsAListAndNumberedOnesAMapping() {
    let steps = list(map(["press": plain("(1, 2)")]), plain("release"))
    #expect(parse("gesture\n  press (1, 2)\n  release\n").document == map(["gesture": steps]))
    #expect(
      parse("gesture 0\n  press (1, 2)\n  release\n").document
        == map(["gesture": map(["0": steps])]))
    #expect(
      parse("gesture 2\n  press (1, 2)\n  release\ngesture\n  release\n").document
        == map(["gesture": map(["2": steps, "0": list(plain("release"))])]))
  }

  @Test func stepsTakeAValueAttributesOrBoth() {
    let text = """
      gesture
        press (1,2) pointer=1
        release velocity=(0, -50)
        move to=(3, 4)
        fling by=(0, 9) over=0.1s
        hold 1s
        replay "trace.csv"
        press
        tap ball

      """
    let steps = list(
      map(["press": map(["at": plain("(1,2)"), "pointer": plain("1")])]),
      map(["release": map(["velocity": plain("(0, -50)")])]),
      map(["move": map(["to": plain("(3, 4)")])]),
      map(["fling": map(["by": plain("(0, 9)"), "over": plain("0.1s")])]),
      map(["hold": plain("1s")]),
      map(["replay": quoted("trace.csv")]),
      plain("press"),
      map(["tap": plain("ball")]))
    let (document, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    #expect(document == map(["gesture": steps]))
  }

  @Test func valuesComeFromLeadingTokensThatAreNotAttributes() {
    let text = """
      follow path=curve handle=ball
      gooey a ball=b stretch
      scene
      elastic badge
      animate

      """
    let (document, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    #expect(
      document
        == map([
          "constraints": list(
            map(["follow": map(["path": plain("curve"), "handle": plain("ball")])]),
            map([
              "gooey": map(["anchor": plain("a"), "ball": plain("b"), "stretch": plain("true")])
            ]),
            map(["elastic": map(["handle": plain("badge")])]),
            map(["animate": map([:])])),
          "scene": map([:]),
        ]))
  }

  @Test func repeatedStatementsShareTheirSectionAndKeepDuplicates() {
    let text = "handle ball r=1\nscene A\nhandle ball r=2\nscene B\nlet x = 1\nlet x = 2\n"
    #expect(
      parse(text).document
        == map([
          "handles": map(["ball": map(["r": plain("1")]), "ball": map(["r": plain("2")])]),
          "scene": map(["name": plain("A")]),
          "scene": map(["name": plain("B")]),
          "let": map(["x": plain("1"), "x": plain("2")]),
        ]))
  }

  @Test func commentsStartOnlyWhereATokenCould() {
    let text = """
      handle h fill=#fff t=a#b p=(1, #2) s="x # y" # the comment
      let e = f(#1, "# 2") # the comment
      expect x # y
      # a whole-line comment
          # indented comment lines are ignored too

      """
    let (document, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    #expect(
      document
        == map([
          "handles": map([
            "h": map([
              "fill": plain("#fff"), "t": plain("a#b"), "p": plain("(1, #2)"), "s": quoted("x # y"),
            ])
          ]),
          "let": map(["e": plain("f(#1, \"# 2\")")]),
          "expect": list(plain("x")),
        ]))
  }

  @Test func quotedStringsDecodeEscapes() {
    let text = #"handle "my ball" a="" b="tab\there" c="q\"\\" d="\u{1F388}\n" e=plain"q"\#n"#
    let (document, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    #expect(
      document
        == map([
          "handles": map([
            "my ball": map([
              "a": quoted(""), "b": quoted("tab\there", verbatim: false),
              "c": quoted("q\"\\", verbatim: false),
              "d": quoted("🎈\n", verbatim: false), "e": plain("plain\"q\""),
            ])
          ])
        ]))
    // `==` ignores `isVerbatim`, so check it by itself.
    let kinds = ["a", "b", "c", "d", "e"].map { how(node(document, "handles", "my ball", $0)) }
    #expect(
      kinds == [
        "quoted verbatim", "quoted escaped", "quoted escaped", "quoted escaped", "plain verbatim",
      ])
  }

  @Test func flagsAndDottedKeysNest() {
    let (document, diagnostics) = parse("spring s a.b.c=1 a.b.d a.e=2 f\n")
    #expect(diagnostics.isEmpty)
    #expect(
      document
        == map([
          "springs": map([
            "s": map([
              "a": map(["b": map(["c": plain("1"), "d": plain("true")]), "e": plain("2")]),
              "f": plain("true"),
            ])
          ])
        ]))
  }

  @Test func allLineBreaksCount() {
    let lf = "handle a r=1\n\ngesture\n  release\nexpect x\n"
    for text in [
      lf, lf.replacingOccurrences(of: "\n", with: "\r\n"),
      lf.replacingOccurrences(of: "\n", with: "\r"),
    ] {
      let (document, diagnostics) = parse(text)
      #expect(diagnostics.isEmpty)
      #expect(
        document
          == map([
            "handles": map(["a": map(["r": plain("1")])]), "gesture": list(plain("release")),
            "expect": list(plain("x")),
          ]))
      #expect(place(node(document, "expect", 0)) == "5:8+1")
      #expect(place(node(document, "gesture", 0)) == "4:3+7")
    }
  }

  @Test func aPathWithoutBlockHasNoSegments() {
    #expect(
      parse("path p d=\"M0 0\"\nhandle h\n").document
        == map(["paths": map(["p": map(["d": quoted("M0 0")])]), "handles": map(["h": map([:])])]))
  }

  // MARK: - Spans

  @Test func spansPointAtTheWrittenText() {
    let (document, _) = parse(dslExampleScene)
    #expect(place(document) == "1:1+1")
    #expect(place(node(document, "scene")) == "2:1+5")
    #expect(place(entry(document, [], "scene")?.keySource.span) == "2:1+5")
    #expect(place(node(document, "scene", "name")) == "2:8+12")  // inside the quotes
    #expect(place(entry(document, ["scene"], "fps")?.keySource.span) == "2:35+3")
    #expect(place(node(document, "scene", "fps")) == "2:39+2")
    #expect(place(node(document, "let")) == "3:1+3")
    #expect(place(entry(document, ["let"], "waveHeight")?.keySource.span) == "4:5+10")
    #expect(place(node(document, "let", "waveHeight")) == "4:18+20")
    #expect(place(entry(document, ["handles"], "ball")?.keySource.span) == "6:8+4")
    #expect(place(node(document, "handles", "ball")) == "6:1+6")
    #expect(place(node(document, "handles", "ball", "position")) == "6:22+9")
    #expect(place(node(document, "handles", "ball", "draggable")) == "6:50+9")
    #expect(place(node(document, "paths", "curve", "d")) == "7:15+23")
    #expect(place(node(document, "paths", "wave", "segments")) == "9:3+4")
    #expect(place(node(document, "paths", "wave", "segments", 3, "cubic", 2)) == "12:15+1")
    #expect(place(node(document, "paths", "wave", "segments", 4)) == "13:3+5")
    #expect(place(node(document, "constraints", 1, "elastic", "return")) == "15:37+6")
    #expect(
      place(entry(document, ["constraints", 1, "elastic", "return"], "ease")?.keySource.span)
        == "15:61+4")
    #expect(place(node(document, "constraints", 1, "elastic", "return", "ease")) == "15:66+8")
    #expect(place(node(document, "constraints", 2, "gooey", "ball")) == "16:9+1")
    #expect(place(entry(document, ["gesture"], "0")?.keySource.span) == "18:1+7")
    #expect(place(entry(document, ["gesture"], "1")?.keySource.span) == "23:9+1")
    #expect(place(node(document, "gesture", "0", 1, "drag", "over")) == "20:25+4")
    #expect(place(node(document, "expect", 0)) == "26:8+23")
    #expect(place(node(document, "expect", 2)) == "29:3+18")
    #expect(how(node(document, "paths", "curve", "d")) == "quoted verbatim")
    #expect(how(node(document, "handles", "ball", "draggable")) == "plain verbatim")
    #expect(how(node(document, "let", "pull")) == "plain verbatim")
    #expect(how(node(document, "expect", 0)) == "plain verbatim")
  }

  @Test func columnsCountUnicodeScalars() {
    // "ä" is one scalar, "🎈" one (outside the BMP), "é" written as e + U+0301 is two.
    let text =
      "handle bäll r=20\nhandle 🎈 r=1\nhandle e\u{301} fill=\"ü\" x=\"\\t\"\nexpect ≈ 1 ± x"
    let (document, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    #expect(place(entry(document, ["handles", "bäll"], "r")?.keySource.span) == "1:13+1")
    #expect(place(node(document, "handles", "bäll", "r")) == "1:15+2")
    #expect(place(node(document, "handles", "🎈", "r")) == "2:12+1")
    #expect(place(entry(document, ["handles"], "e\u{301}")?.keySource.span) == "3:8+2")
    #expect(place(node(document, "handles", "e\u{301}", "fill")) == "3:17+1")
    // With escapes, the span covers the quotes too.
    #expect(place(node(document, "handles", "e\u{301}", "x")) == "3:22+4")
    #expect(place(node(document, "expect", 0)) == "4:8+7")
  }

  // MARK: - Errors

  @Test func aBlockOfOnlyTabbedLinesIsNotAlsoMissing() {
    #expect(
      rendered("gesture\n\tpress (1, 2)\n") == """
        test.scene:2:1: error: tabs are not allowed for indentation; use spaces
             press (1, 2)
            ^

        """)
  }

  @Test func tabsInIndentation() {
    #expect(
      rendered("gesture\n\tpress (1, 2)\n  release\n") == """
        test.scene:2:1: error: tabs are not allowed for indentation; use spaces
             press (1, 2)
            ^

        """)
  }

  @Test func inconsistentIndentation() {
    #expect(
      rendered("path p\n  move a\n    line b\n line c\n  close\n") == """
        test.scene:3:5: error: inconsistent indentation
                line b
                ^
        test.scene:2:3: note: the block's first line is indented by 2 spaces
              move a
              ^~~~
        test.scene:4:2: error: inconsistent indentation
             line c
             ^
        test.scene:2:3: note: the block's first line is indented by 2 spaces
              move a
              ^~~~

        """)
  }

  @Test func indentationWhereNoBlockMayBe() {
    #expect(
      rendered("  handle a\nspring b\n  release\n  release\n") == """
        test.scene:1:3: error: unexpected indentation
              handle a
              ^
        test.scene:3:3: error: 'spring' takes no indented block
              release
              ^

        """)
  }

  @Test func unbalancedBrackets() {
    #expect(
      rendered("handle h position=(1, min(2, 3)\nhandle i a=x)\nhandle j a=[1, (2]]\n") == """
        test.scene:1:19: error: unclosed '('
            handle h position=(1, min(2, 3)
                              ^
        test.scene:2:13: error: unexpected ')'
            handle i a=x)
                        ^
        test.scene:3:16: error: unclosed '('
            handle j a=[1, (2]]
                           ^
        test.scene:3:18: note: expected ')' here, found ']'
            handle j a=[1, (2]]
                             ^

        """)
  }

  @Test func badStrings() {
    #expect(
      rendered(
        #"handle h d="M0 0"# + "\n" + #"handle i d="a\qb""# + "\n" + #"handle j d="\u{110000}""#
          + "\n"
          + #"handle k d="ab"c"# + "\n") == #"""
          test.scene:1:12: error: unterminated string
              handle h d="M0 0
                         ^
          test.scene:2:14: error: unknown escape '\q' in string
              handle i d="a\qb"
                           ^~
          test.scene:3:13: error: invalid unicode escape; write \u{…} with 1 to 8 hex digits of a valid scalar
              handle j d="\u{110000}"
                          ^~~~~~~~~~
          test.scene:4:16: error: expected a space after the closing '"'
              handle k d="ab"c
                             ^

          """#)
  }

  @Test func unknownWordsSuggestTheNearestKnownOne() {
    #expect(
      rendered("handel ball\nwobble x\npath p\n  lien (0, 0)\ngesture\n  pres (1, 2)\n  (1, 2)\n")
        == """
        test.scene:1:1: error: unknown statement 'handel'; did you mean 'handle'?
            handel ball
            ^~~~~~
        test.scene:2:1: error: unknown statement 'wobble'
            wobble x
            ^~~~~~
        test.scene:4:3: error: unknown segment 'lien'; did you mean 'line'?
              lien (0, 0)
              ^~~~
        test.scene:6:3: error: unknown gesture step 'pres'; did you mean 'press'?
              pres (1, 2)
              ^~~~
        test.scene:7:3: error: expected a gesture step, found '(1, 2)'
              (1, 2)
              ^~~~~~

        """)
  }

  @Test func segmentsTakeTheirNumberOfPoints() {
    #expect(
      rendered("path p\n  cubic c1 c2\n  move\n  line a b\n  close now\n  quad a b\n") == """
        test.scene:2:3: error: 'cubic' takes 3 points, found 2
              cubic c1 c2
              ^~~~~
        test.scene:3:3: error: 'move' takes 1 point, found 0
              move
              ^~~~
        test.scene:4:3: error: 'line' takes 1 point, found 2
              line a b
              ^~~~
        test.scene:5:3: error: 'close' takes no points, found 1
              close now
              ^~~~~

        """)
  }

  @Test func duplicateAttributes() {
    #expect(
      rendered(
        "handle ball r=20 fill=red r=30\nelastic e return.speed=1 return=2\nfollow b handle=c\n")
          == """
          test.scene:1:27: error: duplicate attribute 'r'
              handle ball r=20 fill=red r=30
                                        ^
          test.scene:1:13: note: 'r' was first set here
              handle ball r=20 fill=red r=30
                          ^
          test.scene:2:26: error: duplicate attribute 'return'
              elastic e return.speed=1 return=2
                                       ^~~~~~
          test.scene:2:11: note: 'return' was first set here
              elastic e return.speed=1 return=2
                        ^~~~~~
          test.scene:3:10: error: duplicate attribute 'handle'
              follow b handle=c
                       ^~~~~~
          test.scene:3:8: note: 'handle' was first set here
              follow b handle=c
                     ^

          """)
  }

  /// Past eight keys a table finds them by hashing instead of comparing each: the same
  /// order, the same duplicates.
  @Test func manyAttributesKeepTheirOrderAndTheirDuplicates() {
    let keys = (1...12).map { "k\($0)" }
    let line = "spring s " + keys.map { "\($0)=1" }.joined(separator: " ")
    let (document, diagnostics) = parse(line + " t." + keys.joined(separator: "=2 t.") + "=2\n")
    #expect(diagnostics.isEmpty)
    let expected = map([
      "springs": map([
        "s": mapping(
          keys.map { ($0, plain("1")) } + [("t", mapping(keys.map { ($0, plain("2")) }))])
      ])
    ])
    #expect(document == expected)
    for late in ["k3", "k11", "t.k2", "t.k12"] {
      let text =
        line + " t.k1=1 t.k2=1 t.k3=1 t.k4=1 t.k5=1 t.k6=1 t.k7=1 t.k8=1 t.k9=1 t.k10=1"
        + " t.k11=1 t.k12=1 \(late)=5\n"
      let messages = parse(text).diagnostics.map(\.message)
      #expect(messages == ["duplicate attribute '\(late)'"], "\(late)")
    }
  }

  @Test func malformedStatements() {
    #expect(
      rendered(
        "handle\nspring r=1\nlet = 1\nlet a 1\nlet b = # nothing\nhandle h r= x.=1\nhandle g (1)\n(1) x\n"
      ) == """
        test.scene:1:7: error: expected a name after 'handle'
            handle
                  ^
        test.scene:2:8: error: expected a name after 'spring'
            spring r=1
                   ^
        test.scene:3:5: error: expected a name after 'let'
            let = 1
                ^
        test.scene:4:7: error: expected '=' after 'let a'
            let a 1
                  ^
        test.scene:5:7: error: expected an expression after '='
            let b = # nothing
                  ^
        test.scene:6:10: error: expected a value after 'r='
            handle h r= x.=1
                     ^~
        test.scene:7:10: error: expected an attribute (key=value or a flag), found '(1)'
            handle g (1)
                     ^~~
        test.scene:8:1: error: expected a statement, found '(1)'
            (1) x
            ^~~

        """)
    #expect(
      rendered("handle h x..y=1\n") == """
        test.scene:1:10: error: malformed attribute key 'x..y'
            handle h x..y=1
                     ^~~~

        """)
  }

  @Test func badBlockLinesAndKeys() {
    let key = (1...33).map { "k\($0)" }.joined(separator: ".")
    let underline = "^" + String(repeating: "~", count: key.count - 1)
    #expect(
      rendered("path p segments=1\n  (0, 0)\n  close\nhandle h \(key)=1\n") == """
        test.scene:2:3: error: expected a segment ('move', 'line', 'quad', 'cubic' or 'close'), found '(0, 0)'
              (0, 0)
              ^~~~~~
        test.scene:2:3: error: duplicate attribute 'segments'
              (0, 0)
              ^
        test.scene:1:8: note: 'segments' was first set here
            path p segments=1
                   ^~~~~~~~
        test.scene:4:10: error: attribute key has more than 32 parts
            handle h \(key)=1
                     \(underline)

        """)
  }

  @Test func gestureAndExpectHeaders() {
    #expect(
      rendered(
        "gesture 1\n  release\ngesture 1\n  release\ngesture x\n  bogus\ngesture 2 3\ngesture\nexpect\n"
      ) == """
        test.scene:3:9: error: duplicate gesture for pointer 1
            gesture 1
                    ^
        test.scene:1:9: note: the first gesture for pointer 1 is here
            gesture 1
                    ^
        test.scene:5:9: error: expected a pointer number after 'gesture', found 'x'
            gesture x
                    ^
        test.scene:7:11: error: unexpected '3'; 'gesture' takes only a pointer number
            gesture 2 3
                      ^
        test.scene:8:1: error: expected an indented block of steps after 'gesture'
            gesture
            ^~~~~~~
        test.scene:9:1: error: expected an expectation after 'expect', or an indented block of them
            expect
            ^~~~~~

        """)
  }

  @Test func everyIndependentErrorIsReportedInOneRun() {
    let text = """
      scene Demo fps=60 fps=30
      handel ball
        indented under a bad statement: skipped
      handle ok r=1
      path p fill=(red
        move a
        nonsense here
      path q
        mvoe a
        line b
      gesture
        press (1, 2
        release
      expect at 1s: x = (1

      """
    let (document, diagnostics) = parse(text)
    #expect(
      diagnostics.map { "\(place($0.span)) \($0.message)" } == [
        "1:19+3 duplicate attribute 'fps'",
        "2:1+6 unknown statement 'handel'; did you mean 'handle'?",
        "5:13+1 unclosed '('",
        "9:3+4 unknown segment 'mvoe'; did you mean 'move'?",
        "12:9+1 unclosed '('",
        "14:19+1 unclosed '('",
      ])
    // The good statements (and block lines) still make it into the tree.
    #expect(
      document
        == map([
          "handles": map(["ok": map(["r": plain("1")])]),
          "paths": map(["q": map(["segments": list(map(["line": plain("b")]))])]),
          "gesture": list(plain("release")),
        ]))
  }

  // MARK: - Robustness

  @Test func randomBytesNeverCrashOrHang() {
    var rng = Xoshiro(seed: (1, 2, 3, 4))
    let alphabet = Array(" \t\n\r#\"\\=()[]{}.,-_xyz019é🎈".unicodeScalars)
    // 3,000 strings of random bytes, then 3,000 of the DSL's own characters and words.
    for round in 0..<6_000 {
      let count = Int.random(in: 0...160, using: &rng)
      let text: String
      if round < 3_000 {
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
        text = String(decoding: bytes, as: UTF8.self)
      } else {
        // Text made of the DSL's own characters and words reaches deeper into the parser.
        var view = String.UnicodeScalarView()
        for _ in 0..<count {
          if Int.random(in: 0..<6, using: &rng) == 0 {
            let words =
              DSLParser.statementKeywords + DSLParser.stepKeywords + [
                "close", "cubic", "\n  ", "\n",
              ]
            view.append(contentsOf: (words.randomElement(using: &rng) ?? "").unicodeScalars)
          } else {
            view.append(alphabet.randomElement(using: &rng) ?? " ")
          }
        }
        text = String(view)
      }
      let file = SourceFile(name: "fuzz.scene", text: text)
      let (document, diagnostics) = DSLParser.parse(file)
      for diagnostic in diagnostics {
        guard let span = diagnostic.span else { continue }
        #expect(span.start.line >= 1 && span.start.line <= file.lineCount)
        #expect(span.start.column >= 1)
      }
      _ = DiagnosticRenderer(files: [file]).render(diagnostics)
      if let document {
        _ = DSLParser.parse(SourceFile(name: "again.scene", text: DSLEmitter.emit(document)))
      }
    }
  }

  @Test func aMegabyteFileParses() {
    var text = ""
    var copies = 0
    while text.utf8.count < 1_000_000 {
      text += dslExampleScene.replacingOccurrences(of: "gesture 1", with: "gesture \(copies + 1)")
        .replacingOccurrences(
          of: "\ngesture\n", with: copies == 0 ? "\ngesture\n" : "\ngesture \(copies + 100_000)\n")
      copies += 1
    }
    let (document, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    guard case .sequence(let constraints)? = node(document, "constraints")?.value,
      case .mapping(let handles)? = node(document, "handles")?.value
    else {
      Issue.record("no constraints or handles")
      return
    }
    #expect(constraints.count == 4 * copies)
    #expect(handles.count == copies)
  }

  @Test func pathologicalMegabyteInputsParse() {
    let megabyte = 1 << 20
    let inputs: [(text: String, errors: Int)] = [
      ("handle h p=" + String(repeating: "(", count: megabyte), 1),
      (
        "handle h p=" + String(repeating: "([{", count: megabyte / 3)
          + String(repeating: "}])", count: megabyte / 3), 1  // Over the line limit.
      ),
      ("handle h " + String(repeating: "a.", count: megabyte / 2) + "b=1", 1),
      // Over the line limit.
      ("handle h " + (0..<100_000).map { "k\($0)=1" }.joined(separator: " "), 1),
      ("handle h " + String(repeating: "k=1 ", count: megabyte / 4), 1),
      (String(repeating: "x", count: megabyte), 1),
      ("gesture\n" + String(repeating: "  press (1, 2)\n", count: megabyte / 16), 0),
      ("expect " + String(repeating: "\"", count: megabyte), 1),  // Over the line limit.
      (String(repeating: "\n", count: megabyte), 0),
      (String(repeating: "handel x\n", count: megabyte / 9), megabyte / 9),
      (
        "path p\n" + String(repeating: "  line a\n   line b\n", count: megabyte / 20), megabyte / 20
      ),
      ((0..<60_000).map { "gesture \($0)\n  release\n" }.joined(), 0),
    ]
    for (text, errors) in inputs {
      let (document, diagnostics) = parse(text)
      #expect(diagnostics.count == errors)
      if let document { _ = DSLEmitter.emit(document) }
    }
  }
}

/// A statement goes on over several lines when a line ends in `\`.
@Suite struct DSLContinuationTests {
  func parse(_ text: String) -> (SceneSpec?, [Diagnostic]) {
    let result = SceneLoader.load(SourceFile(name: "c.scene", text: text), syntax: .dsl)
    return (result.spec, result.diagnostics)
  }

  @Test func aContinuedStatementReadsAsOneAndErrorsPointAtTheirOwnLine() throws {
    let (spec, diagnostics) = parse(
      "handle ball \\\n    position=(1, 2) \\\n    hitRadius=oops draggable\n")
    #expect(spec == nil)
    #expect(diagnostics.map(\.message) == ["expected a number for 'hitRadius', found 'oops'"])
    let place = try #require(diagnostics.first?.span?.start)
    #expect(place.line == 3 && place.column == 15)
    let (good, none) = parse("handle ball \\\n  position=(1, \\\n  2) r=5\n")
    #expect(none.isEmpty)
    #expect(good?.handles.first?.radius?.value == 5)
  }

  @Test func aStringGoesOnAcrossLinesAndOnlyARealMarkerContinues() throws {
    let (spec, diagnostics) = parse(
      "path p d=\"M0 0 \\\n    L10 0\"\n# a comment ending in \\\nhandle h position=(0, 0)\n")
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    #expect(spec?.paths.first.map { "\($0)" }?.contains("M0 0 L10 0") == true)
    #expect(spec?.handles.map(\.name.value) == ["h"])
    // An escaped backslash at the end of a string is text, not a marker.
    #expect(DSLLexer.continuation(of: Array("scene \"a\\\\\"".unicodeScalars)) == nil)
    #expect(DSLLexer.continuation(of: Array("scene \"a\\".unicodeScalars)) == 8)
    #expect(DSLLexer.continuation(of: Array("f(a, #b) \\".unicodeScalars)) == 9)
    #expect(DSLLexer.continuation(of: Array("handle h # note \\".unicodeScalars)) == nil)
  }
}

/// Absurd lines are refused at once with a located error, so a hostile file costs little.
@Suite struct DSLLineLimitTests {
  @Test func aLineLongerThanTheLimitIsRefused() {
    let text = "let a = " + String(repeating: "1+", count: 40_000) + "1\n"
    let diagnostics = DSLParser.parse(SourceFile(name: "test.scene", text: text)).diagnostics
    #expect(
      diagnostics.map(\.message) == ["line is 80009 characters long; a line may have at most 65536"]
    )
    #expect(diagnostics.first?.span?.start.column == 65_537)
  }

  @Test func tooManyWordsOnOneLineAreRefused() {
    let words = (0..<5_000).map { "k\($0)=1" }.joined(separator: " ")
    let diagnostics = DSLParser.parse(
      SourceFile(name: "test.scene", text: "handle h " + words + "\n")
    ).diagnostics
    #expect(
      diagnostics.map(\.message) == [
        "more than 4096 words on one line; split it into several statements"
      ])
    // The 4097th word: "handle", "h", then k0 … k4094.
    let column = "handle h ".count + (0..<4_094).map { "k\($0)=1 ".count }.reduce(0, +) + 1
    #expect(diagnostics.first?.span?.start.column == column)
  }
}
