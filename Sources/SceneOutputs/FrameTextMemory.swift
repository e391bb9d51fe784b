import SceneGeometry
import SceneRuntime
import SceneVocabulary

/// What a JSON-lines writer wrote for the previous frame, with the values it was made
/// from: a handle or path that did not change since is copied, not formatted again.
///
/// Most of a scene is still most of the time (a handle at rest, a track that never
/// moves), and formatting numbers is most of the cost of a line: four for every handle,
/// eight for every cubic. Values are compared by their bits, so a copy is exactly the
/// text formatting would give.
struct FrameTextMemory {
  /// The values each of the scene's handles was last written with (by scene index), and
  /// its animated values where the scene animates any.
  var handleValues: [HandleValues] = []
  var animatedValues: [AnimatedValues] = []
  /// The previous frame's `handles` object without its braces: entry `k` (in name order)
  /// is at `entries[k]` and ends where the next starts.
  var handleText: [UInt8] = []
  var entries: [EntryOffsets] = []
  /// This frame's entries, swapped in when the frame is done.
  var nextEntries: [EntryOffsets] = []
  /// Each drawn path's last text and what it was made from (by index in the frame).
  var paths: [PathText] = []
  /// How many handles and paths were formatted and how many copied, for the tests that
  /// count the work.
  var formatted = 0
  var copied = 0

  /// Where a handle's entry starts in ``handleText``, and its `x` and `y` numbers.
  struct EntryOffsets {
    var start: Int
    var x: Int
    var y: Int
  }

  /// A handle's values as bits: equal bits give equal text.
  struct HandleValues: Equatable {
    var x: UInt64
    var y: UInt64
    var angle: UInt64
    var radius: UInt64
    var state: HandleState
    /// Which properties the scene animates; their values are ``AnimatedValues``, kept
    /// apart so that a scene that animates none compares and stores only these.
    var animated: UInt32

    @inline(__always)
    init(_ handle: HandleFrame) {
      x = handle.x.bitPattern
      y = handle.y.bitPattern
      angle = handle.angle.bitPattern
      radius = handle.radius.bitPattern
      state = handle.state
      animated = handle.animated
    }

    /// Whether an entry written with these values starts, up to its `"x":`, as one
    /// written with `other`: the same angle, radius and state, and no animated property
    /// (whose keys come between them).
    @inline(__always)
    func keepsItsStart(_ other: HandleValues) -> Bool {
      angle == other.angle && radius == other.radius && state == other.state && animated == 0
        && other.animated == 0
    }

    init() {
      x = 0
      y = 0
      angle = 0
      radius = 0
      state = .idle
      animated = 0
    }
  }

  /// A handle's animated values as bits, for a handle the scene animates.
  struct AnimatedValues: Equatable {
    var opacity: UInt64 = 0
    var rotation: UInt64 = 0
    var scale: UInt64 = 0
    var fill = Color(red: 0, green: 0, blue: 0, alpha: 0)
    var stroke = Color(red: 0, green: 0, blue: 0, alpha: 0)
    var width: UInt64 = 0
    var height: UInt64 = 0
    var cornerRadius: UInt64 = 0
    var strokeWidth: UInt64 = 0
    var scaleX: UInt64 = 0
    var scaleY: UInt64 = 0

    init() {}

    init(_ handle: HandleFrame) {
      opacity = handle.opacity.bitPattern
      rotation = handle.rotation.bitPattern
      scale = handle.scale.bitPattern
      fill = handle.fill
      stroke = handle.stroke
      width = handle.width.bitPattern
      height = handle.height.bitPattern
      cornerRadius = handle.cornerRadius.bitPattern
      strokeWidth = handle.strokeWidth.bitPattern
      scaleX = handle.scaleX.bitPattern
      scaleY = handle.scaleY.bitPattern
    }
  }

  /// The children of the last frame written, and their order sorted by names.
  var childPairs: [ChildKey] = []
  var childOrder: [Int] = []

  /// A path's text and the words it was made from (``words(of:_:)``).
  struct PathText {
    var words: [UInt64] = []
    var text: [UInt8] = []
    /// Whether a path was remembered yet (an empty one has no words either).
    var isKnown = false
  }

  /// Calls `body` with each word describing `path`: every coordinate's bits and each
  /// subpath's and segment's kind, in order; stops early when `body` returns `false`, and
  /// returns whether it went to the end.
  @inline(__always)
  static func words(of path: Path, _ body: (UInt64) -> Bool) -> Bool {
    // Read in place: copying a subpath out of its array retains its segments.
    path.subpaths.withUnsafeBufferPointer { subpaths in
      for subpath in subpaths.indices {
        guard words(of: subpaths[subpath], body) else { return false }
      }
      return true
    }
  }

  @inline(__always)
  static func words(of subpath: borrowing Subpath, _ body: (UInt64) -> Bool) -> Bool {
    guard body(subpath.isClosed ? 1 : 0), body(subpath.start.x.bitPattern),
      body(subpath.start.y.bitPattern), body(UInt64(subpath.segments.count))
    else { return false }
    return subpath.segments.withUnsafeBufferPointer { segments in
      for segment in segments {
        switch segment {
        case .line(_, let b):
          guard body(2), body(b.x.bitPattern), body(b.y.bitPattern) else { return false }
        case .quadratic(_, let c, let b):
          guard body(3), body(c.x.bitPattern), body(c.y.bitPattern), body(b.x.bitPattern),
            body(b.y.bitPattern)
          else { return false }
        case .cubic(_, let c1, let c2, let b):
          guard body(4), body(c1.x.bitPattern), body(c1.y.bitPattern), body(c2.x.bitPattern),
            body(c2.y.bitPattern), body(b.x.bitPattern), body(b.y.bitPattern)
          else { return false }
        }
      }
      return true
    }
  }

  /// Whether `path` is the one `remembered` describes.
  static func path(_ path: Path, matches remembered: [UInt64]) -> Bool {
    let count = remembered.count
    var next = 0
    let whole = remembered.withUnsafeBufferPointer { stored in
      words(of: path) { word in
        guard next < count, stored[next] == word else { return false }
        next += 1
        return true
      }
    }
    return whole && next == count
  }

  /// Makes `remembered` describe `path`: written over in place when the path's shape did
  /// not change, described afresh otherwise.
  static func remember(_ path: Path, in remembered: inout [UInt64]) {
    let count = remembered.count
    var next = 0
    let fits = remembered.withUnsafeMutableBufferPointer { stored in
      words(of: path) { word in
        guard next < count else { return false }
        stored[next] = word
        next += 1
        return true
      }
    }
    if fits && next == count { return }
    remembered.removeAll(keepingCapacity: true)
    _ = words(of: path) { word in
      remembered.append(word)
      return true
    }
  }
}
