import Foundation
import SceneDiagnostics
import SceneGeometry
import SceneLoading
import ScenePipeline
import SceneRuntime
import SceneSyntax
import SceneTestSupport
import SceneYAML
import Testing

/// The portable front door: text through a front end chosen by the caller, resolved with
/// the traces the caller hands in, and no file read.
@Suite struct SceneLoadingTests {
  static func text(_ scene: String) throws -> SourceFile {
    SourceFile(
      name: scene,
      text: try String(contentsOfFile: repositoryPath("Scenes/\(scene)"), encoding: .utf8))
  }

  @Test(arguments: ["wave.scene", "sticky-ball-dismiss.scene", "toggle.scene"])
  func theDSLFrontEndRunsAsTheShellDoes(scene: String) throws {
    let read = SceneLoading.read(try Self.text(scene), frontEnd: .dsl)
    let resolved = SceneLoading.resolve(read)
    #expect(resolved.diagnostics.isEmpty)
    let graph = try #require(resolved.graph)
    let shell = try #require(try ScenePipeline.load(path: repositoryPath("Scenes/\(scene)")).graph)
    #expect(try SceneRunner.frames(of: graph) == (try SceneRunner.frames(of: shell)))
  }

  @Test func theYAMLFrontEndIsAValueTheShellRegisters() throws {
    let yaml = SceneLoading.read(try Self.text("wave.yaml"), frontEnd: .yaml())
    let dsl = SceneLoading.read(try Self.text("wave.scene"), frontEnd: .dsl)
    let a = try #require(SceneLoading.resolve(yaml).graph)
    let b = try #require(SceneLoading.resolve(dsl).graph)
    #expect(try SceneRunner.frames(of: a) == (try SceneRunner.frames(of: b)))
    // Its limits are the shell's to set.
    let shallow = SceneLoading.read(
      try Self.text("wave.yaml"), frontEnd: .yaml(limits: YAMLReader.Limits(maxDepth: 1)))
    #expect(shallow.spec == nil && shallow.hasErrors)
  }

  @Test(
    arguments: [
      ("a.scene", "dsl"), ("A.SCENE", "dsl"), ("x.yaml", "yaml"), ("x.YML", "yaml"),
      ("x.yaml.txt", nil), ("scene", nil), ("dir.scene/x", nil),
    ] as [(String, String?)])
  func frontEndsArePickedByExtension(file: String, frontEnd: String?) {
    let picked = [SceneFrontEnd.yaml(), .dsl].first { $0.accepts(fileName: file) }
    #expect(picked?.name == frontEnd)
  }

  static let replaying = SourceFile(
    name: "replay.scene",
    text: """
      scene "replay" size=200x200
      handle h position=(0, 0) r=5 draggable
      gesture
        replay "take.csv"

      """)

  @Test func aReplayWhoseTraceWasNotGivenIsALocatedError() {
    let resolved = SceneLoading.resolve(SceneLoading.read(Self.replaying, frontEnd: .dsl))
    #expect(resolved.graph == nil)
    let rendered = DiagnosticRenderer(files: [Self.replaying]).render(resolved.diagnostics)
    #expect(
      rendered == """
        replay.scene:4:11: error: no trace was given for the replay of 'take.csv' (this loader reads no files)
              replay "take.csv"
                      ^~~~~~~~

        """)
  }

  @Test func aReplayPlaysTheTraceTheCallerHandsIn() throws {
    let trace = try TraceFile.parse(
      "t,x,y,phase\n0,0,0,down\n0.1,50,0,move\n0.2,50,0,up\n", name: "take.csv")
    let resolved = SceneLoading.resolve(
      SceneLoading.read(Self.replaying, frontEnd: .dsl), traces: ["take.csv": trace])
    #expect(resolved.diagnostics.isEmpty)
    let frames = try SceneRunner.frames(of: try #require(resolved.graph))
    #expect(frames.contains { $0.handles[0].x == 50 })
  }

  @Test func noFileIsEmpty() {
    let read = SceneLoading.read(SourceFile(name: "e.scene", text: "\u{FEFF}"), frontEnd: .dsl)
    #expect(read.diagnostics.map(\.message) == ["the scene is empty"])
  }
}
