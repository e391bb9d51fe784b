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

  /// Text that is the same in every frame (the handles' quoted names, in the order JSON
  /// lines writes them), made once here rather than once per frame.
  let sceneText: SceneText

  public init(graph: SceneGraph, precision: Int = 3, fps: Double) {
    self.graph = graph
    self.precision = precision
    self.fps = fps
    self.sceneText = SceneText(graph)
  }
}

/// The parts of the frames' text that only depend on the scene: handle and path names do
/// not change between frames, so their escaping and sorting is done once per scene.
struct SceneText: Sendable {
  /// The scene's handle names in declaration order, the order of a frame's handles.
  let handleNames: [String]
  /// Handle indices in the order of their names, the order of a JSON line's `handles`.
  let sortedHandles: [Int]
  /// For each handle in `sortedHandles`: `"name":{"angle":`, after a `,` for every one but
  /// the first; all keys one after the other, the k-th ending at `handleKeyEnds[k]`.
  let handleKeys: [UInt8]
  let handleKeyEnds: [Int]
  /// `true` when no two handles of the scene share a name.
  let handleNamesAreDistinct: Bool
  /// The names of a frame's paths as the runtime makes them: the scene's paths, then each
  /// gooey bridge; and their indices in the order of their names, a JSON line's order.
  let pathNames: [String]
  let sortedPaths: [Int]

  init(_ graph: SceneGraph) {
    let names = graph.handles.map(\.name)
    handleNames = names
    // The same sort as a frame's handles by name, so equal names keep the same order too.
    sortedHandles = names.indices.sorted { names[$0] < names[$1] }
    var keys = TextBytes(capacity: names.count * 24)
    var ends: [Int] = []
    ends.reserveCapacity(names.count)
    for (k, i) in sortedHandles.enumerated() {
      if k > 0 { keys.append(UInt8(ascii: ",")) }
      keys.appendQuoted(names[i])
      keys.append(":{\"angle\":")
      ends.append(keys.count)
    }
    handleKeys = Array(keys.bytes)
    handleKeyEnds = ends
    handleNamesAreDistinct = zip(sortedHandles, sortedHandles.dropFirst()).allSatisfy {
      names[$0] != names[$1]
    }
    let bridges = graph.constraints.compactMap { constraint -> String? in
      guard case .gooey = constraint.kind else { return nil }
      return constraint.reportedName
    }
    let paths = graph.paths.map(\.name) + bridges
    pathNames = paths
    sortedPaths = paths.indices.sorted { paths[$0] < paths[$1] }
  }

  /// The index of the scene's first handle called `name` in sorted order, if any.
  func handleIndex(named name: String) -> Int? {
    var low = 0
    var high = sortedHandles.count
    while low < high {
      let middle = (low + high) / 2
      if handleNames[sortedHandles[middle]] < name { low = middle + 1 } else { high = middle }
    }
    guard low < sortedHandles.count, handleNames[sortedHandles[low]] == name else { return nil }
    return sortedHandles[low]
  }

  /// `true` when `handles` are the scene's handles in declaration order, as the runtime
  /// makes them, so the precomputed keys apply.
  func matches(_ handles: [HandleFrame]) -> Bool {
    handles.withUnsafeBufferPointer { matches($0) }
  }

  func matches(_ handles: UnsafeBufferPointer<HandleFrame>) -> Bool {
    guard handles.count == handleNames.count else { return false }
    return handleNames.withUnsafeBufferPointer { names in
      for i in handles.indices where handles[i].name != names[i] { return false }
      return true
    }
  }

  /// `true` when `paths` are named as the runtime names the scene's, in that order, so
  /// `sortedPaths` applies.
  func matches(_ paths: [PathFrame]) -> Bool {
    paths.count == pathNames.count && paths.indices.allSatisfy { paths[$0].name == pathNames[$0] }
  }
}
