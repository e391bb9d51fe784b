/// Where a node of the scene (syntax tree or graph) was written.
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
