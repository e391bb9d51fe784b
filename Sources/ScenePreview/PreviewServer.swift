import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import ServiceLifecycle

/// `scenec preview`'s web server: one page, one WebSocket per page, each with its own run
/// of the scene (Hummingbird 2 and its WebSocket module do all of HTTP and WebSocket).
///
/// It is meant to run while its user browses the web, on folders cloned from others, so
/// every request is treated as hostile:
/// - only `/` (the page) and `/ws` (the WebSocket) are served, and only to requests whose
///   `Host` names this server (``RequestAdmission``: no DNS rebinding); a WebSocket only
///   to a page of this server (its `Origin`), so no other site can drive the scene;
/// - a request head must arrive whole within ``Limits/headTimeout``, an idle connection is
///   closed after ``Limits/idleTimeout``, a malformed request is answered 400 and closed,
///   and at most ``Limits/maximumConnections`` connections and ``Limits/maximumPages``
///   pages are served at once;
/// - a page holds at most one frame waiting (``PageOutbox``), and messages are rate-limited
///   per page and for the whole server;
/// - WebSocket frames follow RFC 6455: unmasked (1002), invalid UTF-8 (1007) and
///   over-long messages (1009) close the connection;
/// - the page may not be framed by another site (`frame-ancestors 'none'`,
///   `X-Frame-Options: DENY`).
public struct PreviewServer: Sendable {
  public var host: String
  public var port: Int
  public let hub: PreviewHub
  /// How often the files are checked for changes.
  public var pollInterval: Duration = .milliseconds(100)
  /// Where each reload's outcome is said (the terminal's standard error by default; a
  /// test or an embedding app may collect or drop it).
  public var reportReload: @Sendable (String) -> Void = { message in
    FileHandle.standardError.write(
      Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
  }
  public var limits = Limits()
  /// Warnings and errors only: the terminal shows the URL and each reload, not every
  /// request.
  public static let logger: Logger = {
    var logger = Logger(label: "scenec.preview")
    logger.logLevel = .warning
    return logger
  }()

  /// The largest WebSocket message read, in bytes.
  public static let maximumMessageBytes = PreviewMessage.maximumBytes

  /// The limits that keep one client from holding the server.
  public struct Limits: Sendable {
    /// A request head must arrive whole within this long of its first byte (or of the
    /// connection): a slow-loris client is answered 408 and dropped.
    public var headTimeout: Duration = .seconds(10)
    /// A connection with no request under way is closed after this long.
    public var idleTimeout: Duration = .seconds(60)
    /// Connections served at once; more wait in the listening queue until one closes
    /// (SwiftNIO accepts up to 4 in one read of the listening socket, so the count can pass
    /// this by up to 3 for a moment).
    public var maximumConnections = 64
    /// Pages (WebSockets) served at once; another is told to close one.
    public var maximumPages = 8
    /// How long a closing WebSocket waits for the page's answer.
    public var closeTimeout: Duration = .seconds(1)
    /// How often a page is pinged; one that does not answer is closed.
    public var pingInterval: Duration = .seconds(30)

    public init() {}
  }

  /// Headers on every response: no other site may frame the page.
  static let securityHeaders: [(String, String)] = [
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Cache-Control", "no-store"),
  ]

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
    router.add(middleware: SecurityHeaders())
    let page = PreviewPage.html
    router.get("/") { _, _ -> Response in
      var headers = HTTPFields()
      headers[.contentType] = "text/html; charset=utf-8"
      headers[.contentSecurityPolicy] = PreviewPage.contentSecurityPolicy
      return Response(
        status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }
    let hub = self.hub
    let limits = self.limits
    let shared = SharedRateLimiter<ContinuousClock.Instant>()
    router.ws("/ws") { request, _ in
      Self.isSameOrigin(request.head) ? .upgrade([:]) : .dontUpgrade
    } onUpgrade: { inbound, outbound, _ in
      try await Self.serve(
        inbound: inbound, outbound: outbound, hub: hub, limits: limits, shared: shared)
    }
    let webSocketResponder = router.buildResponder()
    let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
      http1: .init(idleTimeout: .nanoseconds(Int64(limits.idleTimeout / .nanoseconds(1)))),
      ws: .init(
        maxFrameSize: Self.maximumMessageBytes, autoPing: .enabled(timePeriod: limits.pingInterval),
        closeTimeout: limits.closeTimeout, validateUTF8: true))
    let admission = RequestAdmission(listeningHost: host)
    let server = HTTPServerBuilder { responder in
      GuardedChannel(
        base: HTTP1WebSocketUpgradeChannel(
          responder: responder, webSocketResponder: webSocketResponder,
          configuration: channelConfiguration),
        admission: admission, limits: limits)
    }
    // Reusing the address lets a stopped preview start again at once on its port (the
    // closed connections linger in TIME_WAIT); Linux still refuses a port another server
    // listens on.
    let configuration = ApplicationConfiguration(
      address: .hostname(host, port: port), serverName: nil, reuseAddress: true,
      availableConnectionsDelegate: MaximumAvailableConnections(
        limits.maximumConnections, logger: logger))
    let poll = pollInterval
    return Application(
      router: router,
      server: server,
      configuration: configuration,
      services: [FileWatcher(hub: hub, interval: poll, report: reportReload)],
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

  /// Serves until `stop` yields (the executable's Ctrl-C, SIGTERM or SIGHUP).
  ///
  /// Then it stops: every page is told the preview stopped and closed, and connections that do not
  /// close within two seconds are cancelled. `onRunning` gets the port it listens on.
  public func run(
    stop: AsyncStream<Void>, onRunning: @escaping @Sendable (Int) async -> Void
  ) async throws {
    var configuration = ServiceGroupConfiguration(
      services: [application(onRunning: onRunning)], logger: Self.logger)
    configuration.maximumGracefulShutdownDuration = .seconds(2)
    let group = ServiceGroup(configuration: configuration)
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      tasks.addTask {
        // Waits on (for the group's end, which cancels it) after asking once.
        var asked = false
        for await _ in stop where !asked {
          asked = true
          await group.triggerGracefulShutdown()
        }
      }
      defer { tasks.cancelAll() }
      try await tasks.next()
    }
  }

  /// Whether a WebSocket request may connect: it comes from a page of this server, or
  /// from a program that is no web page at all.
  ///
  /// A browser sends its page's origin: it must be `http://` and the very host and port
  /// the request was sent to (which ``RequestAdmission`` has already checked names this
  /// server), so no other site open in the browser can drive the scene (cross-site
  /// WebSocket hijacking). A `ws://` origin for the same host is what WebSocket client
  /// libraries send; no browser page can send it. Anything else, or several `Origin`
  /// values, is refused.
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

  /// Why a page's connection ended, other than the page leaving.
  enum Ending: Error {
    /// The server is stopping (Ctrl-C).
    case serverStopping
    /// The page stopped reading what it is sent.
    case pageNotReading
  }

  /// Runs one page's connection until it closes.
  ///
  /// Errors of the WebSocket itself (an over-long message, invalid UTF-8) are thrown on,
  /// so the connection closes with their code.
  static func serve(
    inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, hub: PreviewHub,
    limits: Limits, shared: SharedRateLimiter<ContinuousClock.Instant>
  ) async throws {
    guard let (id, updates) = await hub.subscribe(maximumPages: limits.maximumPages) else {
      try await outbound.write(
        .text(
          PreviewConnection<ContinuousClock>.error(
            "too many pages are open (at most \(limits.maximumPages)): close one, then reload this page"
          )))
      try await outbound.close(.policyViolation, reason: "too many pages")
      return
    }
    let outbox = PageOutbox()
    let connection = PreviewConnection(hub: hub, clock: ContinuousClock(), shared: shared) {
      text in
      if !outbox.push(text, isFrame: PreviewConnection<ContinuousClock>.isFrame(text)) {
        outbox.close()
      }
    }
    let (stop, stopSignal) = AsyncStream.makeStream(of: Void.self)
    defer { outbox.close() }
    do {
      try await withGracefulShutdownHandler {
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask {
            // One writer for everything sent, so frames and replies never interleave.
            while let batch = await outbox.next() {
              for text in batch { try await outbound.write(.text(text)) }
            }
            throw Ending.pageNotReading
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
          group.addTask {
            for await _ in stop { break }
            throw Ending.serverStopping
          }
          group.addTask {
            for try await message in inbound.messages(maxSize: maximumMessageBytes) {
              switch message {
              case .text(let text): await connection.receive(text: text)
              case .binary: await connection.receive(text: "binary")
              }
            }
          }
          // The first to end ends the connection: the page left (or broke the protocol),
          // the server is stopping, or the page stopped reading.
          defer { group.cancelAll() }
          try await group.next()
        }
      } onGracefulShutdown: {
        stopSignal.yield()
      }
    } catch Ending.serverStopping {
      try? await outbound.close(.goingAway, reason: "the preview stopped")
    } catch Ending.pageNotReading {
      try? await outbound.close(.policyViolation, reason: "the page is not reading")
    } catch {
      // The WebSocket's own error (1007, 1009): its place is freed, then it closes the
      // connection with its code.
      await hub.unsubscribe(id)
      throw error
    }
    await hub.unsubscribe(id)
  }
}

/// The security headers on every response the router makes (the page, and 404s).
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response: Response
    do {
      response = try await next(request, context)
    } catch let error as HTTPError {
      response = Response(status: error.status)
    }
    for (name, value) in PreviewServer.securityHeaders {
      guard let field = HTTPField.Name(name), response.headers[field] == nil else { continue }
      response.headers[field] = value
    }
    return response
  }
}

/// Reloads the scene when its files change, for as long as the server runs.
struct FileWatcher: Service {
  let hub: PreviewHub
  let interval: Duration
  let report: @Sendable (String) -> Void

  func run() async throws {
    // Ctrl-C (graceful shutdown) cancels the loop, which checks for cancellation.
    await cancelWhenGracefulShutdown {
      await hub.watch(every: interval, report: report)
    }
  }
}

extension PreviewServer {
  /// Why the server could not start, in plain words: no SwiftNIO function names or errno
  /// numbers, and what to do about it.
  public static func describe(startError error: any Error, host: String, port: Int) -> String {
    let place = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
    if let io = error as? IOError {
      switch io.errnoCode {
      case EADDRINUSE:
        return
          "cannot serve the preview on \(place): the port is in use, perhaps by another preview; choose another with --port, or --port 0 for any free one"
      case EADDRNOTAVAIL:
        return "cannot serve the preview on \(place): \(host) is not an address of this machine"
      case EACCES:
        return
          "cannot serve the preview on \(place): permission denied (ports below 1024 need privileges); choose another with --port"
      default:
        return "cannot serve the preview on \(place): \(String(cString: strerror(io.errnoCode)))"
      }
    }
    if error is SocketAddressError {
      return
        "cannot serve the preview on \(place): '\(host)' is not a host name or address of this machine"
    }
    return "cannot serve the preview on \(place): \(String(describing: type(of: error)))"
  }
}
