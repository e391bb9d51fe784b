import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle

/// `scenec preview`'s web server: one page, one WebSocket per page, each with its own run
/// of the scene (Hummingbird 2 and its WebSocket module do all of HTTP and WebSocket).
///
/// It serves only `/` (the page) and `/ws` (the WebSocket); a WebSocket is accepted only
/// from a page of this server (its `Origin` must name the host the request was sent to),
/// so another site open in the same browser cannot drive the scene or write files.
public struct PreviewServer: Sendable {
  public var host: String
  public var port: Int
  public let hub: PreviewHub
  /// How often the files are checked for changes.
  public var pollInterval: Duration = .milliseconds(100)
  /// Warnings and errors only: the terminal shows the URL and each reload, not every
  /// request.
  public static let logger: Logger = {
    var logger = Logger(label: "scenec.preview")
    logger.logLevel = .warning
    return logger
  }()

  /// The largest WebSocket message read, in bytes.
  public static let maximumMessageBytes = PreviewMessage.maximumBytes

  public init(hub: PreviewHub, host: String = "127.0.0.1", port: Int = 8080) {
    self.hub = hub
    self.host = host
    self.port = port
  }

  /// The application, ready to run; `onRunning` gets the port it listens on.
  public func application(
    logger: Logger = PreviewServer.logger,
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let router = Router(context: BasicWebSocketRequestContext.self)
    let page = PreviewPage.html
    router.get("/") { _, _ -> Response in
      var headers = HTTPFields()
      headers[.contentType] = "text/html; charset=utf-8"
      headers[.cacheControl] = "no-store"
      headers[.contentSecurityPolicy] = PreviewPage.contentSecurityPolicy
      headers[.xContentTypeOptions] = "nosniff"
      return Response(
        status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }
    let hub = self.hub
    router.ws("/ws") { request, _ in
      Self.isSameOrigin(request.head) ? .upgrade([:]) : .dontUpgrade
    } onUpgrade: { inbound, outbound, _ in
      try await Self.serve(inbound: inbound, outbound: outbound, hub: hub)
    }
    var configuration = ApplicationConfiguration(
      address: .hostname(host, port: port), serverName: nil)
    configuration.reuseAddress = false
    let poll = pollInterval
    return Application(
      router: router,
      server: .http1WebSocketUpgrade(
        webSocketRouter: router,
        configuration: .init(maxFrameSize: Self.maximumMessageBytes)),
      configuration: configuration,
      services: [FileWatcher(hub: hub, interval: poll, logger: logger)],
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
      logger: logger)
  }

  /// Serves until the task is cancelled (tests, embedding apps); `onRunning` gets the port.
  public func runUntilCancelled(
    logger: Logger = PreviewServer.logger,
    onRunning: @escaping @Sendable (Int) async -> Void
  ) async throws {
    try await application(logger: logger, onRunning: onRunning).run()
  }

  /// Serves until Ctrl-C (SIGINT) or SIGTERM, then stops cleanly; `onRunning` gets the
  /// port it listens on.
  public func run(onRunning: @escaping @Sendable (Int) async -> Void) async throws {
    try await application(onRunning: onRunning).runService()
  }

  /// Whether a WebSocket request may connect: it comes from a page of this server, or
  /// from a program that is no web page at all.
  ///
  /// A browser sends its page's origin: it must be `http://` and the very host and port
  /// the request was sent to, so no other site open in the browser can drive the scene
  /// (cross-site WebSocket hijacking). A `ws://` origin for the same host is what WebSocket
  /// client libraries send; no browser page can send it. Anything else, or several
  /// `Origin` values, is refused.
  static func isSameOrigin(_ request: HTTPRequest) -> Bool {
    guard let origin = request.headerFields[.origin], !origin.contains(","),
      let authority = request.authority, !authority.isEmpty
    else { return false }
    if origin == "http://" + authority { return true }
    let host =
      authority.hasPrefix("[")
      ? String(authority.prefix { $0 != "]" }) + "]"
      : String(authority.prefix { $0 != ":" })
    return origin == "ws://" + authority || origin == "ws://" + host
  }

  /// Runs one page's connection until it closes.
  static func serve(
    inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, hub: PreviewHub
  ) async throws {
    // One writer for everything sent, so frames and replies never interleave.
    let (outgoing, queue) = AsyncStream.makeStream(
      of: String.self, bufferingPolicy: .bufferingNewest(256))
    let connection = PreviewConnection(hub: hub, clock: ContinuousClock()) { text in
      queue.yield(text)
    }
    let (id, updates) = await hub.subscribe()
    defer {
      queue.finish()
      Task { await hub.unsubscribe(id) }
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for await text in outgoing { try await outbound.write(.text(text)) }
      }
      group.addTask {
        for await update in updates { await connection.receive(update) }
      }
      group.addTask {
        // Frames on the scene's schedule.
        while !Task.isCancelled {
          let next = await connection.tick()
          try await Task.sleep(until: next, clock: .continuous)
        }
      }
      do {
        for try await message in inbound.messages(maxSize: maximumMessageBytes) {
          switch message {
          case .text(let text): await connection.receive(text: text)
          case .binary: await connection.receive(text: "binary")
          }
        }
      } catch {
        // A message past the size limit closes the connection (WebSocket code 1009).
      }
      group.cancelAll()
    }
  }
}

/// Reloads the scene when its files change, for as long as the server runs.
struct FileWatcher: Service {
  let hub: PreviewHub
  let interval: Duration
  let logger: Logger

  func run() async throws {
    // Ctrl-C (graceful shutdown) cancels the loop, which checks for cancellation.
    try await cancelWhenGracefulShutdown {
      await hub.watch(every: interval) { message in
        FileHandle.standardError.write(
          Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
      }
    }
  }
}
