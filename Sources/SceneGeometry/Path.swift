/// A vector path: a list of subpaths, each a connected run of segments.
///
/// A `Path` is plain data, built from SVG path data (``init(svgPathData:)``) or from
/// segments. Measuring it (arc length, positions, nearest points) goes through
/// ``MeasuredPath``, which precomputes the arc-length table once.
///
/// ```swift
/// let path = try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0")
/// path.svgPathData   // "M0 0C30 80 70 -40 100 0"
/// ```
public struct Path: Hashable, Sendable {
  public var subpaths: [Subpath]

  public init(subpaths: [Subpath] = []) {
    self.subpaths = subpaths
  }

  /// A path of one open or closed subpath.
  public init(start: Point, segments: [Segment], isClosed: Bool = false) {
    self.subpaths = [Subpath(start: start, segments: segments, isClosed: isClosed)]
  }

  /// `true` when the path has no subpath.
  public var isEmpty: Bool { subpaths.isEmpty }
}

/// A connected run of segments that starts at ``start``, as one `M` command begins in
/// SVG path data.
///
/// The segments join end to start. A closed subpath (`Z`) also has an implied straight
/// ``closingSegment`` back to its start when its last point is elsewhere; it is not
/// stored in ``segments``, so path data prints back exactly as it was parsed.
public struct Subpath: Hashable, Sendable {
  public var start: Point
  public var segments: [Segment]
  public var isClosed: Bool

  public init(start: Point, segments: [Segment] = [], isClosed: Bool = false) {
    self.start = start
    self.segments = segments
    self.isClosed = isClosed
  }

  /// The last point of the written segments (the start if there are none).
  public var end: Point { segments.last?.end ?? start }

  /// The straight line a closed subpath draws back to its start, if its end is elsewhere.
  public var closingSegment: Segment? {
    guard isClosed, end != start else { return nil }
    return .line(end, start)
  }

  /// The written segments followed by the closing segment, if any: every piece drawn.
  public var drawnSegments: [Segment] {
    if let closing = closingSegment { return segments + [closing] }
    return segments
  }
}
