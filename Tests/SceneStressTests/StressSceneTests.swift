import SceneDiagnostics
import ScenePipeline
import SceneResolve
import SceneStress
import SceneSyntax
import Testing

@testable import SceneGraph
@testable import SceneRuntime

@Suite struct StressSceneTests {
  static func graph(_ scene: StressScene) throws -> SceneGraph {
    let loaded = SceneLoader.load(SourceFile(name: "stress.yaml", text: scene.yaml), syntax: .yaml)
    #expect(
      loaded.diagnostics.isEmpty,
      "\(DiagnosticRenderer(files: loaded.file.map { [$0] } ?? []).render(loaded.diagnostics))")
    let spec = try #require(loaded.spec)
    let resolved = SceneResolver.resolve(spec)
    #expect(resolved.errors.isEmpty, "\(resolved.errors.map(\.diagnostic.message))")
    return try #require(resolved.graph)
  }

  @Test(arguments: [8, 9, 15, 100, 1000, 1003])
  func hasExactlyTheHandlesAskedForAndResolvesCleanly(handles: Int) throws {
    let graph = try Self.graph(StressScene(handles: handles))
    #expect(graph.handles.count == handles)
    let cells = handles / 8
    #expect(graph.constraints.count == cells * 3)
    #expect(graph.paths.count == cells * 2)
  }

  @Test func aSmallCountIsRaisedToOneCell() {
    #expect(StressScene(handles: 3).handles == 8)
  }

  @Test func sameArgumentsGiveTheSameBytes() {
    #expect(StressScene(handles: 1000).yaml == StressScene(handles: 1000).yaml)
    #expect(StressScene(handles: 1000).yaml != StressScene(handles: 1008).yaml)
  }

  @Test func runsItsLengthAndEveryKindOfPartMoves() throws {
    let scene = StressScene(handles: 100, duration: 4)
    let frames = try SceneRunner.frames(of: try Self.graph(scene))
    #expect(frames.count == 4 * 60 + 1)
    let events = Set(frames.flatMap(\.namedEvents))
    // Fingers 1–3 grab the follow, elastic and gooey handles of a cell each round and
    // they come home; finger 0 grabs nothing.
    for handle in ["f0", "e0", "b0", "f6", "e6", "b6"] {
      #expect(events.contains(NamedEvent("grab", handle)), "no grab of \(handle)")
      #expect(events.contains(NamedEvent("rest", handle)), "\(handle) never came to rest")
    }
    #expect(events.contains(NamedEvent("link.restored", "gooey1")))
    #expect(!events.contains { $0.type == "link.broke" })
    // The drag-bound points follow the finger, then spring back; the time-bound ones never stop.
    let pulled = try #require(frames.first { $0.time == 0.8 })
    let point = try #require(pulled.handles.first { $0.name == "w3_1" })
    #expect(point.state == .animating && point.y > 105 + 20)
    #expect(frames.last?.handles.first { $0.name == "w3_1" }?.state == .idle)
    #expect(frames.last?.handles.first { $0.name == "w3_3" }?.state == .animating)
  }
}

/// The stress scene's bound points all call `sin` of `time` alike: the frame's programs
/// compute those parts once (``ExpressionBatch``), and the frames are the same to the bit
/// as when every program computes them itself.
@Suite struct SharedPartsTests {
  @Test func framesAreTheSameToTheBitWithPartsShared() throws {
    let graph = try StressSceneTests.graph(StressScene(handles: 200, duration: 4))
    var shared = try SceneRunner(
      graph: graph, maxFrames: SceneRunner.defaultMaxFrames, sharingFrameConstantParts: true)
    var whole = try SceneRunner(
      graph: graph, maxFrames: SceneRunner.defaultMaxFrames, sharingFrameConstantParts: false)
    // Counted: the 100 bound points of 25 cells call `sin` once each per frame. Points 0
    // and 1 of every cell call `sin(time * 6 + j)`, j = 0, 1: two parts. Points 2 and 3 of
    // cell k call `sin(time * 4 + c)`, c = (k % 16) / 2 + j, j = 2, 3: a part for each c
    // that two points or more have; a point whose c no other has keeps its call.
    var holders: [Double: Int] = [:]
    for k in 0..<25 {
      for j in 2...3 { holders[Double(k % 16) / 2 + Double(j), default: 0] += 1 }
    }
    let parts = 2 + holders.values.filter { $0 >= 2 }.count
    let alone = holders.values.filter { $0 == 1 }.count
    func sines(_ code: [CompiledExpression.Instruction]) -> Int {
      code.filter { $0 == .sine }.count
    }
    let programs = shared.simulation.programs
    #expect(sines(whole.simulation.programs.code) == 100)
    #expect(whole.simulation.programs.sharedCount == 0)
    #expect(programs.sharedCount == parts && parts == 18)
    #expect(sines(programs.sharedCode) == parts && sines(programs.code) == alone && alone == 2)
    var frames = 0
    while let a = try shared.nextFrame() {
      let b = try #require(try whole.nextFrame())
      #expect(a == b, "frame \(a.index)")
      if a != b { break }
      frames += 1
    }
    let afterTheEnd = try whole.nextFrame()
    #expect(frames == 241 && afterTheEnd == nil)
  }
}
