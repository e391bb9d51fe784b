import SceneDiagnostics
import SceneGeometry

/// A drawn path: fixed SVG path data, or segments through handles and expressions that
/// are re-evaluated every frame.
public struct PathSpec: Hashable, Sendable {
  public enum Geometry: Hashable, Sendable {
    /// SVG path data, parsed.
    case data(Path)
    /// Segments whose points are expressions (a handle's name is its position).
    case segments([PathSegmentSpec])
  }

  public var name: Located<String>
  public var geometry: Geometry
  public var geometrySource: SourceRef
  public var style: Style
  /// The path data exactly as written, so `fmt` writes it back untouched (arcs stay arcs,
  /// relative commands stay relative); ignored by `==`, like a source location.
  public var writtenData: WrittenText?
  /// The part of it drawn, as fractions of its arc length (`trim: { start, end }`), each
  /// an animated value; `nil` for all of it.
  public var trimStart: AnimatedValue?
  public var trimEnd: AnimatedValue?
  /// Its opacity, fill, stroke and line width when they change (a constant is in
  /// ``style``), as a handle's.
  public var animatedOpacity: AnimatedValue?
  public var animatedFill: ColorMix?
  public var animatedStroke: ColorMix?
  public var animatedStrokeWidth: AnimatedValue?

  public init(
    name: Located<String>, geometry: Geometry, geometrySource: SourceRef = .synthesized,
    style: Style = Style(),
    writtenData: String? = nil
  ) {
    self.name = name
    self.geometry = geometry
    self.geometrySource = geometrySource
    self.style = style
    self.writtenData = writtenData.map(WrittenText.init)
  }
}

/// Text kept only to be written back as the user wrote it; two ASTs that mean the same
/// are equal whatever their texts, as with ``SourceRef``.
public struct WrittenText: Hashable, Sendable {
  public var text: String

  public init(_ text: String) { self.text = text }

  public static func == (_: WrittenText, _: WrittenText) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}
}

/// One step of a segment path, each point an expression.
public struct PathSegmentSpec: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    case move(Expression)
    case line(Expression)
    case quadratic(control: Expression, Expression)
    case cubic(control1: Expression, control2: Expression, Expression)
    case close
  }

  public var kind: Kind
  public var source: SourceRef

  public init(_ kind: Kind, at source: SourceRef = .synthesized) {
    self.kind = kind
    self.source = source
  }

  /// The key that names each kind in both syntaxes.
  public var keyword: String {
    switch kind {
    case .move: return "move"
    case .line: return "line"
    case .quadratic: return "quad"
    case .cubic: return "cubic"
    case .close: return "close"
    }
  }
}
