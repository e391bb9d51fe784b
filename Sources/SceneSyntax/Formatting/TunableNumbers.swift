import SceneDiagnostics

/// A number written in a scene file that the preview offers to tune with a slider: a
/// spring's parameter, a numeric `let`, a constraint's numeric setting.
///
/// It knows where its text is, so a tuned value is written back as a minimal edit of that
/// text alone (``TunableNumbers/edit(_:setting:to:)``): comments, order, formatting and
/// the syntax stay as the user wrote them.
public struct TunableNumber: Hashable, Sendable {
  /// Where it is in the scene, as keys: `springs.wave.dampingRatio`, `let.minimalHeight`,
  /// `constraints.elastic badge.return.speed`.
  public var path: String
  /// Its value, in the unit written (seconds for `0.9s`, milliseconds for `900ms`).
  public var value: Double
  /// The slider's range and step: sensible for the key, and always holding the value.
  public var minimum: Double
  public var maximum: Double
  public var step: Double
  /// What follows the number in its scalar (`s`, `ms`), kept as written.
  public var unit: String
  /// Where the number's text starts, as a UTF-8 offset into the file, and its text.
  public var offset: Int
  public var text: String
  /// Its line and column (1-based), for messages.
  public var line: Int
  public var column: Int
}

/// Finds a scene's tunable numbers and writes new values into its text.
public enum TunableNumbers {
  /// A key's range and step; the range is widened to hold the value written.
  struct Range {
    var minimum: Double
    var maximum: Double
    var step: Double
  }

  /// Springs' keys, the same in `springs:` and wherever a spring is written inline.
  static let springRanges: [String: Range] = [
    "dampingRatio": Range(minimum: 0.05, maximum: 2, step: 0.01),
    "duration": Range(minimum: 0.05, maximum: 5, step: 0.01),
    "bounce": Range(minimum: -0.9, maximum: 0.9, step: 0.01),
    "stiffness": Range(minimum: 1, maximum: 2000, step: 1),
    "damping": Range(minimum: 0, maximum: 200, step: 0.1),
    "mass": Range(minimum: 0.1, maximum: 10, step: 0.1),
    "restThreshold": Range(minimum: 0.001, maximum: 5, step: 0.001),
  ]

  /// Constraints' numeric settings; `nil` ranges are made from the value written.
  static let constraintRanges: [String: Range?] = [
    "rate": Range(minimum: 0.9, maximum: 0.9999, step: 0.0001),
    "timeConstant": Range(minimum: 0.05, maximum: 2, step: 0.01),
    "power": Range(minimum: 0, maximum: 1, step: 0.01),
    "factor": Range(minimum: 0, maximum: 1, step: 0.01),
    "rubberband": Range(minimum: 0, maximum: 1, step: 0.01),
    "overdrag": Range(minimum: 0, maximum: 1, step: 0.01),
    "viscosity": Range(minimum: 0, maximum: 1, step: 0.01),
    "hysteresis": nil, "dimension": nil, "maxDistance": nil, "minRadius": nil, "speed": nil,
    "duration": nil, "delay": nil,
  ]

  /// The numbers of `document` (read from `file`) the preview may tune, in file order.
  ///
  /// Only a plain number standing in the file exactly as read is offered: one the
  /// file's text at its place does not spell is never edited.
  public static func find(in document: DocumentNode, file: SourceFile) -> [TunableNumber] {
    var found: [TunableNumber] = []
    guard case .mapping(let sections) = document.value else { return [] }
    for section in sections {
      switch (section.key, section.value.value) {
      case ("springs", .mapping(let springs)):
        for spring in springs {
          collect(spring.value, path: "springs." + spring.key, springs: true, into: &found, file)
        }
      case ("let", .mapping(let lets)):
        for entry in lets {
          if let number = tunable(entry.value, path: "let." + entry.key, range: nil, file) {
            found.append(number)
          }
        }
      case ("constraints", .sequence(let items)):
        for item in items {
          guard case .mapping(let kinds) = item.value, let kind = kinds.first else { continue }
          var name = kind.key
          if case .mapping(let fields) = kind.value.value,
            let subject = fields.first(where: { ["handle", "ball", "name"].contains($0.key) }),
            case .scalar(let s) = subject.value.value
          {
            name += " " + s.text
          }
          collect(kind.value, path: "constraints." + name, springs: false, into: &found, file)
        }
      default: break
      }
    }
    return found.sorted { $0.offset < $1.offset }
  }

  /// Walks a mapping: spring keys under `springs:` or a `spring:` mapping, constraint
  /// settings elsewhere.
  static func collect(
    _ node: DocumentNode, path: String, springs: Bool, into found: inout [TunableNumber],
    _ file: SourceFile
  ) {
    guard case .mapping(let fields) = node.value else { return }
    for field in fields {
      let here = path + "." + field.key
      switch field.value.value {
      case .mapping:
        collect(field.value, path: here, springs: field.key == "spring", into: &found, file)
      case .scalar where field.key == "ease":
        found += easing(field.value, path: here, file)
      case .scalar:
        let range: Range??
        if springs {
          range = springRanges[field.key].map { Optional($0) }
        } else {
          range = constraintRanges[field.key]
        }
        guard let range, let number = tunable(field.value, path: here, range: range, file)
        else { continue }
        found.append(number)
      case .sequence: break
      }
    }
  }

  /// The number a scalar node holds, if it is a plain number (with `s` or `ms` after it)
  /// whose text the file holds at the node's place.
  static func tunable(_ node: DocumentNode, path: String, range: Range?, _ file: SourceFile)
    -> TunableNumber?
  {
    guard case .scalar(let scalar) = node.value, !scalar.isQuoted, scalar.isVerbatim else {
      return nil
    }
    let (number, unit) = split(scalar.text)
    guard !number.isEmpty, let value = Double(number), value.isFinite,
      ["", "s", "ms"].contains(unit)
    else { return nil }
    let start = node.source.location
    guard let offset = utf8Offset(line: start.line, column: start.column, in: file),
      file.text.utf8.dropFirst(offset).starts(with: scalar.text.utf8)
    else { return nil }
    var bounds = range ?? made(from: value)
    if unit == "ms" && range != nil {
      bounds = Range(
        minimum: bounds.minimum * 1000, maximum: bounds.maximum * 1000, step: bounds.step * 1000)
    }
    return TunableNumber(
      path: path, value: value, minimum: min(bounds.minimum, value),
      maximum: max(bounds.maximum, value), step: bounds.step, unit: unit, offset: offset,
      text: number, line: start.line, column: start.column)
  }

  /// The four numbers of a `cubic-bezier(x1, y1, x2, y2)` easing, each with its place in
  /// the scalar's text; a named easing (`ease-out`) has none, since tuning it would mean
  /// writing more than a number.
  static func easing(_ node: DocumentNode, path: String, _ file: SourceFile) -> [TunableNumber] {
    guard case .scalar(let scalar) = node.value else { return [] }
    let prefix = "cubic-bezier("
    let text = Array(scalar.text.utf8)
    guard scalar.text.hasPrefix(prefix), text.last == UInt8(ascii: ")") else { return [] }
    // In a YAML flow mapping the commas need quotes; a verbatim scalar's place is its
    // text's, inside them.
    let start = node.source.location
    guard scalar.isVerbatim,
      let offset = utf8Offset(line: start.line, column: start.column, in: file),
      file.text.utf8.dropFirst(offset).starts(with: text)
    else { return [] }
    // Each argument's text (spaces trimmed) and where it starts in the scalar.
    var arguments: [(text: String, at: Int)] = []
    var from = prefix.utf8.count
    for i in from..<text.count where text[i] == UInt8(ascii: ",") || i == text.count - 1 {
      var first = from
      var last = i
      while first < last, text[first] == UInt8(ascii: " ") { first += 1 }
      while last > first, text[last - 1] == UInt8(ascii: " ") { last -= 1 }
      arguments.append((String(decoding: text[first..<last], as: UTF8.self), first))
      from = i + 1
    }
    guard arguments.count == 4 else { return [] }
    let xRange = Range(minimum: 0, maximum: 1, step: 0.01)
    let yRange = Range(minimum: -1, maximum: 2, step: 0.01)
    var numbers: [TunableNumber] = []
    for (k, argument) in arguments.enumerated() {
      guard let value = Double(argument.text), value.isFinite,
        split(argument.text) == (argument.text, "")
      else { return [] }
      let bounds = k % 2 == 0 ? xRange : yRange
      // The column counts Unicode scalars; the easing's text is ASCII.
      numbers.append(
        TunableNumber(
          path: path + "." + ["x1", "y1", "x2", "y2"][k], value: value,
          minimum: min(bounds.minimum, value), maximum: max(bounds.maximum, value),
          step: bounds.step, unit: "", offset: offset + argument.at, text: argument.text,
          line: start.line, column: start.column + argument.at))
    }
    return numbers
  }

  /// A range for a number without a known one: from 0 to twice it (or 1), in about 200 steps.
  static func made(from value: Double) -> Range {
    let span = max(abs(value) * 2, 1)
    var step = 1.0
    while step * 100 > span { step /= 10 }
    while step * 1000 < span { step *= 10 }
    return value >= 0
      ? Range(minimum: 0, maximum: span, step: step)
      : Range(minimum: -span, maximum: 0, step: step)
  }

  /// A scalar's leading number and what follows it: `0.9s` is `0.9` and `s`.
  static func split(_ text: String) -> (number: String, unit: String) {
    let scalars = Array(text.unicodeScalars)
    var i = 0
    if i < scalars.count, scalars[i] == "-" || scalars[i] == "+" { i += 1 }
    let digitsStart = i
    while i < scalars.count, ("0"..."9").contains(scalars[i]) || scalars[i] == "." { i += 1 }
    guard i > digitsStart else { return ("", text) }
    if i < scalars.count, scalars[i] == "e" || scalars[i] == "E" {
      var j = i + 1
      if j < scalars.count, scalars[j] == "-" || scalars[j] == "+" { j += 1 }
      let exponentStart = j
      while j < scalars.count, ("0"..."9").contains(scalars[j]) { j += 1 }
      if j > exponentStart { i = j }
    }
    var number = String.UnicodeScalarView()
    number.append(contentsOf: scalars[..<i])
    var unit = String.UnicodeScalarView()
    unit.append(contentsOf: scalars[i...])
    return (String(number), String(unit))
  }

  /// The UTF-8 offset of a 1-based line and column (in Unicode scalars) of `file`.
  static func utf8Offset(line: Int, column: Int, in file: SourceFile) -> Int? {
    guard let text = file.line(line), column >= 1 else { return nil }
    var index = text.startIndex
    for _ in 1..<column {
      guard index < text.endIndex else { return nil }
      index = text.unicodeScalars.index(after: index)
    }
    return file.text.utf8.distance(from: file.text.utf8.startIndex, to: index)
  }

  /// `value` as the file writes it: to the step's decimals, without trailing zeros.
  public static func text(of value: Double, step: Double) -> String {
    var decimals = 0
    var unit = 1.0
    while unit > step * 1.000_001 && decimals < 9 {
      unit /= 10
      decimals += 1
    }
    let scale = (0..<decimals).reduce(1.0) { result, _ in result * 10 }
    let rounded = (value * scale).rounded() / scale
    var text = FixedDecimalsText.text(rounded, decimals: decimals)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
  }

  /// `text` with `number` set to `value`: only the number's own characters change.
  ///
  /// `nil` when the text at the number's place is no longer the number read (the file
  /// changed since): nothing is edited then.
  public static func edit(_ text: String, setting number: TunableNumber, to value: Double)
    -> (text: String, number: TunableNumber)?
  {
    let utf8 = Array(text.utf8)
    let old = Array(number.text.utf8)
    guard number.offset >= 0, number.offset + old.count <= utf8.count,
      Array(utf8[number.offset..<number.offset + old.count]) == old
    else { return nil }
    let written = Self.text(of: value, step: number.step)
    var edited = Array(utf8[..<number.offset])
    edited += Array(written.utf8)
    edited += utf8[(number.offset + old.count)...]
    var updated = number
    updated.text = written
    updated.value = Double(written) ?? value
    return (String(decoding: edited, as: UTF8.self), updated)
  }
}

/// A number to a fixed count of decimals, without Foundation.
enum FixedDecimalsText {
  static func text(_ value: Double, decimals: Int) -> String {
    let negative = value < 0
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let whole = (abs(value) * scale).rounded()
    guard whole < 1e18 else { return "\(value)" }
    var digits = String(UInt64(whole))
    if decimals > 0 {
      while digits.count <= decimals { digits = "0" + digits }
      digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
    }
    return (negative && whole != 0 ? "-" : "") + digits
  }
}
