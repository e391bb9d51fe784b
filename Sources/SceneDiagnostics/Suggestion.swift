/// "Did you mean …?" suggestions for misspelt names and keys.
public enum Suggestion {
  /// The candidate nearest to `word` by edit distance (insertions, deletions,
  /// substitutions and swaps of neighbours, ignoring case), if it is near enough to be
  /// a plausible typo: at most a third of the word's length, and at least 1.
  ///
  /// Ties go to the candidate listed first.
  public static func closest<S: Sequence>(to word: String, among candidates: S) -> String?
  where S.Element == String {
    let target = Array(word.lowercased().unicodeScalars)
    let limit = max(1, target.count / 3)
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != word {
      let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
      if distance <= limit && distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.name
  }

  /// `"; did you mean 'x'?"` for the closest candidate, or an empty string.
  public static func didYouMean<S: Sequence>(_ word: String, among candidates: S) -> String
  where S.Element == String {
    closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
  }

  /// Optimal-string-alignment distance (Damerau–Levenshtein without repeated edits).
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
