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
  /// The occupied cells, each with the first handle of its list.
  ///
  /// An open-addressed table of cell keys (linear probing, a multiplicative hash; a
  /// `Dictionary` of arrays spent most of a press hashing and allocating), in one array of
  /// slots, so that a probe reads one place.
  private var table: [Slot]
  /// How many slots of the table are in use, empty cells included.
  private var occupied = 0
  /// Each handle's successor in its cell's list (-1 at the end), by handle index.
  private var next: [Int32]
  /// The cell each draggable handle was filed under (by handle index; unused for others).
  private var filed: [Cell]
  /// Whether the grid holds the handles' current positions.
  private(set) var isCurrent = false
  /// Whether a press has scanned every handle since they last moved.
  private var scannedSinceMove = false
  /// Distances measured by presses so far: the work the grid saves is counted, not timed.
  private(set) var distanceChecks = 0

  struct Cell: Equatable, Sendable {
    var x: Int
    var y: Int
  }

  /// A slot of the table: a cell, the first handle filed under it (-1: none), and
  /// whether the slot holds a cell at all.
  struct Slot: Sendable {
    var key = Cell(x: 0, y: 0)
    var head: Int32 = -1
    var used = false
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
    next = Array(repeating: -1, count: handleCount)
    // At most one cell per draggable handle; at least twice that many slots keeps probes short.
    var capacity = 16
    while capacity < 2 * draggable.count { capacity *= 2 }
    table = Array(repeating: Slot(), count: capacity)
  }

  /// The largest cell index either way: 1e15, or less where `Int` is 32 bits.
  static let cellLimit = Swift.min(1e15, Double(Int.max >> 2))

  func cell(of point: Vector) -> Cell {
    // Positions are finite (the simulation checks every frame); clamp so the key fits,
    // in a 32-bit `Int` too (WebAssembly): far cells then share the edge cell, which only
    // costs distance checks.
    func index(_ value: Double) -> Int {
      Int(Swift.min(Swift.max((value / cellSize).rounded(.down), -Self.cellLimit), Self.cellLimit))
    }
    return Cell(x: index(point.x), y: index(point.y))
  }

  /// The table slot holding `cell`, or the empty slot where it would go.
  private func slot(of cell: Cell) -> Int {
    let mask = table.count - 1
    let mixed =
      (UInt64(bitPattern: Int64(cell.x)) &* 0x9E37_79B9_7F4A_7C15)
      ^ (UInt64(bitPattern: Int64(cell.y)) &* 0xC2B2_AE3D_27D4_EB4F)
    var i = Int(truncatingIfNeeded: mixed >> 32) & mask
    while table[i].used && table[i].key != cell { i = (i + 1) & mask }
    return i
  }

  /// The first handle filed under `cell`, or -1.
  private func head(of cell: Cell) -> Int32 {
    let i = slot(of: cell)
    return table[i].used ? table[i].head : -1
  }

  private mutating func file(_ handle: Int, under cell: Cell) {
    var i = slot(of: cell)
    if !table[i].used && 4 * (occupied + 1) > 3 * table.count {
      // Cells emptied by moves stay in the table; before it fills, keep only those that
      // hold a handle. At most one cell per handle, so this leaves it at most half full.
      refile()
      i = slot(of: cell)
    }
    if !table[i].used {
      occupied += 1
      table[i] = Slot(key: cell, head: -1, used: true)
    }
    next[handle] = table[i].head
    table[i].head = Int32(handle)
    filed[handle] = cell
  }

  /// Takes `handle` out of its cell's list (the cell stays in the table, empty).
  private mutating func unfile(_ handle: Int) {
    let i = slot(of: filed[handle])
    guard table[i].used else { return }
    if table[i].head == Int32(handle) {
      table[i].head = next[handle]
      return
    }
    var previous = Int(table[i].head)
    while previous >= 0 {
      let following = Int(next[previous])
      if following == handle {
        next[previous] = next[handle]
        return
      }
      previous = following
    }
  }

  /// Files every draggable handle under its cell at `positions`.
  mutating func rebuild(_ positions: (Int) -> Vector) {
    clear()
    for i in draggable { file(i, under: cell(of: positions(i))) }
    isCurrent = true
  }

  private mutating func clear() {
    for i in table.indices { table[i].used = false }
    occupied = 0
  }

  /// Files every draggable handle again under the cell it is filed under.
  ///
  /// The table is then at most half full, so filing never compacts again inside this.
  private mutating func refile() {
    clear()
    for i in draggable { file(i, under: filed[i]) }
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
    guard key != filed[i] else { return }
    unfile(i)
    file(i, under: key)
  }

  /// Whether `point` is within `radius` of `position`, as `distance(to:) <= radius` says.
  ///
  /// It takes `hypot` only when the squares are too close to call: they are within a few
  /// ulps of the true ones, and positions lie within ±1e15, so nothing overflows.
  @inline(__always)
  static func reaches(_ position: Vector, _ point: Vector, radius: Double) -> Bool {
    let offset = point - position
    let squared = offset.x * offset.x + offset.y * offset.y
    let limit = radius * radius
    if squared < limit * (1 - 1e-12) { return true }
    if squared > limit * (1 + 1e-12) { return false }
    return position.distance(to: point) <= radius
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
        if Self.reaches(position(i), point, radius: hitRadius[i]) && accepts(i) { return i }
      }
      return nil
    }
    if !isCurrent { rebuild(position) }
    let center = cell(of: point)
    var best: Int?
    for dx in -1...1 {
      for dy in -1...1 {
        var member = Int(head(of: Cell(x: center.x &+ dx, y: center.y &+ dy)))
        while member >= 0 {
          if member > (best ?? -1) {
            distanceChecks += 1
            if Self.reaches(position(member), point, radius: hitRadius[member]) && accepts(member) {
              best = member
            }
          }
          member = Int(next[member])
        }
      }
    }
    return best
  }
}
