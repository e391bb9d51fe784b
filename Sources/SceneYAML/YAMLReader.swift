import SceneDiagnostics
import SceneSyntax

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
    /// The deepest nesting of lists and mappings accepted.
    ///
    /// libyaml itself has no limit and slows down superlinearly with depth, so parsing
    /// stops at the first collection beyond it.
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
  public static func read(_ file: SourceFile, limits: Limits = Limits()) throws(YAMLError)
    -> DocumentNode?
  {
    try read(file, limits: limits, pipelined: nil)
  }

  /// Reads `file` with libyaml on a second thread (`pipelined`), on this one, or (`nil`)
  /// on a second thread when the input is large.
  static func read(_ file: SourceFile, limits: Limits = Limits(), pipelined: Bool?)
    throws(YAMLError) -> DocumentNode?
  {
    let utf8 = file.text.utf8
    guard utf8.count <= limits.maxBytes else {
      throw .tooLarge(bytes: utf8.count, limit: limits.maxBytes)
    }
    let bytes = Array(utf8)
    let text = YAMLSourceText(name: file.name, bytes: bytes, utf8: bytes)
    var builder = Builder(text: text, limits: limits)
    builder.isPipelined = pipelined
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
    guard bytes.count <= limits.maxBytes else {
      throw .tooLarge(bytes: bytes.count, limit: limits.maxBytes)
    }
    let array = Array(bytes)
    let decoded = String(decoding: array, as: UTF8.self)
    let text = YAMLSourceText(name: name, bytes: array, utf8: Array(decoded.utf8))
    var builder = Builder(text: text, limits: limits)
    return try builder.run()
  }

  /// What reading a document cost, in operations rather than time.
  struct Statistics: Equatable {
    /// libyaml events consumed: a refusal early in the text reads few of them.
    var events = 0
    /// Mapping keys compared or hashed to find duplicates.
    var keyComparisons = 0
    /// Events libyaml produced, read or not: more than `events` only when it runs ahead
    /// on a second thread.
    var parsedEvents = 0
  }

  /// Reads `text` like ``read(_:limits:)`` and reports the work it took, whether it
  /// succeeded or not; libyaml runs on a second thread when `pipelined`.
  static func statistics(
    reading text: String, limits: Limits = Limits(), pipelined: Bool = false
  ) -> Statistics {
    let bytes = Array(text.utf8)
    var builder = Builder(text: YAMLSourceText(name: "", bytes: bytes, utf8: bytes), limits: limits)
    builder.isPipelined = pipelined
    _ = try? builder.run()
    return builder.statistics
  }
}

// MARK: - Source text

/// The input's UTF-8 with the tables that turn libyaml's marks, which count Unicode
/// scalars, into lines and columns, and into byte offsets to read the text at a mark.
///
/// Nothing is decoded up front: a scene is nearly always ASCII, where a scalar index is a
/// byte offset; otherwise every 64th scalar's byte offset is kept, so finding any other
/// takes at most 63 steps.
private struct YAMLSourceText {
  let name: SourceFileName
  /// The bytes given to libyaml, as read.
  let bytes: [UInt8]
  /// The text as valid UTF-8: `bytes` itself when read from a `SourceFile`, else
  /// `bytes` decoded with invalid sequences replaced, which is what `SourceFile` shows.
  let utf8: [UInt8]
  /// The number of Unicode scalars in `utf8`.
  let scalarCount: Int
  /// The scalar index at which each line starts.
  private let lineStarts: [Int]
  /// Whether `utf8` is all ASCII, so that scalar indices are byte offsets.
  private let isASCII: Bool
  /// The byte offset of scalar `64 * k` at `k`, up to and including the end; empty when
  /// the text is ASCII.
  private let checkpoints: [Int]
  private static let checkpointShift = 6

  init(name: String, bytes: [UInt8], utf8: [UInt8]) {
    self.name = SourceFileName(name)
    self.bytes = bytes
    self.utf8 = utf8
    var starts = [0]
    var checkpoints: [Int] = []
    var count = 0
    let mask = (1 << Self.checkpointShift) - 1
    // ASCII text, nearly every scene: one tight pass over the bytes, where each byte is a
    // scalar and only line breaks matter.
    let isASCII = utf8.withUnsafeBufferPointer { buffer in
      LineBreaks.scan(buffer) { offset, length in starts.append(offset + length) }
    }
    if isASCII {
      count = utf8.count
    } else {
      // Otherwise a second pass counts scalars, keeping every 64th one's offset.
      starts = [0]
      utf8.withUnsafeBufferPointer { buffer in
        for (offset, byte) in buffer.enumerated() where byte & 0xC0 != 0x80 {
          // The first byte of a scalar (continuation bytes are 0b10xxxxxx).
          if count & mask == 0 { checkpoints.append(offset) }
          count += 1
          // Same rule as SourceFile: \n, \r\n (one break) and a lone \r.
          if byte == UInt8(ascii: "\n")
            || (byte == UInt8(ascii: "\r")
              && (offset + 1 == buffer.count || buffer[offset + 1] != UInt8(ascii: "\n")))
          {
            starts.append(count)
          }
        }
      }
      if count & mask == 0 { checkpoints.append(utf8.count) }
    }
    self.scalarCount = count
    self.lineStarts = starts
    self.isASCII = isASCII
    self.checkpoints = checkpoints
  }

  /// The line of the last location asked for: the next is nearly always on it or on
  /// the line after, as libyaml's events come in the order of the text.
  private var lastLine = 0

  /// The location of scalar `index` (clamped to the text; the end is one past the last).
  mutating func location(_ index: Int) -> SourceLocation {
    let index = min(max(index, 0), scalarCount)
    lastLine = line(containing: index, near: lastLine)
    return SourceLocation(file: name, line: lastLine + 1, column: index - lineStarts[lastLine] + 1)
  }

  /// The 0-based line of scalar `index`: the last line start at or before it, looked
  /// for on line `hint` and the next before searching all lines.
  private func line(containing index: Int, near hint: Int) -> Int {
    func startsAfter(_ line: Int) -> Bool {
      line + 1 == lineStarts.count || lineStarts[line + 1] > index
    }
    if lineStarts[hint] <= index {
      if startsAfter(hint) { return hint }
      // Line `hint + 1` exists and starts at or before `index`.
      if startsAfter(hint + 1) { return hint + 1 }
    }
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= index { low = mid } else { high = mid - 1 }
    }
    return low
  }

  mutating func span(_ index: Int, length: Int = 1) -> SourceSpan {
    SourceSpan(location(index), length: length)
  }

  /// The byte offset in `utf8` of scalar `index`, clamped to the text.
  func byteOffset(_ index: Int) -> Int {
    let index = min(max(index, 0), scalarCount)
    if isASCII { return index }
    var offset = checkpoints[index >> Self.checkpointShift]
    for _ in 0..<(index & ((1 << Self.checkpointShift) - 1)) {
      offset += 1
      while offset < utf8.count && utf8[offset] & 0xC0 == 0x80 { offset += 1 }
    }
    return offset
  }

  /// The scalars from index `index` on.
  func scalars(from index: Int) -> Scalars {
    Scalars(utf8: utf8, offset: index >= scalarCount ? utf8.count : byteOffset(index))
  }

  func scalar(at index: Int) -> Unicode.Scalar? {
    guard index >= 0 && index < scalarCount else { return nil }
    var scalars = scalars(from: index)
    return scalars.next()
  }

  /// Decodes the scalars of valid UTF-8 one by one.
  struct Scalars: IteratorProtocol {
    let utf8: [UInt8]
    var offset: Int

    mutating func next() -> Unicode.Scalar? {
      guard offset < utf8.count else { return nil }
      let lead = utf8[offset]
      offset += 1
      if lead < 0x80 { return Unicode.Scalar(lead) }
      // The text is valid UTF-8, so the lead byte says how many continuation bytes follow.
      let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
      var value = UInt32(lead) & (0x7F >> length)
      for _ in 1..<length where offset < utf8.count {
        value = value << 6 | UInt32(utf8[offset] & 0x3F)
        offset += 1
      }
      return Unicode.Scalar(value) ?? "\u{FFFD}"
    }
  }

  /// The scalar index of the character at byte `offset`, for libyaml's reader errors,
  /// which report a byte offset instead of a mark.
  ///
  /// Everything before the first bad byte
  /// is valid UTF-8, so decoding it counts the same scalars as `utf8` holds.
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
    let start = max(start, 0)
    let end = min(end, scalarCount)
    guard start < end else { return true }
    if isASCII {
      // Of the breaks, only \n and \r are ASCII.
      return !utf8[start..<end].contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    }
    var scalars = scalars(from: start)
    for _ in start..<end where Self.isBreak(scalars.next() ?? " ") { return false }
    return true
  }

  /// How many scalars from `start` to the end of its line, trailing blanks left out.
  func firstLineLength(from start: Int) -> Int {
    var scalars = scalars(from: max(start, 0))
    var count = 0
    var length = 0
    while let c = scalars.next(), !Self.isBreak(c) {
      count += 1
      if !Self.isBlank(c) { length = count }
    }
    return length
  }

  /// Where a node's content starts, after its properties (`&anchor`, `!tag`) and any
  /// blanks, line breaks or comments between them; libyaml's start mark is at the first
  /// property.
  ///
  /// Never beyond `limit`, the end of the event: an empty node's properties
  /// are all there is of it.
  func contentStart(after start: Int, limit: Int) -> Int {
    let limit = min(limit, scalarCount)
    let start = max(start, 0)
    guard start < limit else { return limit }
    // Only the scalars before `limit` matter: the result never goes beyond it.
    var iterator = scalars(from: start)
    var scalars: [Unicode.Scalar] = []
    for _ in start..<limit { scalars.append(iterator.next() ?? " ") }
    func scalar(at i: Int) -> Unicode.Scalar? { i < scalars.count ? scalars[i] : nil }
    var i = 0
    while i < scalars.count {
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
          while let c = scalar(at: i), !Self.isBlank(c), !Self.isBreak(c),
            !",[]{}".unicodeScalars.contains(c)
          {
            i += 1
          }
        }
      } else {
        break
      }
    }
    return min(start + i, limit)
  }

  /// Whether the scalars `start..<end` are exactly `text`.
  func hasText(_ text: String, from start: Int, to end: Int) -> Bool {
    guard start >= 0, start <= end, end <= scalarCount else { return false }
    // Valid UTF-8 on both sides: equal scalars are equal bytes.
    let range = byteOffset(start)..<byteOffset(end)
    guard text.utf8.count == range.count else { return false }
    return text.utf8.withContiguousStorageIfAvailable { utf8[range].elementsEqual($0) }
      ?? utf8[range].elementsEqual(text.utf8)
  }

  private static func isAnchorCharacter(_ c: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_"
      || c == "-"
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

  /// One open collection.
  ///
  /// The frames live in `stack` and are changed in place through
  /// it, so appending to an open collection never copies its arrays.
  struct Frame {
    enum Kind { case sequence, mapping }

    /// The entries of the mappings a `<<` merges, earlier mappings first, and how many
    /// explicit entries were written before it.
    struct Merge {
      var position: Int
      var entries: [DocumentNode.Entry]
    }

    /// A mapping key waiting for its value.
    struct Key {
      var text: String
      var source: SourceRef
      var isMerge: Bool
    }

    /// Up to this many keys, a key is looked up by scanning the entries: most mappings
    /// hold a handful, and comparing a few short strings costs less than hashing one.
    static let scanLimit = 8

    /// Room for this many children when the first arrives: most collections hold a
    /// few, which then need one allocation instead of one per doubling.
    static let initialCapacity = 4

    let kind: Kind
    let anchor: String?
    let source: SourceRef
    var size = 1
    /// A sequence's items.
    var items: [DocumentNode] = []
    /// A mapping's explicit entries, in order; their keys are distinct.
    var entries: [DocumentNode.Entry] = []
    var merges: [Merge] = []
    var pendingKey: Key?
    /// Where each explicit key was written, once there are too many to scan.
    var keyIndex: [String: SourceSpan] = [:]
    var mergeKey: SourceSpan?

    init(_ kind: Kind, anchor: String?, source: SourceRef) {
      self.kind = kind
      self.anchor = anchor
      self.source = source
    }

    /// Records the explicit key `key` written at `span`, or returns where it was
    /// written first; `comparisons` counts the keys it compared or hashed.
    mutating func insertKey(_ key: String, at span: SourceSpan, comparisons: inout Int)
      -> SourceSpan?
    {
      if keyIndex.isEmpty {
        comparisons += entries.count
        if let first = entries.first(where: { $0.key == key }) { return first.keySource.span }
        guard entries.count >= Self.scanLimit else { return nil }
        // Too many to scan from now on. The key being inserted is not among the
        // entries yet: it joins them with its value.
        for entry in entries { keyIndex[entry.key] = entry.keySource.span }
      }
      // One hash for both the lookup and the insertion.
      comparisons += 1
      return keyIndex.updateValue(span, forKey: key)
    }

    /// The finished collection.
    func node() -> DocumentNode {
      switch kind {
      case .sequence: return DocumentNode(.sequence(items), at: source)
      case .mapping: return DocumentNode(.mapping(finishedEntries()), at: source)
      }
    }

    /// The entries in order: explicit ones where they stand, and where a `<<` stands
    /// the merged entries whose key is not already present.
    ///
    /// Explicit keys win wherever
    /// they stand; among merged mappings the first wins.
    private func finishedEntries() -> [DocumentNode.Entry] {
      guard !merges.isEmpty else { return entries }
      var present = Set(entries.map(\.key))
      var result: [DocumentNode.Entry] = []
      var next = 0
      for merge in merges {
        result += entries[next..<merge.position]
        next = merge.position
        for entry in merge.entries where !present.contains(entry.key) {
          present.insert(entry.key)
          result.append(entry)
        }
      }
      result += entries[next...]
      return result
    }
  }

  var text: YAMLSourceText
  let limits: YAMLReader.Limits
  var stack: [Frame] = []
  var anchors: [String: Sized] = [:]
  var aliasNodes = 0
  var documents = 0
  var root: DocumentNode?
  /// The reader's work, counted so tests can prove it linear without a clock.
  var statistics = YAMLReader.Statistics()
  /// Whether libyaml runs on a second thread; `nil` decides by the input's size.
  var isPipelined: Bool?

  init(text: YAMLSourceText, limits: YAMLReader.Limits) {
    self.text = text
    self.limits = limits
  }

  mutating func run() throws(YAMLError) -> DocumentNode? {
    var events = YAMLEvents(
      bytes: text.bytes, maxDepth: limits.maxDepth,
      pipelined: isPipelined ?? YAMLEvents.isPipelined(byteCount: text.bytes.count))
    defer { statistics.parsedEvents = events.stop() }
    while true {
      let event: LibYAMLParser.Event
      do {
        event = try events.next()
      } catch {
        throw self.error(for: error)
      }
      statistics.events += 1
      switch event {
      case .streamStart, .documentEnd:
        break
      case .streamEnd:
        return root.flatMap { isEmptyDocument($0) ? nil : $0 }
      case .documentStart(let start, let end):
        documents += 1
        if documents > 1 {
          throw .multipleDocuments(
            at: text.span(start.index, length: max(end.index - start.index, 1)))
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
      case .scalar(let value, let count, let style, let node):
        let (scalar, isMergeKey) = makeScalar(value, scalarCount: count, style: style, node: node)
        let sized = Sized(node: scalar, size: 1)
        if let anchor = node.anchor { anchors[anchor] = sized }
        try deliver(sized, isMergeKey: isMergeKey)
      case .sequenceStart(let node):
        let source = try open(node)
        stack.append(Frame(.sequence, anchor: node.anchor, source: source))
      case .mappingStart(let node):
        let source = try open(node)
        stack.append(Frame(.mapping, anchor: node.anchor, source: source))
      case .sequenceEnd, .mappingEnd:
        guard let frame = stack.popLast() else { break }
        let sized = Sized(node: frame.node(), size: frame.size)
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
  private mutating func open(_ node: LibYAMLParser.Node) throws(YAMLError) -> SourceRef {
    let start = contentStart(node)
    let span = text.span(start)
    guard stack.count < limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth, at: span) }
    return SourceRef(span)
  }

  /// Hands a finished node to the collection it belongs to (or makes it the root).
  private mutating func deliver(_ sized: Sized, isMergeKey: Bool) throws(YAMLError) {
    guard !stack.isEmpty else {
      root = sized.node
      return
    }
    // Through the index, so that the frame is changed in place.
    let top = stack.count - 1
    switch stack[top].kind {
    case .sequence:
      if stack[top].items.isEmpty { stack[top].items.reserveCapacity(Frame.initialCapacity) }
      stack[top].items.append(sized.node)
      stack[top].size += sized.size
    case .mapping:
      if let key = stack[top].pendingKey {
        stack[top].pendingKey = nil
        if key.isMerge {
          let merged = try Self.mergedEntries(sized.node)
          stack[top].merges.append(Frame.Merge(position: stack[top].entries.count, entries: merged))
          // An upper bound: keys the mapping overrides are counted all the same.
          stack[top].size += sized.size
        } else {
          if stack[top].entries.isEmpty {
            stack[top].entries.reserveCapacity(Frame.initialCapacity)
          }
          stack[top].entries.append(
            DocumentNode.Entry(key: key.text, keySource: key.source, value: sized.node))
          stack[top].size += 1 + sized.size
        }
      } else {
        guard case .scalar(let scalar) = sized.node.value else {
          throw .complexKey(at: sized.node.source.span)
        }
        let span = sized.node.source.span
        if isMergeKey {
          if let first = stack[top].mergeKey { throw .duplicateKey("<<", at: span, first: first) }
          stack[top].mergeKey = span
        } else if let first = stack[top].insertKey(
          scalar.text, at: span, comparisons: &statistics.keyComparisons)
        {
          throw .duplicateKey(scalar.text, at: span, first: first)
        }
        stack[top].pendingKey = Frame.Key(
          text: scalar.text, source: sized.node.source, isMerge: isMergeKey)
      }
    }
  }

  /// The entries a merge key's value contributes: a mapping's, or those of a list of
  /// mappings in order.
  private static func mergedEntries(_ node: DocumentNode) throws(YAMLError) -> [DocumentNode.Entry]
  {
    switch node.value {
    case .mapping(let entries):
      return entries
    case .sequence(let items):
      var entries: [DocumentNode.Entry] = []
      for item in items {
        guard case .mapping(let more) = item.value else {
          throw .invalidMerge(at: item.source.span)
        }
        entries += more
      }
      return entries
    case .scalar:
      throw .invalidMerge(at: node.source.span)
    }
  }

  /// A scalar node with its span, quotedness and verbatimness, and whether it is a
  /// merge key (`<<`, plain, or tagged `!!merge`).
  private mutating func makeScalar(
    _ value: String, scalarCount count: Int, style: LibYAMLParser.ScalarStyle,
    node: LibYAMLParser.Node
  ) -> (DocumentNode, isMergeKey: Bool) {
    let start = contentStart(node)
    let end = node.end.index
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
      if singleLine
        && isUnescaped(value, from: start, to: end, quote: style == .singleQuoted ? "'" : "\"")
      {
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
      while let c = text.scalar(at: i), !YAMLSourceText.isBlank(c), !YAMLSourceText.isBreak(c) {
        i += 1
      }
      length = max(i - start, 1)
    }
    let scalar = DocumentNode.Scalar(
      value, isQuoted: style != .plain || isString, isVerbatim: isVerbatim)
    let isMergeKey =
      node.tag == "tag:yaml.org,2002:merge" || (style == .plain && node.tag == nil && value == "<<")
    return (
      DocumentNode(.scalar(scalar), at: SourceRef(text.span(spanStart, length: length))), isMergeKey
    )
  }

  /// Whether the quoted scalar from `start` to `end` (quotes included) holds `value`
  /// exactly, with no escapes (`\"`, `''`) between its quotes.
  private func isUnescaped(_ value: String, from start: Int, to end: Int, quote: Unicode.Scalar)
    -> Bool
  {
    guard start >= 0, end <= text.scalarCount, end - start >= 2, text.scalar(at: start) == quote,
      text.scalar(at: end - 1) == quote
    else { return false }
    return text.hasText(value, from: start + 1, to: end - 1)
  }

  /// The `YAMLError` for what libyaml reported.
  private mutating func error(for failure: LibYAMLParser.Failure) -> YAMLError {
    switch failure.kind {
    case .reader:
      let span = text.span(text.scalarIndex(ofByte: failure.problemOffset))
      if failure.problem == "control characters are not allowed", failure.problemValue >= 0 {
        return .controlCharacter(UInt32(failure.problemValue), at: span)
      }
      let byte =
        failure.problem.contains("octet") && (0...0xFF).contains(failure.problemValue)
        ? failure.problemValue : nil
      return .invalidUTF8(problem: failure.problem, byte: byte, at: span)
    case .scanner, .parser, .memory, .other:
      let index = failure.problemMark.index
      var problem = failure.problem
      // libyaml's message for a tab where indentation is expected says nothing of tabs.
      if problem == "found character that cannot start any token" && text.scalar(at: index) == "\t"
      {
        problem += ", tabs are not allowed for indentation in YAML"
      }
      return .syntax(
        problem: problem, context: failure.context,
        contextAt: failure.context == nil ? nil : text.span(failure.contextMark.index),
        at: text.span(index))
    }
  }
}
