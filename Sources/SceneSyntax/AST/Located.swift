import SceneDiagnostics

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
