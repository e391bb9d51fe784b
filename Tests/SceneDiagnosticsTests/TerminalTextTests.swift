import Testing

@testable import SceneDiagnostics

/// Nothing a file name or a scene holds can move the cursor, erase a line or reorder text.
@Suite struct TerminalTextTests {
  @Test func controlCharactersAreEscapedAndEverythingElseKept() {
    #expect(TerminalText.escaped("Scenes/wave.yaml") == "Scenes/wave.yaml")
    #expect(TerminalText.escaped("a\u{1B}[2K\rPASS") == "a\\x1B[2K\\x0DPASS")
    #expect(
      TerminalText.escaped("tab\there\nnl\u{7F}\u{9B}31m") == "tab\\x09here\\x0Anl\\x7F\\x9B31m")
    #expect(TerminalText.escaped("abc\u{202E}gpj.exe") == "abc\\u{202E}gpj.exe")
    #expect(TerminalText.escaped("x\u{2028}y\u{2066}z") == "x\\u{2028}y\\u{2066}z")
    #expect(TerminalText.escaped("écran 画面 🎬") == "écran 画面 🎬")
  }

  @Test func aLocationAndARenderedDiagnosticShowTheEscapedName() {
    let file = SourceFile(name: "a\u{1B}[8m.yaml", text: "x: \u{1B}[31my\n")
    let location = file.location(line: 1, column: 4)
    #expect(location.description == "a\\x1B[8m.yaml:1:4")
    let text = DiagnosticRenderer(files: [file]).render(
      .error("unknown key '\u{1B}[31my'", at: SourceSpan(location, length: 6)))
    #expect(
      text == "a\\x1B[8m.yaml:1:4: error: unknown key '\\x1B[31my'\n    x:  [31my\n       ^~~~~~\n")
  }
}
