import SceneVocabulary

/// Writes a scene tree as canonical DSL text: the inverse of ``DSLParser``.
///
/// Statements come in a fixed order (`scene`, `let`, `spring`, `handle`, `path`,
/// constraints, `gesture`, `expect`), one group each, separated by blank lines; attributes
/// keep the tree's key order. A statement's leading value keys become its values (`handle
/// ball`, `follow ball`, `press (1, 2) pointer=1`); a plain `true` is a bare flag, nested
/// mappings are dotted keys, and a scalar that was quoted, or that cannot stand as a bare
/// atom (empty, whitespace outside brackets, a line break, unbalanced brackets, a leading
/// quote, or where a statement's value goes a leading `#` or a `key=` shape), is written
/// as a double-quoted string. A gesture mapping is written with explicit pointer numbers
/// (`gesture 0`), so it stays a mapping even for one pointer; a list of steps is a bare
/// `gesture`.
///
/// Every tree of the schema shape round-trips: `DSLParser.parse(emit(tree)).document`
/// equals `tree` (spans aside), provided that
///
/// - top-level keys come in the statement order above, and no section, path `segments`,
///   step list, step mapping or nested attribute mapping is empty;
/// - a path's `segments` key comes last;
/// - `let` values and expectations are plain, one-line text with no leading or trailing
///   space and no comment (they are written raw, so quoting would be lost);
/// - every other plain scalar can stand bare where it goes (a quoted one can hold any
///   text), attribute keys are identifiers without dots, `let` names are identifiers and
///   gesture keys are pointer numbers.
///
/// `isVerbatim`, which `==` ignores, is not reproduced: a quoted scalar reads back
/// verbatim exactly when it has nothing to escape (no `"`, `\`, tab or control character).
///
/// Outside that shape the output is best effort: a value the DSL cannot hold (a list
/// attribute aside) becomes a `#` comment naming it; a list attribute becomes one
/// flow-style scalar; a plain scalar that needs quotes comes back quoted; a scalar `scene`
/// or constraint comes back as its value (`follow: ball` as `follow: { handle: ball }`);
/// line breaks in `let` values and expectations become spaces.
public enum DSLEmitter {
  /// The DSL text of `node`, after `header` written as comment lines and a blank line.
  public static func emit(_ node: DocumentNode, header: String? = nil) -> String {
    var text = ""
    if let header {
      for line in header.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }) {
        text += line.hasPrefix("#") ? "\(line)\n" : line.isEmpty ? "#\n" : "# \(line)\n"
      }
      text += "\n"
    }
    let groups = statementGroups(node).filter { !$0.isEmpty }.map { $0.flatMap(wrapped) }
    text += groups.map { $0.joined(separator: "\n") + "\n" }.joined(separator: "\n")
    return text
  }

  /// The longest line written; a longer statement goes on over several lines.
  static let wrapWidth = 1_000

  /// `line` as it is, or continued over several lines (`\` at the end of each but the
  /// last, the next indented four more) when it is longer than ``wrapWidth``, so the DSL's
  /// reader, which takes at most 65,536 characters and 4,096 words a line, reads any scene
  /// back.
  ///
  /// The reader joins the parts, dropping only the `\`, the line break and the next
  /// line's indentation, so a line breaks anywhere (in a string, between brackets) where
  /// the next part does not start with a space and the part before does not end in a
  /// backslash.
  static func wrapped(_ line: String) -> [String] {
    let scalars = Array(line.unicodeScalars)
    guard scalars.count > wrapWidth else { return [line] }
    var indent = 0
    while indent < scalars.count && scalars[indent] == " " { indent += 1 }
    let continuation = String(repeating: " ", count: indent + 4)
    var parts: [String] = []
    var start = 0
    while scalars.count - start > wrapWidth {
      var cut = start + wrapWidth
      while cut > start + 1
        && (scalars[cut] == " " || scalars[cut] == "\t" || scalars[cut - 1] == "\\")
      {
        cut -= 1
      }
      // A run of spaces or backslashes as long as the width: cut after it instead.
      if cut == start + 1 {
        cut = start + wrapWidth
        while cut < scalars.count
          && (scalars[cut] == " " || scalars[cut] == "\t" || scalars[cut - 1] == "\\")
        {
          cut += 1
        }
        if cut >= scalars.count { break }
      }
      parts.append(String(String.UnicodeScalarView(scalars[start..<cut])))
      start = cut
    }
    parts.append(String(String.UnicodeScalarView(scalars[start...])))
    return parts.enumerated().map { index, part in
      (index == 0 ? "" : continuation) + part + (index == parts.count - 1 ? "" : "\\")
    }
  }

  // MARK: - Statements

  /// The lines of each statement group, in canonical order.
  private static func statementGroups(_ node: DocumentNode) -> [[String]] {
    guard case .mapping(let entries) = node.value else {
      return [["# not a scene: the top level is \(node.kindDescription), not a mapping"]]
    }
    var scene: [String] = []
    var inputs: [String] = []
    var machines: [String] = []
    var lets: [String] = []
    var springs: [String] = []
    var handles: [String] = []
    var paths: [String] = []
    var constraints: [String] = []
    var gestures: [String] = []
    var expects: [String] = []
    var others: [String] = []
    for entry in entries {
      let value = entry.value
      switch entry.key {
      case "scene":
        scene.append(commented(value, statement("scene", [], value, valueKeys: ["name"])))
      case "inputs":
        inputs += named(value, section: "inputs") { name, value in inputLine(name, value) }
      case "states":
        machines += named(value, section: "states") { name, value in machineLines(name, value) }
      case "let":
        lets += named(value, section: "let") { name, value in letLine(name, value) }
      case "springs":
        springs += named(value, section: "springs") {
          statement("spring", [name($0)], $1, valueKeys: [])
        }
      case "handles":
        handles += named(value, section: "handles") { handleLines($0, $1) }
      case "paths":
        paths += named(value, section: "paths") { pathLines($0, $1) }
      case "constraints":
        constraints += items(value, section: "constraints", constraintLine)
      case "gesture":
        gestures += gestureLines(value)
      case "expect":
        expects += expectLines(value)
      default:
        others.append(comment("'\(entry.key)'", value))
      }
    }
    return [
      scene, inputs, lets, springs, handles, paths, constraints, machines, gestures, expects,
      others,
    ]
  }

  /// `line` after the comment lines written before `node`, at `indent`.
  private static func commented(_ node: DocumentNode, _ line: String, indent: String = "") -> String
  {
    guard !node.comments.isEmpty else { return line }
    let comments = node.comments.map { $0.isEmpty ? indent + "#" : indent + "# " + $0 }
    return (comments + [line]).joined(separator: "\n")
  }

  /// One line per entry of a mapping section, or a comment when it is not a mapping.
  private static func named(
    _ node: DocumentNode, section: String, _ line: (String, DocumentNode) -> String
  ) -> [String] {
    guard case .mapping(let entries) = node.value else { return [comment("'\(section)'", node)] }
    return entries.map { commented($0.value, line($0.key, $0.value)) }
  }

  /// One line per item of a list section, or a comment when it is not a list.
  private static func items(_ node: DocumentNode, section: String, _ line: (DocumentNode) -> String)
    -> [String]
  {
    guard case .sequence(let items) = node.value else { return [comment("'\(section)'", node)] }
    return items.map { commented($0, line($0)) }
  }

  /// `input NAME VALUE`, or `input NAME VALUE min=… max=…`.
  private static func inputLine(_ name: String, _ value: DocumentNode) -> String {
    switch value.value {
    case .scalar(let scalar):
      return "input \(self.name(name)) \(atom(scalar, .value))"
    case .mapping(let entries):
      guard let first = entries.first, first.key == "value",
        case .scalar(let scalar) = first.value.value
      else { break }
      let rest = attributeTokens(entries.dropFirst(), prefix: "").map { $0.text }
      return (["input", self.name(name), atom(scalar, .value)] + rest).joined(separator: " ")
    case .sequence:
      break
    }
    return comment("input '\(name)'", value)
  }

  /// `machine NAME initial=…` and its block: a `state NAME …` line per state, then a
  /// `FROM -> TO …` line per transition.
  private static func machineLines(_ name: String, _ value: DocumentNode) -> String {
    guard case .mapping(let entries) = value.value else {
      return comment("machine '\(name)'", value)
    }
    var attributes: [DocumentNode.Entry] = []
    var lines: [String] = []
    for entry in entries {
      switch (entry.key, entry.value.value) {
      case ("states", .mapping(let states)):
        for state in states {
          // `idle:` with nothing in YAML is a state that sets nothing.
          var body = state.value
          if case .scalar(let scalar) = body.value, scalar.isNull { body.value = .mapping([]) }
          lines.append(
            commented(
              state.value, "  " + statement("state", [self.name(state.key)], body, valueKeys: []),
              indent: "  "))
        }
      case ("transitions", .sequence(let transitions)):
        for transition in transitions {
          guard case .mapping(let fields) = transition.value, fields.count >= 2,
            fields[0].key == "from", fields[1].key == "to",
            case .scalar(let from) = fields[0].value.value,
            case .scalar(let to) = fields[1].value.value
          else {
            lines.append("  " + comment("transition", transition))
            continue
          }
          let rest = attributeTokens(fields.dropFirst(2), prefix: "").map { $0.text }
          lines.append(
            commented(
              transition,
              "  " + ([atom(from, .value), "->", atom(to, .value)] + rest).joined(separator: " "),
              indent: "  "))
        }
      default:
        attributes.append(entry)
      }
    }
    let header = statement(
      "machine", [self.name(name)], DocumentNode(.mapping(attributes), at: value.source),
      valueKeys: [])
    return ([header] + lines).joined(separator: "\n")
  }

  /// `let NAME = TEXT`.
  private static func letLine(_ name: String, _ value: DocumentNode) -> String {
    guard case .scalar(let scalar) = value.value else { return comment("let '\(name)'", value) }
    return "let \(name) = \(rawText(scalar.text))"
  }

  /// `handle NAME attributes` and the block of its children, one `NAME attributes` each.
  private static func handleLines(_ name: String, _ value: DocumentNode) -> String {
    guard case .mapping(let entries) = value.value else {
      return statement("handle", [self.name(name)], value, valueKeys: [])
    }
    let childrenIndex = entries.lastIndex { entry in
      if entry.key == "children", case .mapping(let children) = entry.value.value {
        return !children.isEmpty
      }
      return false
    }
    var attributes = entries
    var lines: [String] = []
    if let childrenIndex, case .mapping(let children) = entries[childrenIndex].value.value {
      attributes.remove(at: childrenIndex)
      lines = children.map { child in
        let line: String
        if case .mapping(let fields) = child.value.value, isChildName(child.key) {
          line = ([child.key] + attributeTokens(fields[...], prefix: "").map { $0.text })
            .joined(separator: " ")
        } else {
          line = comment("child '\(child.key)'", child.value)
        }
        return commented(child.value, "  " + line, indent: "  ")
      }
    }
    let header = statement(
      "handle", [self.name(name)], DocumentNode(.mapping(attributes), at: value.source),
      valueKeys: [])
    return ([header] + lines).joined(separator: "\n")
  }

  /// Whether `text` can start a child's line: an identifier without dots.
  private static func isChildName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, DSLLexer.isIdentifierStart(first) else {
      return false
    }
    return text.unicodeScalars.allSatisfy { $0 != "." && DSLLexer.isIdentifierContinue($0) }
  }

  /// `path NAME attributes` and its segment block.
  private static func pathLines(_ name: String, _ value: DocumentNode) -> String {
    guard case .mapping(let entries) = value.value else { return comment("path '\(name)'", value) }
    let segmentsIndex = entries.lastIndex { entry in
      if entry.key == "segments", case .sequence = entry.value.value { return true }
      return false
    }
    var attributes = entries
    var lines: [String] = []
    if let segmentsIndex, case .sequence(let segments) = entries[segmentsIndex].value.value {
      attributes.remove(at: segmentsIndex)
      lines = segments.map { "  " + segmentLine($0) }
    }
    let header = statement(
      "path", [self.name(name)], DocumentNode(.mapping(attributes), at: value.source), valueKeys: []
    )
    return ([header] + lines).joined(separator: "\n")
  }

  /// One segment: `move P`, `line P`, `quad C P`, `cubic C1 C2 P` or `close`.
  private static func segmentLine(_ node: DocumentNode) -> String {
    switch node.value {
    case .scalar(let scalar) where !scalar.isQuoted && scalar.text == "close":
      return "close"
    case .mapping(let entries) where entries.count == 1:
      let entry = entries[0]
      switch (entry.key, entry.value.value) {
      case ("move", .scalar(let point)), ("line", .scalar(let point)):
        return "\(entry.key) \(atom(point, .point))"
      case ("quad", .sequence(let points)) where points.count == 2,
        ("cubic", .sequence(let points)) where points.count == 3:
        let atoms = points.map { point in
          if case .scalar(let scalar) = point.value { return atom(scalar, .point) }
          return "?"
        }
        if !atoms.contains("?") { return "\(entry.key) \(atoms.joined(separator: " "))" }
      default:
        break
      }
    default:
      break
    }
    return comment("segment", node)
  }

  /// `follow H …`, `elastic H …`, `animate H …` or `gooey A B …`.
  private static func constraintLine(_ node: DocumentNode) -> String {
    guard case .mapping(let entries) = node.value, entries.count == 1 else {
      return comment("constraint", node)
    }
    let kind = entries[0].key
    guard let keyword = ConstraintKeyword(keyword: kind) else {
      return comment("constraint '\(kind)'", node)
    }
    return statement(kind, [], entries[0].value, valueKeys: keyword.positionalKeys)
  }

  /// `gesture` blocks: one for a list of steps, one `gesture N` per pointer of a mapping.
  private static func gestureLines(_ node: DocumentNode) -> [String] {
    switch node.value {
    case .sequence(let steps):
      return ["gesture"] + steps.map { commented($0, "  " + stepLine($0), indent: "  ") }
    case .mapping(let tracks):
      var lines: [String] = []
      for track in tracks {
        guard case .sequence(let steps) = track.value.value else {
          lines.append(comment("gesture '\(track.key)'", track.value))
          continue
        }
        lines.append("gesture \(track.key)")
        lines += steps.map { commented($0, "  " + stepLine($0), indent: "  ") }
      }
      return lines
    case .scalar:
      return [comment("'gesture'", node)]
    }
  }

  /// One step: `release`, `press P`, `drag by=… over=…`, `press P pointer=1`.
  private static func stepLine(_ node: DocumentNode) -> String {
    switch node.value {
    case .scalar(let scalar)
    where !scalar.isQuoted && GestureStepKeyword(keyword: scalar.text) != nil:
      return scalar.text
    case .mapping(let entries)
    where entries.count == 1 && GestureStepKeyword(keyword: entries[0].key) != nil:
      let entry = entries[0]
      switch entry.value.value {
      case .scalar(let scalar):
        return "\(entry.key) \(atom(scalar, .value))"
      case .mapping(let attributes) where !attributes.isEmpty:
        // `press P` alone would read back as `{ press: P }`, so a lone `at` stays an attribute.
        let valueKeys = attributes.count > 1 ? ["at"] : []
        return statement(entry.key, [], entry.value, valueKeys: valueKeys, slots: 1)
      default:
        break
      }
    default:
      break
    }
    return comment("step", node)
  }

  /// `expect TEXT` for one expectation, an `expect` block for several.
  private static func expectLines(_ node: DocumentNode) -> [String] {
    guard case .sequence(let items) = node.value, !items.isEmpty else {
      return [comment("'expect'", node)]
    }
    let texts = items.map { item in
      if case .scalar(let scalar) = item.value { return rawText(scalar.text) }
      return comment("expectation", item)
    }
    if texts.count == 1 { return [commented(items[0], "expect \(texts[0])")] }
    return ["expect"] + zip(items, texts).map { commented($0, "  " + $1, indent: "  ") }
  }

  /// `KEYWORD fixed… values… attributes`, where `values` are the leading entries named by
  /// `valueKeys` (in that order) and the rest are attributes.
  ///
  /// A bare flag right after the values would be read as one more value while the
  /// statement has room for one (`slots`), so there it is written `key=true`.
  private static func statement(
    _ keyword: String, _ fixed: [String], _ node: DocumentNode, valueKeys: [String],
    slots: Int? = nil
  ) -> String {
    guard case .mapping(let entries) = node.value else {
      if case .scalar(let scalar) = node.value, valueKeys.count == 1 {
        return ([keyword] + fixed + [atom(scalar, .value)]).joined(separator: " ")
      }
      return comment("'\(([keyword] + fixed).joined(separator: " "))'", node)
    }
    var parts = [keyword] + fixed
    var index = 0
    // A plain value that cannot stand bare there stays an attribute, where it can.
    while index < valueKeys.count && index < entries.count
      && entries[index].key == valueKeys[index],
      case .scalar(let scalar) = entries[index].value.value,
      scalar.isQuoted || isBare(scalar.text, .value)
    {
      parts.append(atom(scalar, .value))
      index += 1
    }
    var attributes = attributeTokens(entries[index...], prefix: "")
    if index < (slots ?? valueKeys.count), let first = attributes.first, first.isFlag {
      attributes[0] = (first.text + "=true", false)
    }
    parts += attributes.map { $0.text }
    return parts.joined(separator: " ")
  }

  /// `key=value` and flag tokens for `entries`, with nested mappings as dotted keys.
  private static func attributeTokens(
    _ entries: ArraySlice<DocumentNode.Entry>, prefix: String
  ) -> [(text: String, isFlag: Bool)] {
    var tokens: [(text: String, isFlag: Bool)] = []
    for entry in entries {
      let key = prefix + entry.key
      switch entry.value.value {
      case .scalar(let scalar):
        if !scalar.isQuoted && scalar.text == "true" {
          tokens.append((key, true))
        } else {
          tokens.append((key + "=" + atom(scalar, .attribute), false))
        }
      case .mapping(let nested):
        tokens += attributeTokens(nested[...], prefix: key + ".")
      case .sequence:
        tokens.append((key + "=" + atom(.init(flowText(entry.value)), .attribute), false))
      }
    }
    return tokens
  }

  /// A list as YAML flow text, for the best-effort rendering of list attributes.
  private static func flowText(_ node: DocumentNode) -> String {
    switch node.value {
    case .scalar(let scalar): return scalar.text
    case .sequence(let items): return "[" + items.map(flowText).joined(separator: ", ") + "]"
    case .mapping(let entries):
      return "{" + entries.map { "\($0.key): \(flowText($0.value))" }.joined(separator: ", ") + "}"
    }
  }

  /// A `#` comment standing for something the DSL cannot express.
  private static func comment(_ what: String, _ node: DocumentNode) -> String {
    let text = flowText(node).split(whereSeparator: { $0.isNewline }).joined(separator: " ")
    return "# cannot write \(what) in the DSL: \(text)"
  }

  // MARK: - Atoms

  /// Where an atom goes, which decides what it may look like bare.
  private enum Place {
    /// After `key=`: anything that lexes as one token.
    case attribute
    /// A statement's or step's value: also not `key=…` and not starting with `#`.
    case value
    /// A segment's point: not starting with `#`.
    case point
  }

  /// A name (a key written as a statement's value): bare if it can be, else quoted.
  private static func name(_ text: String) -> String {
    atom(.init(text), .value)
  }

  /// `scalar` as an atom: bare when it is plain and reads back as itself, else quoted.
  private static func atom(_ scalar: DocumentNode.Scalar, _ place: Place) -> String {
    if !scalar.isQuoted && isBare(scalar.text, place) { return scalar.text }
    return quoted(scalar.text)
  }

  /// Whether `text` reads back as one plain token at `place`.
  private static func isBare(_ text: String, _ place: Place) -> Bool {
    let scalars = Array(text.unicodeScalars)
    guard let first = scalars.first, first != "\"",
      !scalars.contains(where: { $0 == "\n" || $0 == "\r" })
    else {
      return false
    }
    let line: [Unicode.Scalar] = place == .attribute ? ["k", "="] + scalars : scalars
    guard let tokens = try? DSLLexer.tokens(of: line), tokens.count == 1, let token = tokens.first,
      token.start == 0, token.end == line.count
    else { return false }
    return place != .value || DSLLexer.attributeEquals(line, token) == nil
  }

  /// Text that must stand as the rest of a line (`let`, `expect`): kept as it is, with
  /// line breaks turned into spaces as the best the DSL can do.
  private static func rawText(_ text: String) -> String {
    String(
      String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
  }

  /// `text` as a double-quoted string, escaping `"`, `\`, line breaks, tabs and other
  /// control characters, and nothing else.
  ///
  /// `isVerbatim` is not part of a scalar's meaning, so it is not reproduced: text with
  /// nothing to escape reads back verbatim whatever the tree said.
  private static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out += "\\u{\(String(scalar.value, radix: 16))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
