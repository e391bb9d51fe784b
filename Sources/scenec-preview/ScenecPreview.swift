import ArgumentParser
import Dispatch
import Foundation
import SceneCommandLine
import SceneDiagnostics
import ScenePipeline
import ScenePreview

/// `scenec-preview`, which `scenec preview` runs: serves a page where real pointers drive
/// the real engine.
///
/// It is an executable of its own because its web server (SwiftNIO, Hummingbird) is most
/// of what `scenec` would otherwise load: the Swift runtime scans every protocol
/// conformance a binary holds, and the server's 1,500 were a fifth of `scenec run`'s
/// start-up.
@main
struct ScenecPreview: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scenec-preview", abstract: PreviewOptions.abstract,
    discussion: PreviewOptions.discussion, version: "0.1.0")

  @OptionGroup var options: PreviewOptions

  func run() throws {
    let file = options.file
    guard FileManager.default.isReadableFile(atPath: file) else {
      printError("error: cannot read '\(TerminalText.escaped(file))': no such file")
      throw Sysexits.noInput
    }
    let hub = PreviewHub(
      sceneFile: file, options: ScenePipeline.Options(traceFolders: options.traceFolders))
    let host = options.host
    let port = options.port
    let server = PreviewServer(hub: hub, host: host, port: port)
    if !["127.0.0.1", "localhost", "::1"].contains(host) {
      printError(
        "warning: listening on \(host): anyone who can reach this machine can drive the scene and save recordings beside it"
      )
    }
    let openPage = options.open
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task {
      let problems = await hub.load()
      if !problems.isEmpty { printError(problems, terminator: "") }
      do {
        try await server.run { port in
          let shown = host == "0.0.0.0" ? "127.0.0.1" : host
          let url = "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)/"
          print("scenec preview: \(url)  (Ctrl-C stops it)")
          fflush(nil)
          if openPage { Self.openInBrowser(url) }
        }
      } catch {
        failure.set("error: cannot serve the preview on \(host):\(port): \(error)")
      }
      done.signal()
    }
    done.wait()
    if let message = failure.message {
      printError(message)
      throw Sysexits.unavailable  // The port is taken, or the address is not ours.
    }
  }

  /// Opens `url` with the platform's opener; a failure only leaves the URL to click.
  static func openInBrowser(_ url: String) {
    let process = Process()
    #if os(macOS)
    process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
    #else
    process.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-open")
    #endif
    process.arguments = [url]
    try? process.run()
  }
}

/// A message set by the server's task and read after it ends.
final class FailureBox: @unchecked Sendable {
  private let lock = NSLock()
  private var value: String?
  func set(_ message: String) { lock.withLock { value = message } }
  var message: String? { lock.withLock { value } }
}
