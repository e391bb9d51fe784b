import SceneGeometry
import SceneGraph
import SceneTestSupport
import Testing

@testable import SceneRuntime

/// Presses find their handle through a grid, counted rather than timed: pressing and
/// releasing every handle of a big scene costs a few distance checks a press, and the
/// grid picks exactly the handle a scan of them all would.
@Suite struct HitGridTests {
  /// `count` draggable circles on a square grid 30 points apart.
  static func scene(count: Int) -> String {
    let side = Int(Double(count).squareRoot().rounded(.up))
    var yaml = "scene: { size: \(side * 30)x\(side * 30) }\nhandles:\n"
    for i in 0..<count {
      yaml +=
        "  h\(i): { position: [\(i % side * 30 + 15), \(i / side * 30 + 15)], r: 10, draggable: true }\n"
    }
    return yaml
  }

  /// The squares decide only where they cannot be wrong: on points at the radius give or
  /// take a few ulps, and anywhere else, the answer is `distance(to:) <= radius`.
  @Test func reachingIsExactlyDistanceWithinRadius() {
    var generator = SeededGenerator(seed: 0x4EA_C4)
    var nearTheEdge = 0
    for _ in 0..<100_000 {
      let position = Vector(
        Double.random(in: -1e4...1e4, using: &generator),
        Double.random(in: -1e4...1e4, using: &generator))
      let radius = [0, 1e-3, 10, 44, 1e6][Int.random(in: 0..<5, using: &generator)]
      let direction = Vector(
        Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator))
      guard direction.length > 0.1 else { continue }
      // Half exactly at the radius, as near as rounding puts it; half anywhere near it.
      let ulps = Double(Int.random(in: -4...4, using: &generator))
      let reach =
        Bool.random(using: &generator)
        ? radius + ulps * radius.ulp
        : radius * Double.random(in: 0...2, using: &generator)
      let point = position + direction * (reach / direction.length)
      if abs(position.distance(to: point) - radius) <= 1e-9 * max(radius, 1) { nearTheEdge += 1 }
      #expect(
        HitGrid.reaches(position, point, radius: radius)
          == (position.distance(to: point) <= radius))
    }
    #expect(nearTheEdge > 25_000)
  }

  @Test func aPressAfterEachStepGrabsTheHandleUnderIt() throws {
    let count = 1_000
    var simulation = try Simulation(graph: graph(Self.scene(count: count)))
    var grabbed = 0
    for i in 0..<count {
      simulation.pointerDown(id: 0, at: Point(Double(i % 32 * 30 + 15), Double(i / 32 * 30 + 15)))
      simulation.pointerUp(id: 0, velocity: .zero)
      let events = try simulation.step(dt: 1.0 / 60).namedEvents
      if events.contains(NamedEvent("grab", "h\(i)")) { grabbed += 1 }
    }
    #expect(grabbed == count)
  }

  @Test func withoutAStepBetweenThemPressesUseTheGrid() throws {
    let count = 4_096
    var simulation = try Simulation(graph: graph(Self.scene(count: count)))
    for i in 0..<count {
      simulation.pointerDown(id: 0, at: Point(Double(i % 64 * 30 + 15), Double(i / 64 * 30 + 15)))
      simulation.pointerUp(id: 0, velocity: .zero)
    }
    let frame = try simulation.currentFrame()
    #expect(frame.events.filter { $0.type == "grab" }.count == count)
    // One scan for the first press (all 4,096, since h0 is the last a scan from the top
    // reaches), then the grid: cells 22 points wide (the hit radius) hold at most one of
    // these handles, so a press checks at most the 9 around it. Scanning for every press
    // would take about 8 million checks.
    #expect(simulation.hitGrid.distanceChecks <= count + 9 * count)
  }

  /// Releases that carry handles into ever new cells, with no step between presses, leave
  /// emptied cells in the grid's table; it is compacted before it fills (a full table
  /// would never end a probe), and every press still grabs the right handle.
  @Test func manyMovesWithoutAStepKeepTheGridSound() throws {
    let count = 16
    var yaml = "scene: { size: 40000x400 }\nhandles:\n"
    for i in 0..<count {
      yaml += "  h\(i): { position: [\(i * 1000), 100], r: 10, draggable: true }\n"
    }
    var simulation = try Simulation(graph: graph(yaml))
    var positions = (0..<count).map { Point(Double($0 * 1000), 100) }
    let rounds = 4_000
    for round in 0..<rounds {
      let k = round % count
      simulation.pointerDown(id: 0, at: positions[k])
      positions[k] = positions[k] + Vector(30, 0)
      simulation.pointerMoved(id: 0, to: positions[k])
      simulation.pointerUp(id: 0, velocity: .zero)
    }
    let frame = try simulation.currentFrame()
    let grabs = frame.namedEvents.filter { $0.type == "grab" }
    #expect(grabs.count == rounds)
    #expect(grabs.enumerated().allSatisfy { $0.element.subject == "h\($0.offset % count)" })
    for k in 0..<count {
      let handle = try #require(frame.handles.first { $0.name == "h\(k)" })
      #expect(handle.x == positions[k].x && handle.y == positions[k].y)
    }
    // One scan, then at most the 9 cells around each press, each holding one handle.
    #expect(simulation.hitGrid.distanceChecks <= count + 9 * rounds)
  }

  @Test func theGridPicksTheHandleAScanWould() throws {
    // Overlapping handles of varied hit radii: the topmost (last declared) within its own
    // radius wins, and a handle already held is passed over.
    var random = SeededGenerator(seed: 21)
    var yaml = "scene: { size: 400x400 }\nhandles:\n"
    for i in 0..<300 {
      let x = Double.random(in: 0...400, using: &random)
      let y = Double.random(in: 0...400, using: &random)
      let hit = Double.random(in: 2...40, using: &random)
      yaml += "  h\(i): { position: [\(x), \(y)], r: 2, hitRadius: \(hit), draggable: true }\n"
    }
    var simulation = try Simulation(graph: graph(yaml))
    let positions = simulation.handles.map(\.position)
    let radii = simulation.graph.handles.map(\.hitRadius)
    var held: Set<Int> = []
    for press in 0..<400 {
      let point = Point(
        Double.random(in: 0...400, using: &random), Double.random(in: 0...400, using: &random))
      let expected = positions.indices.reversed().first {
        positions[$0].distance(to: point) <= radii[$0] && !held.contains($0)
      }
      simulation.pointerDown(id: press, at: point)
      let grabbed = simulation.pointers.first { $0.id == press }?.grabbed
      #expect(grabbed == expected)
      if let grabbed { held.insert(grabbed) }
    }
  }
}
