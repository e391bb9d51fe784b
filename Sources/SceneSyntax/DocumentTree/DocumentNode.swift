import SceneDiagnostics

/// A node of a scene document before it is understood: a scalar, a sequence or a
/// mapping, each with where it was written.
///
/// Both front ends produce this tree: the YAML reader from libyaml's events (anchors,
/// aliases and merge keys already applied), the DSL parser from its statements. One
/// decoder (``SceneDecoder``) then turns it into a ``SceneSpec``, so both syntaxes share
/// one schema, one set of error messages and one AST.
public struct DocumentNode: Hashable, Sendable {
  // Not `indirect`: the collections already hold their children in arrays, so a
  // scalar, the most common node, needs no box of its own.
  public enum Value: Hashable, Sendable {
    case scalar(Scalar)
    case sequence([DocumentNode])
    case mapping([Entry])
  }

  /// A scalar's text and how it was written.
  public struct Scalar: Hashable, Sendable {
    public var text: String
    /// `true` for quoted (or block) scalars: never null, never a number or bool by
    /// accident, always the text as given.
    public var isQuoted: Bool
    /// `true` when the text stands in the source exactly as it is, one scalar per column,
    /// starting at the node's span: plain single-line YAML scalars and DSL atoms.
    ///
    /// Then an
    /// error inside the text (a bad expression) can point at its exact column.
    public var isVerbatim: Bool

    public init(_ text: String, isQuoted: Bool = false, isVerbatim: Bool = true) {
      self.text = text
      self.isQuoted = isQuoted
      self.isVerbatim = isVerbatim
    }

    /// A plain empty scalar is YAML's null (`key:` with nothing after it, or `~`/`null`).
    public var isNull: Bool { !isQuoted && (text.isEmpty || text == "~" || text == "null") }

    // `isVerbatim` says how the text maps onto source columns, like a `SourceRef`; it
    // is not part of what the scalar means, so equality ignores it.
    public static func == (a: Scalar, b: Scalar) -> Bool {
      a.text == b.text && a.isQuoted == b.isQuoted
    }
    public func hash(into hasher: inout Hasher) {
      hasher.combine(text)
      hasher.combine(isQuoted)
    }
  }

  /// One `key: value` pair of a mapping; keys are scalars.
  public struct Entry: Hashable, Sendable {
    public var key: String
    public var keySource: SourceRef
    public var value: DocumentNode

    public init(key: String, keySource: SourceRef, value: DocumentNode) {
      self.key = key
      self.keySource = keySource
      self.value = value
    }
  }

  public var value: Value
  public var source: SourceRef
  /// Comment lines (without their `#`) that `fmt` writes before this node, above its key
  /// or its list dash: the comments a user wrote before a scene item.
  public var comments: [String] = []

  public init(_ value: Value, at source: SourceRef) {
    self.value = value
    self.source = source
  }

  /// A plain scalar node.
  public static func scalar(_ text: String, at source: SourceRef = .synthesized) -> DocumentNode {
    DocumentNode(.scalar(Scalar(text)), at: source)
  }

  /// What kind of node this is, for messages: "a mapping", "a sequence", "a scalar".
  public var kindDescription: String {
    switch value {
    case .scalar(let s): return s.isNull ? "nothing" : "'\(s.text)'"
    case .sequence: return "a list"
    case .mapping: return "a mapping"
    }
  }
}
