import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import Testing

@testable import ScenePreview

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real server on a free loopback port, with real HTTP and WebSocket clients.
@Suite(.serialized) struct PreviewServerTests {
  /// Runs a server for `scene` (a copy in a folder of its own) while `body` runs.
  static func withServer(
    scene: String = "elastic-drag.yaml", limits: PreviewServer.Limits = PreviewServer.Limits(),
    _ body: @Sendable (_ port: Int, _ folder: String, _ hub: PreviewHub) async throws -> Void
  ) async throws {
    let folder = try PreviewSessionTests.folder(with: scene)
    let hub = PreviewHub(sceneFile: folder + "/" + scene)
    await hub.load()
    var configured = PreviewServer(hub: hub, port: 0)
    configured.pollInterval = .milliseconds(20)
    configured.limits = limits
    // Reloads (and the errors of a bad edit, which a test makes on purpose) are the
    // test's to check, not the log's.
    configured.reportReload = { _ in }
    let server = configured
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    let logger = {
      var logger = Logger(label: "test")
      // Stopping the server at the end of a test cancels its channels: not worth a line.
      logger.logLevel = .critical
      return logger
    }()
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        try await server.runUntilCancelled(logger: logger) { port in portSink.yield(port) }
      }
      var iterator = ports.makeAsyncIterator()
      let port = try #require(await iterator.next())
      try await body(port, folder, hub)
      group.cancelAll()
    }
  }

  /// A WebSocket client of the preview: what it receives, and a way to send.
  actor Page {
    var received: [Message] = []
    func add(_ text: String) {
      if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] {
        received.append(Message(fields: object))
      }
    }
    func messages(_ type: String) -> [Message] {
      received.filter { $0["type"] as? String == type }
    }
  }

  /// A JSON object received, read only.
  struct Message: @unchecked Sendable {
    let fields: [String: Any]
    subscript(key: String) -> Any? { fields[key] }
  }

  /// Connects to the preview's WebSocket as a page of `origin`, runs `body` with a sender,
  /// and returns what the page received.
  @discardableResult
  static func connect(
    port: Int, origin: String? = nil,
    _ body:
      @escaping @Sendable (_ send: @Sendable (String) async throws -> Void, Page) async throws
      -> Void
  ) async throws -> Page {
    let page = Page()
    var headers = HTTPFields()
    // The client library sends its own `ws://` origin; a test of another origin adds one
    // (two origins are refused as well).
    if let origin { headers[.origin] = origin }
    var logger = Logger(label: "client")
    logger.logLevel = .error
    try await WebSocketClient.connect(
      url: "ws://127.0.0.1:\(port)/ws",
      configuration: .init(maxFrameSize: 1 << 24, additionalHeaders: headers), logger: logger
    ) { inbound, outbound, _ in
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for try await message in inbound.messages(maxSize: 1 << 24) {
            if case .text(let text) = message { await page.add(text) }
          }
        }
        try await body({ text in try await outbound.write(.text(text)) }, page)
        group.cancelAll()
      }
    }
    return page
  }

  /// Waits (polling every 10 ms, for at most `limit` polls: 30 s, for a busy machine) until
  /// `condition` holds.
  static func eventually(_ limit: Int = 3000, _ condition: () async -> Bool) async -> Bool {
    for _ in 0..<limit {
      if await condition() { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return false
  }

  static func get(_ url: String) async throws -> (Int, String) {
    let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  @Test func servesItsPageAndNothingElse() async throws {
    try await Self.withServer { port, _, _ in
      let (status, page) = try await Self.get("http://127.0.0.1:\(port)/")
      #expect(status == 200)
      #expect(page.contains("var SceneRenderer") && page.contains("window.scenecPreview"))
      for path in ["/etc/passwd", "/../elastic-drag.yaml", "/elastic-drag.yaml", "/ws/x"] {
        #expect(try await Self.get("http://127.0.0.1:\(port)\(path)").0 == 404, "\(path)")
      }
    }
  }

  @Test func aPageGetsTheSceneThenFramesAndItsPointerGrabsTheBadge() async throws {
    try await Self.withServer { port, _, _ in
      try await Self.connect(port: port) { send, page in
        #expect(await Self.eventually { await page.messages("frame").count >= 3 })
        let scene = try #require(await page.messages("scene").first?["scene"] as? [String: Any])
        #expect(scene["name"] as? String == "Elastic drag")
        try await send(#"{"type":"pointer","phase":"down","id":0,"x":120,"y":150}"#)
        try await send(#"{"type":"pointer","phase":"move","id":0,"x":120,"y":250}"#)
        #expect(
          await Self.eventually {
            await page.messages("frame").contains { frame in
              let h = (frame["frame"] as? [String: Any])?["h"] as? [[Any]]
              return h?.first?[4] as? String == "dragging"
                && (h?.first?[1] as? Double).map { abs($0 - 220) < 1e-9 } == true
            }
          })
      }
    }
  }

  @Test func badMessagesGetAnErrorAndChangeNothing() async throws {
    try await Self.withServer { port, _, _ in
      try await Self.connect(port: port) { send, page in
        #expect(await Self.eventually { await page.messages("frame").count >= 1 })
        try await send("{")
        try await send(#"{"type":"pointer","phase":"down","id":500,"x":0,"y":0}"#)
        #expect(
          await Self.eventually {
            await page.messages("error").compactMap { $0["message"] as? String } == [
              "a message must be a JSON object", "'id' must be between 0 and 31",
            ]
          })
        // Still running.
        let before = await page.messages("frame").count
        #expect(await Self.eventually { await page.messages("frame").count > before + 2 })
      }
    }
  }

  @Test func aWebSocketFromAnotherOriginIsRefused() async throws {
    try await Self.withServer { port, _, hub in
      await #expect(throws: (any Error).self) {
        try await Self.connect(port: port, origin: "http://evil.example") { _, _ in }
      }
      #expect(await hub.pageCount == 0)
    }
  }

  @Test func twoPagesRunTheirOwnScenesAndBothReloadWhenTheFileChanges() async throws {
    try await Self.withServer { port, folder, hub in
      let file = folder + "/elastic-drag.yaml"
      async let first = Self.connect(port: port) { send, page in
        #expect(await Self.eventually { await page.messages("frame").count >= 2 })
        try await send(#"{"type":"pointer","phase":"down","id":0,"x":120,"y":150}"#)
        // Its finger grabs the badge. Waited for here: on a busy machine the reload could
        // otherwise come, and this page stop listening, before that frame.
        #expect(
          await Self.eventually {
            await page.messages("frame").contains {
              ((($0["frame"] as? [String: Any])?["e"] as? [[String]]) ?? []).contains {
                $0 == ["grab", "badge"]
              }
            }
          })
        // The second page edits the file; this page reloads too.
        #expect(
          await Self.eventually {
            await page.messages("scene").contains {
              ($0["scene"] as? [String: Any])?["name"] as? String == "Elastic drag 2"
            }
          })
      }
      async let second = Self.connect(port: port) { _, page in
        #expect(await Self.eventually { await page.messages("frame").count >= 5 })
        // A bad edit: the errors arrive, the last good scene keeps running.
        let original = try String(contentsOfFile: file, encoding: .utf8)
        try original.replacingOccurrences(of: "r: 30", with: "r: -30")
          .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(
          await Self.eventually {
            await page.messages("diagnostics").contains {
              ($0["text"] as? String)?.contains("elastic-drag.yaml:19:") == true
            }
          })
        let frames = await page.messages("frame").count
        #expect(await Self.eventually { await page.messages("frame").count > frames + 2 })
        // A good edit: a new scene.
        try original.replacingOccurrences(of: "Elastic drag", with: "Elastic drag 2")
          .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(
          await Self.eventually {
            await page.messages("scene").contains {
              ($0["scene"] as? [String: Any])?["name"] as? String == "Elastic drag 2"
            }
          })
      }
      let (a, b) = try await (first, second)
      // The first page's finger grabbed only its own badge.
      let grabbedByFirst = await a.messages("frame").contains {
        ((($0["frame"] as? [String: Any])?["e"] as? [[String]]) ?? []).contains {
          $0 == ["grab", "badge"]
        }
      }
      let grabbedBySecond = await b.messages("frame").contains {
        ((($0["frame"] as? [String: Any])?["e"] as? [[String]]) ?? []).contains {
          $0 == ["grab", "badge"]
        }
      }
      #expect(grabbedByFirst && !grabbedBySecond)
      #expect(await hub.reloads >= 2)
    }
  }
}
