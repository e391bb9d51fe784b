/// Writes a ``DocumentNode`` tree as YAML that ``YAMLReader`` reads back to an equal tree.
///
/// The output is deterministic: 2-space indentation, block style for mappings and lists,
/// except that a nested mapping or list whose entries are all scalars goes on one line in
/// flow style (`{ dampingRatio: 0.57, duration: 0.9s }`, `[c1, c2, to]`) when that line
/// fits in 80 columns. A mapping that is a list item is always written `- key: value`,
/// the rest of its keys indented under the first; the root is always block style.
///
/// Scalars are written plain unless plain text would be misread; then they are double
/// quoted, with escapes for `"`, `\` and control characters. A scalar marked `isQuoted`
/// is always quoted. A plain scalar whose text is a YAML keyword (`true`, `null`, `~`,
/// or empty) stays plain: written plain, it reads back as the same plain scalar, and so
/// keeps its meaning, whereas quoting would turn a null or a bool into a string. Keys,
/// which are always strings, are quoted when they are such keywords.
///
/// The round trip `YAMLReader.read(emit(node))` gives back `node` for every tree with
/// unique keys, up to ``DocumentNode/Scalar/isVerbatim`` (which describes the layout
/// written) and two unavoidable changes: a plain scalar that cannot be written plain
/// (`#ff8800`, `a: b`, text with a line break) comes back quoted, and an empty plain
/// scalar at the root (an empty document) reads back as no document.
public enum YAMLEmitter {
  /// The widest line a flow collection may make.
  static let maxWidth = 80
  /// Longer keys are written `? key` / `: value`, as libyaml looks no further than 1024
  /// characters for the `:` after an implicit key.
  static let maxImplicitKeyLength = 1000

  /// The YAML text for `node`, ending in a line break.
  ///
  /// `header`, if given, comes first as comment lines (`# ` is added to each line that
  /// does not start with `#`), then a blank line. The entries of a top-level mapping (a
  /// scene's sections) are a blank line apart.
  public static func emit(_ node: DocumentNode, header: String? = nil) -> String {
    var out = ""
    if let header {
      var lines = header.split(omittingEmptySubsequences: false, whereSeparator: isLineBreak)
      // A header ending in a line break has no empty comment line after it.
      if lines.count > 1 && lines.last?.isEmpty == true { lines.removeLast() }
      for line in lines {
        out += line.hasPrefix("#") ? line + "\n" : line.isEmpty ? "#\n" : "# " + line + "\n"
      }
      out += "\n"
    }
    switch node.value {
    case .scalar(let scalar):
      // An empty plain root is an empty document: nothing to write.
      if !(scalar.text.isEmpty && !scalar.isQuoted) {
        out += write(scalar, flow: false, atLineStart: true) + "\n"
      }
    case .sequence(let items) where items.isEmpty:
      out += "[]\n"
    case .mapping(let entries) where entries.isEmpty:
      out += "{}\n"
    case .mapping(let entries):
      // A scene's sections, a blank line apart.
      for (k, entry) in entries.enumerated() {
        var lines: [String] = []
        block(DocumentNode(.mapping([entry]), at: node.source), indent: 0, into: &lines)
        if k > 0 { out += "\n" }
        for line in lines { out += line + "\n" }
      }
    case .sequence:
      var lines: [String] = []
      block(node, indent: 0, into: &lines)
      for line in lines { out += line + "\n" }
    }
    return out
  }

  // MARK: - Block style

  /// Appends the lines of the non-empty collection `node`, each indented by `indent`.
  private static func block(_ node: DocumentNode, indent: Int, into lines: inout [String]) {
    let pad = String(repeating: " ", count: indent)
    switch node.value {
    case .scalar(let scalar):
      lines.append(pad + write(scalar, flow: false, atLineStart: false))
    case .mapping(let entries):
      for entry in entries {
        comments(of: entry.value, pad: pad, into: &lines)
        let key = writeKey(entry.key, flow: false)
        var prefix = pad + key + ":"
        if key.unicodeScalars.count > maxImplicitKeyLength {
          lines.append(pad + "? " + key)
          prefix = pad + ":"
        }
        value(entry.value, prefix: prefix, inList: false, indent: indent, into: &lines)
      }
    case .sequence(let items):
      for item in items {
        comments(of: item, pad: pad, into: &lines)
        if case .mapping(let entries) = item.value, !entries.isEmpty {
          // `- key: value`, the mapping's other keys lined up under the first.
          var nested: [String] = []
          block(item, indent: indent + 2, into: &nested)
          if !nested.isEmpty { nested[0] = pad + "- " + nested[0].dropFirst(indent + 2) }
          lines += nested
        } else {
          value(item, prefix: pad + "-", inList: true, indent: indent, into: &lines)
        }
      }
    }
  }

  /// Appends the comment lines written before `node`, at `pad`.
  private static func comments(of node: DocumentNode, pad: String, into lines: inout [String]) {
    for comment in node.comments {
      lines.append(comment.isEmpty ? pad + "#" : pad + "# " + comment)
    }
  }

  /// Appends `node` as the value after `prefix` (`key:` or `-`), at `indent`: on the
  /// same line if it is a scalar or fits in flow style, else as a block below it (or, in
  /// a list, starting on the same line after `- `).
  private static func value(
    _ node: DocumentNode, prefix: String, inList: Bool, indent: Int, into lines: inout [String]
  ) {
    switch node.value {
    case .scalar(let scalar):
      // A plain empty scalar is null: `key:` or `-` with nothing after it.
      let isNull = scalar.text.isEmpty && !scalar.isQuoted
      lines.append(isNull ? prefix : prefix + " " + write(scalar, flow: false, atLineStart: false))
    case .sequence(let items) where items.isEmpty:
      lines.append(prefix + " []")
    case .mapping(let entries) where entries.isEmpty:
      lines.append(prefix + " {}")
    case .sequence, .mapping:
      if let flow = flow(node),
        prefix.unicodeScalars.count + 1 + flow.unicodeScalars.count <= maxWidth
      {
        lines.append(prefix + " " + flow)
      } else if inList {
        // A list in a list: `- - a`, its other items under the first.
        var nested: [String] = []
        block(node, indent: indent + 2, into: &nested)
        if !nested.isEmpty { nested[0] = prefix + " " + nested[0].dropFirst(indent + 2) }
        lines += nested
      } else {
        lines.append(prefix)
        block(node, indent: indent + 2, into: &lines)
      }
    }
  }

  // MARK: - Flow style

  /// The one-line flow form of a collection of scalars, or `nil` when it has other
  /// entries, or a scalar that flow style would change: a null (`[a, , b]` is not YAML)
  /// or plain text that would need quotes in flow but not in block style (`(x, y)`), as
  /// quoting it there would make it read back quoted.
  private static func flow(_ node: DocumentNode) -> String? {
    func item(_ node: DocumentNode) -> String? {
      guard case .scalar(let scalar) = node.value else { return nil }
      if scalar.isQuoted { return quoted(scalar.text) }
      guard !scalar.text.isEmpty, isPlainSafe(scalar.text, flow: true) else { return nil }
      return scalar.text
    }
    switch node.value {
    case .scalar:
      return nil
    case .sequence(let items):
      var parts: [String] = []
      for element in items {
        guard let text = item(element) else { return nil }
        parts.append(text)
      }
      return "[" + parts.joined(separator: ", ") + "]"
    case .mapping(let entries):
      var parts: [String] = []
      for entry in entries {
        guard let text = item(entry.value) else { return nil }
        parts.append(writeKey(entry.key, flow: true) + ": " + text)
      }
      return parts.isEmpty ? "{}" : "{ " + parts.joined(separator: ", ") + " }"
    }
  }

  // MARK: - Scalars

  /// A value scalar as written: plain if that reads back as the same text, else quoted.
  private static func write(_ scalar: DocumentNode.Scalar, flow: Bool, atLineStart: Bool) -> String
  {
    if scalar.isQuoted || !isPlainSafe(scalar.text, flow: flow)
      || (atLineStart && isDocumentMarker(scalar.text))
    {
      return quoted(scalar.text)
    }
    return scalar.text
  }

  /// A key as written: like a value, but also quoted when plain it would mean something
  /// other than a string to YAML tools (`null`, `yes`, `~`), or a merge (`<<`).
  private static func writeKey(_ key: String, flow: Bool) -> String {
    let lowered = key.lowercased()
    let isKeyword = ["~", "null", "true", "false", "yes", "no", "on", "off", "<<"].contains(lowered)
    // In flow style any `:` in a key is quoted: `{ a:b: 1 }` is legal but hard to read.
    if key.isEmpty || isKeyword || !isPlainSafe(key, flow: flow) || isDocumentMarker(key)
      || (flow && key.contains(":"))
    {
      return quoted(key)
    }
    return key
  }

  /// `---` and `...` at the start of a line end a document.
  private static func isDocumentMarker(_ text: String) -> Bool {
    text.hasPrefix("---") || text.hasPrefix("...")
  }

  /// Whether libyaml reads `text`, written plain, back as exactly `text` in a plain
  /// scalar (in a flow collection if `flow`).
  private static func isPlainSafe(_ text: String, flow: Bool) -> Bool {
    let scalars = Array(text.unicodeScalars)
    guard let first = scalars.first, let last = scalars.last else { return false }
    if first == " " || last == " " || last == ":" { return false }
    if "-?:".unicodeScalars.contains(first) {
      // `-x`, `-40` are plain; `- x` is a list item. `?x` and `:x` only in block style.
      guard scalars.count > 1, scalars[1] != " ", first == "-" || !flow else { return false }
    } else if ",[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) {
      return false
    }
    for (i, c) in scalars.enumerated() {
      if needsEscape(c) || c == "\t" { return false }
      if c == ":" && i + 1 < scalars.count && scalars[i + 1] == " " { return false }
      if c == "#" && i > 0 && scalars[i - 1] == " " { return false }
      if flow && ",[]{}".unicodeScalars.contains(c) { return false }
    }
    return true
  }

  /// Characters a double-quoted scalar must escape to read back the same: line breaks
  /// (libyaml folds U+0085, U+2028 and U+2029 too), controls, and the few code points
  /// libyaml's reader refuses or skips.
  private static func needsEscape(_ c: Unicode.Scalar) -> Bool {
    let v = c.value
    return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || v == 0xFEFF
      || v == 0xFFFE
      || v == 0xFFFF
  }

  /// `text` in double quotes, with `"`, `\` and control characters escaped.
  private static func quoted(_ text: String) -> String {
    var out = "\""
    for c in text.unicodeScalars {
      switch c {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case "\0": out += "\\0"
      default:
        if needsEscape(c) {
          let digits = String(c.value, radix: 16, uppercase: true)
          out +=
            c.value <= 0xFF
            ? "\\x" + String(repeating: "0", count: 2 - digits.count) + digits
            : "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        } else {
          out.unicodeScalars.append(c)
        }
      }
    }
    return out + "\""
  }

  private static func isLineBreak(_ c: Character) -> Bool {
    c.unicodeScalars.contains {
      $0 == "\n" || $0 == "\r" || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}"
    }
  }
}
