import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// No command destroys a file or loses output: inputs are never written over, links to
/// nowhere and FIFOs without a reader are refused, every write to standard output is
/// checked, and no file name can draw on the terminal.
@Suite struct InputProtectionTests {
  static let wave = HostileOutputTests.wave

  func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-inputs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A scene in `dir` that replays `trace.csv` beside it.
  func replayingScene(in dir: URL) throws -> (scene: String, trace: String) {
    let scene = dir.appendingPathComponent("r.yaml").path
    let trace = dir.appendingPathComponent("trace.csv").path
    try """
    scene: { name: R, size: 200x200, duration: 0.5s }
    handles:
      b: { position: [50, 50], shape: circle, r: 10, draggable: true }
    gesture:
      - replay: trace.csv
    """.write(toFile: scene, atomically: true, encoding: .utf8)
    try "t,x,y,phase\n0,50,50,down\n0.1,60,60,move\n0.2,60,60,up\n".write(
      toFile: trace, atomically: true, encoding: .utf8)
    return (scene, trace)
  }

  @Test func runNeverWritesOverItsSceneOrItsTracesUnderAnyName() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (scene, trace) = try replayingScene(in: dir)
    let sceneText = try String(contentsOfFile: scene, encoding: .utf8)
    let link = dir.appendingPathComponent("out.jsonl").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "r.yaml")
    let cases: [(String, String)] = [
      (
        scene,
        "error: cannot write '\(scene)': it is an input of this run; write the output to another file\n"
      ),
      (
        trace,
        "error: cannot write '\(trace)': it is an input of this run; write the output to another file\n"
      ),
      (
        link,
        "error: cannot write '\(link)': it is '\(scene)', an input of this run; write the output to another file\n"
      ),
    ]
    for (output, message) in cases {
      let result = try ScenecProcess.run(["run", scene, "-o", output, "--format", "jsonl"])
      #expect(result.status == 73, "\(output)")
      #expect(result.stderr == message)
    }
    #expect(try String(contentsOfFile: scene, encoding: .utf8) == sceneText)
    #expect(
      try String(contentsOfFile: trace, encoding: .utf8)
        == "t,x,y,phase\n0,50,50,down\n0.1,60,60,move\n0.2,60,60,up\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
        "out.jsonl", "r.yaml", "trace.csv",
      ])
  }

  @Test func aConvertedTwinThatLinksToTheSceneIsRefused() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let yaml = dir.appendingPathComponent("w.yaml").path
    try FileManager.default.copyItem(atPath: Self.wave, toPath: yaml)
    let twin = dir.appendingPathComponent("w.scene").path
    try FileManager.default.createSymbolicLink(atPath: twin, withDestinationPath: "w.yaml")
    let result = try ScenecProcess.run(["fmt", yaml, "--to", "dsl", "-w", "--force"])
    #expect(result.status == 73)
    #expect(
      result.stderr
        == "error: cannot write '\(twin)': it is '\(yaml)', an input of this run; write the output to another file\n"
    )
    #expect(
      try String(contentsOfFile: yaml, encoding: .utf8)
        == String(contentsOfFile: Self.wave, encoding: .utf8))
  }

  @Test func aLinkToNowhereIsRefusedAndItsTargetNeverCreated() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let missing = dir.appendingPathComponent("elsewhere/never.jsonl").path
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
    let link = dir.appendingPathComponent("out.jsonl").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: missing)
    let result = try ScenecProcess.run(["run", Self.wave, "-o", link])
    #expect(result.status == 73)
    #expect(
      result.stderr
        == "error: cannot write '\(link)': it is a symbolic link to '\(missing)', which does not exist\n"
    )
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  @Test func aFIFOThatNobodyReadsIsRefusedAtOnce() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("frames.jsonl").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // Opening it for writing used to wait for a reader for ever.
    let result = try ScenecProcess.run(["run", Self.wave, "-o", fifo])
    #expect(result.status == 73)
    #expect(
      result.stderr == "error: cannot write '\(fifo)': it is a FIFO that no process is reading\n")
  }

  @Test func everyCommandReportsAFullStandardOutput() throws {
    let runner = HostileOutputTests()
    let message = "error: cannot write standard output: No space left on device\n"
    let commands: [[String]] = [
      ["path", "M0 0 L 10 0"], ["check", Self.wave], ["--help"], ["--version"],
      ["test", Self.wave, "--filter", "no such scene"],
    ]
    for arguments in commands {
      let result = try runner.run(arguments, stdoutTo: "/dev/full")
      #expect(result.status == 73, "\(arguments)")
      #expect(result.stderr == message, "\(arguments)")
    }
  }

  @Test func stoppingSignalsRemoveTheTemporaryFile() throws {
    for signal in [SIGHUP, SIGUSR1, SIGUSR2] {
      try HostileOutputTests().interruptedRunRemovesItsTemporaryFile(signal: signal)
    }
  }

  @Test func fileNamesCannotDrawOnTheTerminal() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    // A failing scene whose name erases its line and prints a fake "PASS".
    let name = "a\u{1B}[2K\rPASS ok \u{1B}[8mb.yaml"
    let scene = dir.appendingPathComponent(name).path
    try "scene: { name: X, size: 100x100, fps: 0 }\n".write(
      toFile: scene, atomically: true, encoding: .utf8)
    let shown = dir.path + "/a\\x1B[2K\\x0DPASS ok \\x1B[8mb.yaml"
    let test = try ScenecProcess.run(["test", dir.path])
    #expect(test.status == 65)
    #expect(test.stdout == "ERROR \(shown)\n0 passed, 1 failed\n")
    #expect(!test.stderr.contains("\u{1B}") && test.stderr.hasPrefix("\(shown):1:"))
    let check = try ScenecProcess.run(["check", scene])
    #expect(!check.stderr.contains("\u{1B}") && check.stderr.hasPrefix("\(shown):1:"))
    let missing = try ScenecProcess.run(["run", dir.path + "/\u{1B}]0;owned\u{07}.yaml"])
    #expect(
      missing.stderr
        == "error: cannot read '\(dir.path)/\\x1B]0;owned\\x07.yaml': no such file\n")
  }

  @Test func traceFoldersMustBeFoldersAndALinkIsJudgedByItsTarget() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let (scene, _) = try replayingScene(in: dir)
    for (folder, problem) in [
      (dir.appendingPathComponent("nope").path, "no such folder"), (scene, "not a folder"),
    ] {
      for command in ["run", "check", "preview"] {
        let result = try ScenecProcess.run([command, scene, "--trace-folder", folder])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --trace-folder '\(folder)': \(problem)\n"))
      }
    }
    // A trace named like one, linking to a secret in an allowed folder: its first line is
    // never echoed.
    let secrets = dir.appendingPathComponent("secrets")
    try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
    try "TOPSECRET-LINE\n".write(
      to: secrets.appendingPathComponent("key"), atomically: true, encoding: .utf8)
    let trace = dir.appendingPathComponent("trace.csv").path
    try FileManager.default.removeItem(atPath: trace)
    try FileManager.default.createSymbolicLink(
      atPath: trace, withDestinationPath: secrets.appendingPathComponent("key").path)
    let result = try ScenecProcess.run(["check", scene, "--trace-folder", secrets.path])
    #expect(result.status == 65)
    #expect(!result.stderr.contains("TOPSECRET"))
    #expect(result.stderr.contains("the trace 'trace.csv' is not a trace"))
  }

  @Test func snapshotsAreNeitherReadNorWrittenThroughLinksThatLeaveTheSceneFolder() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scenes = dir.appendingPathComponent("cloned")
    try FileManager.default.createDirectory(
      at: scenes.appendingPathComponent("__snapshots__"), withIntermediateDirectories: true)
    let scene = scenes.appendingPathComponent("w.yaml").path
    try FileManager.default.copyItem(atPath: Self.wave, toPath: scene)
    let outside = dir.appendingPathComponent("dotfile").path
    try "PRIVATE\n".write(toFile: outside, atomically: true, encoding: .utf8)
    let snapshot = scenes.appendingPathComponent("__snapshots__/w.jsonl").path
    try FileManager.default.createSymbolicLink(atPath: snapshot, withDestinationPath: outside)
    let compared = try ScenecProcess.run(["test", scene])
    #expect(compared.status == 65)
    #expect(!compared.stdout.contains("PRIVATE") && !compared.stderr.contains("PRIVATE"))
    #expect(
      compared.stderr
        == "error: the snapshot '\(snapshot)' leads outside the scene's folder; snapshots are read and written only beside their scene\n"
    )
    let recorded = try ScenecProcess.run(["test", scene, "--record"])
    #expect(recorded.status == 65)
    #expect(
      recorded.stderr
        == "error: cannot write '\(snapshot)': it leads through a symbolic link to '\(outside)', which is outside the folder '\(scenes.path)'\n"
    )
    #expect(try String(contentsOfFile: outside, encoding: .utf8) == "PRIVATE\n")
  }
}

/// A folder that may not be read is not an empty one, and a file in it is not missing.
///
/// Root reads everything, so the commands run as `nobody` through `setpriv` (util-linux);
/// where that cannot run, the test says it skipped.
@Suite struct UnreadableFolderTests {
  static let setpriv = "/usr/bin/setpriv"

  /// Whether `scenec` can run as `nobody` here.
  static let canDropPrivileges: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv),
      let executable = ScenecProcess.executable
    else { return false }
    let result = try? ScenecProcess.run(
      ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path, "--version"],
      executable: URL(fileURLWithPath: setpriv))
    return result?.status == 0
  }()

  @Test(
    .enabled(
      if: canDropPrivileges,
      "cannot run scenec as nobody here (needs root, util-linux's setpriv, and a build nobody may run)"
    ))
  func aFolderThatMayNotBeReadIsReportedNotPassed() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-locked-\(UUID().uuidString)")
    let locked = dir.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    defer {
      chmod(locked.path, 0o755)
      try? FileManager.default.removeItem(at: dir)
    }
    try FileManager.default.copyItem(
      atPath: HostileOutputTests.wave, toPath: locked.appendingPathComponent("wave.yaml").path)
    chmod(dir.path, 0o755)
    chmod(locked.path, 0o000)
    let executable = try #require(ScenecProcess.executable).path
    func asNobody(_ arguments: [String]) throws -> ScenecProcess.Result {
      try ScenecProcess.run(
        ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments,
        executable: URL(fileURLWithPath: Self.setpriv))
    }
    let real = try #require(FileIdentityPath.real(locked.path))
    let check = try asNobody(["check", locked.path])
    #expect(check.status == 66)
    #expect(
      check.stderr
        == "error: cannot read the folder '\(real)': permission denied\n1 unreadable\n")
    let file = try asNobody(["check", locked.appendingPathComponent("wave.yaml").path])
    #expect(file.status == 66)
    #expect(
      file.stderr
        == "error: cannot read '\(locked.path)/wave.yaml': permission denied\n1 unreadable\n")
    let test = try asNobody(["test", locked.path])
    #expect(test.status == 66)
    #expect(test.stdout == "0 passed, 1 failed\n")
  }
}

/// Real paths, as the commands print them.
enum FileIdentityPath {
  static func real(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
