import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

// MARK: - Structure

extension SceneDecoder {
  /// The entries of a mapping, or an error saying what was expected instead.
  mutating func mapping(_ node: DocumentNode, what: @autoclosure () -> String) -> [DocumentNode
    .Entry]?
  {
    if case .mapping(let entries) = node.value { return entries }
    error("expected a mapping for \(what()), found \(node.kindDescription)", at: node.source)
    return nil
  }

  /// The items of a list, or an error saying what was expected instead.
  mutating func sequence(_ node: DocumentNode, what: @autoclosure () -> String) -> [DocumentNode]? {
    if case .sequence(let items) = node.value { return items }
    error("expected a list for \(what()), found \(node.kindDescription)", at: node.source)
    return nil
  }

  /// The entries with each key once; a repeated key is reported with a note at the first.
  mutating func unique(_ entries: [DocumentNode.Entry], what: @autoclosure () -> String)
    -> [DocumentNode.Entry]
  {
    // Most mappings are small and, coming from YAML, already free of duplicates: check
    // by comparing keys pairwise, which costs less than hashing them, and hand the
    // entries back as they are.
    if keysAreUnique || (entries.count <= Self.pairwiseLimit && !Self.hasRepeatedKey(entries)) {
      return entries
    }
    var seen: [String: SourceRef] = [:]
    var result: [DocumentNode.Entry] = []
    for entry in entries {
      if let first = seen[entry.key] {
        error(
          "duplicate \(what()) '\(entry.key)'", at: entry.keySource,
          notes: [Diagnostic.Note("'\(entry.key)' is first defined here", at: first.span)])
        continue
      }
      seen[entry.key] = entry.keySource
      result.append(entry)
    }
    return result
  }

  /// Up to this many entries, keys are compared pairwise rather than hashed.
  static let pairwiseLimit = 8

  static func hasRepeatedKey(_ entries: [DocumentNode.Entry]) -> Bool {
    for i in entries.indices {
      for j in entries.indices[..<i] where entries[j].key == entries[i].key { return true }
    }
    return false
  }

  /// The fields of a mapping by key, after reporting keys that are not `allowed`
  /// (with a suggestion) and repeated keys.
  mutating func fields(
    of node: DocumentNode, what: @autoclosure () -> String, allowed: [String],
    misplaced: [String: String] = [:]
  )
    -> Fields?
  {
    guard let mapping = mapping(node, what: what()) else { return nil }
    var fields = Fields(node: node)
    let entries = unique(mapping, what: "key")
    var allAllowed = true
    for entry in entries where !allowed.contains(where: { Fields.same($0, entry.key) }) {
      allAllowed = false
      // `{ at: (1, 2) }` splits into `at: (1` and a key `2)`: the expression error
      // already explains it, so the fragment gets no message of its own.
      if entry.key.hasSuffix(")") && !entry.key.contains("(") { continue }
      // A key that belongs elsewhere says where.
      if let place = misplaced[entry.key] {
        error("unknown key '\(entry.key)' in \(what()); \(place)", at: entry.keySource)
        continue
      }
      let suggestion = Suggestion.closest(to: entry.key, among: allowed)
      if let suggestion { fields.misspelt.insert(suggestion) }
      // No near miss: the keys it may have, when they are few enough to read.
      let hint =
        suggestion.map { "; did you mean '\($0)'?" }
        ?? (allowed.count <= 12 ? "; expected \(Self.list(allowed.map { "'\($0)'" }))" : "")
      error("unknown key '\(entry.key)' in \(what())\(hint)", at: entry.keySource)
    }
    // Nearly always every key is allowed: then the entries are kept as they are.
    fields.entries = allAllowed ? entries : entries.filter { entry in allowed.contains(entry.key) }
    return fields
  }

  /// Decoded mapping fields, looked up by key.
  struct Fields {
    var node: DocumentNode
    /// The entries with allowed keys, each key once.
    ///
    /// There are never more than the
    /// handful of keys a part of the scene allows, so a lookup scans them.
    var entries: [DocumentNode.Entry] = []
    /// Keys that an unknown key was probably meant to be; their absence is already reported.
    var misspelt: Set<String> = []

    subscript(key: String) -> DocumentNode? { index(of: key).map { entries[$0].value } }

    /// Drops `key`, for a field another decoder takes.
    mutating func remove(_ key: String) {
      if let i = index(of: key) { entries.remove(at: i) }
    }
    func keySource(_ key: String) -> SourceRef? { index(of: key).map { entries[$0].keySource } }

    private func index(of key: String) -> Int? {
      for i in entries.indices where Self.same(entries[i].key, key) { return i }
      return nil
    }

    /// `a == b`, answered at once for the usual miss, two keys of different lengths;
    /// decoding one part of a scene compares a key with a dozen others.
    static func same(_ a: String, _ b: String) -> Bool { a.utf8.count == b.utf8.count && a == b }
  }

  /// Checks that a name is an identifier: a letter or `_`, then letters, digits or `_`.
  mutating func identifier(_ name: String, at source: SourceRef, what: @autoclosure () -> String)
    -> Bool
  {
    if Self.isIdentifier(name) { return true }
    error(
      "\(what()) name '\(name)' is not a valid name; use letters, digits and '_', starting with a letter",
      at: source)
    return false
  }

  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first == "_" || isAlphabetic(first) else {
      return false
    }
    return name.unicodeScalars.allSatisfy {
      $0 == "_" || isAlphabetic($0) || ("0"..."9").contains($0)
    }
  }

  /// Unicode's Alphabetic property, answered without a table lookup for ASCII, where
  /// it holds for the letters only.
  private static func isAlphabetic(_ c: Unicode.Scalar) -> Bool {
    c.isASCII ? ("a"..."z").contains(c) || ("A"..."Z").contains(c) : c.properties.isAlphabetic
  }
}

// MARK: - Scalars

extension SceneDecoder {
  /// The scalar of a node, or an error (a list or mapping where a value was expected).
  mutating func scalar(_ node: DocumentNode, what: @autoclosure () -> String) -> DocumentNode
    .Scalar?
  {
    if case .scalar(let s) = node.value, !s.isNull { return s }
    error("expected \(what()), found \(node.kindDescription)", at: node.source)
    return nil
  }

  mutating func string(_ node: DocumentNode, what: @autoclosure () -> String) -> Located<String>? {
    guard let s = scalar(node, what: "a text for \(what())") else { return nil }
    return Located(s.text, at: node.source)
  }

  /// A name that refers to something defined elsewhere.
  mutating func reference(_ node: DocumentNode, what: @autoclosure () -> String) -> Reference? {
    guard let s = scalar(node, what: "a name for \(what())") else { return nil }
    guard Self.isIdentifier(s.text) else {
      error("expected a name for \(what()), found '\(s.text)'", at: node.source)
      return nil
    }
    return Located(s.text, at: node.source)
  }

  mutating func number(_ node: DocumentNode, what: @autoclosure () -> String) -> Located<Double>? {
    guard let s = scalar(node, what: "a number for \(what())") else { return nil }
    if !s.isQuoted, let value = Double(s.text), value.isFinite {
      return Located(value, at: node.source)
    }
    error("expected a number for \(what()), found '\(s.text)'", at: node.source)
    return nil
  }

  mutating func integer(_ node: DocumentNode, what: @autoclosure () -> String) -> Located<Int>? {
    guard let s = scalar(node, what: "a whole number for \(what())") else { return nil }
    if !s.isQuoted, let value = Int(s.text) { return Located(value, at: node.source) }
    error("expected a whole number for \(what()), found '\(s.text)'", at: node.source)
    return nil
  }

  mutating func bool(_ node: DocumentNode, what: @autoclosure () -> String) -> Located<Bool>? {
    guard let s = scalar(node, what: "true or false for \(what())") else { return nil }
    switch s.isQuoted ? "" : s.text {
    case "true": return Located(true, at: node.source)
    case "false": return Located(false, at: node.source)
    default:
      error("expected true or false for \(what()), found '\(s.text)'", at: node.source)
      return nil
    }
  }

  /// ``time(_:what:)`` for a key whose times are short (a spring's or a drag's
  /// `duration`, `over`): a bare number above `plausible` seconds gets a warning, as it was
  /// most likely meant in milliseconds (`over: 100`).
  mutating func shortTime(_ node: DocumentNode, what: String, plausible: Double) -> Located<
    Double
  >? {
    guard let time = time(node, what: what) else { return nil }
    if case .scalar(let s) = node.value, Double(s.text) != nil, time.value > plausible {
      diagnostics.append(
        .warning(
          "\(what) is \(s.text) seconds, as a bare number is seconds; write \(s.text)ms for milliseconds, or \(s.text)s to keep seconds without this warning",
          at: node.source.span))
    }
    return time
  }

  /// A time in seconds: `0.9s`, `900ms`, or a bare number of seconds.
  mutating func time(_ node: DocumentNode, what: @autoclosure () -> String) -> Located<Double>? {
    guard let s = scalar(node, what: "a time for \(what())") else { return nil }
    if let seconds = Self.seconds(s.text), !s.isQuoted { return Located(seconds, at: node.source) }
    error(
      "expected a time for \(what()) (such as 0.9s or 900ms), found '\(s.text)'", at: node.source)
    return nil
  }

  static func seconds(_ text: String) -> Double? { TimeText.seconds(text) }

  mutating func color(_ node: DocumentNode, what: @autoclosure () -> String) -> Located<Color>? {
    guard let s = scalar(node, what: "a color for \(what())") else { return nil }
    if let color = Color(parsing: s.text) { return Located(color, at: node.source) }
    let suggestion =
      s.text.hasPrefix("#") ? "" : Suggestion.didYouMean(s.text, among: Color.named.keys.sorted())
    error(
      "expected a color for \(what()) (#rgb, #rrggbb, #rrggbbaa or a name such as white), found '\(s.text)'\(suggestion)",
      at: node.source)
    return nil
  }

  mutating func easing(_ node: DocumentNode, what: @autoclosure () -> String) -> Located<Easing>? {
    guard let s = scalar(node, what: "an easing for \(what())") else { return nil }
    if let easing = Easing.names[s.text] { return Located(easing, at: node.source) }
    if s.text.hasPrefix("cubic-bezier(") && s.text.hasSuffix(")") {
      let inner = s.text.dropFirst("cubic-bezier(".count).dropLast()
      let values = inner.split(separator: ",", omittingEmptySubsequences: false).map {
        Double($0.trimmingCharacters(in: " "))
      }
      if values.count == 4, let a = values[0], let b = values[1], let c = values[2],
        let d = values[3],
        [a, b, c, d].allSatisfy({ $0.isFinite })
      {
        guard (0...1).contains(a) && (0...1).contains(c) else {
          error("cubic-bezier x values must lie in 0...1, found \(a) and \(c)", at: node.source)
          return nil
        }
        return Located(.cubicBezier(a, b, c, d), at: node.source)
      }
      error(
        "expected cubic-bezier(x1, y1, x2, y2) with four numbers, found '\(s.text)'",
        at: node.source)
      return nil
    }
    let names = Easing.names.keys.sorted() + ["cubic-bezier"]
    error(
      "unknown easing '\(s.text)' for \(what())"
        + Self.suggestionOrList(
          s.text, among: names,
          list: "linear, ease-in, ease-out, ease-in-out or cubic-bezier(x1, y1, x2, y2)"),
      at: node.source)
    return nil
  }

  /// One of the raw values of `T`.
  mutating func choice<T: RawRepresentable & CaseIterable & Hashable & Sendable>(
    _ node: DocumentNode, what: @autoclosure () -> String, as: T.Type
  ) -> Located<T>? where T.RawValue == String {
    guard let s = scalar(node, what: "a value for \(what())") else { return nil }
    if let value = T(rawValue: s.text) { return Located(value, at: node.source) }
    let names = T.allCases.map { $0.rawValue }
    error(
      "unknown value '\(s.text)' for \(what())"
        + Self.suggestionOrList(s.text, among: names, list: Self.list(names)),
      at: node.source)
    return nil
  }

  /// `; did you mean 'x'?` when a candidate is close, else `; expected <list>`.
  static func suggestionOrList(_ word: String, among names: [String], list: String) -> String {
    if let close = Suggestion.closest(to: word, among: names) {
      return "; did you mean '\(close)'?"
    }
    return "; expected \(list)"
  }

  static func list(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }

  mutating func size(_ node: DocumentNode) -> Located<SceneSpec.Size>? {
    switch node.value {
    case .scalar(let s):
      let parts = s.text.split(separator: "x", omittingEmptySubsequences: false)
      if parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite,
        h.isFinite
      {
        return Located(SceneSpec.Size(width: w, height: h), at: node.source)
      }
    case .sequence(let items) where items.count == 2:
      if let w = number(items[0], what: "the width"), let h = number(items[1], what: "the height") {
        return Located(SceneSpec.Size(width: w.value, height: h.value), at: node.source)
      }
      return nil
    default: break
    }
    error(
      "expected a size for 'size' such as 375x300 or [375, 300], found \(node.kindDescription)",
      at: node.source)
    return nil
  }

  /// The scalar offset of the last `(` that no `)` closes, if any.
  static func unclosedParenthesis(in text: String) -> Int? {
    var open: [Int] = []
    for (offset, scalar) in text.unicodeScalars.enumerated() {
      if scalar == "(" { open.append(offset) } else if scalar == ")" { _ = open.popLast() }
    }
    return open.last
  }

  /// An expression, parsed where it stands so errors point inside it.
  ///
  /// A two-item list
  /// `[x, y]` is the point `(x, y)`.
  mutating func expression(_ node: DocumentNode, what: @autoclosure () -> String) -> Expression? {
    switch node.value {
    case .scalar(let s) where !s.isNull:
      do {
        return try ExpressionParser.parse(s.text, at: node.source.span, verbatim: s.isVerbatim)
      } catch {
        var diagnostic = error.diagnostic
        if s.text.filter({ $0 == "(" }).count > s.text.filter({ $0 == ")" }).count {
          if !s.isQuoted && !s.text.contains(",") && s.text.first == "(" {
            // `{ position: (60, 200) }` in YAML: the comma ends the value at `(60`.
            diagnostic.notes.append(
              Diagnostic.Note(
                "in a YAML { } or [ ] a comma ends the value; quote the point, \"(60, 200)\", or write it as a list, [60, 200]"
              ))
          } else if !diagnostic.message.containsText("'('"),
            let open = Self.unclosedParenthesis(in: s.text)
          {
            // `c: sqrt(`: say which parenthesis is left open.
            let at =
              s.isVerbatim
              ? SourceSpan(node.source.span.start.advanced(by: open), length: 1) : node.source.span
            diagnostic.notes.append(Diagnostic.Note("this '(' is never closed", at: at))
          }
        }
        diagnostics.append(diagnostic)
        return nil
      }
    case .sequence(let items) where items.count == 2:
      guard let x = expression(items[0], what: what()), let y = expression(items[1], what: what())
      else {
        return nil
      }
      return Expression(.point(x, y), at: node.source)
    default:
      error("expected an expression for \(what()), found \(node.kindDescription)", at: node.source)
      return nil
    }
  }
}

extension Substring {
  func trimmingCharacters(in set: Character) -> Substring {
    var text = self
    while text.first == set { text = text.dropFirst() }
    while text.last == set { text = text.dropLast() }
    return text
  }
}
