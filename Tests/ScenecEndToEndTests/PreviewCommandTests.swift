import Foundation
import Testing

/// `scenec preview` as a process: it prints its address, serves the page, and Ctrl-C
/// (SIGINT) stops it cleanly with status 0.
@Suite struct PreviewCommandTests {
  @Test func printsItsAddressServesThePageAndStopsOnCtrlC() async throws {
    let executable = try #require(ScenecProcess.executable)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["preview", "Scenes/wave.yaml", "--port", "0"]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // The first line is the address.
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    let text = String(decoding: line, as: UTF8.self)
    let url = try #require(
      text.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init),
      "no address in: \(text)")
    #expect(
      text.hasPrefix("scenec preview: http://127.0.0.1:") && text.contains("(Ctrl-C stops it)"))
    let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self).contains("scenec preview"))
    process.interrupt()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(!errors.contains("error"), "\(errors)")
  }

  @Test func aMissingSceneAndABadPortAreRefused() throws {
    let missing = try ScenecProcess.run(["preview", "nowhere.yaml"])
    #expect(
      missing.status == 66 && missing.stderr == "error: cannot read 'nowhere.yaml': no such file\n")
    let port = try ScenecProcess.run(["preview", "Scenes/wave.yaml", "--port", "70000"])
    #expect(
      port.status == 64 && port.stderr.contains("--port must be between 0 and 65535, found 70000"))
  }
}

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
