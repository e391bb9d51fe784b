import ArgumentParser
import Dispatch
import Foundation
import ScenePipeline
import ScenePreview

/// `scenec preview`: serves a page where real pointers drive the real engine.
struct PreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview",
    abstract: "Touch a scene: a local page where your mouse, finger or pen drives the engine.",
    discussion: """
      Starts a web server and prints its address. The page sends its Pointer Events (mouse,
      touch, pen, several fingers) over a WebSocket to the engine, which steps the scene at
      its frame rate and sends the frames back; each page gets its own run. Saving the scene
      (or a trace it replays) reloads it; a scene with errors keeps the last good one running
      and shows the errors in the page and here. The page can play the scene's own gesture,
      pause, step, slow down to 0.1×, and record your pointers as a trace beside the scene,
      with a copy of the scene that replays it (a `scenec test` case).

      By default only this machine can connect (127.0.0.1). Ctrl-C stops the server.

      Examples:
        scenec preview Scenes/wave.yaml
        scenec preview Scenes/sticky-ball.yaml --port 9000 --open
      """)

  @Argument(help: "The scene file (.yaml, .yml or .scene).")
  var file: String

  @Option(help: "The port to listen on (0: any free port).")
  var port: Int = 8080

  @Option(help: "The address to listen on; 0.0.0.0 shares the preview with your network.")
  var host: String = "127.0.0.1"

  @Flag(help: "Open the page in the default browser.")
  var open = false

  @Option(
    name: .customLong("trace-folder"),
    help: "Also allow traces from this folder (and its subfolders); repeatable.")
  var traceFolders: [String] = []

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("--port must be between 0 and 65535, found \(port)")
    }
  }

  func run() throws {
    guard FileManager.default.isReadableFile(atPath: file) else {
      printError("error: cannot read '\(file)': no such file")
      throw Sysexits.noInput
    }
    let hub = PreviewHub(
      sceneFile: file, options: ScenePipeline.Options(traceFolders: traceFolders))
    let server = PreviewServer(hub: hub, host: host, port: port)
    if !["127.0.0.1", "localhost", "::1"].contains(host) {
      printError(
        "warning: listening on \(host): anyone who can reach this machine can drive the scene and save recordings beside it"
      )
    }
    let openPage = open
    let host = self.host
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
      throw ExitCode(69)  // EX_UNAVAILABLE: the port is taken, or the address is not ours.
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
