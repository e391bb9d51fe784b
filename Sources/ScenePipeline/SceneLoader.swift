import SceneDiagnostics
import SceneFiles
// Its result types are the portable front door's: whoever loads through the shell reads them.
@_exported import SceneLoading
import SceneSyntax
import SceneYAML

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a scene file in either syntax into a ``SceneSpec``: the front door of the
/// syntax stage.
///
/// It enforces the input limits before any parsing (size, UTF-8), picks the front end by
/// file extension (`.yaml`/`.yml`, or `.scene` for the DSL), and collects every
/// diagnostic of every step.
public enum SceneLoader {
  public enum Syntax: String, Sendable, CaseIterable {
    case yaml, dsl

    /// The syntax a file name's extension implies, if any.
    public init?(fileName: String) {
      let lower = fileName.lowercased()
      if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") {
        self = .yaml
      } else if lower.hasSuffix(".scene") {
        self = .dsl
      } else {
        return nil
      }
    }

    /// The front end that reads this syntax; YAML's within `limits`.
    public func frontEnd(limits: YAMLReader.Limits = YAMLReader.Limits()) -> SceneFrontEnd {
      switch self {
      case .yaml: .yaml(limits: limits)
      case .dsl: .dsl
      }
    }
  }

  /// A scene read and decoded (see ``SceneLoading/Read``).
  public typealias Result = SceneLoading.Read

  /// Why a file could not be read at all; the CLI maps this to "no input" (exit 66).
  public struct ReadError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot read '\(TerminalText.escaped(path))': \(reason)" }
  }

  /// Loads the file at `path`, in the syntax its extension names (or `syntax`).
  public static func load(
    path: String, syntax: Syntax? = nil, limits: YAMLReader.Limits = YAMLReader.Limits()
  ) throws(ReadError) -> Result {
    switch InputFile.kind(atPath: path) {
    case nil: throw ReadError(path: path, reason: InputFile.missingReason(atPath: path))
    case .directory: throw ReadError(path: path, reason: "it is a directory")
    // A FIFO or device would block in `open` or never end: only regular files are read.
    case .other:
      throw ReadError(path: path, reason: "not a regular file (a FIFO, socket or device)")
    case .regularFile: break
    }
    // Read at most one byte past the limit, so a huge file is refused without reading it all.
    let data: Data
    do {
      data = Data(try InputFile.read(path: path, upTo: limits.maxBytes + 1))
    } catch {
      throw ReadError(
        path: path, reason: error.whileOpening ? "permission denied or unreadable" : "read failed")
    }
    guard let syntax = syntax ?? Syntax(fileName: path) else {
      return Result(
        file: nil, spec: nil,
        diagnostics: [
          .error(
            "cannot tell the syntax of '\(path)': use a .yaml, .yml or .scene file name", at: nil)
        ])
    }
    return load(data: data, name: path, syntax: syntax, limits: limits)
  }

  /// Loads scene text given as bytes, named `name` in diagnostics.
  public static func load(
    data: Data, name: String, syntax: Syntax, limits: YAMLReader.Limits = YAMLReader.Limits()
  ) -> Result {
    if data.count > limits.maxBytes {
      return Result(
        file: nil, spec: nil,
        diagnostics: [
          .error(
            "\(name) is larger than the limit of \(limits.maxBytes) bytes (8 MiB by default)",
            at: nil)
        ])
    }
    if let bad = firstInvalidUTF8(in: data) {
      // Show the line up to the bad byte, decoded leniently, so the caret lines up.
      let prefix = String(decoding: data.prefix(bad.offset), as: UTF8.self)
      let file = SourceFile(name: name, text: String(decoding: data, as: UTF8.self))
      let line = prefix.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
      let column =
        (prefix.split(separator: "\n", omittingEmptySubsequences: false).last?.unicodeScalars.count
          ?? 0) + 1
      let message =
        bad.byte == 0
        ? "the file contains a NUL byte"
        : "the file is not valid UTF-8 (byte 0x\(String(bad.byte, radix: 16)))"
      return Result(
        file: file, spec: nil,
        diagnostics: [.error(message, at: SourceSpan(file.location(line: line, column: column)))])
    }
    let file = SourceFile(name: name, text: String(decoding: data, as: UTF8.self))
    return load(file, syntax: syntax, limits: limits)
  }

  /// Loads scene text already in memory, through the portable front door
  /// (``SceneLoading/read(_:frontEnd:parallel:)``) with the syntax's front end.
  public static func load(
    _ file: SourceFile, syntax: Syntax, limits: YAMLReader.Limits = YAMLReader.Limits()
  )
    -> Result
  {
    SceneLoading.read(file, frontEnd: syntax.frontEnd(limits: limits), parallel: .allCores)
  }

  /// The comment lines at the very top of `text` (see ``SceneLoading/header(of:)``).
  public static func header(of text: String) -> String? { SceneLoading.header(of: text) }

  /// The offset and value of the first byte that does not belong to valid UTF-8, or of a
  /// NUL byte, which no scene may contain.
  static func firstInvalidUTF8(in data: Data) -> (offset: Int, byte: UInt8)? {
    let bytes = [UInt8](data)
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == 0 { return (i, b) }
      if b < 0x80 {
        i += 1
        continue
      }
      let length: Int
      let minimum: UInt32
      switch b {
      case 0xC2...0xDF:
        length = 2
        minimum = 0x80
      case 0xE0...0xEF:
        length = 3
        minimum = 0x800
      case 0xF0...0xF4:
        length = 4
        minimum = 0x10000
      default: return (i, b)
      }
      guard i + length <= bytes.count else { return (i, b) }
      var scalar = UInt32(b) & (0xFF >> (length + 1))
      for k in 1..<length {
        let c = bytes[i + k]
        guard c & 0xC0 == 0x80 else { return (i, b) }
        scalar = scalar << 6 | UInt32(c & 0x3F)
      }
      if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) {
        return (i, b)
      }
      i += length
    }
    return nil
  }
}
