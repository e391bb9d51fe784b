import SceneVocabulary
import Testing

/// `ConstraintKeyword(rawValue:)` is written out by hand (the synthesized lookup was a tenth
/// of reading a large DSL file), so it is checked against the cases themselves.
@Suite struct ConstraintKeywordTests {
  @Test func everySpellingNamesItsCase() {
    for keyword in ConstraintKeyword.allCases {
      #expect(ConstraintKeyword(rawValue: keyword.rawValue) == keyword, "\(keyword)")
    }
  }

  @Test func nearMissesNameNoCase() {
    let misses = [
      "", "Follow", "FOLLOW", "follows", "follo", " follow", "follow ", "drag.", "gooey\u{0}",
      "anim ate", "elastic2", "handle", "spring", "path", "fоllow",  // Cyrillic о
    ]
    for text in misses {
      #expect(ConstraintKeyword(rawValue: text) == nil, "\(text)")
    }
  }
}
