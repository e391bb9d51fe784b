import SceneGeometry

/// Rewriting a path in place, for paths the simulation rebuilds every frame (segment
/// paths, gooey bridges).
///
/// Once the previous frame has been let go, the path's arrays are no longer shared, so
/// emptying them with their capacity kept and appending again allocates nothing: a new
/// `Path` each frame would cost an allocation for the subpaths and one per subpath, and
/// as many frees when the frame before is dropped.
///
/// Use: ``rewriteSubpath(_:start:)`` for subpaths 0, 1, … in order, appending each one's
/// segments as it comes, then ``finishRewrite(subpathCount:)``.
extension Path {
  /// Makes subpath `index` an open subpath at `start` with no segments, reusing the
  /// storage of the subpath that was there; `index` is at most the number of subpaths.
  mutating func rewriteSubpath(_ index: Int, start: Point) {
    guard index < subpaths.count else {
      subpaths.append(Subpath(start: start))
      return
    }
    subpaths[index].start = start
    subpaths[index].isClosed = false
    subpaths[index].segments.removeAll(keepingCapacity: true)
  }

  /// Drops the subpaths past the first `count`, left from the previous shape.
  mutating func finishRewrite(subpathCount count: Int) {
    if subpaths.count > count { subpaths.removeSubrange(count...) }
  }
}

/// A subpath as a segment path's points make it, before it is written into a `Path`:
/// where it starts, whether it closes, and how many of the segments that follow it in the
/// writer's list are its own.
struct SubpathHead {
  var start: Point
  var isClosed: Bool
  var segmentCount: Int
}

extension Path {
  /// Makes the path the subpaths `heads` describe, each with its `segmentCount` segments
  /// taken in turn from `segments`, writing over the storage that is there.
  ///
  /// A segment path keeps its shape from frame to frame (the same subpaths with the same
  /// number of segments), so after the first frame this only overwrites points: one
  /// uniqueness check for the subpaths and one per subpath, nothing allocated or freed.
  mutating func overwrite(
    heads: UnsafeBufferPointer<SubpathHead>, segments: UnsafeBufferPointer<Segment>
  ) {
    if subpaths.count > heads.count { subpaths.removeSubrange(heads.count...) }
    while subpaths.count < heads.count { subpaths.append(Subpath(start: .zero)) }
    subpaths.withUnsafeMutableBufferPointer { mine in
      var first = 0
      for s in heads.indices {
        let head = heads[s]
        let own = UnsafeBufferPointer(rebasing: segments[first..<first + head.segmentCount])
        first += head.segmentCount
        mine[s].start = head.start
        mine[s].isClosed = head.isClosed
        if mine[s].segments.count == own.count {
          mine[s].segments.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: own) }
        } else {
          mine[s].segments.removeAll(keepingCapacity: true)
          mine[s].segments.append(contentsOf: own)
        }
      }
    }
  }
}
