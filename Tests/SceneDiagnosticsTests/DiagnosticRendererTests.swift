import Testing

@testable import SceneDiagnostics

@Suite struct DiagnosticRendererTests {
  let file = SourceFile(
    name: "Scenes/wave.yaml",
    text: "handles:\n  ball:\n    position: (1, 2)\nconstraints:\n  - follow: { handle: bal }\n")

  @Test func rendersClangStyleWithCaretAndTildes() {
    let renderer = DiagnosticRenderer(files: [file])
    let diagnostic = Diagnostic.error(
      "unknown handle 'bal'; did you mean 'ball'?",
      at: SourceSpan(file.location(line: 5, column: 23), length: 3),
      notes: [
        .init(
          "'ball' is defined here", at: SourceSpan(file.location(line: 2, column: 3), length: 4))
      ])
    #expect(
      renderer.render(diagnostic) == """
        Scenes/wave.yaml:5:23: error: unknown handle 'bal'; did you mean 'ball'?
              - follow: { handle: bal }
                                  ^~~
        Scenes/wave.yaml:2:3: note: 'ball' is defined here
              ball:
              ^~~~

        """)
  }

  @Test func placelessDiagnosticsAndUnknownFiles() {
    let renderer = DiagnosticRenderer(files: [file])
    #expect(renderer.render(.error("input is too large", at: nil)) == "error: input is too large\n")
    let elsewhere = Diagnostic.error(
      "boom", at: SourceSpan(SourceLocation(file: "other.yaml", line: 1, column: 1)))
    #expect(renderer.render(elsewhere) == "other.yaml:1:1: error: boom\n")
  }

  @Test func spansAreClippedToTheLineAndTabsShowAsSpaces() {
    let tabbed = SourceFile(name: "t.scene", text: "\thandle x\n")
    let snippet = tabbed.snippet(for: SourceSpan(tabbed.location(line: 1, column: 9), length: 50))
    #expect(snippet == "     handle x\n            ^")
    let empty = SourceFile(name: "e", text: "")
    #expect(empty.snippet(for: SourceSpan(empty.location(line: 1, column: 1))) == "    \n    ^")
    #expect(empty.snippet(for: SourceSpan(empty.location(line: 3, column: 1))) == nil)
  }

  @Test func columnsCountUnicodeScalars() {
    let file = SourceFile(name: "u.yaml", text: "name: \"名前\" é x\n")
    let snippet = file.snippet(for: SourceSpan(file.location(line: 1, column: 13), length: 1))
    #expect(snippet == "    name: \"名前\" é x\n                ^")
  }

  @Test func linesSplitOnEveryLineBreakStyle() {
    let file = SourceFile(name: "n", text: "a\r\nb\rc\nd")
    #expect(file.lineCount == 4)
    #expect(file.line(2) == "b")
    #expect(file.line(3) == "c")
    #expect(file.line(4) == "d")
    #expect(file.line(5) == nil)
  }

  @Test func locationsPrintAndOrder() {
    let a = SourceLocation(file: "a", line: 2, column: 9)
    #expect(a.description == "a:2:9")
    #expect(a < SourceLocation(file: "a", line: 10, column: 1))
    #expect(a.advanced(by: 3).column == 12)
  }
}

@Suite struct SuggestionTests {
  @Test func suggestsNearMisspellings() {
    let keys = ["position", "shape", "r", "draggable", "rest", "spring"]
    #expect(Suggestion.closest(to: "positon", among: keys) == "position")
    #expect(Suggestion.closest(to: "dragable", among: keys) == "draggable")
    #expect(Suggestion.closest(to: "srping", among: keys) == "spring")  // A swap is one edit.
    #expect(Suggestion.closest(to: "Shape", among: keys) == "shape")
    #expect(Suggestion.closest(to: "colour", among: keys) == nil)
    #expect(Suggestion.closest(to: "x", among: keys) == "r")
    #expect(Suggestion.didYouMean("bal", among: ["ball"]) == "; did you mean 'ball'?")
    #expect(Suggestion.didYouMean("zzz", among: ["ball"]) == "")
  }
}

@Suite struct SourceOrderTests {
  @Test func placelessFirstThenFileOrderStableOnTies() {
    func at(_ line: Int, _ column: Int) -> SourceSpan {
      SourceSpan(SourceLocation(file: "f", line: line, column: column))
    }
    let items: [(String, SourceSpan?)] = [
      ("c", at(3, 1)), ("a1", at(1, 5)), ("none", nil), ("a2", at(1, 5)), ("b", at(2, 9)),
    ]
    #expect(SourceOrder.sorted(items, by: \.1).map(\.0) == ["none", "a1", "a2", "b", "c"])
  }
}
