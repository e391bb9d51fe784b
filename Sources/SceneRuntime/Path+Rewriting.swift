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
