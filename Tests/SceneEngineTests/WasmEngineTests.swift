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
  ///
  /// `traces` are the trace files handed to the engine, text by name.
  static func runInNode(_ text: String, precision: Int = 3, traces: [String: String] = [:])
    throws -> (Data, Int32, String)
  {
    let folder = try makeScratchFolder("scenec-wasm")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("scene.scene")
    try text.write(to: file, atomically: true, encoding: .utf8)
    var traceArguments: [String] = []
    for (k, name) in traces.keys.sorted().enumerated() {
      let trace = folder.appendingPathComponent("trace-\(k)")
      try traces[name]?.write(to: trace, atomically: true, encoding: .utf8)
      traceArguments.append("\(name)=\(trace.path)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(node))
    process.arguments =
      [repositoryPath("Wasm/node/run-scene.mjs"), engine, file.path, String(precision)]
      + traceArguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // A hang (as a stack that overflowed into the engine's data once caused) fails the
    // test rather than stalling the run; the limit is far above any run here.
    DispatchQueue.global().asyncAfter(deadline: .now() + 300) {
      if process.isRunning { process.terminate() }
    }
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

/// A gesture that replays a trace: the host hands the trace in (`scenec_add_trace`), and
/// the engine's frames are `scenec run`'s; a bad trace is refused with its diagnostics,
/// and a trace not handed in is the located error of the portable loader.
@Suite struct WasmEngineTraceTests {
  static let scene = """
    scene "replay" size=300x200 fps=60
    handle h position=(50, 100) r=20 draggable fill=#ff8800
    spring snappy dampingRatio=0.8 duration=0.4s
    elastic h return=snappy
    gesture
      replay "take.csv"
      wait 0.5s

    """
  static let trace = """
    t,x,y,phase
    0,50,100,down
    0.1,90,110,move
    0.2,150,120,move
    0.25,160,120,up

    """

  @Test(.enabled(if: WasmEngineTests.canRun, "\(WasmEngineTests.why)"))
  func aReplayedTraceMakesScenecRunsFrames() throws {
    let folder = try makeScratchFolder("scenec-wasm-trace")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("replay.scene")
    try Self.scene.write(to: file, atomically: true, encoding: .utf8)
    try Self.trace.write(
      to: folder.appendingPathComponent("take.csv"), atomically: true, encoding: .utf8)
    let graph = try #require(try ScenePipeline.load(path: file.path).graph)
    let native = FrameOutput.jsonl.text(
      of: try SceneRunner.frames(of: graph), context: OutputContext(graph: graph, fps: graph.fps))
    let (data, status, message) = try WasmEngineTests.runInNode(
      Self.scene, traces: ["take.csv": Self.trace])
    #expect(status == 0, "\(message)")
    #expect(String(decoding: data, as: UTF8.self) == native)
    #expect(native.contains(#""x":160"#))
  }

  @Test(.enabled(if: WasmEngineTests.canRun, "\(WasmEngineTests.why)"))
  func aBadTraceOrNoneIsRefusedWithWhereAndWhy() throws {
    let (data, status, message) = try WasmEngineTests.runInNode(
      Self.scene, traces: ["take.csv": "t,x,y,phase\n0,50,100,down\n-1,50,100,up\n"])
    #expect(status == 1 && data.isEmpty)
    #expect(
      message == """
        take.csv:3:1: error: time '-1' is before the previous sample's time '0'
            -1,50,100,up
            ^~
        take.csv:2:1: note: the previous sample is here
            0,50,100,down
            ^

        """)
    let (_, missingStatus, missing) = try WasmEngineTests.runInNode(Self.scene)
    #expect(missingStatus == 1)
    #expect(
      missing == """
        scene.scene:6:11: error: no trace was given for the replay of 'take.csv' (this loader reads no files)
              replay "take.csv"
                      ^~~~~~~~

        """)
  }
}

/// Whatever a host passes, the engine answers with a reason rather than trapping: calls
/// before a scene, lengths past the input, negative or huge numbers, bad pointers.
@Suite struct WasmEngineHostileCallTests {
  @Test(.enabled(if: WasmEngineTests.canRun, "\(WasmEngineTests.why)"))
  func badCallsAreAnsweredWithWhy() throws {
    let script = """
      const calls = [
        () => e.scenec_frame(1), () => e.scenec_seek(5, 1), () => e.scenec_set_input(0, 1, 0),
        () => e.scenec_play_script(), () => e.scenec_restart(),
        () => e.scenec_add_trace(2147483647, 2147483647), () => e.scenec_add_trace(-5, -5),
        () => e.scenec_load(-1, 3),
        () => e.scenec_load(text(readFileSync(process.argv[2], "utf8")), 99),
        () => e.scenec_seek(2147483647, 1), () => e.scenec_seek(-3, 1),
        () => e.scenec_pointer(9, 0, 1, 1, 0), () => e.scenec_pointer(0, 40, 1, 1, 0),
        () => e.scenec_pointer(0, 0, NaN, 1, 0), () => e.scenec_pointer(0, 0, 1, 1, -Infinity),
      ];
      process.stdout.write(calls.map((call) => call() + " " + said()).join("\\n"));
      """
    let (answers, status) = try WasmLiveSessionTests.run(script, scene: "sticky-ball-dismiss.scene")
    #expect(status == 0)
    #expect(
      answers == """
        1 no scene is loaded
        1 no scene is loaded
        1 no scene is loaded
        1 no scene is loaded
        1 no scene is loaded
        1 the input holds fewer bytes than the name and the text
        1 a trace needs the name its replay steps give
        1 scene.scene:1:1: error: the scene is empty
            
            ^

        0 
        1 nothing has been played yet
        1 nothing has been played yet
        1 a pointer needs a phase 0 to 3, an id 0 to 31 and finite numbers
        1 a pointer needs a phase 0 to 3, an id 0 to 31 and finite numbers
        1 a pointer needs a phase 0 to 3, an id 0 to 31 and finite numbers
        1 a pointer needs a phase 0 to 3, an id 0 to 31 and finite numbers
        """)
  }
}

/// The deepest expressions the limits allow run in the engine exactly as natively.
///
/// The limits are 100 levels of nesting and 256 levels of operations (Grammar.md,
/// Limits); one level more is refused with the native error. Their recursion needs about
/// 450 KiB of stack in the optimized engine; with wasm-ld's default stack of 64 KiB they
/// overflowed it into the engine's static data, which trapped, hung or corrupted the run.
@Suite struct WasmEngineDepthTests {
  /// Each `let deep = …` expression, by name, at the limit.
  static let deepest: [String: String] = [
    "parentheses": String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100),
    "unary minus": String(repeating: "-", count: 100) + "1",
    "calls": String(repeating: "abs(", count: 100) + "1" + String(repeating: ")", count: 100),
    "conditionals": String(repeating: "(1 > 0 ? ", count: 50) + "1"
      + String(repeating: " : 0)", count: 50),
    "a chain of operations": Array(repeating: "1", count: 256).joined(separator: " + "),
    "calls around a chain": String(repeating: "min(1, ", count: 100)
      + Array(repeating: "1", count: 156).joined(separator: " * ")
      + String(repeating: ")", count: 100),
  ]

  static func scene(_ expression: String) -> String {
    """
    scene "Deep" size=300x300 fps=60 duration=0.1s
    let deep = \(expression)
    handle a position=(deep, 10) r=16 draggable fill=#ffffff

    """
  }

  @Test(
    .enabled(if: WasmEngineTests.canRun, "\(WasmEngineTests.why)"), arguments: deepest.keys.sorted()
  )
  func theDeepestExpressionsRunAsNatively(name: String) throws {
    let text = Self.scene(try #require(Self.deepest[name]))
    let folder = try makeScratchFolder("scenec-wasm-deep")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("deep.scene")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let graph = try #require(try ScenePipeline.load(path: file.path).graph)
    let native = FrameOutput.jsonl.text(
      of: try SceneRunner.frames(of: graph), context: OutputContext(graph: graph, fps: graph.fps))
    let (data, status, message) = try WasmEngineTests.runInNode(text)
    #expect(status == 0, "\(message)")
    #expect(String(decoding: data, as: UTF8.self) == native)
  }

  @Test(.enabled(if: WasmEngineTests.canRun, "\(WasmEngineTests.why)"))
  func oneLevelMoreIsRefusedAsNatively() throws {
    let parentheses = String(repeating: "(", count: 101) + "1" + String(repeating: ")", count: 101)
    let chain = Array(repeating: "1", count: 257).joined(separator: " + ")
    for (expression, first) in [
      (
        parentheses, "scene.scene:2:112: error: expression nested too deeply (more than 100 levels)"
      ),
      (
        chain,
        "scene.scene:2:12: error: expression too complex (more than 256 levels of operations)"
      ),
    ] {
      let (data, status, message) = try WasmEngineTests.runInNode(Self.scene(expression))
      #expect(status == 1 && data.isEmpty)
      #expect(message.split(separator: "\n").first.map(String.init) == first)
    }
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
      if (e.scenec_load(text(readFileSync(process.argv[2], "utf8")), 3) !== 0) process.exit(1);
      let out = "";
      for (let k = 0; k < 90; k++) {
        if (k === 0) e.scenec_pointer(0, 0, 187.5, 200, 0.004);
        if (k > 0 && k <= 60) e.scenec_pointer(1, 0, 187.5, 200 + k * 6, 0.004);
        if (k === 60) e.scenec_pointer(2, 0, 187.5, 560, 0.004);
        if (e.scenec_frame(0) !== 0) process.exit(2);
        out += said();
      }
      process.stdout.write(out);
      """
    let (wasm, status) = try Self.run(script, scene: "sticky-ball-dismiss.scene")
    #expect(status == 0)
    #expect(wasm == native.string)
    // And the drag did what the scene is about: the bridge broke.
    #expect(wasm.contains("link.broke"))
  }

  /// Inputs set live (`scenec_set_input`) make the native session's frames.
  ///
  /// The wave is pulled past its threshold, `loading` set as the finger lifts and cleared a
  /// second later, the refresh machine going to loading and back. Refusals are the native
  /// session's words.
  @Test(.enabled(if: WasmEngineTests.canRun, "\(WasmEngineTests.why)"))
  func inputsSetLiveMakeTheNativeSessionsFrames() throws {
    let graph = try #require(
      try ScenePipeline.load(path: repositoryPath("Scenes/pull-to-refresh.scene")).graph)
    var session = try LiveSession(graph: graph)
    var writer = JSONLinesWriter(context: OutputContext(graph: graph, fps: graph.fps))
    var native = TextBytes(capacity: 1 << 16)
    for k in 0..<200 {
      if k == 0 { session.pointer(.down, id: 0, at: Point(187, 40), afterLastFrame: 0.004) }
      if k > 0 && k <= 40 {
        session.pointer(.move, id: 0, at: Point(187, 40 + Double(k) * 5), afterLastFrame: 0.004)
      }
      if k == 40 {
        #expect(session.setInput(named: "loading", to: 1, afterLastFrame: 0.005) == nil)
        session.pointer(.up, id: 0, at: Point(187, 240), afterLastFrame: 0.006)
      }
      if k == 100 {
        #expect(session.setInput(named: "loading", to: 0, afterLastFrame: 0.004) == nil)
      }
      writer.append(try session.frame(), to: &native)
    }
    #expect(native.string.contains(#""to":"loading""#))
    #expect(
      session.setInput(named: "nope", to: 1, afterLastFrame: 0) == "the scene has no input 'nope'")
    let script = """
      if (e.scenec_load(text(readFileSync(process.argv[2], "utf8")), 3) !== 0) process.exit(1);
      let out = "";
      for (let k = 0; k < 200; k++) {
        if (k === 0) e.scenec_pointer(0, 0, 187, 40, 0.004);
        if (k > 0 && k <= 40) e.scenec_pointer(1, 0, 187, 40 + k * 5, 0.004);
        if (k === 40) {
          if (e.scenec_set_input(text("loading"), 1, 0.005) !== 0) process.exit(3);
          e.scenec_pointer(2, 0, 187, 240, 0.006);
        }
        if (k === 100 && e.scenec_set_input(text("loading"), 0, 0.004) !== 0) process.exit(3);
        if (e.scenec_frame(0) !== 0) process.exit(2);
        out += said();
      }
      const refusals = [["nope", 1, 0], ["loading", NaN, 0], ["loading", 1, Infinity]]
        .map(([n, v, t]) => e.scenec_set_input(text(n), v, t) + " " + said());
      process.stdout.write(out + "--\\n" + refusals.join("\\n"));
      """
    let (wasm, status) = try Self.run(script, scene: "pull-to-refresh.scene")
    #expect(status == 0)
    let parts = wasm.components(separatedBy: "--\n")
    #expect(parts.first == native.string)
    #expect(
      parts.last == """
        1 the scene has no input 'nope'
        1 an input's value and time are finite numbers
        1 an input's value and time are finite numbers
        """)
  }

  /// What every script starts with: the engine instantiated as `e`; `text(s)` puts `s` in
  /// its input and gives its length in bytes; `said()` is the output's text.
  static let prelude = """
    import { readFileSync } from "node:fs";
    const { instance } = await WebAssembly.instantiate(readFileSync(process.argv[1]), {});
    const e = instance.exports;
    const text = (s) => { const b = new TextEncoder().encode(s); const at = e.scenec_input(b.length); new Uint8Array(e.memory.buffer, at, b.length).set(b); return b.length; };
    const said = () => new TextDecoder().decode(new Uint8Array(e.memory.buffer, e.scenec_output(), e.scenec_output_length()));

    """

  /// Runs a node module, ``prelude`` then `script`, with the engine and a scene of
  /// `Scenes/` as its arguments; what it prints and its exit status.
  static func run(_ script: String, scene: String) throws -> (String, Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(WasmEngineTests.node))
    process.arguments = [
      "--input-type=module", "-e", prelude + script, WasmEngineTests.engine,
      repositoryPath("Scenes/\(scene)"),
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), process.terminationStatus)
  }
}
