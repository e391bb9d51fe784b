import Foundation
import SceneTestSupport
import Testing

/// `scenec preview` as a process: it prints its address, serves the page, and Ctrl-C
/// (SIGINT) stops it cleanly with status 0.
@Suite struct PreviewCommandTests {
  @Test func printsItsAddressServesThePageAndStopsOnCtrlC() async throws {
    // The first line is the address.
    let (process, _, err, text) = try Self.startPreview(port: 0, scene: "Scenes/wave.yaml")
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

  /// Starts `scenec preview` on `port` and returns it with its first line of output.
  static func startPreview(port: Int, scene: String = "Scenes/elastic-drag.yaml") throws -> (
    Process, Pipe, Pipe, String
  ) {
    let executable = try #require(ScenecProcess.executable)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["preview", scene, "--port", String(port)]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    return (process, out, err, String(decoding: line, as: UTF8.self))
  }

  /// Waits for `process` to end, looking at most `looks` times 10 ms apart (a bound on a
  /// hang, not a timing); true if it ended.
  static func ended(_ process: Process, looks: Int = 3000) -> Bool {
    for _ in 0..<looks where process.isRunning { usleep(10_000) }
    return !process.isRunning
  }

  @Test func ctrlCStopsItWithAPageOpenAndThePortIsFreeAtOnce() throws {
    let (process, out, err, first) = try Self.startPreview(port: 0)
    let port = try #require(
      first.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) },
      "no port in: \(first)")
    // A page that holds its WebSocket open and never answers the closing handshake.
    let page = try RawConnection(port: port)
    #expect(page.upgrade(port: port).hasPrefix("HTTP/1.1 101"))
    process.interrupt()
    #expect(Self.ended(process), "Ctrl-C did not stop the preview")
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    let rest = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(rest == "scenec preview: stopped\n")
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(errors == "")
    // The page was told: a closing handshake (1001, going away; or 1000 when the WebSocket
    // library's own shutdown handler came first).
    let code = RawConnection.closeCode(in: page.readUntilClosed().bytes)
    #expect(code == 1001 || code == 1000, "\(String(describing: code))")
    // The same port again, at once (the closed connections linger in TIME_WAIT).
    let (again, _, _, line) = try Self.startPreview(port: port)
    #expect(line == "scenec preview: http://127.0.0.1:\(port)/  (Ctrl-C stops it)\n")
    // And a second preview on a taken port says so plainly.
    let taken = try ScenecProcess.run(["preview", "Scenes/wave.yaml", "--port", String(port)])
    #expect(taken.status == 69)
    #expect(
      taken.stderr
        == "error: cannot serve the preview on 127.0.0.1:\(port): the port is in use, perhaps by another preview; choose another with --port, or --port 0 for any free one\n"
    )
    again.interrupt()
    #expect(Self.ended(again))
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
