import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import ScenePreview

#if canImport(Glibc)
import Glibc
#endif

/// The live preview on loopback: the round trip from a pointer message in to the frame
/// that plays it out, for every scene in `Scenes/`, and what a connected page costs the
/// server in CPU and memory. Run from `Benchmarks/`:
///
///     swift run -c release PreviewRoundTrip
///
/// (A plain executable, not a package-benchmark suite: each sample waits out a frame, as a
/// real pointer's input does, so the figure is the latency, not a throughput.)
@main
enum PreviewRoundTrip {
  static func main() async throws {
    let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Scenes")
    let files =
      ((try? FileManager.default.contentsOfDirectory(atPath: scenes.path)) ?? [])
      .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".scene") }.sorted()
    print("round trip, pointer message in to the frame that plays it out (loopback, 300 samples)")
    for file in files {
      let samples = Samples()
      try await Loopback.withPage(scene: scenes.appendingPathComponent(file).path) { page in
        try await page.sendAndWait(phase: "down", x: 10.25, y: 10.25)
        for k in 1...300 {
          // Input comes once a frame, as from a real pointer: wait out the frame just made.
          try await Task.sleep(for: .milliseconds(17))
          let x = 10.25 + Double(k % 200) + 0.001 * Double(k)
          let start = ContinuousClock.now
          try await page.sendAndWait(phase: "move", x: x, y: 20.5)
          await samples.add(ContinuousClock.now - start)
        }
      }
      let sorted = await samples.values.sorted()
      func ms(_ d: Duration) -> String {
        let (s, a) = d.components
        return String(format: "%.3f ms", Double(s) * 1e3 + Double(a) / 1e15)
      }
      let p50 = sorted[sorted.count / 2]
      let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
      print(
        "  \(file.padding(toLength: 24, withPad: " ", startingAt: 0)) p50 \(ms(p50))  p99 \(ms(p99))  max \(ms(sorted.last ?? .zero))"
      )
    }
    let before = Loopback.usage()
    let usage = Samples()
    try await Loopback.withPages(8, scene: scenes.appendingPathComponent("sticky-ball.yaml").path) {
      try await Task.sleep(for: .seconds(4))
      let after = Loopback.usage()
      await usage.add(
        cpu: (after.cpu - before.cpu) / 4 / 8 * 100,
        memoryKB: (after.residentKB - before.residentKB) / 8)
    }
    print(
      String(
        format:
          "8 pages of sticky-ball.yaml for 4 s: server CPU %.2f%% of a core and %d KB per page",
        await usage.cpu, await usage.memoryKB))
  }
}

/// What a benchmark collects inside its server's tasks.
actor Samples {
  var values: [Duration] = []
  var cpu = 0.0
  var memoryKB = 0
  func add(_ value: Duration) { values.append(value) }
  func add(cpu: Double, memoryKB: Int) {
    self.cpu = cpu
    self.memoryKB = memoryKB
  }
}

/// A preview server in this process and pages connected to it over loopback.
enum Loopback {
  static let logger: Logger = {
    var logger = Logger(label: "bench")
    logger.logLevel = .critical
    return logger
  }()

  final class Page: @unchecked Sendable {
    let send: @Sendable (String) async throws -> Void
    let arrivals: AsyncStream<String>.Continuation
    var inbox: AsyncStream<String>.AsyncIterator

    init(send: @escaping @Sendable (String) async throws -> Void) {
      self.send = send
      let (stream, continuation) = AsyncStream.makeStream(of: String.self)
      arrivals = continuation
      inbox = stream.makeAsyncIterator()
    }

    /// Sends a pointer message and waits for the frame that shows the pointer there.
    func sendAndWait(phase: String, x: Double, y: Double) async throws {
      try await send(#"{"type":"pointer","phase":"\#(phase)","id":0,"x":\#(x),"y":\#(y)}"#)
      let mark = "[0,\(PreviewNumber.text(x)),"
      while let text = await inbox.next() {
        if text.hasPrefix(#"{"type":"frame""#), text.contains(mark) { return }
      }
    }
  }

  static func withServer(scene: String, _ body: @Sendable (Int) async throws -> Void)
    async throws
  {
    let hub = PreviewHub(sceneFile: scene)
    await hub.load()
    let server = PreviewServer(hub: hub, port: 0)
    let (ports, sink) = AsyncStream.makeStream(of: Int.self)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.runUntilCancelled(logger: logger) { sink.yield($0) } }
      var iterator = ports.makeAsyncIterator()
      guard let port = await iterator.next() else { return }
      try await body(port)
      group.cancelAll()
    }
  }

  static func connect(port: Int, _ body: @escaping @Sendable (Page) async throws -> Void)
    async throws
  {
    try await WebSocketClient.connect(
      url: "ws://127.0.0.1:\(port)/ws", configuration: .init(maxFrameSize: 1 << 24),
      logger: logger
    ) { inbound, outbound, _ in
      let page = Page { try await outbound.write(.text($0)) }
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for try await message in inbound.messages(maxSize: 1 << 24) {
            if case .text(let text) = message { page.arrivals.yield(text) }
          }
        }
        try await body(page)
        group.cancelAll()
      }
    }
  }

  static func withPage(scene: String, _ body: @escaping @Sendable (Page) async throws -> Void)
    async throws
  {
    try await withServer(scene: scene) { port in try await connect(port: port, body) }
  }

  static func withPages(
    _ count: Int, scene: String, _ body: @escaping @Sendable () async throws -> Void
  ) async throws {
    try await withServer(scene: scene) { port in
      try await withThrowingTaskGroup(of: Void.self) { group in
        let (ready, sink) = AsyncStream.makeStream(of: Void.self)
        for _ in 0..<count {
          group.addTask {
            try await connect(port: port) { _ in
              sink.yield()
              try await Task.sleep(for: .seconds(3600))
            }
          }
        }
        var iterator = ready.makeAsyncIterator()
        for _ in 0..<count { _ = await iterator.next() }
        try await body()
        group.cancelAll()
      }
    }
  }

  /// CPU seconds used by this process, and its resident memory.
  static func usage() -> (cpu: Double, residentKB: Int) {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    let status = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = Int(status.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return (cpu, pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024)
  }
}

/// Numbers as the frames write them (three decimals, no trailing zeros).
enum PreviewNumber {
  static func text(_ value: Double) -> String {
    var text = String(format: "%.3f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}
