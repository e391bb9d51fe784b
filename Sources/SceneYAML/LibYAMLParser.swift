internal import CYAML

/// One libyaml parser over a private copy of the input, yielding events as Swift values.
///
/// It owns the C state (`yaml_parser_t`) and the input bytes libyaml reads from, and
/// frees both in `deinit`; every event is copied into a ``LibYAMLEvent`` and released at
/// once, so no C memory outlives a call to ``next()``. Not thread-safe: one parse, one
/// owner.
final class LibYAMLParser {
  /// A position as libyaml counts it: `index` in Unicode scalars from the start of the
  /// input (a byte order mark included, because the encoding is set to UTF-8 up front).
  ///
  /// libyaml's line and column are left out: it also breaks lines at U+0085, U+2028
  /// and U+2029, which scene files do not, so positions are mapped from the index.
  struct Mark: Hashable, Sendable {
    var index: Int
  }

  /// How a scalar was written.
  enum ScalarStyle: Hashable, Sendable {
    case plain, singleQuoted, doubleQuoted, literal, folded
  }

  /// The node properties and extent shared by scalar and collection events.
  struct Node: Hashable, Sendable {
    var anchor: String?
    var tag: String?
    /// The start of the node's properties (`&a !!str`) if it has any, else of the node.
    var start: Mark
    var end: Mark
  }

  enum Event: Hashable, Sendable {
    case streamStart, streamEnd
    case documentStart(start: Mark, end: Mark)
    case documentEnd
    case alias(anchor: String, start: Mark, end: Mark)
    /// A scalar's text, how many Unicode scalars it holds, and how it was written.
    case scalar(String, scalarCount: Int, style: ScalarStyle, node: Node)
    case sequenceStart(Node)
    case sequenceEnd
    case mappingStart(Node)
    case mappingEnd
  }

  /// What libyaml reported when it stopped.
  struct Failure: Error, Hashable, Sendable {
    enum Kind: Hashable, Sendable { case reader, scanner, parser, memory, other }
    var kind: Kind
    var problem: String
    var context: String?
    var problemMark: Mark
    var contextMark: Mark
    /// For reader errors: the byte offset of the bad input, libyaml gives no mark then.
    var problemOffset: Int
    /// For reader errors: the offending octet or code point, or -1.
    var problemValue: Int
  }

  private let parser: UnsafeMutablePointer<yaml_parser_t>
  private let input: UnsafeMutableBufferPointer<UInt8>
  private var isInitialized = false

  /// A parser reading `bytes`, copied so libyaml's pointer stays valid for our lifetime.
  init(bytes: some Collection<UInt8>) {
    parser = .allocate(capacity: 1)
    // One spare byte keeps the pointer non-null even for empty input.
    let count = bytes.count
    input = .allocate(capacity: count + 1)
    input.initialize(repeating: 0)
    UnsafeMutableRawBufferPointer(input).copyBytes(from: bytes)
    if yaml_parser_initialize(parser) != 0, let base = input.baseAddress {
      isInitialized = true
      yaml_parser_set_input_string(parser, base, count)
      // Fixing the encoding stops libyaml from skipping a byte order mark unseen (it
      // then counts it as a character, like Swift's String does) and from decoding
      // UTF-16 that we would then report positions in as if it were UTF-8.
      yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    }
  }

  deinit {
    if isInitialized { yaml_parser_delete(parser) }
    parser.deallocate()
    input.deallocate()
  }

  /// The next event, or libyaml's error.
  ///
  /// After an error the parser is done.
  func next() throws(Failure) -> Event {
    guard isInitialized else { throw Self.notAllocated }
    var event = yaml_event_t()
    guard yaml_parser_parse(parser, &event) != 0 else { throw failure() }
    defer { yaml_event_delete(&event) }
    return Self.copy(event)
  }

  /// The next event appended to `batch` as plain data, its text copied into the batch's
  /// bytes, or libyaml's error.
  ///
  /// For a second thread, which then allocates nothing the reader's thread frees: glibc
  /// takes a lock to free memory another thread allocated, and libyaml, allocating for
  /// every token, would wait on that lock.
  func next(into batch: inout EventBatch) throws(Failure) -> EventBatch.Kind {
    guard isInitialized else { throw Self.notAllocated }
    var event = yaml_event_t()
    guard yaml_parser_parse(parser, &event) != 0 else { throw failure() }
    defer { yaml_event_delete(&event) }
    return Self.record(event, into: &batch)
  }

  private static func record(_ event: yaml_event_t, into batch: inout EventBatch)
    -> EventBatch.Kind
  {
    var record = EventBatch.Record(
      kind: .streamEnd, style: .plain, start: event.start_mark.index, end: event.end_mark.index)
    func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?, count: Int? = nil) -> Range<Int>? {
      guard let pointer else { return nil }
      var length = 0
      if let count { length = count } else { while pointer[length] != 0 { length += 1 } }
      let bytes = UnsafeBufferPointer(start: pointer, count: length)
      let start = batch.bytes.count
      batch.bytes.append(contentsOf: bytes)
      return start..<batch.bytes.count
    }
    switch event.type {
    case YAML_STREAM_START_EVENT: record.kind = .streamStart
    case YAML_DOCUMENT_START_EVENT: record.kind = .documentStart
    case YAML_DOCUMENT_END_EVENT: record.kind = .documentEnd
    case YAML_ALIAS_EVENT:
      record.kind = .alias
      record.value = text(event.data.alias.anchor) ?? record.value
    case YAML_SCALAR_EVENT:
      let scalar = event.data.scalar
      record.kind = .scalar
      // The value may hold NUL (from a "\0" escape), so copy by length, not as a C string.
      record.value =
        scalar.value == nil
        ? record.value : text(scalar.value, count: scalar.length) ?? record.value
      record.style = style(scalar.style)
      record.anchor = text(scalar.anchor)
      record.tag = text(scalar.tag)
    case YAML_SEQUENCE_START_EVENT:
      record.kind = .sequenceStart
      record.anchor = text(event.data.sequence_start.anchor)
      record.tag = text(event.data.sequence_start.tag)
    case YAML_SEQUENCE_END_EVENT: record.kind = .sequenceEnd
    case YAML_MAPPING_START_EVENT:
      record.kind = .mappingStart
      record.anchor = text(event.data.mapping_start.anchor)
      record.tag = text(event.data.mapping_start.tag)
    case YAML_MAPPING_END_EVENT: record.kind = .mappingEnd
    default:
      // YAML_STREAM_END_EVENT, and YAML_NO_EVENT, which libyaml emits only after the end.
      record.kind = .streamEnd
    }
    batch.records.append(record)
    return record.kind
  }

  private static func style(_ style: yaml_scalar_style_t) -> ScalarStyle {
    switch style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
    case YAML_LITERAL_SCALAR_STYLE: return .literal
    case YAML_FOLDED_SCALAR_STYLE: return .folded
    default: return .plain
    }
  }

  private static let notAllocated = Failure(
    kind: .memory, problem: "cannot allocate the YAML parser", context: nil,
    problemMark: Mark(index: 0), contextMark: Mark(index: 0), problemOffset: 0, problemValue: -1)

  private func failure() -> Failure {
    let p = parser.pointee
    let kind: Failure.Kind
    switch p.error {
    case YAML_READER_ERROR: kind = .reader
    case YAML_SCANNER_ERROR: kind = .scanner
    case YAML_PARSER_ERROR: kind = .parser
    case YAML_MEMORY_ERROR: kind = .memory
    default: kind = .other
    }
    return Failure(
      kind: kind,
      problem: p.problem.map { String(cString: $0) } ?? "unknown YAML error",
      context: p.context.map { String(cString: $0) },
      problemMark: Self.mark(p.problem_mark),
      contextMark: Self.mark(p.context_mark),
      problemOffset: p.problem_offset,
      problemValue: Int(p.problem_value))
  }

  private static func mark(_ m: yaml_mark_t) -> Mark {
    Mark(index: m.index)
  }

  private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    pointer.map { String(cString: $0) }
  }

  private static func copy(_ event: yaml_event_t) -> Event {
    let start = mark(event.start_mark)
    let end = mark(event.end_mark)
    switch event.type {
    case YAML_STREAM_START_EVENT:
      return .streamStart
    case YAML_STREAM_END_EVENT:
      return .streamEnd
    case YAML_DOCUMENT_START_EVENT:
      return .documentStart(start: start, end: end)
    case YAML_DOCUMENT_END_EVENT:
      return .documentEnd
    case YAML_ALIAS_EVENT:
      return .alias(anchor: string(event.data.alias.anchor) ?? "", start: start, end: end)
    case YAML_SCALAR_EVENT:
      let scalar = event.data.scalar
      // The value may hold NUL (from a "\0" escape), so copy by length, not as a C string.
      let bytes = UnsafeBufferPointer(
        start: scalar.value, count: scalar.value == nil ? 0 : scalar.length)
      let text = String(decoding: bytes, as: UTF8.self)
      // Nearly always ASCII, one scalar per byte: cheaper to see on the bytes at hand
      // than to count in the string.
      let scalarCount = bytes.allSatisfy { $0 < 0x80 } ? bytes.count : text.unicodeScalars.count
      let node = Node(
        anchor: string(scalar.anchor), tag: string(scalar.tag), start: start, end: end)
      return .scalar(text, scalarCount: scalarCount, style: style(scalar.style), node: node)
    case YAML_SEQUENCE_START_EVENT:
      let data = event.data.sequence_start
      return .sequenceStart(
        Node(anchor: string(data.anchor), tag: string(data.tag), start: start, end: end))
    case YAML_SEQUENCE_END_EVENT:
      return .sequenceEnd
    case YAML_MAPPING_START_EVENT:
      let data = event.data.mapping_start
      return .mappingStart(
        Node(anchor: string(data.anchor), tag: string(data.tag), start: start, end: end))
    case YAML_MAPPING_END_EVENT:
      return .mappingEnd
    default:
      // YAML_NO_EVENT: libyaml emits it only after the stream has ended.
      return .streamEnd
    }
  }
}
