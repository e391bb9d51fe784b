import Testing

@testable import SceneDiagnostics

/// Diagnostics stay small whatever the input: a window of a long line, and a cap on how
/// many are rendered (a 49 KB line with 5,000 errors once printed 365 MB).
@Suite struct LongInputTests {
  @Test func aLongLineShowsAWindowAroundTheCaret() {
    let line = (0..<1000).map { "k\($0): 1" }.joined(separator: ", ")
    let file = SourceFile(name: "w.yaml", text: line + "\n")
    let column = (0..<500).map { "k\($0): 1, ".count }.reduce(0, +) + 1
    let snippet = file.snippet(
      for: SourceSpan(SourceLocation(file: "w.yaml", line: 1, column: column), length: 4))
    let lines = snippet?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
    #expect(lines.count == 2)
    // 60 scalars before, the span, 60 after, and an ellipsis at each clipped end.
    let expectedWidth = 4 + 1 + 60 + 4 + 60 + 1
    #expect(lines[0].unicodeScalars.count == expectedWidth)
    #expect(lines[0].hasPrefix("    …") && lines[0].hasSuffix("…"))
    #expect(lines[1] == "    " + String(repeating: " ", count: 61) + "^~~~")
    // The caret stands under the span's text.
    let shown = Array(lines[0].unicodeScalars)
    #expect(String(String.UnicodeScalarView(shown[65..<69])) == "k500")
  }

  @Test func aShortLineIsShownWhole() {
    let file = SourceFile(name: "s.yaml", text: "handle: bal\n")
    #expect(
      file.snippet(for: SourceSpan(SourceLocation(file: "s.yaml", line: 1, column: 9), length: 3))
        == "    handle: bal\n            ^~~")
  }

  @Test func renderingStopsAtTheLimitAndCountsTheRest() {
    let diagnostics = (1...250).map { Diagnostic.error("problem \($0)", at: nil) }
    let text = DiagnosticRenderer().render(diagnostics)
    #expect(text.split(separator: "\n").count == 101)
    #expect(
      text.hasSuffix("error: problem 100\nnote: 150 more errors not shown; fix these first\n"))
    #expect(
      DiagnosticRenderer().render(Array(diagnostics.prefix(100))).split(separator: "\n").count
        == 100)
  }
}
