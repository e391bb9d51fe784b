import SceneVocabulary
import Testing

@testable import SceneSyntax

@Suite struct ColorTests {
  @Test(arguments: [
    ("#fff", Color(red: 255, green: 255, blue: 255)),
    ("#0A8", Color(red: 0, green: 170, blue: 136)),
    ("#1234", Color(red: 17, green: 34, blue: 51, alpha: 68)),
    ("#ff8800", Color(red: 255, green: 136, blue: 0)),
    ("#3A7bD5", Color(red: 58, green: 123, blue: 213)),
    ("#00000080", Color(red: 0, green: 0, blue: 0, alpha: 128)),
    ("Orange", Color(red: 255, green: 165, blue: 0)),
    ("transparent", Color(red: 0, green: 0, blue: 0, alpha: 0)),
  ])
  func parses(text: String, color: Color) {
    #expect(Color(parsing: text) == color)
  }

  @Test(arguments: [
    "", "#", "#ff", "#fffff", "#fffffff", "#fffffffff", "#ggg", "# fff", "#+ff", "fff", "#ＦＦＦ",
    "teal",
  ])
  func refuses(text: String) {
    #expect(Color(parsing: text) == nil)
  }

  @Test func printsCanonicallyAndRoundTrips() {
    for text in ["#ff8800", "#00000080", "#0a0b0c"] {
      #expect(Color(parsing: text)?.description == text)
    }
  }
}
