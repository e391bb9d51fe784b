import SceneDiagnostics

/// Why a YAML scene file could not be read: a libyaml syntax error, a limit that guards
/// against hostile input, or a rule scene files add to YAML (unique scalar keys, one
/// document).
///
/// Every case but ``tooLarge(bytes:limit:)`` carries the span it is about; lines and
/// columns are 1-based, columns counted in Unicode scalars, as everywhere in scenec.
public enum YAMLError: DiagnosticConvertible, Hashable, Sendable {
  /// libyaml's own complaint, such as `mapping values are not allowed in this context`,
  /// with what it was doing (`while parsing a flow sequence`) and where that began.
  case syntax(problem: String, context: String?, contextAt: SourceSpan?, at: SourceSpan)
  /// Bytes that are not UTF-8; `problem` is libyaml's (`invalid leading UTF-8 octet`),
  /// `byte` the offending octet when libyaml names one.
  case invalidUTF8(problem: String, byte: Int?, at: SourceSpan)
  /// A character YAML does not allow in a stream, such as NUL or another C0 control.
  case controlCharacter(UInt32, at: SourceSpan)
  /// The input is bigger than ``YAMLReader/Limits/maxBytes``; checked before parsing.
  case tooLarge(bytes: Int, limit: Int)
  /// Collections nest deeper than ``YAMLReader/Limits/maxDepth``; points at the first
  /// collection too deep.
  case tooDeep(limit: Int, at: SourceSpan)
  /// Aliases would materialize more than ``YAMLReader/Limits/maxAliasNodes`` nodes;
  /// points at the alias that would cross the budget.
  case aliasBudgetExceeded(limit: Int, at: SourceSpan)
  /// A key given twice in one mapping; `first` is where it was given first.
  case duplicateKey(String, at: SourceSpan, first: SourceSpan)
  /// A mapping key that is a list or a mapping.
  case complexKey(at: SourceSpan)
  /// A second document (`---`) in the stream.
  case multipleDocuments(at: SourceSpan)
  /// An alias (`*name`) to an anchor not defined before it; `suggestion` is a defined
  /// anchor with a similar name.
  case unknownAnchor(String, suggestion: String?, at: SourceSpan)
  /// An alias inside the node its anchor is on, which would expand forever.
  case recursiveAlias(String, at: SourceSpan)
  /// A merge key (`<<`) whose value is neither a mapping nor a list of mappings; points
  /// at the offending value.
  case invalidMerge(at: SourceSpan)

  public var diagnostic: Diagnostic {
    switch self {
    case .syntax(let problem, let context, let contextAt, let span):
      var notes: [Diagnostic.Note] = []
      // libyaml often names its context at the problem itself ("while scanning for the
      // next token"); a note is worth printing only when it points somewhere else.
      if let context, let contextAt, contextAt.start != span.start {
        notes.append(Diagnostic.Note("\(context) starting here", at: contextAt))
      }
      return .error(problem, at: span, notes: notes)
    case .invalidUTF8(let problem, let byte, let span):
      let octet = byte.map { " 0x" + hex($0, width: 2) } ?? ""
      return .error("\(problem)\(octet); scene files must be UTF-8", at: span)
    case .controlCharacter(let value, let span):
      return .error(
        "control character U+\(hex(Int(value), width: 4)) is not allowed in YAML", at: span)
    case .tooLarge(let bytes, let limit):
      return .error("input is \(bytes) bytes; the limit is \(limit)\(sizeInUnits(limit))", at: nil)
    case .tooDeep(let limit, let span):
      return .error("nesting deeper than \(limit) levels", at: span)
    case .aliasBudgetExceeded(let limit, let span):
      return .error(
        "alias expansion exceeds the budget of \(limit) nodes (a \"billion laughs\" document?)",
        at: span)
    case .duplicateKey(let key, let span, let first):
      return .error(
        "duplicate key '\(key)'", at: span,
        notes: [Diagnostic.Note("first defined here", at: first)])
    case .complexKey(let span):
      return .error("keys must be scalars, not lists or mappings", at: span)
    case .multipleDocuments(let span):
      return .error("a second YAML document starts here; a scene file holds exactly one", at: span)
    case .unknownAnchor(let name, let suggestion, let span):
      let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
      return .error("unknown anchor '\(name)'\(hint)", at: span)
    case .recursiveAlias(let name, let span):
      return .error("alias '*\(name)' refers to a node that contains it", at: span)
    case .invalidMerge(let span):
      return .error(
        "the value of a merge key '<<' must be a mapping or a list of mappings", at: span)
    }
  }
}

/// Upper-case hexadecimal, zero-padded to `width` digits.
private func hex(_ value: Int, width: Int) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// ` (8 MiB)` for a whole number of MiB or KiB, so the limit reads at a glance; empty
/// otherwise.
private func sizeInUnits(_ bytes: Int) -> String {
  if bytes > 0 && bytes % (1 << 20) == 0 { return " (\(bytes >> 20) MiB)" }
  if bytes > 0 && bytes % (1 << 10) == 0 { return " (\(bytes >> 10) KiB)" }
  return ""
}
