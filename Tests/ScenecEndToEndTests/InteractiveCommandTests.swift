import Foundation
import SceneTestSupport
import Testing

/// `scenec run FILE -o x.html --interactive`: one self-contained page with the engine, and
/// what is refused before anything is written. (The page itself is tried in Chromium by
/// `InteractivePageBrowserTests`.)
@Suite struct InteractiveCommandTests {
  static let sticky = RunCommandTests.root.appendingPathComponent("Scenes/sticky-ball.yaml").path
  static let engine = repositoryPath(".build-wasm/scenec-engine.wasm")

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: engine),
      "the WebAssembly engine is not built here (Scripts/build-wasm)"))
  func aPageHoldsTheEngineAndTheSceneAndFetchesNothing() throws {
    let folder = try makeScratchFolder("scenec-interactive")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("sticky.html").path
    let run = try ScenecProcess.run(
      ["run", Self.sticky, "-o", file, "--interactive", "--engine", Self.engine])
    #expect(run.status == 0, "\(run.stderr)")
    let size = try Data(contentsOf: URL(fileURLWithPath: Self.engine)).count
    #expect(
      run.stderr
        == "wrote \(file): an interactive page (the engine \(size) bytes, from \(Self.engine))\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["sticky.html"])
    let page = try String(contentsOfFile: file, encoding: .utf8)
    #expect(
      page.contains(
        "content=\"default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'\""
      ))
    #expect(page.contains("<script type=\"application/octet-stream\" id=\"engine\">AGFzbQ"))
    // The scene goes as DSL, the engine's syntax.
    #expect(page.contains(#"id="source">"scene \"Sticky ball\""#))
    #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("src=\""))
  }

  /// A gesture that replays a trace: the trace goes in the page, as exact CSV, by the name
  /// the `replay` step gives.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: engine),
      "the WebAssembly engine is not built here (Scripts/build-wasm)"))
  func theTracesAGestureReplaysGoInThePage() throws {
    let folder = try makeScratchFolder("scenec-interactive")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("replay.scene")
    try """
    scene "replay" size=300x200
    handle h position=(50, 100) r=20 draggable
    gesture
      replay "take.csv"

    """.write(to: scene, atomically: true, encoding: .utf8)
    try "t,x,y,phase\n0,50,100,down\n0.1,90.25,110,move\n0.2,90.25,110,up\n".write(
      to: folder.appendingPathComponent("take.csv"), atomically: true, encoding: .utf8)
    let file = folder.appendingPathComponent("replay.html").path
    let run = try ScenecProcess.run(
      ["run", scene.path, "-o", file, "--interactive", "--engine", Self.engine])
    #expect(run.status == 0, "\(run.stderr)")
    let page = try String(contentsOfFile: file, encoding: .utf8)
    #expect(
      page.contains(
        #"<script type="application/json" id="traces">{"take.csv":"t,x,y,phase,id\n0,50,100,down,0\n0.1,90.25,110,move,0\n0.2,90.25,110,up,0\n"}</script>"#
      ))
  }

  /// The page goes through the same output policy as every run: never over the scene,
  /// here through a link to it.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: engine),
      "the WebAssembly engine is not built here (Scripts/build-wasm)"))
  func thePageIsNeverWrittenOverTheScene() throws {
    let folder = try makeScratchFolder("scenec-interactive")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("sticky-ball.yaml").path
    try FileManager.default.copyItem(atPath: Self.sticky, toPath: scene)
    let link = folder.appendingPathComponent("page.html").path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "sticky-ball.yaml")
    let run = try ScenecProcess.run(
      ["run", scene, "-o", link, "--interactive", "--engine", Self.engine])
    #expect(run.status == 73)
    #expect(
      run.stderr
        == "error: cannot write '\(link)': it is '\(scene)', an input of this run; write the output to another file\n"
    )
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: scene))
        == Data(contentsOf: URL(fileURLWithPath: Self.sticky)))
  }

  @Test func withoutTheEngineNothingIsWritten() throws {
    let folder = try makeScratchFolder("scenec-interactive")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("sticky.html").path
    let missing = folder.appendingPathComponent("none.wasm").path
    let run = try ScenecProcess.run(
      ["run", Self.sticky, "-o", file, "--interactive", "--engine", missing])
    #expect(run.status == 69)
    #expect(
      run.stderr
        == "error: --interactive needs the WebAssembly engine, and it is not at \(missing); build it with Scripts/build-wasm (or give --engine FILE)\n"
    )
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func aFileThatIsNotWebAssemblyIsRefused() throws {
    let folder = try makeScratchFolder("scenec-interactive")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("sticky.html").path
    let fake = folder.appendingPathComponent("fake.wasm")
    try Data("not wasm".utf8).write(to: fake)
    let run = try ScenecProcess.run(
      ["run", Self.sticky, "-o", file, "--interactive", "--engine", fake.path])
    #expect(run.status == 65)
    #expect(run.stderr == "error: \(fake.path) is not a WebAssembly module\n")
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  /// An engine from an older scenec (here, one that exports only its memory) would fail in
  /// the reader's browser: it is refused, naming what it lacks, and nothing is written.
  @Test func anEngineWithoutThePagesFunctionsIsRefused() throws {
    let folder = try makeScratchFolder("scenec-interactive")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("sticky.html").path
    let old = folder.appendingPathComponent("old.wasm")
    let exports: [UInt8] = [1, 6] + Array("memory".utf8) + [2, 0]
    try Data([0x00, 0x61, 0x73, 0x6D, 1, 0, 0, 0, 7, UInt8(exports.count)] + exports).write(to: old)
    let run = try ScenecProcess.run(
      ["run", Self.sticky, "-o", file, "--interactive", "--engine", old.path])
    #expect(run.status == 65)
    #expect(
      run.stderr
        == "error: \(old.path) is not the engine this scenec's page calls (it lacks scenec_add_trace, scenec_console, scenec_frame, scenec_furthest_frame, scenec_input, scenec_load, scenec_output, scenec_output_length, scenec_play_script, scenec_pointer, scenec_restart, scenec_seek, scenec_set_input); build it again with Scripts/build-wasm\n"
    )
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test(arguments: [
    (["-o", "x.json"], "--interactive writes an HTML page: give -o FILE.html (or --format html)"),
    (
      ["--format", "svg"], "--interactive writes an HTML page: give -o FILE.html (or --format html)"
    ),
    (
      ["-o", "x.html", "--frame", "3"],
      "--interactive runs the scene as it is written, in the page: --frame does not apply"
    ),
    (
      ["-o", "x.html", "--input", "a=1"],
      "--interactive runs the scene as it is written, in the page: --input does not apply"
    ),
  ])
  func whatDoesNotGoWithItIsAUsageError(arguments: [String], message: String) throws {
    let run = try ScenecProcess.run(["run", Self.sticky, "--interactive"] + arguments)
    #expect(run.status == 64)
    #expect(run.stderr.hasPrefix("Error: \(message)\n"))
  }

  @Test func anEngineWithoutInteractiveIsAUsageError() throws {
    let run = try ScenecProcess.run(["run", Self.sticky, "--engine", "x.wasm"])
    #expect(run.status == 64)
    #expect(run.stderr.hasPrefix("Error: --engine is the engine for --interactive\n"))
  }
}
