import SceneDiagnostics
import SceneVocabulary

/// Reads the line-oriented scene DSL (`.scene` files) into the ``DocumentNode`` tree the
/// equivalent YAML document gives, so that one decoder serves both syntaxes.
///
/// The grammar, in EBNF (`{ }` repeats, `[ ]` is optional, `NL` is a line break: `\n`,
/// `\r\n` or `\r`; `INDENT` is one or more spaces, deeper than the statement's line):
///
/// ```ebnf
/// file        = { line } ;
/// line        = blank | comment | statement ;            (* blank, comment lines: ignored *)
/// statement   = scene | let | spring | handle | path | constraint | gesture | expect ;
/// scene       = "scene" , [ value ] , attributes , NL ;           (* value: the name *)
/// let         = "let" , identifier , "=" , text , NL ;
/// spring      = "spring" , name , attributes , NL ;
/// handle      = "handle" , name , attributes , NL , [ block of child ] ;
/// path        = "path" , name , attributes , NL , [ block of segment ] ;
/// constraint  = ( "follow" | "elastic" | "animate" ) , [ value ] , attributes , NL
///             | "gooey" , [ value , [ value ] ] , attributes , NL ;   (* handle; anchor, ball *)
/// gesture     = "gesture" , [ digits ] , NL , block of step ;     (* pointer; 0 if absent *)
/// expect      = "expect" , [ text ] , NL , [ block of text ] ;
/// child       = identifier , attributes ;                   (* a child's name, then its keys *)
/// segment     = ( "move" | "line" ) , value | "quad" , 2 * value | "cubic" , 3 * value
///             | "close" ;
/// step        = ( "press" | "tap" | "wait" | "hold" | "release" | "drag" | "move"
///               | "fling" | "replay" | "pinch" | "rotate" ) , [ value ] , attributes ;
/// block of X  = INDENT , X , NL , { INDENT , X , NL } ;   (* every line: the same INDENT *)
/// attributes  = { key , [ "=" , atom ] } ;                 (* a bare key is the flag `true` *)
/// key         = identifier ;                               (* dots nest: a.b=1 is a: { b: 1 } *)
/// value       = atom ;                                     (* not of the form key=… *)
/// name        = value ;
/// atom        = string | plain ;
/// plain       = ( char - '"' ) , { char } ;   (* to a space or tab outside brackets, strings *)
/// string      = '"' , { char - ( '"' | "\" ) | escape } , '"' ;
/// escape      = "\" , ( '"' | "\" | "n" | "t" | "u{" , hex , { hex } , "}" ) ;
/// identifier  = ( letter | "_" ) , { letter | digit | "_" | "-" | "." } ;
/// text        = atom , { ( " " | TAB ) , atom } ;          (* the rest of the line, trimmed *)
/// comment     = "#" , { char } ;        (* where a token could start, even before a value *)
/// ```
///
/// In a `plain` atom the brackets `(` `[` `{` must balance and strings must close; spaces
/// inside them do not end the atom: `position=(120, 80)`, `ease=cubic-bezier(0.4,0,0.2,1)`.
/// A statement takes its values (names, handles) from its first tokens that are not
/// `key=…` attributes, up to its number of values; every later token is an attribute.
///
/// Each statement adds to the tree the YAML schema describes: `handle ball r=20` adds
/// `ball: { r: 20 }` to the top-level `handles` mapping; top-level keys appear in the order
/// of first use. A step or `scene` value plus attributes becomes `{ at: value, … }` and
/// `{ name: value, … }`; `gesture` statements give a list of steps when there is exactly
/// one, without a number, and otherwise a mapping from pointer to steps.
///
/// Errors do not stop the parse: each is recorded, the line (or a bad statement's whole
/// block) is skipped, and parsing goes on, so one run reports every independent error.
public enum DSLParser {
  /// The document of `file` (`nil` when no statement could be read, as in an empty file)
  /// and every error found.
  ///
  /// The one-line statements (`handle`, `spring`, constraints) of a long file are read in
  /// pieces that `parallel` may run side by side, before the walk over the lines that
  /// builds the tree; the tree and the messages are the same either way.
  public static func parse(_ file: SourceFile, parallel: ParallelWork = .serial) -> (
    document: DocumentNode?, diagnostics: [Diagnostic]
  ) {
    var parser = DSLStatementParser(file: file)
    parser.parseFile(parallel: parallel)
    return (parser.makeDocument(), parser.diagnostics)
  }

  /// The statements of the DSL, for suggestions.
  static let statementKeywords =
    ["scene", "input", "let", "spring", "handle", "path"]
    + ConstraintKeyword.allCases.map { $0.rawValue } + ["machine", "gesture", "expect"]

  /// The segment keywords of a `path` block and how many points each takes.
  static let segmentArity: [(keyword: String, points: Int)] = [
    ("move", 1), ("line", 1), ("quad", 2), ("cubic", 3), ("close", 0),
  ]

  /// The steps of a `gesture` block.
  static let stepKeywords = GestureStepKeyword.words

  /// The statements that take an indented block.
  static let blockKeywords: Set<String> = ["handle", "path", "machine", "gesture", "expect"]

  /// The most parts a dotted attribute key may have; deeper keys would only build
  /// pathologically deep trees that later recursive passes could not handle.
  static let maximumKeyParts = 32
}

/// An error that abandons the rest of a line.
private struct LineError: Error {
  var diagnostic: Diagnostic
}

/// One line of the file, for building spans.
private struct Line {
  var number: Int
  var scalars: [Unicode.Scalar]
  var file: SourceFileName
  /// For a statement continued over several lines, where each one's part starts (see
  /// ``DSLLexer/joinContinuations(_:)``); empty for one line.
  var segments: [DSLLexer.Segment] = []

  /// The span of the scalars `start..<end` (at least the column of `start`), at the line
  /// and column where `start` was written.
  func span(_ start: Int, _ end: Int) -> SourceSpan {
    guard segments.count > 1,
      let segment = segments.last(where: { $0.joinedStart <= start })
    else {
      return SourceSpan(
        SourceLocation(file: file, line: number, column: start + 1), length: max(end - start, 0))
    }
    let column = segment.dropped + start - segment.joinedStart + 1
    return SourceSpan(
      SourceLocation(file: file, line: segment.line, column: column), length: max(end - start, 0))
  }

  func span(_ token: DSLToken) -> SourceSpan { span(token.start, token.end) }

  /// Whether `start..<end` runs over a line break of a continued statement: its text is
  /// then not written one scalar per column, and places inside it are given at its start.
  func crossesBreak(_ start: Int, _ end: Int) -> Bool {
    segments.dropFirst().contains { $0.joinedStart > start && $0.joinedStart < end }
  }

  func text(_ start: Int, _ end: Int) -> String { DSLLexer.string(scalars, start, end) }

  func text(_ token: DSLToken) -> String { text(token.start, token.end) }

  /// The text `start..<end` for messages: long runs are cut, so that a huge token does not
  /// make a huge message.
  func clipped(_ start: Int, _ end: Int) -> String {
    if end - start <= Self.clipLimit { return text(start, end) }
    return text(start, start + Self.clipLimit) + "…"
  }

  /// How many scalars ``clipped(_:_:)`` keeps.
  static let clipLimit = 40

  /// The token's text in quotes, for messages; see ``clipped(_:_:)``.
  func quoted(_ token: DSLToken) -> String { "'\(clipped(token.start, token.end))'" }

  func error(_ message: String, _ start: Int, _ end: Int, notes: [Diagnostic.Note] = [])
    -> LineError
  {
    LineError(diagnostic: .error(message, at: span(start, max(end, start + 1)), notes: notes))
  }

  func error(_ lexError: DSLLexError) -> LineError {
    let notes = lexError.notes.map {
      Diagnostic.Note($0.message, at: span($0.start, $0.start + $0.length))
    }
    return error(lexError.message, lexError.start, lexError.start + lexError.length, notes: notes)
  }
}

/// The attributes of one statement as they are collected: dotted keys nest, and a key set
/// twice is found by a dictionary lookup rather than a search, so long lines stay linear.
///
/// A value, with nested tables kept by index in the same array: as a class, every append
/// and lookup paid a run-time exclusivity check: 7.5% of reading a large DSL file.
private struct AttributeTable {
  enum Value {
    case leaf(DocumentNode)
    /// A nested table, by its index in `levels`.
    case table(Int)
  }

  struct Item {
    /// The span of this key's own part (`speed` in `return.speed`).
    var keySpan: SourceSpan
    /// Where the key was first written up to this part, for "first set here" notes.
    var firstSpan: SourceSpan
    var value: Value
  }

  /// One part of a dotted key, with the text and span of the key up to and including it.
  struct KeyPart {
    var name: String
    var span: SourceSpan
    var prefix: String
    var prefixSpan: SourceSpan
  }

  /// One table's keys in the order first written, with their items.
  struct Level {
    var keyed: [(name: String, item: Item)] = []
    /// The position of each key, once there are more than ``directlyCompared``: a
    /// statement has a handful of attributes, and comparing them directly costs less than
    /// hashing.
    var positions: [String: Int]?

    func position(of name: String) -> Int? {
      if let positions { return positions[name] }
      return keyed.firstIndex { $0.name == name }
    }

    mutating func append(_ name: String, _ item: Item) {
      // Room for a statement's usual attributes at once, rather than growing 1, 2, 4, 8.
      if keyed.isEmpty { keyed.reserveCapacity(AttributeTable.directlyCompared) }
      keyed.append((name, item))
      if positions != nil {
        positions?[name] = keyed.count - 1
      } else if keyed.count > AttributeTable.directlyCompared {
        positions = Dictionary(uniqueKeysWithValues: keyed.enumerated().map { ($1.name, $0) })
      }
    }
  }

  static let directlyCompared = 8

  /// The statement's own table first, then every nested one.
  private var levels = [Level()]

  /// Sets the key `parts` to `value`, or reports the part that was already set.
  mutating func insert(_ parts: ArraySlice<KeyPart>, _ value: DocumentNode) throws(LineError) {
    try insert(parts, value, into: 0)
  }

  private mutating func insert(
    _ parts: ArraySlice<KeyPart>, _ value: DocumentNode, into level: Int
  ) throws(LineError) {
    guard let part = parts.first else { return }
    if let position = levels[level].position(of: part.name) {
      let existing = levels[level].keyed[position].item
      guard parts.count > 1, case .table(let table) = existing.value else {
        throw LineError(
          diagnostic: .error(
            "duplicate attribute '\(part.prefix)'", at: part.prefixSpan,
            notes: [.init("'\(part.prefix)' was first set here", at: existing.firstSpan)]))
      }
      try insert(parts.dropFirst(), value, into: table)
      return
    }
    let item: Value
    if parts.count > 1 {
      levels.append(Level())
      let table = levels.count - 1
      try insert(parts.dropFirst(), value, into: table)
      item = .table(table)
    } else {
      item = .leaf(value)
    }
    levels[level].append(
      part.name, Item(keySpan: part.span, firstSpan: part.prefixSpan, value: item))
  }

  /// Sets a key with no dots, such as a statement's value (`handle`, `name`, `at`).
  mutating func insert(_ key: String, at span: SourceSpan, _ value: DocumentNode)
    throws(LineError)
  {
    try insert([KeyPart(name: key, span: span, prefix: key, prefixSpan: span)][...], value)
  }

  /// The mapping entries, in the order the keys were first written.
  func entries() -> [DocumentNode.Entry] { entries(of: 0) }

  private func entries(of level: Int) -> [DocumentNode.Entry] {
    levels[level].keyed.map { key, item in
      let node: DocumentNode
      switch item.value {
      case .leaf(let leaf): node = leaf
      case .table(let table):
        node = DocumentNode(.mapping(entries(of: table)), at: SourceRef(item.keySpan))
      }
      return DocumentNode.Entry(key: key, keySource: SourceRef(item.keySpan), value: node)
    }
  }
}

/// "Did you mean" suggestions, remembered per word: a file that repeats one misspelling
/// thousands of times should not compute the same edit distances thousands of times.
private final class SuggestionCache {
  private var known: [String: String] = [:]

  func didYouMean(_ word: String, among candidates: [String]) -> String {
    // Keywords are short: a word this long is no typo of one, and its edit distances
    // would cost time in proportion to its length.
    guard word.unicodeScalars.count <= 40 else { return "" }
    let key = candidates.joined(separator: " ") + "\u{0}" + word
    if let suggestion = known[key] { return suggestion }
    let suggestion = Suggestion.didYouMean(word, among: candidates)
    known[key] = suggestion
    return suggestion
  }
}

/// The statement-level parser: walks the lines, tracks blocks and builds the tree.
private struct DSLStatementParser {
  /// The top-level keys whose statements accumulate into one node.
  enum Section: Hashable {
    case inputs, lets, springs, handles, paths, constraints, machines, gesture, expect

    var key: String {
      switch self {
      case .inputs: return "inputs"
      case .machines: return "states"
      case .lets: return "let"
      case .springs: return "springs"
      case .handles: return "handles"
      case .paths: return "paths"
      case .constraints: return "constraints"
      case .gesture: return "gesture"
      case .expect: return "expect"
      }
    }
  }

  /// A top-level entry: each `scene` statement is its own, the rest share a section.
  enum RootSlot {
    case scene(DocumentNode.Entry)
    case section(Section)
  }

  /// What a section has collected, and the span of the statement that started it.
  struct SectionContent {
    var span: SourceSpan
    var entries: [DocumentNode.Entry] = []
    var items: [DocumentNode] = []
  }

  /// The steps of one `gesture` statement.
  struct GestureTrack {
    var key: String
    var keySpan: SourceSpan
    var isBare: Bool
    var span: SourceSpan
    var steps: [DocumentNode]
  }

  /// A statement whose block is being read.
  struct OpenBlock {
    enum Header {
      case path(name: String, nameSpan: SourceSpan, attributes: AttributeTable)
      /// A handle, already added at this index of the handles, whose block (if any) lists
      /// its children: `NAME attributes` a line.
      case handle(entry: Int)
      case gesture(key: String, keySpan: SourceSpan, isBare: Bool)
      case expect
      /// A machine: its block's lines are `state NAME …` and `FROM -> TO …`.
      case machine(name: String, nameSpan: SourceSpan, attributes: AttributeTable)
    }

    var header: Header
    var wordSpan: SourceSpan
    var items: [DocumentNode] = []
    /// The indentation of the block's first line; `nil` until one is read.
    var indent: Int?
    /// Whether an indented line was seen, even one rejected before it set `indent` (tabs),
    /// so that the statement is not also reported as missing its block.
    var hadIndentedLine = false
    var firstLineSpan: SourceSpan?
  }

  /// What indented lines belong to.
  enum BlockState {
    /// No statement yet: an indented line is unexpected.
    case none
    /// A statement that takes no block; the first indented line is an error.
    case rejecting(String)
    /// A bad statement, or a block already reported: indented lines are skipped.
    case skipping
    /// The block of ``DSLStatementParser/openBlock``.
    case open
    /// After a handle, added at this index of the handles: an indented line opens the
    /// block of its children (made only then: most handles have none).
    case handle(entry: Int, wordSpan: SourceSpan)
  }

  let file: SourceFile
  var diagnostics: [Diagnostic] = []
  private var rootOrder: [RootSlot] = []
  private var sections: [Section: SectionContent] = [:]
  private var gestureTracks: [GestureTrack] = []
  private var pointerSpans: [Int: SourceSpan] = [:]
  private var blockState = BlockState.none
  // Kept outside `blockState` so appending to its items mutates in place (no copies).
  private var openBlock: OpenBlock?
  private let suggestions = SuggestionCache()

  init(file: SourceFile) { self.file = file }

  // MARK: - Lines and blocks

  mutating func parseFile(parallel: ParallelWork = .serial) {
    var lines = DSLLexer.lines(of: file.text)
    let segments = DSLLexer.joinContinuations(&lines)
    let prepared = Self.prepare(
      lines, segments: segments, file: file.fileName, parallel: parallel)
    for (index, scalars) in lines.enumerated() {
      let line = Line(
        number: index + 1, scalars: scalars, file: file.fileName, segments: segments[index] ?? [])
      switch Self.layout(of: scalars, lineIndex: index) {
      case .blank:
        continue
      case .tabbed(let firstTab):
        report(
          line.error("tabs are not allowed for indentation; use spaces", firstTab, firstTab + 1))
        openBlock?.hadIndentedLine = true
      case .statement(let content):
        finishBlock()
        if index < prepared.count, let statement = prepared[index] {
          add(statement)
        } else {
          statement(line, at: content)
        }
      case .indented(let content, let indent):
        blockLine(line, at: content, indent: indent)
      }
    }
    finishBlock()
  }

  /// Where a line's content starts and what that makes it.
  enum Layout {
    /// Empty, spaces only, or a comment.
    case blank
    /// Indented with a tab (at the index given), which is an error.
    case tabbed(Int)
    /// A statement, its content starting at the index given.
    case statement(Int)
    /// A line of a block.
    case indented(Int, indent: Int)
  }

  static func layout(of scalars: [Unicode.Scalar], lineIndex index: Int) -> Layout {
    // A byte-order mark is not part of the first statement, but still counts as a column.
    let start = index == 0 && scalars.first == "\u{FEFF}" ? 1 : 0
    var content = start
    var firstTab: Int?
    while content < scalars.count && DSLLexer.isSpace(scalars[content]) {
      if scalars[content] == "\t" && firstTab == nil { firstTab = content }
      content += 1
    }
    if content == scalars.count || scalars[content] == "#" { return .blank }
    if let firstTab { return .tabbed(firstTab) }
    let indent = content - start
    return indent == 0 ? .statement(content) : .indented(content, indent: indent)
  }

  // MARK: - One-line statements, read ahead

  /// A statement of one line that adds to a section and nothing else (`handle`, `spring`,
  /// a constraint), read ahead of the walk over the lines.
  enum PreparedStatement: Sendable {
    case entry(Section, DocumentNode.Entry, keyword: String, wordSpan: SourceSpan)
    case constraint(DocumentNode, keyword: String, wordSpan: SourceSpan)
    case failed(LineError, keyword: String)
  }

  /// The one-line statements of `lines`, by line index, read in pieces `parallel` runs;
  /// empty when it would run them one by one, which gains nothing.
  static func prepare(
    _ lines: [[Unicode.Scalar]], segments: [Int: [DSLLexer.Segment]], file: SourceFileName,
    parallel: ParallelWork
  ) -> [PreparedStatement?] {
    let pieces = parallel.pieces(of: lines.count)
    guard pieces.count > 1 else { return [] }
    let prepared = parallel.map(pieces.count) { piece in
      pieces[piece].map { index -> PreparedStatement? in
        guard case .statement(let content) = layout(of: lines[index], lineIndex: index) else {
          return nil
        }
        let line = Line(
          number: index + 1, scalars: lines[index], file: file, segments: segments[index] ?? [])
        return prepareStatement(line, at: content)
      }
    }
    return prepared.flatMap { $0 }
  }

  /// What ``statement(_:at:)`` would make of `line`, if it is a one-line statement.
  static func prepareStatement(_ line: Line, at content: Int) -> PreparedStatement? {
    let guessEnd = DSLLexer.identifierEnd(line.scalars, from: content)
    let keyword = line.text(content, guessEnd)
    let isConstraint = ConstraintKeyword(keyword: keyword) != nil
    guard keyword == "handle" || keyword == "spring" || isConstraint else { return nil }
    do throws(LineError) {
      let tokens = try Self.lex(line, from: content)
      // Anything but the keyword as the whole first token takes the ordinary path.
      guard let first = tokens.first, first.start == content, first.end == guessEnd else {
        return nil
      }
      return try oneLine(keyword, line, tokens, wordSpan: line.span(first))
    } catch {
      return .failed(error, keyword: keyword)
    }
  }

  /// What the one-line statement `keyword` (`handle`, `spring` or a constraint) adds.
  static func oneLine(
    _ keyword: String, _ line: Line, _ tokens: [DSLToken], wordSpan: SourceSpan
  ) throws(LineError) -> PreparedStatement {
    if let constraint = ConstraintKeyword(keyword: keyword) {
      let attributes = try valuesAndAttributes(line, tokens, keys: constraint.positionalKeys)
      let inner = DocumentNode(.mapping(attributes.entries()), at: SourceRef(wordSpan))
      let item = DocumentNode(
        .mapping([.init(key: keyword, keySource: SourceRef(wordSpan), value: inner)]),
        at: SourceRef(wordSpan))
      return .constraint(item, keyword: keyword, wordSpan: wordSpan)
    }
    let (name, nameSpan, attributes) = try namedStatement(line, tokens)
    let value = DocumentNode(.mapping(attributes.entries()), at: SourceRef(wordSpan))
    let entry = DocumentNode.Entry(key: name, keySource: SourceRef(nameSpan), value: value)
    return .entry(
      keyword == "spring" ? .springs : .handles, entry, keyword: keyword, wordSpan: wordSpan)
  }

  /// Adds a statement read ahead, as ``statement(_:at:)`` would have.
  private mutating func add(_ statement: PreparedStatement) {
    switch statement {
    case .entry(let section, let entry, let keyword, let wordSpan):
      if section == .handles {
        // Added now, as other entries are (copying it into the block and back cost a
        // large DSL file a sixth of its reading); its block of children, if any, is added
        // to it where it lies.
        add(section, at: wordSpan, entry: entry)
        let index = (sections[.handles]?.entries.count ?? 1) - 1
        blockState = .handle(entry: index, wordSpan: wordSpan)
      } else {
        add(section, at: wordSpan, entry: entry)
        blockState = .rejecting(keyword)
      }
    case .constraint(let item, let keyword, let wordSpan):
      add(.constraints, at: wordSpan, item: item)
      blockState = .rejecting(keyword)
    case .failed(let error, let keyword):
      report(error)
      // A known statement that takes no block, as in `statement(_:at:)`; a bad handle's
      // children are skipped with it.
      blockState = keyword == "handle" ? .skipping : .rejecting(keyword)
    }
  }

  private mutating func report(_ error: LineError) { diagnostics.append(error.diagnostic) }

  /// A line indented deeper than the statement before it.
  private mutating func blockLine(_ line: Line, at content: Int, indent: Int) {
    switch blockState {
    case .none:
      report(line.error("unexpected indentation", content, content + 1))
      blockState = .skipping
    case .rejecting(let keyword):
      report(line.error("'\(keyword)' takes no indented block", content, content + 1))
      blockState = .skipping
    case .skipping:
      return
    case .handle(let index, let wordSpan):
      openBlock = OpenBlock(header: .handle(entry: index), wordSpan: wordSpan)
      blockState = .open
      blockLine(line, at: content, indent: indent)
    case .open:
      // Only the indentation is read here: holding a copy of the whole block would make
      // the append below copy its items on every line.
      guard openBlock != nil else { return }
      guard let blockIndent = openBlock?.indent else {
        openBlock?.indent = indent
        let wordEnd = DSLLexer.identifierEnd(line.scalars, from: content)
        openBlock?.firstLineSpan = line.span(content, max(wordEnd, content + 1))
        blockItem(line, at: content)
        return
      }
      guard indent == blockIndent else {
        let notes = openBlock?.firstLineSpan.map {
          [Diagnostic.Note("the block's first line is indented by \(blockIndent) spaces", at: $0)]
        }
        report(line.error("inconsistent indentation", content, content + 1, notes: notes ?? []))
        return
      }
      blockItem(line, at: content)
    }
  }

  /// One line of the open block: a segment, a step or an expectation.
  private mutating func blockItem(_ line: Line, at content: Int) {
    guard let header = openBlock?.header else { return }
    do throws(LineError) {
      let tokens = try Self.lex(line, from: content)
      guard let first = tokens.first else { return }
      let item: DocumentNode
      switch header {
      case .path: item = try segment(line, tokens)
      case .handle: item = try child(line, tokens)
      case .gesture: item = try step(line, tokens)
      case .expect: item = text(line, from: first.start, to: tokens[tokens.count - 1].end)
      case .machine: item = try machineLine(line, tokens)
      }
      openBlock?.items.append(item)
    } catch {
      report(error)
    }
  }

  /// `input NAME VALUE [min=… max=…]`: `NAME: VALUE`, or with a range
  /// `NAME: { value: VALUE, min: …, max: … }`.
  private mutating func inputStatement(
    _ line: Line, _ tokens: [DSLToken], wordSpan: SourceSpan
  ) throws(LineError) {
    guard tokens.count > 2, DSLLexer.attributeEquals(line.scalars, tokens[1]) == nil,
      DSLLexer.attributeEquals(line.scalars, tokens[2]) == nil
    else {
      let at = tokens.count > 1 ? tokens[tokens.count - 1].end : tokens[0].end
      throw line.error(
        "expected a name and a value after 'input' (such as 'input loading false')", at, at + 1)
    }
    let name = try Self.scalar(line, tokens[1])
    guard case .scalar(let nameText) = name.value else { return }
    let value = try Self.scalar(line, tokens[2])
    let node: DocumentNode
    if tokens.count == 3 {
      node = value
    } else {
      var range = AttributeTable()
      try range.insert("value", at: value.source.span, value)
      try Self.addAttributes(line, tokens[3...], to: &range)
      node = DocumentNode(.mapping(range.entries()), at: SourceRef(wordSpan))
    }
    add(
      .inputs, at: wordSpan,
      entry: .init(key: nameText.text, keySource: name.source, value: node))
  }

  /// A line of a `machine` block: `state NAME attributes` as `{ state: { NAME: {…} } }`,
  /// or `FROM -> TO attributes` as `{ from: FROM, to: TO, … }`.
  private func machineLine(_ line: Line, _ tokens: [DSLToken]) throws(LineError) -> DocumentNode {
    let first = tokens[0]
    if line.text(first) == "state" {
      let (name, nameSpan, attributes) = try Self.namedStatement(line, tokens)
      let span = line.span(first)
      let state = DocumentNode.Entry(
        key: name, keySource: SourceRef(nameSpan),
        value: DocumentNode(.mapping(attributes.entries()), at: SourceRef(nameSpan)))
      return DocumentNode(
        .mapping([
          .init(
            key: "state", keySource: SourceRef(span),
            value: DocumentNode(.mapping([state]), at: SourceRef(span)))
        ]),
        at: SourceRef(span))
    }
    guard tokens.count >= 3, line.text(tokens[1]) == "->",
      DSLLexer.attributeEquals(line.scalars, first) == nil,
      DSLLexer.attributeEquals(line.scalars, tokens[2]) == nil
    else {
      throw line.error(
        "expected 'state NAME …' or a transition 'FROM -> TO …' in a machine's block, found \(line.quoted(first))",
        first.start, first.end)
    }
    var attributes = AttributeTable()
    let from = try Self.scalar(line, first)
    let to = try Self.scalar(line, tokens[2])
    try attributes.insert("from", at: from.source.span, from)
    try attributes.insert("to", at: to.source.span, to)
    try Self.addAttributes(line, tokens[3...], to: &attributes)
    return DocumentNode(.mapping(attributes.entries()), at: SourceRef(line.span(first)))
  }

  /// Ends the open block, if any, adding its statement to the tree.
  private mutating func finishBlock() {
    guard let block = openBlock else { return }
    openBlock = nil
    let hasBlock = block.indent != nil
    let hadIndentedLine = hasBlock || block.hadIndentedLine
    switch block.header {
    case .handle(let index):
      guard hasBlock, let entry = sections[.handles]?.entries[index],
        case .mapping(var fields) = entry.value.value
      else { return }
      let span = block.firstLineSpan ?? block.wordSpan
      let children = block.items.compactMap { item -> DocumentNode.Entry? in
        guard case .mapping(let entries) = item.value else { return nil }
        return entries.first
      }
      fields.append(
        .init(
          key: "children", keySource: SourceRef(span),
          value: DocumentNode(.mapping(children), at: SourceRef(span))))
      sections[.handles]?.entries[index].value = DocumentNode(
        .mapping(fields), at: entry.value.source)
    case .path(let name, let nameSpan, var attributes):
      if hasBlock {
        let segments = DocumentNode(
          .sequence(block.items), at: SourceRef(block.firstLineSpan ?? block.wordSpan))
        do throws(LineError) {
          try attributes.insert("segments", at: block.firstLineSpan ?? block.wordSpan, segments)
        } catch {
          report(error)
          return
        }
      }
      let value = DocumentNode(.mapping(attributes.entries()), at: SourceRef(block.wordSpan))
      add(
        .paths, at: block.wordSpan,
        entry: .init(key: name, keySource: SourceRef(nameSpan), value: value))
    case .gesture(let key, let keySpan, let isBare):
      guard hadIndentedLine else {
        report(
          LineError(
            diagnostic: .error(
              "expected an indented block of steps after 'gesture'", at: block.wordSpan)))
        return
      }
      open(.gesture, at: block.wordSpan)
      gestureTracks.append(
        GestureTrack(
          key: key, keySpan: keySpan, isBare: isBare, span: block.wordSpan, steps: block.items))
    case .machine(let name, let nameSpan, var attributes):
      var states: [DocumentNode.Entry] = []
      var transitions: [DocumentNode] = []
      for item in block.items {
        if case .mapping(let entries) = item.value, entries.count == 1, entries[0].key == "state",
          case .mapping(let state) = entries[0].value.value
        {
          states += state
        } else {
          transitions.append(item)
        }
      }
      let span = block.firstLineSpan ?? block.wordSpan
      do throws(LineError) {
        if !states.isEmpty {
          try attributes.insert(
            "states", at: span, DocumentNode(.mapping(states), at: SourceRef(span)))
        }
        if !transitions.isEmpty {
          try attributes.insert(
            "transitions", at: span, DocumentNode(.sequence(transitions), at: SourceRef(span)))
        }
      } catch {
        report(error)
        return
      }
      let value = DocumentNode(.mapping(attributes.entries()), at: SourceRef(block.wordSpan))
      add(
        .machines, at: block.wordSpan,
        entry: .init(key: name, keySource: SourceRef(nameSpan), value: value))
    case .expect:
      guard hadIndentedLine || !block.items.isEmpty else {
        report(
          LineError(
            diagnostic: .error(
              "expected an expectation after 'expect', or an indented block of them",
              at: block.wordSpan)))
        return
      }
      open(.expect, at: block.wordSpan)
      sections[.expect]?.items.append(contentsOf: block.items)
    }
  }

  // MARK: - The tree

  /// Starts `section` at the statement at `span` unless an earlier statement did.
  private mutating func open(_ section: Section, at span: SourceSpan) {
    guard sections[section] == nil else { return }
    sections[section] = SectionContent(span: span)
    rootOrder.append(.section(section))
  }

  private mutating func add(_ section: Section, at span: SourceSpan, entry: DocumentNode.Entry) {
    open(section, at: span)
    sections[section]?.entries.append(entry)
  }

  private mutating func add(_ section: Section, at span: SourceSpan, item: DocumentNode) {
    open(section, at: span)
    sections[section]?.items.append(item)
  }

  /// The root mapping, or `nil` when no statement made it into the tree.
  func makeDocument() -> DocumentNode? {
    var entries: [DocumentNode.Entry] = []
    for slot in rootOrder {
      switch slot {
      case .scene(let entry):
        entries.append(entry)
      case .section(let section):
        guard let content = sections[section] else { continue }
        let source = SourceRef(content.span)
        let value: DocumentNode
        switch section {
        case .inputs, .lets, .springs, .handles, .paths, .machines:
          value = DocumentNode(.mapping(content.entries), at: source)
        case .constraints, .expect:
          value = DocumentNode(.sequence(content.items), at: source)
        case .gesture:
          if gestureTracks.count == 1, let track = gestureTracks.first, track.isBare {
            value = DocumentNode(.sequence(track.steps), at: SourceRef(track.span))
          } else {
            let tracks = gestureTracks.map { track in
              DocumentNode.Entry(
                key: track.key, keySource: SourceRef(track.keySpan),
                value: DocumentNode(.sequence(track.steps), at: SourceRef(track.span)))
            }
            value = DocumentNode(.mapping(tracks), at: source)
          }
        }
        entries.append(DocumentNode.Entry(key: section.key, keySource: source, value: value))
      }
    }
    guard !entries.isEmpty else { return nil }
    let start = SourceSpan(file.location(line: 1, column: 1), length: 1)
    return DocumentNode(.mapping(entries), at: SourceRef(start))
  }

  // MARK: - Statements

  private static func lex(_ line: Line, from start: Int) throws(LineError) -> [DSLToken] {
    do throws(DSLLexError) {
      return try DSLLexer.tokens(
        of: line.scalars, from: start, physicalLines: max(line.segments.count, 1))
    } catch {
      throw line.error(error)
    }
  }

  /// One top-level statement.
  private mutating func statement(_ line: Line, at content: Int) {
    // The keyword as far as it can be read, to decide what to do with a bad line's block.
    let guessEnd = DSLLexer.identifierEnd(line.scalars, from: content)
    let guess = line.text(content, guessEnd)
    do throws(LineError) {
      let tokens = try Self.lex(line, from: content)
      guard let first = tokens.first else { return }
      guard DSLLexer.isIdentifier(line.scalars, first) else {
        throw line.error(
          "expected a statement, found \(line.quoted(first))", first.start, first.end)
      }
      let keyword = line.text(first)
      let wordSpan = line.span(first)
      switch keyword {
      case "scene":
        let attributes = try Self.valuesAndAttributes(line, tokens, keys: ["name"])
        let value = DocumentNode(.mapping(attributes.entries()), at: SourceRef(wordSpan))
        rootOrder.append(.scene(.init(key: "scene", keySource: SourceRef(wordSpan), value: value)))
      case "let":
        try letStatement(line, tokens)
      case "input":
        try inputStatement(line, tokens, wordSpan: wordSpan)
      case "machine":
        let (name, nameSpan, attributes) = try Self.namedStatement(line, tokens)
        openBlock = OpenBlock(
          header: .machine(name: name, nameSpan: nameSpan, attributes: attributes),
          wordSpan: wordSpan)
      case "spring", "handle":
        add(try Self.oneLine(keyword, line, tokens, wordSpan: wordSpan))
      case "path":
        let (name, nameSpan, attributes) = try Self.namedStatement(line, tokens)
        openBlock = OpenBlock(
          header: .path(name: name, nameSpan: nameSpan, attributes: attributes), wordSpan: wordSpan)
      case _ where ConstraintKeyword(keyword: keyword) != nil:
        add(try Self.oneLine(keyword, line, tokens, wordSpan: wordSpan))
      case "gesture":
        let (key, keySpan) = try gestureHeader(line, tokens)
        openBlock = OpenBlock(
          header: .gesture(key: key, keySpan: keySpan, isBare: tokens.count == 1),
          wordSpan: wordSpan)
      case "expect":
        var block = OpenBlock(header: .expect, wordSpan: wordSpan)
        if tokens.count > 1 {
          block.items.append(text(line, from: tokens[1].start, to: tokens[tokens.count - 1].end))
        }
        openBlock = block
      default:
        let suggestion = suggestions.didYouMean(keyword, among: DSLParser.statementKeywords)
        throw line.error(
          "unknown statement \(line.quoted(first))\(suggestion)", first.start, first.end)
      }
      // A handle's state (its block of children, if one comes) was set as it was added.
      if keyword != "handle" { blockState = openBlock == nil ? .rejecting(keyword) : .open }
    } catch {
      report(error)
      let known =
        DSLParser.statementKeywords.contains(guess) && !DSLParser.blockKeywords.contains(guess)
      blockState = known ? .rejecting(guess) : .skipping
    }
  }

  /// `let NAME = TEXT`: read by characters, since the expression is raw text.
  private mutating func letStatement(_ line: Line, _ tokens: [DSLToken]) throws(LineError) {
    let scalars = line.scalars
    let contentEnd = tokens[tokens.count - 1].end
    var index = tokens[0].end
    while index < contentEnd && DSLLexer.isSpace(scalars[index]) { index += 1 }
    let nameStart = index
    index = DSLLexer.identifierEnd(scalars, from: index, limit: contentEnd)
    guard index > nameStart else {
      throw line.error("expected a name after 'let'", nameStart, nameStart + 1)
    }
    let nameEnd = index
    while index < contentEnd && DSLLexer.isSpace(scalars[index]) { index += 1 }
    guard index < contentEnd && scalars[index] == "=" else {
      throw line.error(
        "expected '=' after 'let \(line.clipped(nameStart, nameEnd))'", index, index + 1)
    }
    let equals = index
    index += 1
    while index < contentEnd && DSLLexer.isSpace(scalars[index]) { index += 1 }
    guard index < contentEnd else {
      throw line.error("expected an expression after '='", equals, equals + 1)
    }
    let entry = DocumentNode.Entry(
      key: line.text(nameStart, nameEnd), keySource: SourceRef(line.span(nameStart, nameEnd)),
      value: text(line, from: index, to: contentEnd))
    add(.lets, at: line.span(tokens[0]), entry: entry)
  }

  /// A child of a handle, a line of its block: `NAME attributes`, as `{ NAME: { … } }`.
  private func child(_ line: Line, _ tokens: [DSLToken]) throws(LineError) -> DocumentNode {
    let first = tokens[0]
    guard DSLLexer.attributeEquals(line.scalars, first) == nil,
      DSLLexer.isIdentifier(line.scalars, first)
    else {
      throw line.error(
        "expected a child's name, found \(line.quoted(first)); a handle's indented lines are its children, each NAME key=value …",
        first.start, first.end)
    }
    var attributes = AttributeTable()
    try Self.addAttributes(line, tokens[1...], to: &attributes)
    let span = line.span(first)
    let value = DocumentNode(.mapping(attributes.entries()), at: SourceRef(span))
    return DocumentNode(
      .mapping([.init(key: line.text(first), keySource: SourceRef(span), value: value)]),
      at: SourceRef(span))
  }

  /// `KEYWORD NAME attributes`, for statements whose name is a key of their section.
  private static func namedStatement(
    _ line: Line, _ tokens: [DSLToken]
  ) throws(LineError) -> (String, SourceSpan, AttributeTable) {
    let keyword = line.text(tokens[0])
    guard tokens.count > 1, DSLLexer.attributeEquals(line.scalars, tokens[1]) == nil else {
      let at = tokens.count > 1 ? tokens[1].start : tokens[0].end
      throw line.error("expected a name after '\(keyword)'", at, at + 1)
    }
    let name = try Self.scalar(line, tokens[1])
    guard case .scalar(let text) = name.value else {
      throw line.error("expected a name after '\(keyword)'", tokens[1].start, tokens[1].end)
    }
    var attributes = AttributeTable()
    try Self.addAttributes(line, tokens[2...], to: &attributes)
    return (text.text, name.source.span, attributes)
  }

  /// `KEYWORD [values] attributes`: up to `keys.count` leading values named by `keys`.
  private static func valuesAndAttributes(
    _ line: Line, _ tokens: [DSLToken], keys: [String]
  ) throws(LineError) -> AttributeTable {
    var attributes = AttributeTable()
    var index = 1
    while index < tokens.count && index - 1 < keys.count
      && DSLLexer.attributeEquals(line.scalars, tokens[index]) == nil
    {
      let value = try Self.scalar(line, tokens[index])
      try attributes.insert(keys[index - 1], at: value.source.span, value)
      index += 1
    }
    try Self.addAttributes(line, tokens[index...], to: &attributes)
    return attributes
  }

  /// `gesture [POINTER]`: the pointer's key and its span.
  private mutating func gestureHeader(_ line: Line, _ tokens: [DSLToken]) throws(LineError) -> (
    String, SourceSpan
  ) {
    if tokens.count > 2 {
      throw line.error(
        "unexpected \(line.quoted(tokens[2])); 'gesture' takes only a pointer number",
        tokens[2].start,
        tokens[2].end)
    }
    var key = "0"
    var span = line.span(tokens[0])
    var pointer = 0
    if tokens.count == 2 {
      let token = tokens[1]
      let digits = line.scalars[token.start..<token.end]
      guard digits.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(line.text(token))
      else {
        throw line.error(
          "expected a pointer number after 'gesture', found \(line.quoted(token))", token.start,
          token.end)
      }
      key = line.text(token)
      span = line.span(token)
      pointer = number
    }
    if let first = pointerSpans[pointer] {
      throw LineError(
        diagnostic: .error(
          "duplicate gesture for pointer \(pointer)", at: span,
          notes: [.init("the first gesture for pointer \(pointer) is here", at: first)]))
    }
    pointerSpans[pointer] = span
    return (key, span)
  }

  // MARK: - Block lines

  /// A segment line of a `path` block.
  private func segment(_ line: Line, _ tokens: [DSLToken]) throws(LineError) -> DocumentNode {
    let first = tokens[0]
    let keywords = DSLParser.segmentArity.map { $0.keyword }
    guard DSLLexer.isIdentifier(line.scalars, first) else {
      throw line.error(
        "expected a segment (\(list(keywords))), found \(line.quoted(first))", first.start,
        first.end)
    }
    let keyword = line.text(first)
    guard let arity = DSLParser.segmentArity.first(where: { $0.keyword == keyword })?.points else {
      let suggestion = suggestions.didYouMean(keyword, among: keywords)
      throw line.error("unknown segment \(line.quoted(first))\(suggestion)", first.start, first.end)
    }
    let found = tokens.count - 1
    guard found == arity else {
      let takes = arity == 0 ? "no points" : arity == 1 ? "1 point" : "\(arity) points"
      throw line.error("'\(keyword)' takes \(takes), found \(found)", first.start, first.end)
    }
    let source = SourceRef(line.span(first))
    var points: [DocumentNode] = []
    for token in tokens.dropFirst() { points.append(try Self.scalar(line, token)) }
    switch arity {
    case 0:
      return DocumentNode(.scalar(.init(keyword)), at: source)
    case 1:
      return DocumentNode(
        .mapping([.init(key: keyword, keySource: source, value: points[0])]), at: source)
    default:
      let sequence = DocumentNode(.sequence(points), at: source)
      return DocumentNode(
        .mapping([.init(key: keyword, keySource: source, value: sequence)]), at: source)
    }
  }

  /// A step line of a `gesture` block.
  private func step(_ line: Line, _ tokens: [DSLToken]) throws(LineError) -> DocumentNode {
    let first = tokens[0]
    guard DSLLexer.isIdentifier(line.scalars, first) else {
      throw line.error(
        "expected a gesture step, found \(line.quoted(first))", first.start, first.end)
    }
    let keyword = line.text(first)
    guard GestureStepKeyword(keyword: keyword) != nil else {
      let suggestion = suggestions.didYouMean(keyword, among: DSLParser.stepKeywords)
      throw line.error(
        "unknown gesture step \(line.quoted(first))\(suggestion)", first.start, first.end)
    }
    let source = SourceRef(line.span(first))
    let hasValue = tokens.count > 1 && DSLLexer.attributeEquals(line.scalars, tokens[1]) == nil
    if tokens.count == 1 {
      return DocumentNode(.scalar(.init(keyword)), at: source)
    }
    let value: DocumentNode
    if hasValue && tokens.count == 2 {
      value = try Self.scalar(line, tokens[1])
    } else {
      let attributes = try Self.valuesAndAttributes(line, tokens, keys: ["at"])
      value = DocumentNode(.mapping(attributes.entries()), at: source)
    }
    return DocumentNode(
      .mapping([.init(key: keyword, keySource: source, value: value)]), at: source)
  }

  private func list(_ words: [String]) -> String {
    let quoted = words.map { "'\($0)'" }
    return quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
  }

  // MARK: - Values

  /// The rest of a line as one verbatim plain scalar: `let` expressions and expectations.
  private func text(_ line: Line, from start: Int, to end: Int) -> DocumentNode {
    DocumentNode(
      .scalar(.init(line.text(start, end), isVerbatim: !line.crossesBreak(start, end))),
      at: SourceRef(line.span(start, end)))
  }

  /// An atom as a scalar: a plain run of text, or a double-quoted string.
  private static func scalar(_ line: Line, _ token: DSLToken) throws(LineError) -> DocumentNode {
    guard line.scalars[token.start] == "\"" else {
      return DocumentNode(
        .scalar(.init(line.text(token), isVerbatim: !line.crossesBreak(token.start, token.end))),
        at: SourceRef(line.span(token)))
    }
    do throws(DSLLexError) {
      let closing = try DSLLexer.closingQuote(line.scalars, openingAt: token.start)
      guard closing + 1 == token.end else {
        throw DSLLexError(
          message: "expected a space after the closing '\"'", start: closing + 1, length: 1)
      }
      let (text, hadEscapes) = try DSLLexer.decodeString(
        line.scalars, opening: token.start, closing: closing)
      // Without escapes the text stands in the source as it is, starting inside the quotes.
      let span = hadEscapes ? line.span(token) : line.span(token.start + 1, closing)
      return DocumentNode(
        .scalar(
          .init(
            text, isQuoted: true,
            isVerbatim: !hadEscapes && !line.crossesBreak(token.start, token.end))),
        at: SourceRef(span))
    } catch {
      throw line.error(error)
    }
  }

  /// Adds `key=value` and bare `key` (flag) attributes.
  private static func addAttributes(
    _ line: Line, _ tokens: ArraySlice<DSLToken>, to attributes: inout AttributeTable
  ) throws(LineError) {
    for token in tokens {
      if let equals = DSLLexer.attributeEquals(line.scalars, token) {
        let parts = try Self.keyParts(line, token.start, equals)
        guard equals + 1 < token.end else {
          throw line.error(
            "expected a value after '\(line.clipped(token.start, equals))='", token.start, token.end
          )
        }
        let value = try Self.scalar(line, DSLToken(start: equals + 1, end: token.end))
        try attributes.insert(parts[...], value)
      } else if DSLLexer.isIdentifier(line.scalars, token) {
        let parts = try Self.keyParts(line, token.start, token.end)
        let span = parts.last?.span ?? line.span(token)
        try attributes.insert(parts[...], DocumentNode(.scalar(.init("true")), at: SourceRef(span)))
      } else {
        throw line.error(
          "expected an attribute (key=value or a flag), found \(line.quoted(token))", token.start,
          token.end)
      }
    }
  }

  /// The dot-separated parts of the key `start..<end`.
  private static func keyParts(_ line: Line, _ start: Int, _ end: Int) throws(LineError)
    -> [AttributeTable
    .KeyPart]
  {
    var parts: [AttributeTable.KeyPart] = []
    var partStart = start
    for index in start...end where index == end || line.scalars[index] == "." {
      guard index > partStart else {
        throw line.error("malformed attribute key '\(line.clipped(start, end))'", start, end)
      }
      guard parts.count < DSLParser.maximumKeyParts else {
        throw line.error(
          "attribute key has more than \(DSLParser.maximumKeyParts) parts", start, end)
      }
      let name = line.text(partStart, index)
      // The first part is its own prefix (the commonest case: keys without dots).
      let prefix =
        partStart == start && index - start <= Line.clipLimit ? name : line.clipped(start, index)
      parts.append(
        .init(
          name: name, span: line.span(partStart, index), prefix: prefix,
          prefixSpan: line.span(start, index)))
      partStart = index + 1
    }
    return parts
  }
}
