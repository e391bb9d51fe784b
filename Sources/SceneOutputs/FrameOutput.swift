import SceneGraph
import SceneRuntime

/// An output format as a value: how to turn a run's frames into text.
///
/// Modelled on swift-snapshot-testing's strategies: a format is a struct of closures,
/// registered by name in ``OutputRegistry``, so `--format` and file extensions pick it
/// and a new format is one new file plus one registry line. A streaming format writes
/// each frame as it comes (memory stays flat however long the run); a format that must
/// see every frame first (an animated SVG, the HTML player) says so with
/// ``needsAllFrames`` and writes everything at the end.
public struct FrameOutput: Sendable {
  /// The name `--format` takes: `jsonl`, `svg`, `html`, `csv`.
  public let name: String
  /// File extensions that pick this format for `-o`, without the dot.
  public let fileExtensions: [String]
  /// A one-line description for `--help`.
  public let summary: String
  /// `true` when the format writes only at the end, from all frames.
  public let needsAllFrames: Bool
  /// Text written before the first frame.
  public let begin: @Sendable (OutputContext) -> String
  /// Text for one frame, as it comes (streaming formats).
  public let frame: @Sendable (OutputContext, Frame) -> String
  /// Text written after the last frame; formats that need all frames get them here.
  public let end: @Sendable (OutputContext, [Frame]) -> String

  public init(
    name: String, fileExtensions: [String], summary: String, needsAllFrames: Bool = false,
    begin: @escaping @Sendable (OutputContext) -> String = { _ in "" },
    frame: @escaping @Sendable (OutputContext, Frame) -> String = { _, _ in "" },
    end: @escaping @Sendable (OutputContext, [Frame]) -> String = { _, _ in "" }
  ) {
    self.name = name
    self.fileExtensions = fileExtensions
    self.summary = summary
    self.needsAllFrames = needsAllFrames
    self.begin = begin
    self.frame = frame
    self.end = end
  }
}

/// What every output may need besides the frames.
public struct OutputContext: Sendable {
  /// The resolved scene: size, background, styles, names.
  public let graph: SceneGraph
  /// Decimals for numbers in text formats (`--precision`, default 3).
  public let precision: Int
  /// The frame rate the frames were made at.
  public let fps: Double

  public init(graph: SceneGraph, precision: Int = 3, fps: Double) {
    self.graph = graph
    self.precision = precision
    self.fps = fps
  }
}
