import SceneDiagnostics

/// Reads a YAML scene file into a ``DocumentNode`` tree, with exact source spans and
/// guards against hostile input.
///
/// libyaml does the parsing; this type streams its events and builds the tree, applying
/// anchors, aliases and merge keys (`<<`) on the way, and enforces what scene files add
/// to YAML: one document, scalar keys, no duplicate keys, and ``Limits`` on size,
/// nesting and alias expansion. Scalars keep their text as written (no type resolution):
/// the decoder decides what `true` or `0.5s` mean.
///
/// Positions are 1-based lines and columns counted in Unicode scalars, matching
/// ``SourceFile``: lines break at `\n`, `\r\n` and `\r` only. (libyaml also breaks lines
/// at U+0085, U+2028 and U+2029; its line numbers are therefore not used, only its
/// character index, which is mapped onto the file's own lines.)
///
/// A node copied through an alias keeps the spans of the anchored node, where its text
/// is actually written, so a verbatim scalar's span still covers its text.
public struct YAMLReader {
  /// Bounds that keep a malicious or broken file from taking unbounded time or memory.
  public struct Limits: Sendable {
    /// The largest input accepted, in bytes; checked before parsing.
    public var maxBytes = 8 << 20
    /// The deepest nesting of lists and mappings accepted. libyaml itself has no limit
    /// and slows down superlinearly with depth, so parsing stops at the first
    /// collection beyond it.
    public var maxDepth = 128
    /// How many nodes aliases may materialize in all, counting each alias as the size of
    /// the subtree it copies (a "billion laughs" document needs ~10⁹).
    public var maxAliasNodes = 100_000

    public init(maxBytes: Int = 8 << 20, maxDepth: Int = 128, maxAliasNodes: Int = 100_000) {
      self.maxBytes = maxBytes
      self.maxDepth = maxDepth
      self.maxAliasNodes = maxAliasNodes
    }
  }

  /// The document in `file`, or `nil` when it holds none (empty, or only comments).
  public static func read(_ file: SourceFile, limits: Limits = Limits()) throws(YAMLError) -> DocumentNode? {
    let utf8 = file.text.utf8
    guard utf8.count <= limits.maxBytes else { throw .tooLarge(bytes: utf8.count, limit: limits.maxBytes) }
    let text = YAMLSourceText(name: file.name, scalars: Array(file.text.unicodeScalars), bytes: Array(utf8))
    var builder = Builder(text: text, limits: limits)
    return try builder.run()
  }

  /// The document in raw `bytes` named `name`, or `nil` when it holds none.
  ///
  /// Unlike a `SourceFile`, whose text is already valid Unicode, bytes may be invalid
  /// UTF-8 or UTF-16; that is reported as ``YAMLError/invalidUTF8(problem:byte:at:)``
  /// at the offending byte. To show diagnostics, render them with
  /// `SourceFile(name: name, text: String(decoding: bytes, as: UTF8.self))`: its lines
  /// and columns are the ones reported here.
  public static func read(
    bytes: some Collection<UInt8>, name: String, limits: Limits = Limits()
  ) throws(YAMLError) -> DocumentNode? {
    guard bytes.count <= limits.maxBytes else { throw .tooLarge(bytes: bytes.count, limit: limits.maxBytes) }
    let array = Array(bytes)
    let decoded = String(decoding: array, as: UTF8.self)
    let text = YAMLSourceText(name: name, scalars: Array(decoded.unicodeScalars), bytes: array)
    var builder = Builder(text: text, limits: limits)
    return try builder.run()
  }
}

// MARK: - Source text

/// The input as Unicode scalars, indexed the way libyaml's marks count, with the file's
/// line starts for turning an index into a line and column.
private struct YAMLSourceText {
  let name: String
  let scalars: [Unicode.Scalar]
  /// The UTF-8 bytes given to libyaml.
  let bytes: [UInt8]
  /// The scalar index at which each line starts.
  private let lineStarts: [Int]

  init(name: String, scalars: [Unicode.Scalar], bytes: [UInt8]) {
    self.name = name
    self.scalars = scalars
    self.bytes = bytes
    var starts = [0]
    for (i, scalar) in scalars.enumerated() {
      // Same rule as SourceFile: \n, \r\n (one break) and a lone \r.
      if scalar == "\n" || (scalar == "\r" && (i + 1 == scalars.count || scalars[i + 1] != "\n")) {
        starts.append(i + 1)
      }
    }
    lineStarts = starts
  }

  /// The location of scalar `index` (clamped to the text; the end is one past the last).
  func location(_ index: Int) -> SourceLocation {
    let index = min(max(index, 0), scalars.count)
    // The last line start at or before `index`.
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= index { low = mid } else { high = mid - 1 }
    }
    return SourceLocation(file: name, line: low + 1, column: index - lineStarts[low] + 1)
  }

  func span(_ index: Int, length: Int = 1) -> SourceSpan {
    SourceSpan(location(index), length: length)
  }

  func scalar(at index: Int) -> Unicode.Scalar? {
    index >= 0 && index < scalars.count ? scalars[index] : nil
  }

  /// The scalar index of the character at byte `offset`, for libyaml's reader errors,
  /// which report a byte offset instead of a mark. Everything before the first bad byte
  /// is valid UTF-8, so decoding it counts the same scalars as `scalars` holds.
  func scalarIndex(ofByte offset: Int) -> Int {
    let offset = min(max(offset, 0), bytes.count)
    return String(decoding: bytes[..<offset], as: UTF8.self).unicodeScalars.count
  }

  /// Line breaks as libyaml sees them (it folds multi-line scalars at all of these).
  static func isBreak(_ c: Unicode.Scalar) -> Bool {
    c == "\n" || c == "\r" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}"
  }

  static func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" }

  /// Whether the text from `start` to `end` stays on one line.
  func isSingleLine(_ start: Int, _ end: Int) -> Bool {
    guard start < end else { return true }
    for i in max(start, 0)..<min(end, scalars.count) where Self.isBreak(scalars[i]) { return false }
    return true
  }

  /// How many scalars from `start` to the end of its line, trailing blanks left out.
  func firstLineLength(from start: Int) -> Int {
    let start = max(start, 0)
    var end = start
    while end < scalars.count && !Self.isBreak(scalars[end]) { end += 1 }
    while end > start && Self.isBlank(scalars[end - 1]) { end -= 1 }
    return end - start
  }

  /// Where a node's content starts, after its properties (`&anchor`, `!tag`) and any
  /// blanks, line breaks or comments between them; libyaml's start mark is at the first
  /// property. Never beyond `limit`, the end of the event: an empty node's properties
  /// are all there is of it.
  func contentStart(after start: Int, limit: Int) -> Int {
    let limit = min(limit, scalars.count)
    var i = max(start, 0)
    while i < limit {
      let c = scalars[i]
      if Self.isBlank(c) || Self.isBreak(c) {
        i += 1
      } else if c == "#" {
        while i < scalars.count && !Self.isBreak(scalars[i]) { i += 1 }
      } else if c == "&" {
        // Anchor names are [0-9A-Za-z_-] in libyaml.
        i += 1
        while i < scalars.count && Self.isAnchorCharacter(scalars[i]) { i += 1 }
      } else if c == "!" {
        i += 1
        if scalar(at: i) == "<" {
          while i < scalars.count && scalars[i] != ">" { i += 1 }
          i += 1
        } else {
          while let c = scalar(at: i), !Self.isBlank(c), !Self.isBreak(c), !",[]{}".unicodeScalars.contains(c) {
            i += 1
          }
        }
      } else {
        break
      }
    }
    return min(i, limit)
  }

  private static func isAnchorCharacter(_ c: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
  }
}

// MARK: - Building the tree

/// Streams libyaml's events into a `DocumentNode`, one open collection per frame.
private struct Builder {
  /// A complete node and the number of nodes it stands for (itself and everything
  /// under it, aliases expanded), so an alias to it is charged in O(1).
  struct Sized {
    var node: DocumentNode
    var size: Int
  }

  // Frames are classes so that appending to an open collection mutates its arrays in
  // place; enum payloads of structs would be copied out and back, copying the arrays.
  final class SequenceFrame {
    let anchor: String?
    let source: SourceRef
    var items: [DocumentNode] = []
    var size = 1

    init(anchor: String?, source: SourceRef) {
      self.anchor = anchor
      self.source = source
    }
  }

  final class MappingFrame {
    enum Part {
      case entry(DocumentNode.Entry)
      /// The entries of the mappings a `<<` merges, earlier mappings first.
      case merge([DocumentNode.Entry])
    }

    struct Key {
      var text: String
      var source: SourceRef
      var isMerge: Bool
    }

    let anchor: String?
    let source: SourceRef
    var parts: [Part] = []
    var pendingKey: Key?
    /// Explicit keys and where each was written, for duplicates and merge precedence.
    var keys: [String: SourceSpan] = [:]
    var mergeKey: SourceSpan?
    var size = 1

    init(anchor: String?, source: SourceRef) {
      self.anchor = anchor
      self.source = source
    }
  }

  enum Frame {
    case sequence(SequenceFrame)
    case mapping(MappingFrame)

    var anchor: String? {
      switch self {
      case .sequence(let frame): return frame.anchor
      case .mapping(let frame): return frame.anchor
      }
    }
  }

  let text: YAMLSourceText
  let limits: YAMLReader.Limits
  var stack: [Frame] = []
  var anchors: [String: Sized] = [:]
  var aliasNodes = 0
  var documents = 0
  var root: DocumentNode?

  init(text: YAMLSourceText, limits: YAMLReader.Limits) {
    self.text = text
    self.limits = limits
  }

  mutating func run() throws(YAMLError) -> DocumentNode? {
    let parser = LibYAMLParser(bytes: text.bytes)
    while true {
      let event: LibYAMLParser.Event
      switch parser.next() {
      case .success(let e): event = e
      case .failure(let failure): throw error(for: failure)
      }
      switch event {
      case .streamStart, .documentEnd:
        break
      case .streamEnd:
        return root.flatMap { isEmptyDocument($0) ? nil : $0 }
      case .documentStart(let start, let end):
        documents += 1
        if documents > 1 {
          throw .multipleDocuments(at: text.span(start.index, length: max(end.index - start.index, 1)))
        }
      case .alias(let name, let start, let end):
        let span = text.span(start.index, length: max(end.index - start.index, 1))
        if stack.contains(where: { $0.anchor == name }) { throw .recursiveAlias(name, at: span) }
        guard let anchored = anchors[name] else {
          throw .unknownAnchor(
            name, suggestion: Suggestion.closest(to: name, among: anchors.keys.sorted()), at: span)
        }
        // Charge the whole subtree before copying it, so an exponential document is
        // refused after a handful of events.
        guard anchored.size <= limits.maxAliasNodes - aliasNodes else {
          throw .aliasBudgetExceeded(limit: limits.maxAliasNodes, at: span)
        }
        aliasNodes += anchored.size
        try deliver(anchored, isMergeKey: false)
      case .scalar(let value, let style, let node):
        let (scalar, isMergeKey) = makeScalar(value, style: style, node: node)
        let sized = Sized(node: scalar, size: 1)
        if let anchor = node.anchor { anchors[anchor] = sized }
        try deliver(sized, isMergeKey: isMergeKey)
      case .sequenceStart(let node):
        let source = try open(node)
        stack.append(.sequence(SequenceFrame(anchor: node.anchor, source: source)))
      case .mappingStart(let node):
        let source = try open(node)
        stack.append(.mapping(MappingFrame(anchor: node.anchor, source: source)))
      case .sequenceEnd, .mappingEnd:
        guard let frame = stack.popLast() else { break }
        let sized = close(frame)
        if let anchor = frame.anchor { anchors[anchor] = sized }
        try deliver(sized, isMergeKey: false)
      }
    }
  }

  /// An empty document (`---` alone) reads as one empty plain scalar: no document.
  private func isEmptyDocument(_ node: DocumentNode) -> Bool {
    if case .scalar(let scalar) = node.value { return scalar.text.isEmpty && !scalar.isQuoted }
    return false
  }

  /// Where a node's own text starts: libyaml's start mark is at its first property.
  private func contentStart(_ node: LibYAMLParser.Node) -> Int {
    node.anchor == nil && node.tag == nil
      ? node.start.index : text.contentStart(after: node.start.index, limit: node.end.index)
  }

  /// The source of a collection about to be opened, after checking the depth limit.
  private func open(_ node: LibYAMLParser.Node) throws(YAMLError) -> SourceRef {
    let start = contentStart(node)
    let span = text.span(start)
    guard stack.count < limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: span) }
    return SourceRef(span)
  }

  /// The finished node of a collection frame.
  private func close(_ frame: Frame) -> Sized {
    switch frame {
    case .sequence(let s):
      return Sized(node: DocumentNode(.sequence(s.items), at: s.source), size: s.size)
    case .mapping(let m):
      var entries: [DocumentNode.Entry] = []
      var present = Set(m.keys.keys)
      for part in m.parts {
        switch part {
        case .entry(let entry):
          entries.append(entry)
        case .merge(let merged):
          // Explicit keys win wherever they stand; among merged mappings the first wins.
          for entry in merged where !present.contains(entry.key) {
            present.insert(entry.key)
            entries.append(entry)
          }
        }
      }
      return Sized(node: DocumentNode(.mapping(entries), at: m.source), size: m.size)
    }
  }

  /// Hands a finished node to the collection it belongs to (or makes it the root).
  private mutating func deliver(_ sized: Sized, isMergeKey: Bool) throws(YAMLError) {
    guard let top = stack.last else {
      root = sized.node
      return
    }
    switch top {
    case .sequence(let frame):
      frame.items.append(sized.node)
      frame.size += sized.size
    case .mapping(let frame):
      if let key = frame.pendingKey {
        frame.pendingKey = nil
        if key.isMerge {
          frame.parts.append(.merge(try mergedEntries(sized.node)))
          // An upper bound: keys the mapping overrides are counted all the same.
          frame.size += sized.size
        } else {
          frame.parts.append(.entry(DocumentNode.Entry(key: key.text, keySource: key.source, value: sized.node)))
          frame.size += 1 + sized.size
        }
      } else {
        guard case .scalar(let scalar) = sized.node.value else {
          throw .complexKey(at: sized.node.source.span)
        }
        let span = sized.node.source.span
        if isMergeKey {
          if let first = frame.mergeKey { throw .duplicateKey("<<", at: span, first: first) }
          frame.mergeKey = span
        } else {
          if let first = frame.keys[scalar.text] { throw .duplicateKey(scalar.text, at: span, first: first) }
          frame.keys[scalar.text] = span
        }
        frame.pendingKey = MappingFrame.Key(text: scalar.text, source: sized.node.source, isMerge: isMergeKey)
      }
    }
  }

  /// The entries a merge key's value contributes: a mapping's, or those of a list of
  /// mappings in order.
  private func mergedEntries(_ node: DocumentNode) throws(YAMLError) -> [DocumentNode.Entry] {
    switch node.value {
    case .mapping(let entries):
      return entries
    case .sequence(let items):
      var entries: [DocumentNode.Entry] = []
      for item in items {
        guard case .mapping(let more) = item.value else { throw .invalidMerge(at: item.source.span) }
        entries += more
      }
      return entries
    case .scalar:
      throw .invalidMerge(at: node.source.span)
    }
  }

  /// A scalar node with its span, quotedness and verbatimness, and whether it is a
  /// merge key (`<<`, plain, or tagged `!!merge`).
  private func makeScalar(
    _ value: String, style: LibYAMLParser.ScalarStyle, node: LibYAMLParser.Node
  ) -> (DocumentNode, isMergeKey: Bool) {
    let start = contentStart(node)
    let end = node.end.index
    let count = value.unicodeScalars.count
    // `!!str` (and the non-specific `!`) make a plain scalar a string, like quotes do.
    let isString = node.tag == "tag:yaml.org,2002:str" || node.tag == "!"
    let singleLine = text.isSingleLine(start, end)
    var spanStart = start
    let length: Int
    var isVerbatim = false
    switch style {
    case .plain:
      if singleLine {
        isVerbatim = true
        length = count
      } else {
        length = text.firstLineLength(from: start)
      }
    case .singleQuoted, .doubleQuoted:
      if singleLine && isUnescaped(value, from: start, to: end, quote: style == .singleQuoted ? "'" : "\"") {
        isVerbatim = true
        spanStart = start + 1
        length = count
      } else if singleLine {
        length = max(end - start, 1)
      } else {
        length = text.firstLineLength(from: start)
      }
    case .literal, .folded:
      // The header (`|`, `>-`, `|+2`); the text itself starts on the next line.
      var i = start
      while let c = text.scalar(at: i), !YAMLSourceText.isBlank(c), !YAMLSourceText.isBreak(c) { i += 1 }
      length = max(i - start, 1)
    }
    let scalar = DocumentNode.Scalar(value, isQuoted: style != .plain || isString, isVerbatim: isVerbatim)
    let isMergeKey =
      node.tag == "tag:yaml.org,2002:merge" || (style == .plain && node.tag == nil && value == "<<")
    return (DocumentNode(.scalar(scalar), at: SourceRef(text.span(spanStart, length: length))), isMergeKey)
  }

  /// Whether the quoted scalar from `start` to `end` (quotes included) holds `value`
  /// exactly, with no escapes (`\"`, `''`) between its quotes.
  private func isUnescaped(_ value: String, from start: Int, to end: Int, quote: Unicode.Scalar) -> Bool {
    guard start >= 0, end <= text.scalars.count, end - start >= 2, text.scalars[start] == quote,
      text.scalars[end - 1] == quote
    else { return false }
    return text.scalars[(start + 1)..<(end - 1)].elementsEqual(value.unicodeScalars)
  }

  /// The `YAMLError` for what libyaml reported.
  private func error(for failure: LibYAMLParser.Failure) -> YAMLError {
    switch failure.kind {
    case .reader:
      let span = text.span(text.scalarIndex(ofByte: failure.problemOffset))
      if failure.problem == "control characters are not allowed", failure.problemValue >= 0 {
        return .controlCharacter(UInt32(failure.problemValue), at: span)
      }
      let byte = failure.problem.contains("octet") && (0...0xFF).contains(failure.problemValue) ? failure.problemValue : nil
      return .invalidUTF8(problem: failure.problem, byte: byte, at: span)
    case .scanner, .parser, .memory, .other:
      let index = failure.problemMark.index
      var problem = failure.problem
      // libyaml's message for a tab where indentation is expected says nothing of tabs.
      if problem == "found character that cannot start any token" && text.scalar(at: index) == "\t" {
        problem += ", tabs are not allowed for indentation in YAML"
      }
      return .syntax(
        problem: problem, context: failure.context,
        contextAt: failure.context == nil ? nil : text.span(failure.contextMark.index),
        at: text.span(index))
    }
  }
}
