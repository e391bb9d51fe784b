import Foundation
import Testing

/// `scenec` and `scenec-preview`: two executables, so that `scenec run` starts without
/// the preview's web server and without all of Foundation (5.8 ms instead of 8.4–8.8 for
/// `scenec run Scenes/wave.yaml -o /dev/null`, Benchmarks/README.md).
@Suite struct ExecutablesTests {
  static var preview: URL? {
    ScenecProcess.executable?.deletingLastPathComponent().appendingPathComponent("scenec-preview")
  }

  /// `scenec` links none of the server's modules and not Foundation itself.
  ///
  /// Read from the names in its binary: FoundationEssentials only. The server's
  /// executable has them all, so the check can fail.
  @Test func scenecLinksNeitherTheServerNorAllOfFoundation() throws {
    let scenec = try Data(contentsOf: try #require(ScenecProcess.executable))
    let server = try Data(contentsOf: try #require(Self.preview))
    // Mangled module names: `10Foundation` is Foundation's, not FoundationEssentials'.
    for name in ["Hummingbird", "NIOCore", "10Foundation"] {
      #expect(scenec.range(of: Data(name.utf8)) == nil, "scenec links \(name)")
      #expect(server.range(of: Data(name.utf8)) != nil, "scenec-preview lacks \(name)")
    }
  }

  /// A `scenec` with no `scenec-preview` beside it or on `PATH` says so, and how to build
  /// it, and exits 69 (EX_UNAVAILABLE).
  @Test func previewWithoutItsServerSaysWhatToBuild() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("scenec-alone-\(getpid())").resolvingSymlinksInPath()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let alone = folder.appendingPathComponent("scenec")
    try FileManager.default.copyItem(at: try #require(ScenecProcess.executable), to: alone)
    let result = try ScenecProcess.run(
      ["preview", "Scenes/wave.yaml", "--port", "0"], executable: alone,
      environment: ["PATH": folder.appendingPathComponent("nowhere").path])
    #expect(result.status == 69)
    #expect(
      result.stderr == """
        error: scenec preview runs the scenec-preview executable, found neither beside scenec \
        (\(folder.path)) nor on PATH (No such file or directory); build it with \
        `swift build --product scenec-preview` (`swift build` builds both)

        """)
  }

  /// `scenec preview --help` is answered by `scenec` from the options the server takes.
  @Test func previewHelpNamesEveryOption() throws {
    let help = try ScenecProcess.run(["preview", "--help"])
    #expect(help.status == 0)
    #expect(
      help.stdout.contains(
        "USAGE: scenec preview <file> [--port <port>] [--host <host>] [--open] [--trace-folder <trace-folder> ...]"
      ))
    let server: URL = try #require(Self.preview)
    let direct = try ScenecProcess.run(["--help"], executable: server)
    #expect(direct.status == 0 && direct.stdout.contains("USAGE: scenec-preview <file>"))
  }

  /// A one-letter output name: Foundation's `deletingLastPathComponent` stopped `scenec`
  /// with an illegal instruction on it (`scenec run … -o a`).
  @Test func aOneLetterOutputNameIsWritten() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("scenec-one-letter-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = URL(fileURLWithPath: "Scenes/wave.yaml").path
    let result = try ScenecProcess.run(
      ["run", scene, "-o", "a", "--format", "jsonl", "-q"], directory: folder)
    #expect(result.status == 0 && result.stderr == "")
    let written = try String(contentsOf: folder.appendingPathComponent("a"), encoding: .utf8)
    #expect(written == (try ScenecProcess.run(["run", "Scenes/wave.yaml"])).stdout)
  }
}
