import SceneGeometry

/// A uniform grid of the draggable handles, so a press looks only at the handles near it
/// instead of measuring its distance to every handle of the scene.
///
/// Cells are as wide as the largest hit radius, so every handle that can be hit from a
/// point is in the 3 × 3 cells around it. After anything moved the handles (a step), the
/// first press scans them all, as cheap as it gets once; a second press before the next
/// step builds the grid (at most once per step, the same order of work as the step
/// itself), and the one handle a release moves is moved in it. Pressing and releasing every
/// handle in turn then costs a constant per press, not the scene's size.
struct HitGrid: Sendable {
  /// The draggable handles, in scene order.
  let draggable: [Int]
  let isDraggable: [Bool]
  let hitRadius: [Double]
  let cellSize: Double
  /// Each cell's handles, by cell key.
  private var cells: [Cell: [Int]] = [:]
  /// The cell each draggable handle was filed under (by handle index; unused for others).
  private var filed: [Cell]
  /// Whether the grid holds the handles' current positions.
  private(set) var isCurrent = false
  /// Whether a press has scanned every handle since they last moved.
  private var scannedSinceMove = false
  /// Distances measured by presses so far: the work the grid saves is counted, not timed.
  private(set) var distanceChecks = 0

  struct Cell: Hashable, Sendable {
    var x: Int
    var y: Int
  }

  init(draggable: [Int], hitRadius: [Double], handleCount: Int) {
    self.draggable = draggable
    self.hitRadius = hitRadius
    var isDraggable = Array(repeating: false, count: handleCount)
    for i in draggable { isDraggable[i] = true }
    self.isDraggable = isDraggable
    let largest = draggable.reduce(0.0) { Swift.max($0, hitRadius[$1]) }
    // A cell is at least a point wide; a radius beyond any scene makes one cell hold all.
    cellSize = Swift.min(Swift.max(largest, 1), 1e12)
    filed = Array(repeating: Cell(x: 0, y: 0), count: handleCount)
  }

  func cell(of point: Vector) -> Cell {
    // Positions are finite (the simulation checks every frame); clamp so the key fits.
    func index(_ value: Double) -> Int {
      Int(Swift.min(Swift.max((value / cellSize).rounded(.down), -1e15), 1e15))
    }
    return Cell(x: index(point.x), y: index(point.y))
  }

  /// Files every draggable handle under its cell at `positions`.
  mutating func rebuild(_ positions: (Int) -> Vector) {
    cells.removeAll(keepingCapacity: true)
    for i in draggable {
      let key = cell(of: positions(i))
      filed[i] = key
      cells[key, default: []].append(i)
    }
    isCurrent = true
  }

  /// The positions changed: the grid no longer holds them.
  mutating func invalidate() {
    isCurrent = false
    scannedSinceMove = false
  }

  /// Handle `i` alone moved to `position`.
  mutating func move(_ i: Int, to position: Vector) {
    guard isCurrent, isDraggable[i] else { return }
    let key = cell(of: position)
    let old = filed[i]
    guard key != old else { return }
    if let at = cells[old]?.firstIndex(of: i) { cells[old]?.remove(at: at) }
    cells[key, default: []].append(i)
    filed[i] = key
  }

  /// The topmost (last declared) handle within its hit radius of `point` that `accepts`.
  ///
  /// `scanEveryTime` is for scenes where a release can move handles other than the one
  /// released (a draggable handle bound to an expression): every press scans them all.
  mutating func topmost(
    at point: Vector, scanEveryTime: Bool, position: (Int) -> Vector, accepts: (Int) -> Bool
  ) -> Int? {
    if scanEveryTime || (!isCurrent && !scannedSinceMove) {
      scannedSinceMove = true
      for i in draggable.reversed() {
        distanceChecks += 1
        if position(i).distance(to: point) <= hitRadius[i] && accepts(i) { return i }
      }
      return nil
    }
    if !isCurrent { rebuild(position) }
    let center = cell(of: point)
    var best: Int?
    for dx in -1...1 {
      for dy in -1...1 {
        guard let members = cells[Cell(x: center.x &+ dx, y: center.y &+ dy)] else { continue }
        for i in members where i > (best ?? -1) {
          distanceChecks += 1
          if position(i).distance(to: point) <= hitRadius[i] && accepts(i) { best = i }
        }
      }
    }
    return best
  }
}
