import SceneVocabulary
import Testing

/// Keyword sets are looked up by a table made from their cases (``KeywordTable``), so a
/// case added is found with no switch to update: checked against the cases themselves.
@Suite struct KeywordTests {
  func check<Word: Keyword>(_: Word.Type, misses: [String]) {
    for word in Word.allCases {
      #expect(Word(keyword: word.rawValue) == word, "\(word)")
      #expect(Word(rawValue: word.rawValue) == word, "\(word)")
    }
    for text in misses {
      #expect(Word(keyword: text) == nil, "\(text)")
      #expect(Word(rawValue: text) == nil, "\(text)")
    }
    #expect(Word.words == Word.allCases.map(\.rawValue))
  }

  @Test func everySpellingNamesItsCaseAndNoNearMissDoes() {
    check(
      ConstraintKeyword.self,
      misses: [
        "", "Follow", "FOLLOW", "follows", "follo", " follow", "follow ", "drag.", "gooey\u{0}",
        "anim ate", "elastic2", "handle", "spring", "path", "fоllow",  // Cyrillic о
      ])
    check(
      GestureStepKeyword.self,
      misses: ["", "Press", "presss", "tap ", "pinch\u{0}", "rotat", "wаit", "release!"])
  }

  @Test func messagesListTheStepsInOrder() {
    #expect(
      GestureStepKeyword.listed
        == "press, drag, move, wait, hold, release, tap, fling, replay, pinch, rotate, set or fire")
  }
}
