import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output and input faults a user meets for real: links, full disks, closed pipes, FIFOs,
/// interrupted runs.
///
/// Nothing is lost, nothing is left behind, every failure says why.
@Suite struct HostileOutputTests {
  static let wave = RunCommandTests.root.appendingPathComponent("Scenes/wave.yaml").path

  func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Runs scenec with standard output going to `path` (or closed when `nil`).
  func run(_ arguments: [String], stdoutTo path: String?) throws -> (status: Int32, stderr: String)
  {
    let executable = try #require(ScenecProcess.executable)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let err = Pipe()
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    if let path { process.standardOutput = FileHandle(forWritingAtPath: path) }
    try process.run()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
  }

  @Test func aSymbolicLinkIsReplacedThroughNeverWrittenInPlace() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let target = dir.appendingPathComponent("big.jsonl")
    try Data(repeating: 0x41, count: 1_000_000).write(to: target)
    let link = dir.appendingPathComponent("link.jsonl")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
    let result = try ScenecProcess.run(["run", Self.wave, "-o", link.path, "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")
    let expected = try ScenecProcess.run(["run", Self.wave]).stdout
    // The whole new output and nothing of the old file's tail; the link still links.
    #expect(try String(contentsOf: target, encoding: .utf8) == expected)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
        "big.jsonl", "link.jsonl",
      ])
  }

  @Test func aFullDeviceIsReportedAndNothingIsLeftBehind() throws {
    let toFile = try ScenecProcess.run(["run", Self.wave, "-o", "/dev/full"])
    #expect(toFile.status == 73)
    #expect(toFile.stderr == "error: cannot write '/dev/full': No space left on device\n")
    let toStdout = try run(["run", Self.wave], stdoutTo: "/dev/full")
    #expect(toStdout.status == 73)
    #expect(toStdout.stderr == "error: cannot write standard output: No space left on device\n")
    let format = try run(["fmt", Self.wave], stdoutTo: "/dev/full")
    #expect(format.status == 73)
    #expect(format.stderr == "error: cannot write standard output: No space left on device\n")
  }

  @Test func aClosedStandardOutputIsReported() throws {
    // A pipe whose reader has gone: the run must say so, not die of SIGPIPE.
    let executable = try #require(ScenecProcess.executable)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["run", Self.wave]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try out.fileHandleForReading.close()
    try process.run()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 73)
    #expect(stderr == "error: cannot write standard output: Broken pipe\n")
  }

  @Test func staleTemporaryFilesOfDeadRunsAreCleared() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    // Process ids above the kernel's pid_max (4194304 at most) belong to nobody.
    let stale = dir.appendingPathComponent(".out.jsonl.scenec-99999999.tmp")
    try Data("half".utf8).write(to: stale)
    let result = try ScenecProcess.run([
      "run", Self.wave, "-o", dir.appendingPathComponent("out.jsonl").path, "-q",
    ])
    #expect(result.status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.jsonl"])
  }

  @Test func anInterruptedRunRemovesItsTemporaryFile() throws {
    try interruptedRunRemovesItsTemporaryFile(signal: SIGTERM)
    try interruptedRunRemovesItsTemporaryFile(signal: SIGINT)
  }

  /// Stops a long run with `signal` while it writes, and checks nothing is left behind.
  func interruptedRunRemovesItsTemporaryFile(signal: Int32) throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = dir.appendingPathComponent("big.yaml").path
    #expect(
      try ScenecProcess.run(["generate", "--handles", "1000", "--duration", "30", "-o", scene])
        .status == 0)
    let executable = try #require(ScenecProcess.executable)
    let process = Process()
    process.executableURL = executable
    process.arguments = [
      "run", scene, "-o", dir.appendingPathComponent("out.html").path, "--max-frames", "100000",
    ]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // Wait (a bounded number of looks, not a time limit) for the temporary file to appear.
    let temporary = dir.appendingPathComponent(".out.html.scenec-\(process.processIdentifier).tmp")
      .path
    var looks = 0
    while !FileManager.default.fileExists(atPath: temporary) && process.isRunning && looks < 2_000 {
      usleep(10_000)
      looks += 1
    }
    try #require(process.isRunning, "the run ended before it could be interrupted")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(process.terminationStatus == 128 + signal, "signal \(signal)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["big.yaml"])
  }

  @Test func aFIFOIsRefusedNotWaitedOn() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("scene.yaml").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let result = try ScenecProcess.run(["run", fifo])
    #expect(result.status == 66)
    #expect(
      result.stderr
        == "error: cannot read '\(fifo)': not a regular file (a FIFO, socket or device)\n")
  }

  @Test func aFrameAfterAnUntilRestSceneCameToRestShowsItAtRest() throws {
    let result = try ScenecProcess.run(["run", Self.wave, "--at", "10s"])
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "note: the scene came to rest at frame 139 (t = 2.317 s); frame 600 shows it at rest\n")
    let frame = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(frame["frame"] as? Int == 600 && (frame["time"] as? NSNumber)?.doubleValue == 10)
    // The same handles, where the last frame of the run left them.
    let last = try ScenecProcess.run(["run", Self.wave, "--frame", "139"]).stdout
    let rest = try #require(
      try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    #expect(
      NSDictionary(dictionary: frame["handles"] as? [String: Any] ?? [:])
        == NSDictionary(dictionary: rest["handles"] as? [String: Any] ?? [:]))
    // Past the cap it is an error, which says the same range as the scene has.
    let past = try ScenecProcess.run(["run", Self.wave, "--frame", "5000"])
    #expect(past.status == 64)
    #expect(
      past.stderr
        == "error: the scene has frames 0 to 1800 (it runs until rest, for at most 30 s); frame 5000 does not exist\n"
    )
    let huge = try ScenecProcess.run(["run", Self.wave, "--at", "1e308s"])
    #expect(huge.status == 64)
    #expect(huge.stderr.hasPrefix("Error: --at must be a time such as 1.2s, up to 3600s\n"))
  }

  @Test func aSummaryLineFollowsAWrittenFile() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("w.csv").path
    let result = try ScenecProcess.run(["run", Self.wave, "-o", out])
    #expect(result.status == 0)
    #expect(result.stderr.hasPrefix("wrote \(out): csv, 140 frames, 2.32 s of scene, in "))
    #expect(try ScenecProcess.run(["run", Self.wave, "-o", out, "--quiet"]).stderr == "")
  }

  @Test func convertingDoesNotReplaceAnExistingTwinUnlessForced() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let yaml = dir.appendingPathComponent("w.yaml")
    try FileManager.default.copyItem(atPath: Self.wave, toPath: yaml.path)
    let twin = dir.appendingPathComponent("w.scene")
    try Data("# mine\n".utf8).write(to: twin)
    let refused = try ScenecProcess.run(["fmt", yaml.path, "--to", "dsl", "-w"])
    #expect(refused.status == 73)
    #expect(
      refused.stderr
        == "error: '\(twin.path)' exists; not replacing it with the converted scene (add --force to replace it)\n"
    )
    #expect(try String(contentsOf: twin, encoding: .utf8) == "# mine\n")
    let forced = try ScenecProcess.run(["fmt", yaml.path, "--to", "dsl", "-w", "--force"])
    #expect(forced.status == 0)
    #expect(try String(contentsOf: twin, encoding: .utf8) != "# mine\n")
  }
}
