import Foundation
import SceneDiagnostics
import SceneEngine
import SceneGeometry
import SceneLoading
import SceneRuntime
import SceneSyntax
import SceneTestSupport
import Testing

/// The README's "Embedding the engine" sample, verbatim: the portable engine driven by
/// pointer events, with no file read and no Foundation in the engine.
@Suite struct EmbeddingSampleTests {
  @Test func theEmbeddingSample() throws {
    // What an app would have in its bundle.
    let sceneText = try String(
      contentsOfFile: repositoryPath("Scenes/sticky-ball-dismiss.scene"), encoding: .utf8)
    let file = SourceFile(name: "sticky-ball-dismiss.scene", text: sceneText)
    let loaded = SceneLoading.resolve(SceneLoading.read(file, frontEnd: .dsl))
    guard let graph = loaded.graph else {
      fatalError(DiagnosticRenderer(files: [file]).render(loaded.diagnostics))
    }
    var session = try LiveSession(graph: graph)
    session.pointer(.down, id: 0, at: Point(187.5, 200), afterLastFrame: 0.004)  // grabs the ball
    var frame = try session.frame()  // the next frame, at the scene's frame rate
    for k in 1...60 {  // a finger dragging down, one move a frame
      session.pointer(.move, id: 0, at: Point(187.5, 200 + Double(k) * 6), afterLastFrame: 0.004)
      frame = try session.frame()
    }
    session.pointer(.up, id: 0, at: Point(187.5, 560), afterLastFrame: 0.004)
    let first = try session.seek(to: 0)  // the take: any frame of it again, exactly
    // What the comments promise.
    #expect(frame.handles.first { $0.name == "ball" }!.y > 400)  // dragged far down
    #expect(first?.namedEvents.contains(NamedEvent("grab", "ball")) == true)
    #expect(session.furthestFrame == 60)
  }
}
