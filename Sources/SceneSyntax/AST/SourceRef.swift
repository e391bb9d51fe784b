import SceneDiagnostics

/// Where a syntax-tree node was written.
///
/// Deliberately ignored by `==` and by hashing: two scene ASTs are equal when they say
/// the same thing, whichever file, syntax (YAML or DSL) and layout they came from. Read
/// ``span`` for the place itself.
public struct SourceRef: Hashable, Sendable, CustomStringConvertible {
  public var span: SourceSpan

  public init(_ span: SourceSpan) { self.span = span }

  /// A reference for values built in code rather than read from a file.
  public static let synthesized = SourceRef(
    SourceSpan(SourceLocation(file: "<generated>", line: 1, column: 1), length: 1))

  public static func == (_: SourceRef, _: SourceRef) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}

  public var location: SourceLocation { span.start }
  public var description: String { span.start.description }
}

/// A value and where it was written; equality compares the value only.
public struct Located<Value: Hashable & Sendable>: Hashable, Sendable {
  public var value: Value
  public var source: SourceRef

  public init(_ value: Value, at source: SourceRef = .synthesized) {
    self.value = value
    self.source = source
  }
}

/// A name that refers to something else in the scene (a handle, a path, a spring),
/// with where the reference was written, so a dangling one can be pointed at.
public typealias Reference = Located<String>
