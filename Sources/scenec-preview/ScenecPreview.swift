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
    let stopping = StopSignals()
    Task {
      let problems = await hub.load()
      if !problems.isEmpty { printError(problems, terminator: "") }
      do {
        try await server.run(stop: stopping.requests) { port in
          let shown = host == "0.0.0.0" ? "127.0.0.1" : host
          let url = "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)/"
          print("scenec preview: \(url)  (Ctrl-C stops it)")
          fflush(nil)
          if openPage { Self.openInBrowser(url) }
        }
      } catch {
        failure.set(
          "error: " + PreviewServer.describe(startError: error, host: host, port: port))
      }
      done.signal()
    }
    done.wait()
    if let message = failure.message {
      printError(message)
      throw Sysexits.unavailable  // The port is taken, or the address is not ours.
    }
    if stopping.received { print("scenec preview: stopped") }
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

/// Ctrl-C, SIGTERM and SIGHUP: the first stops the server gracefully (each page is told);
/// a second, or a stop that takes longer than ``forceAfter``, ends the process at once, so
/// a stuck connection never keeps it running.
///
/// A plain signal handler, not a dispatch source (libdispatch delivered only the first
/// Ctrl-C): it counts, ends the process itself on the second, and wakes a thread through
/// a pipe on the first. It touches only memory set up before it is installed, and calls
/// only `write` and `_exit`, which are safe in a handler.
final class StopSignals: @unchecked Sendable {
  static let forceAfter: DispatchTimeInterval = .seconds(4)
  let requests: AsyncStream<Void>
  private let lock = NSLock()
  private var stopped = false

  /// The handler's state: the number of signals, then the pipe's write end.
  nonisolated(unsafe) private static let state: UnsafeMutablePointer<Int32> = {
    let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
    pointer.initialize(repeating: 0, count: 2)
    return pointer
  }()
  private static let forcedMessage: [UInt8] = Array(
    "scenec preview: stopped at once (signal given twice)\n".utf8)

  init() {
    var ends: [Int32] = [0, 0]
    let requests: AsyncStream<Void>
    let continuation: AsyncStream<Void>.Continuation
    (requests, continuation) = AsyncStream.makeStream(of: Void.self)
    self.requests = requests
    guard pipe(&ends) == 0 else { return }
    Self.state[1] = ends[1]
    _ = Self.forcedMessage.count
    let handler: @convention(c) (Int32) -> Void = { number in
      StopSignals.state[0] += 1
      if StopSignals.state[0] >= 2 {
        StopSignals.forcedMessage.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
        _exit(128 + number)
      }
      var byte: UInt8 = 1
      _ = write(StopSignals.state[1], &byte, 1)
    }
    var set = sigset_t()
    sigemptyset(&set)
    for number in [SIGINT, SIGTERM, SIGHUP] {
      signal(number, handler)
      sigaddset(&set, number)
    }
    // A launcher (a test runner, an IDE) may hand the process these signals blocked; then
    // Ctrl-C would never arrive. Threads started later inherit this thread's mask.
    sigprocmask(SIG_UNBLOCK, &set, nil)
    let readEnd = ends[0]
    let thread = Thread { [weak self] in
      var byte: UInt8 = 0
      while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
      self?.lock.withLock { self?.stopped = true }
      continuation.yield()
      DispatchQueue.global().asyncAfter(deadline: .now() + Self.forceAfter) {
        printError("scenec preview: stopped (connections still open were dropped)")
        _exit(0)
      }
    }
    thread.start()
  }

  /// Whether a stop was asked for.
  var received: Bool { lock.withLock { stopped } }
}
