import Foundation

/// Runs the built `scenec` binary and collects what it printed and how it exited.
struct ScenecProcess {
  struct Result: Equatable {
    var stdout: String
    var stderr: String
    var status: Int32
  }

  /// The `scenec` executable SwiftPM built beside this test bundle.
  static let executable: URL? = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    // The test runner lives in `.build/<triple>/debug/` or inside an `.xctest` bundle there.
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent("scenec")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    let bundle = Bundle.main.bundleURL.appendingPathComponent("scenec")
    return FileManager.default.isExecutableFile(atPath: bundle.path) ? bundle : nil
  }()

  /// Runs `executable` (this build's `scenec` unless given) with `arguments`, in
  /// `directory`, with `environment` added to this process's.
  static func run(
    _ arguments: [String], input: String? = nil, directory: URL? = nil,
    executable given: URL? = nil, environment: [String: String] = [:]
  ) throws -> Result {
    guard let executable = given ?? executable else { throw MissingExecutable() }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let input {
      inputPipe.fileHandleForWriting.write(Data(input.utf8))
      try inputPipe.fileHandleForWriting.close()
    }
    // Read both pipes before waiting so a full pipe cannot stall the child.
    let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    let stderrData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: stderrData, as: UTF8.self),
      status: process.terminationStatus)
  }

  struct MissingExecutable: Error, CustomStringConvertible {
    var description: String { "scenec was not built next to the tests; run `swift build` first" }
  }
}
