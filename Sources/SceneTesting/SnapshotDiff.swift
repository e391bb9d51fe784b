#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where two JSON-lines frame streams first differ, said the way a person fixes it: the
/// frame, the field, the expected and actual values, and a short unified diff.
public struct SnapshotDiff: Equatable, Sendable {
  /// The 0-based line (frame) where the streams first differ.
  public var line: Int
  /// The first differing field, as a dotted path (`handles.c.y`), or `nil` when a whole
  /// line is missing or extra, or not JSON.
  public var field: String?
  public var expected: String
  public var actual: String
  /// A unified diff of the lines around the difference.
  public var unifiedDiff: String

  /// The first difference between `expected` and `actual` text, or `nil` if they are equal.
  public static func compare(expected: String, actual: String) -> SnapshotDiff? {
    guard expected != actual else { return nil }
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var line = 0
    while line < old.count && line < new.count && old[line] == new[line] { line += 1 }
    let before = line < old.count ? old[line] : "<no line>"
    let after = line < new.count ? new[line] : "<no line>"
    var field: String?
    var expectedValue = before
    var actualValue = after
    if let a = Self.object(before), let b = Self.object(after),
      let (path, x, y) = Self.firstDifference(a, b, path: "")
    {
      field = path
      expectedValue = x
      actualValue = y
    }
    // Three lines of context, each line cut to 160 characters so a report stays readable.
    func cut(_ text: String) -> String { text.count > 160 ? String(text.prefix(160)) + "…" : text }
    let start = max(0, line - 3)
    var diff = "@@ frame \(line) @@\n"
    for k in start..<line { diff += " " + cut(old[k]) + "\n" }
    if line < old.count { diff += "-" + cut(old[line]) + "\n" }
    if line < new.count { diff += "+" + cut(new[line]) + "\n" }
    return SnapshotDiff(
      line: line, field: field, expected: expectedValue, actual: actualValue, unifiedDiff: diff)
  }

  static func object(_ line: String) -> JSONValue? {
    try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
  }

  /// The first differing leaf, in key order, with both values as text.
  static func firstDifference(_ a: JSONValue, _ b: JSONValue, path: String) -> (
    String, String, String
  )? {
    switch (a, b) {
    case (.object(let x), .object(let y)):
      for key in Set(x.keys).union(y.keys).sorted() {
        let sub = path.isEmpty ? key : path + "." + key
        guard let xv = x[key] else { return (sub, "<missing>", text(y[key] ?? .null)) }
        guard let yv = y[key] else { return (sub, text(xv), "<missing>") }
        if let found = firstDifference(xv, yv, path: sub) { return found }
      }
      return nil
    case (.array(let x), .array(let y)):
      for index in 0..<max(x.count, y.count) {
        let sub = "\(path)[\(index)]"
        guard index < x.count else { return (sub, "<missing>", text(y[index])) }
        guard index < y.count else { return (sub, text(x[index]), "<missing>") }
        if let found = firstDifference(x[index], y[index], path: sub) { return found }
      }
      return nil
    default:
      let (x, y) = (text(a), text(b))
      return x == y ? nil : (path, x, y)
    }
  }

  /// A value as compact JSON, keys sorted.
  static func text(_ value: JSONValue) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "?" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The report a test failure prints.
  public var report: String {
    var text = "first difference at frame \(line)"
    if let field { text += ", \(field)" }
    text += ": expected \(expected), got \(actual)\n" + unifiedDiff
    return text
  }

  /// The report of a difference in a scene's look at rest (``SceneLook``): one object,
  /// so its field alone says where.
  public var lookReport: String {
    guard let field else { return "the look at rest differs: expected \(expected), got \(actual)" }
    return "the look at rest differs at \(field): expected \(expected), got \(actual)"
  }
}

/// A JSON value, decoded by FoundationEssentials' `JSONDecoder`.
enum JSONValue: Codable, Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
