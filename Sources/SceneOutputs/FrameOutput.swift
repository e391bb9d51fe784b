import SceneGraph
import SceneRuntime

#if !hasFeature(Embedded)
/// An output format as a value: how a run's frames become bytes.
///
/// Modelled on swift-snapshot-testing's strategies: a format is a value registered by
/// name in ``OutputRegistry``, so `--format` and file extensions pick it and a new format
/// is one new file plus one registry line. For each run it makes a ``FrameWriter``, which
/// keeps what it needs across frames and appends bytes to a ``TextBytes`` sink that the
/// caller drains (to a file, a socket, memory): a streaming format writes each frame as
/// it comes, so memory stays flat however long the run; a still keeps one frame; a
/// format that can only finish at the end (the HTML player, an animated SVG) keeps what
/// it will need, as compactly as it can.
public struct FrameOutput: Sendable {
  /// The name `--format` takes: `jsonl`, `svg`, `html`, `csv`.
  public let name: String
  /// File extensions that pick this format for `-o`, without the dot.
  public let fileExtensions: [String]
  /// A one-line description for `--help`.
  public let summary: String
  /// `true` when the format draws one frame (the last it is given: the CLI gives only the
  /// frame chosen with `--frame` or `--at` when there is one).
  public let isStill: Bool
  /// `true` for a format whose bytes are not text (a PNG, a GIF, a video): not for a
  /// terminal.
  public let isBinary: Bool
  private let makeWriter: @Sendable (OutputContext) -> any FrameWriter

  public init(
    name: String, fileExtensions: [String], summary: String, isStill: Bool = false,
    isBinary: Bool = false, writer: @escaping @Sendable (OutputContext) -> any FrameWriter
  ) {
    self.name = name
    self.fileExtensions = fileExtensions
    self.summary = summary
    self.isStill = isStill
    self.isBinary = isBinary
    self.makeWriter = writer
  }

  /// A writer for one run.
  public func writer(for context: OutputContext) -> any FrameWriter { makeWriter(context) }

  /// The whole output for `frames`, as bytes: for tests, previews and small runs.
  public func bytes(of frames: [Frame], context: OutputContext) -> [UInt8] {
    var writer = writer(for: context)
    var sink = TextBytes(capacity: 4096)
    writer.begin(into: &sink)
    for frame in frames { writer.frame(frame, into: &sink) }
    writer.end(into: &sink)
    return Array(sink.bytes)
  }

  /// The whole output for `frames`, as text.
  public func text(of frames: [Frame], context: OutputContext) -> String {
    String(decoding: bytes(of: frames, context: context), as: UTF8.self)
  }
}
#endif

/// One run of a format: given the frames in order, appends the output's bytes to a sink.
///
/// The caller calls ``begin(into:)`` once, ``frame(_:into:)`` for each frame and
/// ``end(into:)`` once, and may drain the sink between calls. The frames are those a
/// ``Simulation`` of the context's graph made: a frame's handles and paths are in the
/// order of the graph's ``SceneGraph/handles`` and ``SceneGraph/drawnPaths``, so a writer
/// finds each one's names and styles by index.
public protocol FrameWriter {
  /// Appends what comes before the first frame.
  mutating func begin(into sink: inout TextBytes)
  /// Takes the next frame, appending what it can write now.
  mutating func frame(_ frame: Frame, into sink: inout TextBytes)
  /// Appends what comes after the last frame.
  mutating func end(into sink: inout TextBytes)
  /// Appends what comes after the last frame, handing the sink to `flush` (which empties
  /// it) as it goes: a format that keeps every frame until the end (the HTML player) then
  /// never holds its whole output twice.
  mutating func end<Failure: Error>(
    into sink: inout TextBytes, flush: (inout TextBytes) throws(Failure) -> Void
  ) throws(Failure)
  /// Why the output could not be made (a raster format whose library failed), if it could
  /// not: the caller then throws the output away rather than keep a broken file.
  var failure: String? { get }
  /// What the output leaves out (Lottie's text), for the caller to say on standard error.
  var notes: [String] { get }
}

extension FrameWriter {
  public var failure: String? { nil }
  public var notes: [String] { [] }
  public mutating func begin(into sink: inout TextBytes) {}
  public mutating func end(into sink: inout TextBytes) {}
  public mutating func end<Failure: Error>(
    into sink: inout TextBytes, flush: (inout TextBytes) throws(Failure) -> Void
  ) throws(Failure) {
    end(into: &sink)
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
  /// Pixels per point, for raster formats (`--scale`, default 1).
  public var scale = 1.0
  /// What the `graph` format plots (`--plot c.y`): `HANDLE.x`, `HANDLE.y` or
  /// `HANDLE.angle`; every moving handle's `x` and `y` when empty.
  public var plots: [String] = []

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
  /// The names of a frame's paths (``SceneGraph/drawnPaths``): the scene's paths, then each
  /// gooey bridge; and their indices in the order of their names, a JSON line's order.
  let pathNames: [String]
  let sortedPaths: [Int]
  /// For each path in `sortedPaths`: `"name":"`, after a `,` for every one but the first,
  /// all one after the other as `handleKeys` are.
  let pathKeys: [UInt8]
  let pathKeyEnds: [Int]

  init(_ graph: SceneGraph) {
    let names = graph.handles.map { $0.name }
    handleNames = names
    // The same sort as a frame's handles by name, so equal names keep the same order too.
    sortedHandles = names.indices.sorted { names[$0] < names[$1] }
    (handleKeys, handleKeyEnds) = Self.keys(
      of: sortedHandles.map { names[$0] }, ending: ":{\"angle\":")
    handleNamesAreDistinct = zip(sortedHandles, sortedHandles.dropFirst()).allSatisfy {
      names[$0] != names[$1]
    }
    let paths = graph.drawnPaths.map { $0.name }
    pathNames = paths
    let sortedPaths = paths.indices.sorted { paths[$0] < paths[$1] }
    self.sortedPaths = sortedPaths
    (pathKeys, pathKeyEnds) = Self.keys(of: sortedPaths.map { paths[$0] }, ending: ":\"")
  }

  /// `"name"` and `suffix` for each of `names`, after a `,` for every one but the first, one
  /// after the other, and where each ends.
  static func keys(of names: [String], ending suffix: StaticString) -> ([UInt8], [Int]) {
    var keys = TextBytes(capacity: names.count * 24)
    var ends: [Int] = []
    ends.reserveCapacity(names.count)
    for (k, name) in names.enumerated() {
      if k > 0 { keys.append(UInt8(ascii: ",")) }
      keys.appendQuoted(name)
      keys.append(suffix)
      ends.append(keys.count)
    }
    return (Array(keys.bytes), ends)
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

  /// `true` when a frame has as many handles as the scene: a frame of the scene's own
  /// simulation, so the precomputed keys apply by index.
  func fits(_ handles: [HandleFrame]) -> Bool { handles.count == handleNames.count }

  /// `true` when a frame has as many paths as the scene draws (``SceneGraph/drawnPaths``).
  func fits(_ paths: [PathFrame]) -> Bool { paths.count == pathNames.count }
}

/// A handle's child by its handle's index and its own among the handle's children.
struct ChildKey: Hashable {
  var handle: Int
  var child: Int
}
