import SceneDiagnostics
import SceneGeometry

/// A recorded pointer trace that a gesture's `replay` step plays back.
///
/// A trace is a list of samples in time order: when, where, and whether the finger went
/// down, moved or lifted. It is read from CSV (`t,x,y,phase[,id]`, the header optional) or
/// from JSON lines (`{"t":0,"x":1,"y":2,"phase":"down","id":0}`, keys in any order); the
/// first non-blank character `{` selects JSON lines. Phases are `down`, `move` and `up`, or
/// UIKit's `began`, `moved` and `ended`, in any case.
///
/// ``parse(_:name:)`` validates what playback relies on, each problem reported at its
/// line and column: times never decrease and strictly increase for each pointer; a pointer
/// moves and lifts only while down and goes down only while up; every number is finite.
/// A sample's `id` tells fingers apart; the player plays id `k` as pointer `p + k`, where
/// `p` is the replaying track's pointer, and a sample without one as id 0.
public struct TraceFile: Hashable, Sendable {
  /// One recorded moment of one finger.
  public struct Sample: Hashable, Sendable {
    /// What the finger did.
    public enum Phase: String, Hashable, Sendable, CaseIterable {
      case down, move, up
    }

    /// Seconds, on the recording's own clock; playback shifts the first sample to the step.
    public var time: Double
    public var position: Vector
    public var phase: Phase
    /// The finger's id in the trace, or `nil` for a one-finger trace (the same as 0).
    public var pointer: Int?

    public init(time: Double, position: Vector, phase: Phase, pointer: Int? = nil) {
      self.time = time
      self.position = position
      self.phase = phase
      self.pointer = pointer
    }
  }

  public var samples: [Sample]

  public init(samples: [Sample]) {
    self.samples = samples
  }

  /// The most samples a trace file may hold.
  public static let maximumSamples = 1_000_000

  /// The trace as CSV, `t,x,y,phase,id` with a header, numbers in their shortest exact
  /// form: ``parse(_:name:)`` reads it back to the same samples.
  public var csvText: String {
    var text = "t,x,y,phase,id\n"
    for sample in samples {
      text += sample.time.shortestDescription + "," + sample.position.x.shortestDescription + ","
      text += sample.position.y.shortestDescription + "," + sample.phase.rawValue + ","
      text += String(sample.pointer ?? 0) + "\n"
    }
    return text
  }

  /// The trace as JSON lines, one sample per line, read back exactly like ``csvText``.
  public var jsonLinesText: String {
    var text = ""
    for sample in samples {
      text += "{\"t\":" + sample.time.shortestDescription + ",\"x\":"
      text += sample.position.x.shortestDescription + ",\"y\":"
      text += sample.position.y.shortestDescription + ",\"phase\":\"" + sample.phase.rawValue
      text += "\",\"id\":" + String(sample.pointer ?? 0) + "}\n"
    }
    return text
  }

  /// The time from the first sample to the last; 0 for fewer than two samples.
  public var duration: Double {
    guard let first = samples.first?.time, let last = samples.last?.time else { return 0 }
    let d = last - first
    return d.isFinite && d > 0 ? d : 0
  }

  /// Reads a trace from the text of a CSV or JSON-lines file; `name` is the file's name as
  /// diagnostics should print it.
  public static func parse(_ text: String, name: String) throws(TraceError) -> TraceFile {
    try parse(text, name: name, maximumSamples: maximumSamples)
  }

  /// ``parse(_:name:)`` with another sample limit, so tests can reach it cheaply.
  static func parse(_ text: String, name: String, maximumSamples: Int) throws(TraceError)
    -> TraceFile
  {
    var parser = TraceParser(text: text, name: name, maximumSamples: maximumSamples)
    return try parser.parse()
  }

  /// The phase names a trace may use, canonical first.
  static let phaseNames: [(String, Sample.Phase)] = [
    ("down", .down), ("move", .move), ("up", .up), ("began", .down), ("moved", .move),
    ("ended", .up),
  ]
}

/// A problem in a trace file, at its line and column in that file.
public struct TraceError: DiagnosticConvertible, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public var span: SourceSpan
  public var notes: [Diagnostic.Note]

  public init(_ message: String, at span: SourceSpan, notes: [Diagnostic.Note] = []) {
    self.message = message
    self.span = span
    self.notes = notes
  }

  public var diagnostic: Diagnostic { .error(message, at: span, notes: notes) }

  /// `file:line:column: message`.
  public var description: String { "\(span): \(message)" }
}

// MARK: - Parser

/// The reader behind ``TraceFile/parse(_:name:)``: one pass over the UTF-8 bytes, line by
/// line, keeping only what validation needs (the previous sample, each pointer's state).
private struct TraceParser {
  /// A run of bytes on one line, turned into a ``SourceSpan`` only when reported.
  struct Place {
    var line: Int
    var lineStart: Int
    var start: Int
    var end: Int
  }

  struct PointerState {
    var isDown: Bool
    var time: Double
    var place: Place
  }

  enum Format { case csv, json }

  let bytes: [UInt8]
  let name: String
  let maximumSamples: Int
  var samples: [TraceFile.Sample] = []
  var previous: (time: Double, place: Place)?
  var pointers: [Int: PointerState] = [:]
  var format: Format?
  /// The CSV header's column count (4 or 5), when it has one.
  var headerColumns: Int?
  var sawHeader = false
  var fieldBuffer: [Place] = []

  static let columnNames = ["t", "x", "y", "phase", "id"]

  init(text: String, name: String, maximumSamples: Int) {
    self.bytes = Array(text.utf8)
    self.name = name
    self.maximumSamples = maximumSamples
  }

  mutating func parse() throws(TraceError) -> TraceFile {
    var offset = 0
    var line = 1
    while true {
      var end = offset
      while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
      try parseLine(line, start: offset, end: end)
      guard end < bytes.count else { break }
      offset = end + (bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? 2 : 1)
      line += 1
    }
    if samples.isEmpty {
      let place = Place(line: 1, lineStart: 0, start: 0, end: 0)
      throw error(
        sawHeader ? "the trace has no samples after its header" : "the trace file is empty", place)
    }
    return TraceFile(samples: samples)
  }

  mutating func parseLine(_ line: Int, start lineStart: Int, end lineEnd: Int) throws(TraceError) {
    var start = lineStart
    var end = lineEnd
    // A byte-order mark counts as leading blank space.
    if start == 0 && end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
      start = 3
    }
    while start < end && Self.isBlank(bytes[start]) { start += 1 }
    while end > start && Self.isBlank(bytes[end - 1]) { end -= 1 }
    guard start < end else { return }
    let row = Place(line: line, lineStart: lineStart, start: start, end: end)
    if format == nil { format = bytes[start] == UInt8(ascii: "{") ? .json : .csv }
    switch format {
    case .json: try parseJSONLine(row)
    default: try parseCSVLine(row, lineEnd: lineEnd)
    }
  }

  // MARK: CSV

  mutating func parseCSVLine(_ row: Place, lineEnd: Int) throws(TraceError) {
    // One buffer for every line's fields: a million-line trace allocates once.
    var fields = fieldBuffer
    fields.removeAll(keepingCapacity: true)
    defer { fieldBuffer = fields }
    var fieldStart = row.start
    var i = row.start
    while true {
      if i == row.end || bytes[i] == UInt8(ascii: ",") {
        var a = fieldStart
        var b = i
        while a < b && Self.isBlank(bytes[a]) { a += 1 }
        while b > a && Self.isBlank(bytes[b - 1]) { b -= 1 }
        // One pair of double quotes, as spreadsheets write text, is dropped.
        if b - a >= 2 && bytes[a] == UInt8(ascii: "\"") && bytes[b - 1] == UInt8(ascii: "\"") {
          a += 1
          b -= 1
        }
        fields.append(Place(line: row.line, lineStart: row.lineStart, start: a, end: b))
        if i == row.end { break }
        fieldStart = i + 1
      }
      i += 1
    }

    if samples.isEmpty && !sawHeader && Double(source(fields[0])) == nil {
      try parseHeader(fields, row)
      return
    }

    let layout: String
    switch headerColumns {
    case 4?: layout = "t,x,y,phase"
    case 5?: layout = "t,x,y,phase,id"
    default: layout = "t,x,y,phase[,id]"
    }
    let allowed = headerColumns ?? 5
    if fields.count > allowed {
      throw error(
        "unexpected field '\(text(fields[allowed]))'; a sample is \(layout)", fields[allowed])
    }
    let required = headerColumns ?? 4
    if fields.count < required {
      let place = Place(line: row.line, lineStart: row.lineStart, start: row.end, end: row.end)
      throw error("missing field '\(Self.columnNames[fields.count])'; a sample is \(layout)", place)
    }
    for index in 0..<4 where fields[index].start == fields[index].end {
      let what = index == 3 ? "a phase" : "a number"
      throw error("empty field '\(Self.columnNames[index])'; expected \(what)", fields[index])
    }

    let t = try number(fields[0], "t")
    let x = try number(fields[1], "x")
    let y = try number(fields[2], "y")
    let phase = try phase(fields[3])
    // An empty id, as CSV writers put for a missing value, is no id.
    let pointer = fields.count == 5 && fields[4].start < fields[4].end ? try id(fields[4]) : nil
    try add(
      TraceFile.Sample(time: t, position: Vector(x, y), phase: phase, pointer: pointer),
      time: fields[0], phase: fields[3], row: row)
  }

  mutating func parseHeader(_ fields: [Place], _ row: Place) throws(TraceError) {
    let layout = "t,x,y,phase[,id]"
    for (index, field) in fields.enumerated() {
      guard index < Self.columnNames.count else {
        throw error("unexpected column '\(text(field))' in the header; expected \(layout)", field)
      }
      let expected = Self.columnNames[index]
      guard source(field).lowercased() == expected else {
        if index == 0 {
          throw error("expected a time or the header '\(layout)', found '\(text(field))'", field)
        }
        throw error("expected column '\(expected)' in the header, found '\(text(field))'", field)
      }
    }
    if fields.count < 4 {
      let place = Place(line: row.line, lineStart: row.lineStart, start: row.end, end: row.end)
      throw error(
        "missing column '\(Self.columnNames[fields.count])' in the header; expected \(layout)",
        place)
    }
    sawHeader = true
    headerColumns = fields.count
  }

  // MARK: JSON lines

  /// A JSON value as written: a string (decoded) or a bare token (a number, `null`, …).
  enum Value {
    case string(String)
    case token(String)
  }

  mutating func parseJSONLine(_ row: Place) throws(TraceError) {
    var i = row.start
    let e = row.end
    func skipBlanks() { while i < e && Self.isBlank(bytes[i]) { i += 1 } }

    guard bytes[i] == UInt8(ascii: "{") else {
      let (found, place) = self.found(i, row)
      throw error(
        "expected a JSON object such as {\"t\":0,\"x\":1,\"y\":2,\"phase\":\"down\"}, found \(found)",
        place)
    }
    let objectStart = i
    i += 1
    var values: [String: (value: Value, place: Place)] = [:]
    skipBlanks()
    if i < e && bytes[i] == UInt8(ascii: "}") {
      i += 1
    } else {
      while true {
        skipBlanks()
        guard i < e && bytes[i] == UInt8(ascii: "\"") else {
          let (found, place) = self.found(i, row)
          throw error("expected a key in double quotes, found \(found)", place)
        }
        let keyStart = i
        let key = try string(&i, row)
        let keyPlace = Place(line: row.line, lineStart: row.lineStart, start: keyStart, end: i)
        guard Self.columnNames.contains(key) else {
          let suggestion = Suggestion.didYouMean(key, among: Self.columnNames)
          throw error(
            "unknown key '\(Self.shortened(key))'"
              + (suggestion.isEmpty
                ? "; a sample has t, x, y, phase and optionally id" : suggestion),
            keyPlace)
        }
        guard values[key] == nil else { throw error("duplicate key '\(key)'", keyPlace) }
        skipBlanks()
        guard i < e && bytes[i] == UInt8(ascii: ":") else {
          let (found, place) = self.found(i, row)
          throw error("expected ':' after the key '\(key)', found \(found)", place)
        }
        i += 1
        skipBlanks()
        let valueStart = i
        let value: Value
        if i < e && bytes[i] == UInt8(ascii: "\"") {
          value = .string(try string(&i, row))
        } else {
          while i < e && !Self.isBlank(bytes[i]) && !Self.isDelimiter(bytes[i]) { i += 1 }
          guard i > valueStart else {
            let (found, place) = self.found(i, row)
            throw error("expected a value for '\(key)', found \(found)", place)
          }
          value = .token(
            source(Place(line: row.line, lineStart: row.lineStart, start: valueStart, end: i)))
        }
        values[key] = (
          value, Place(line: row.line, lineStart: row.lineStart, start: valueStart, end: i)
        )
        skipBlanks()
        if i < e && bytes[i] == UInt8(ascii: ",") {
          i += 1
          continue
        }
        if i < e && bytes[i] == UInt8(ascii: "}") {
          i += 1
          break
        }
        let (found, place) = self.found(i, row)
        throw error("expected ',' or '}' after the value of '\(key)', found \(found)", place)
      }
    }
    let object = Place(line: row.line, lineStart: row.lineStart, start: objectStart, end: i)
    skipBlanks()
    if i < e {
      let rest = Place(line: row.line, lineStart: row.lineStart, start: i, end: e)
      throw error("unexpected text after the JSON object: '\(text(rest))'", rest)
    }

    func required(_ key: String) throws(TraceError) -> (value: Value, place: Place) {
      guard let entry = values[key] else { throw error("missing key '\(key)'", object) }
      return entry
    }
    func number(_ key: String) throws(TraceError) -> Double {
      let entry = try required(key)
      guard case .token = entry.value else {
        throw error("'\(key)' must be a number, found '\(text(entry.place))'", entry.place)
      }
      return try self.number(entry.place, key)
    }
    let t = try number("t")
    let x = try number("x")
    let y = try number("y")
    let phaseEntry = try required("phase")
    guard case .string(let name) = phaseEntry.value else {
      throw error(
        "'phase' must be a string such as \"down\", found '\(text(phaseEntry.place))'",
        phaseEntry.place)
    }
    let phase = try phase(named: name, phaseEntry.place)
    var pointer: Int?
    if let entry = values["id"] {
      switch entry.value {
      case .token("null"): pointer = nil
      case .token: pointer = try id(entry.place)
      case .string:
        throw error(
          "'id' must be a whole number from 0 to \(Int32.max), found '\(text(entry.place))'",
          entry.place)
      }
    }
    let timePlace = values["t"]?.place ?? object
    try add(
      TraceFile.Sample(time: t, position: Vector(x, y), phase: phase, pointer: pointer),
      time: timePlace, phase: phaseEntry.place, row: row)
  }

  /// The JSON string starting at the quote at `i`, decoded; `i` ends past the closing quote.
  func string(_ i: inout Int, _ row: Place) throws(TraceError) -> String {
    let open = i
    var utf8: [UInt8] = []
    i += 1
    while i < row.end {
      let byte = bytes[i]
      if byte == UInt8(ascii: "\"") {
        i += 1
        return String(decoding: utf8, as: UTF8.self)
      }
      guard byte == UInt8(ascii: "\\") else {
        utf8.append(byte)
        i += 1
        continue
      }
      let escapeStart = i
      i += 1
      guard i < row.end else { break }
      let scalar: Unicode.Scalar
      switch bytes[i] {
      case UInt8(ascii: "\""): scalar = "\""
      case UInt8(ascii: "\\"): scalar = "\\"
      case UInt8(ascii: "/"): scalar = "/"
      case UInt8(ascii: "b"): scalar = "\u{8}"
      case UInt8(ascii: "f"): scalar = "\u{C}"
      case UInt8(ascii: "n"): scalar = "\n"
      case UInt8(ascii: "r"): scalar = "\r"
      case UInt8(ascii: "t"): scalar = "\t"
      case UInt8(ascii: "u"):
        guard var code = hex4(i + 1, row) else {
          let place = Place(
            line: row.line, lineStart: row.lineStart, start: escapeStart, end: min(i + 5, row.end))
          throw error(
            "invalid escape '\(text(place))' in a string; \\u takes four hex digits", place)
        }
        i += 4
        // A high surrogate followed by \u and a low one is one scalar; a lone half is U+FFFD.
        if (0xD800..<0xDC00).contains(code), i + 2 < row.end, bytes[i + 1] == UInt8(ascii: "\\"),
          bytes[i + 2] == UInt8(ascii: "u"), let low = hex4(i + 3, row),
          (0xDC00..<0xE000).contains(low)
        {
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          i += 6
        }
        scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
      default:
        let place = Place(line: row.line, lineStart: row.lineStart, start: escapeStart, end: i + 1)
        throw error("invalid escape '\(text(place))' in a string", place)
      }
      utf8.append(contentsOf: String(Character(scalar)).utf8)
      i += 1
    }
    let place = Place(line: row.line, lineStart: row.lineStart, start: open, end: row.end)
    throw error("unterminated string", place)
  }

  func hex4(_ start: Int, _ row: Place) -> UInt32? {
    guard start + 4 <= row.end else { return nil }
    var value: UInt32 = 0
    for byte in bytes[start..<start + 4] {
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
      value = value << 4 | digit
    }
    return value
  }

  /// What is at `i` for an error message: the token there, or the end of the line.
  func found(_ i: Int, _ row: Place) -> (String, Place) {
    guard i < row.end else {
      return (
        "the end of the line",
        Place(line: row.line, lineStart: row.lineStart, start: row.end, end: row.end)
      )
    }
    var end = i + 1
    if !Self.isDelimiter(bytes[i]) && bytes[i] != UInt8(ascii: "\"") {
      while end < row.end && !Self.isBlank(bytes[end]) && !Self.isDelimiter(bytes[end]) { end += 1 }
    } else {
      // Keep a multi-byte scalar whole.
      while end < row.end && bytes[end] & 0xC0 == 0x80 { end += 1 }
    }
    let place = Place(line: row.line, lineStart: row.lineStart, start: i, end: end)
    return ("'\(text(place))'", place)
  }

  // MARK: Fields

  func number(_ field: Place, _ name: String) throws(TraceError) -> Double {
    let written = source(field)
    // `Double` would stop at a NUL byte and read "1\0 2" as 1: control characters are
    // never part of a number.
    let isNumeric = bytes[field.start..<field.end].allSatisfy { $0 >= 0x20 && $0 != 0x7F }
    guard isNumeric, let value = Double(written) else {
      throw error("'\(name)' must be a number, found '\(text(field))'", field)
    }
    guard value.isFinite else {
      throw error("'\(name)' must be finite, found '\(text(field))'", field)
    }
    return value
  }

  func phase(_ field: Place) throws(TraceError) -> TraceFile.Sample.Phase {
    try phase(named: source(field), field)
  }

  func phase(named name: String, _ place: Place) throws(TraceError) -> TraceFile.Sample.Phase {
    let lowered = name.lowercased()
    if let match = TraceFile.phaseNames.first(where: { $0.0 == lowered }) { return match.1 }
    let suggestion = Suggestion.didYouMean(lowered, among: TraceFile.phaseNames.map { $0.0 })
    throw error(
      "unknown phase '\(Self.shortened(name))'"
        + (suggestion.isEmpty ? "; expected down, move or up" : suggestion), place)
  }

  func id(_ field: Place) throws(TraceError) -> Int {
    guard bytes[field.start..<field.end].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let value = Double(source(field)), value.rounded() == value, value >= 0,
      value <= Double(Int32.max)
    else {
      throw error(
        "'id' must be a whole number from 0 to \(Int32.max), found '\(text(field))'", field)
    }
    return Int(value)
  }

  // MARK: Validation

  /// Appends a sample after checking its time and phase against what came before.
  mutating func add(_ sample: TraceFile.Sample, time: Place, phase: Place, row: Place)
    throws(TraceError)
  {
    guard samples.count < maximumSamples else {
      throw error("the trace has more than \(maximumSamples) samples", row)
    }
    let key = sample.pointer ?? 0
    let whose = sample.pointer.map { " of pointer \($0)" } ?? ""
    let state = pointers[key]
    if let previous, sample.time < previous.time {
      throw error(
        "time '\(text(time))' is before the previous sample's time '\(text(previous.place))'", time,
        notes: [Diagnostic.Note("the previous sample is here", at: span(previous.place))])
    }
    if let state, sample.time <= state.time {
      throw error(
        "time '\(text(time))' is not after the previous sample\(whose) at '\(text(state.place))'",
        time,
        notes: [Diagnostic.Note("the previous sample\(whose) is here", at: span(state.place))])
    }
    switch sample.phase {
    case .down:
      if state?.isDown == true {
        throw error("'down'\(whose) while already down; an 'up' must come first", phase)
      }
    case .move, .up:
      let word = sample.phase.rawValue
      guard let state else { throw error("'\(word)'\(whose) before the first 'down'", phase) }
      if !state.isDown { throw error("'\(word)'\(whose) after 'up' without a new 'down'", phase) }
    }
    pointers[key] = PointerState(isDown: sample.phase != .up, time: sample.time, place: time)
    previous = (sample.time, time)
    samples.append(sample)
  }

  // MARK: Text and places

  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  static func isDelimiter(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ":")
      || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
  }

  /// The text of a place.
  func source(_ place: Place) -> String {
    String(decoding: bytes[place.start..<place.end], as: UTF8.self)
  }

  /// The text of a place, cut to 40 scalars for messages.
  func text(_ place: Place) -> String { Self.shortened(source(place)) }

  /// `text` cut to 40 scalars and an ellipsis, so a message stays one readable line.
  ///
  /// Control characters show as U+FFFD, so a message never carries a raw NUL or escape.
  static func shortened(_ text: String) -> String {
    let visible = text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\u{FFFD}" : $0 }
    guard visible.count > 40 else { return String(String.UnicodeScalarView(visible)) }
    return String(String.UnicodeScalarView(visible.prefix(40))) + "…"
  }

  func span(_ place: Place) -> SourceSpan {
    func scalars(_ a: Int, _ b: Int) -> Int {
      var count = 0
      for byte in bytes[a..<b] where byte & 0xC0 != 0x80 { count += 1 }
      return count
    }
    let column = 1 + scalars(place.lineStart, place.start)
    return SourceSpan(
      SourceLocation(file: name, line: place.line, column: column),
      length: max(1, scalars(place.start, place.end)))
  }

  func error(_ message: String, _ place: Place, notes: [Diagnostic.Note] = []) -> TraceError {
    TraceError(message, at: span(place), notes: notes)
  }
}
