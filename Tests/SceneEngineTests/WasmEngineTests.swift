import Foundation
import SceneDiagnostics
import SceneEngine
import SceneGeometry
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneRuntime
import SceneSyntax
import SceneTestSupport
import Testing

/// The engine compiled to WebAssembly (`Scripts/build-wasm`, which CI runs before the
/// tests) makes the frames the native engine makes: every scene of `Scenes/`, run under
/// node with its scripted gesture, gives `scenec run`'s JSON lines byte for byte.
@Suite struct WasmEngineTests {
  static let engine = repositoryPath(".build-wasm/scenec-engine.wasm")
  static let node: String? = ["/usr/bin/node", "/usr/local/bin/node"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let canRun = node != nil && FileManager.default.fileExists(atPath: engine)
  static let why =
    "the WebAssembly engine cannot run here: it needs node and .build-wasm/scenec-engine.wasm (Scripts/build-wasm)"

  static var scenes: [String] {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: repositoryPath("Scenes"))) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".scene") }.sorted()
  }

  /// The scene as DSL text: a `.scene` file as it is, a YAML one as `scenec fmt --to dsl`
  /// writes it (the WebAssembly engine reads the DSL only).
  static func dsl(of scene: String) throws -> String {
    let path = repositoryPath("Scenes/\(scene)")
    if scene.hasSuffix(".scene") { return try String(contentsOfFile: path, encoding: .utf8) }
    let read = try SceneLoader.load(path: path)
    let spec = try #require(read.spec)
    let tree = SceneEncoder.encode(spec, comments: SceneComments(text: read.file?.text ?? ""))
    return DSLEmitter.emit(tree, header: read.header)
  }

  /// What node prints running the engine on `text`, and its exit status.
  static func runInNode(_ text: String, precision: Int = 3) throws -> (Data, Int32, String) {
    let folder = try makeScratchFolder("scenec-wasm")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("scene.scene")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(node))
    process.arguments = [
      repositoryPath("Wasm/node/run-scene.mjs"), engine, file.path, String(precision),
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read before waiting: a long run fills the pipe.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (data, process.terminationStatus, String(decoding: message, as: UTF8.self))
  }

  @Test(.enabled(if: canRun, "\(why)"), arguments: scenes)
  func theWasmEngineMakesScenecRunsFrames(scene: String) throws {
    let graph = try #require(try ScenePipeline.load(path: repositoryPath("Scenes/\(scene)")).graph)
    let native = FrameOutput.jsonl.text(
      of: try SceneRunner.frames(of: graph), context: OutputContext(graph: graph, fps: graph.fps))
    let (data, status, message) = try Self.runInNode(try Self.dsl(of: scene))
    #expect(status == 0, "\(message)")
    let wasm = String(decoding: data, as: UTF8.self)
    #expect(wasm.count == native.count)
    if wasm != native {
      let pairs = zip(wasm.split(separator: "\n"), native.split(separator: "\n"))
      let first = pairs.enumerated().first { $0.element.0 != $0.element.1 }
      Issue.record(
        "frame \(first?.offset ?? -1) differs:\n\(first?.element.0 ?? "")\n\(first?.element.1 ?? "")"
      )
    }
  }

  @Test(.enabled(if: canRun, "\(why)"))
  func aSceneWithErrorsGetsItsDiagnosticsFromTheEngine() throws {
    let (data, status, message) = try Self.runInNode(
      "scene \"bad\" size=100x100\nhandle h position=(0, 0) r=5 sprin=s\n")
    #expect(status == 1 && data.isEmpty)
    #expect(
      message == """
        scene.scene:2:30: error: unknown key 'sprin' in handle 'h'; did you mean 'spring'?
            handle h position=(0, 0) r=5 sprin=s
                                         ^~~~~

        """)
  }
}

/// Live input: the same pointers at the same moments make the same frames in the
/// WebAssembly engine as in the native live session (the preview's).
@Suite struct WasmLiveSessionTests {
  /// The sticky ball dragged 360 points down over 60 frames and let go, 90 frames in all;
  /// each pointer event 4 ms after the frame before it.
  @Test(.enabled(if: WasmEngineTests.canRun, "\(WasmEngineTests.why)"))
  func aLiveDragMakesTheNativeSessionsFrames() throws {
    // Native: the live session, its frames as JSON lines.
    let graph = try #require(
      try ScenePipeline.load(path: repositoryPath("Scenes/sticky-ball-dismiss.scene")).graph)
    var session = try LiveSession(graph: graph)
    var writer = JSONLinesWriter(context: OutputContext(graph: graph, fps: graph.fps))
    var native = TextBytes(capacity: 1 << 16)
    for k in 0..<90 {
      if k == 0 { session.pointer(.down, id: 0, at: Point(187.5, 200), afterLastFrame: 0.004) }
      if k > 0 && k <= 60 {
        session.pointer(.move, id: 0, at: Point(187.5, 200 + Double(k) * 6), afterLastFrame: 0.004)
      }
      if k == 60 { session.pointer(.up, id: 0, at: Point(187.5, 560), afterLastFrame: 0.004) }
      writer.append(try session.frame(), to: &native)
    }
    // The same in the WebAssembly engine, driven by node.
    let script = """
      import { readFileSync } from "node:fs";
      const { instance } = await WebAssembly.instantiate(readFileSync(process.argv[1]), {});
      const e = instance.exports;
      const bytes = new TextEncoder().encode(readFileSync(process.argv[2], "utf8"));
      const at = e.scenec_input(bytes.length);
      new Uint8Array(e.memory.buffer, at, bytes.length).set(bytes);
      if (e.scenec_load(bytes.length, 3) !== 0) process.exit(1);
      let out = "";
      for (let k = 0; k < 90; k++) {
        if (k === 0) e.scenec_pointer(0, 0, 187.5, 200, 0.004);
        if (k > 0 && k <= 60) e.scenec_pointer(1, 0, 187.5, 200 + k * 6, 0.004);
        if (k === 60) e.scenec_pointer(2, 0, 187.5, 560, 0.004);
        if (e.scenec_frame(0) !== 0) process.exit(2);
        out += new TextDecoder().decode(new Uint8Array(e.memory.buffer, e.scenec_output(), e.scenec_output_length()));
      }
      process.stdout.write(out);
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(WasmEngineTests.node))
    process.arguments = [
      "--input-type=module", "-e", script, WasmEngineTests.engine,
      repositoryPath("Scenes/sticky-ball-dismiss.scene"),
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let wasm = String(decoding: data, as: UTF8.self)
    #expect(wasm == native.string)
    // And the drag did what the scene is about: the bridge broke.
    #expect(wasm.contains("link.broke"))
  }
}
