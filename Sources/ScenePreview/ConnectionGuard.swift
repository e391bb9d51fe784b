import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The first handler of every connection: it holds each request head until it is whole,
/// checks it (``RequestAdmission``), and only then lets it through to the HTTP parser.
///
/// What it adds to Hummingbird's own handling, for a server that runs while its user
/// browses the web:
/// - a request that is not HTTP, or not for this host, is answered (400, 403, 431) and
///   the connection closed, instead of being held open;
/// - a head must arrive whole within ``PreviewServer/Limits/headTimeout`` of its first
///   byte (or of the connection) and a connection idle between requests is closed after
///   ``PreviewServer/Limits/idleTimeout``, so a slow-loris client cannot hold sockets;
/// - once a connection is a WebSocket, every frame from the page must be masked (RFC 6455
///   §5.1): an unmasked one closes it with 1002.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  enum Phase {
    /// Reading a request head: the bytes so far, and whether the last one was a CR.
    case head
    /// A WebSocket: frames pass, checked for their mask.
    case webSocket
    /// Answered and closing: nothing more is read.
    case closed
  }

  let admission: RequestAdmission
  let limits: PreviewServer.Limits
  var phase = Phase.head
  var pending: [UInt8] = []
  var scanner = HeadScanner()
  var frames = WebSocketFrameScanner()
  var timer: Scheduled<Void>?

  init(admission: RequestAdmission, limits: PreviewServer.Limits) {
    self.admission = admission
    self.limits = limits
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { armHeadTimer(context: context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    armHeadTimer(context: context)
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var buffer = unwrapInboundIn(data)
    switch phase {
    case .closed:
      return
    case .webSocket:
      let ok = buffer.withUnsafeReadableBytes { frames.scan($0) }
      guard ok else {
        // 1002, "protocol error", with its reason; then the connection closes.
        var close = context.channel.allocator.buffer(capacity: 64)
        let reason = Array("frames from a page must be masked".utf8)
        close.writeBytes([0x88, UInt8(2 + reason.count), 0x03, 0xEA] + reason)
        phase = .closed
        writeThenClose(close, context: context)
        return
      }
      context.fireChannelRead(data)
    case .head:
      if pending.isEmpty && !(timer != nil && isHeadTimer) { armHeadTimer(context: context) }
      pending += buffer.readBytes(length: buffer.readableBytes) ?? []
      processHeads(context: context)
    }
  }

  /// Passes on every whole, admitted head in `pending`; refuses the first bad one.
  private func processHeads(context: ChannelHandlerContext) {
    while phase == .head, !pending.isEmpty {
      let end: Int
      switch scanner.scan(pending) {
      case .end(let at):
        end = at
      case .problem(let problem):
        refuse(.badRequest(problem), context: context)
        return
      case .incomplete:
        if pending.count > RequestAdmission.maximumHeadBytes {
          refuse(
            RequestAdmission.Refusal(
              status: 431, phrase: "Request Header Fields Too Large",
              reason: "a request head is larger than \(RequestAdmission.maximumHeadBytes) bytes"),
            context: context)
        }
        return
      }
      let head = pending[..<end]
      let port = context.channel.localAddress?.port ?? 0
      switch admission.decide(head: head, port: port) {
      case .refuse(let refusal):
        refuse(refusal, context: context)
        return
      case .admit(let webSocket):
        var bytes = context.channel.allocator.buffer(capacity: end)
        bytes.writeBytes(head)
        pending.removeFirst(end)
        context.fireChannelRead(wrapInboundOut(bytes))
        if webSocket {
          phase = .webSocket
          timer?.cancel()
          timer = nil
          if !pending.isEmpty {
            let rest = pending
            pending = []
            var buffer = context.channel.allocator.buffer(capacity: rest.count)
            buffer.writeBytes(rest)
            channelRead(context: context, data: NIOAny(buffer))
          }
          return
        }
        if pending.isEmpty {
          armIdleTimer(context: context)
        } else {
          armHeadTimer(context: context)
        }
      }
    }
  }

  /// Answers with `refusal` and closes the connection.
  func refuse(_ refusal: RequestAdmission.Refusal, context: ChannelHandlerContext) {
    guard phase != .closed else { return }
    phase = .closed
    pending = []
    timer?.cancel()
    timer = nil
    let body = refusal.reason + "\n"
    var response = context.channel.allocator.buffer(capacity: 512)
    response.writeString(
      "HTTP/1.1 \(refusal.status) \(refusal.phrase)\r\n"
        + "Content-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: \(body.utf8.count)\r\n"
        + "Connection: close\r\n"
        + PreviewServer.securityHeaders.map { "\($0.0): \($0.1)\r\n" }.joined()
        + "\r\n" + body)
    writeThenClose(response, context: context)
  }

  /// Sends `bytes`, then closes the connection once they are written.
  private func writeThenClose(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in
      bound.value.close(promise: nil)
    }
  }

  // MARK: - Timers

  private var isHeadTimer = false

  private func armHeadTimer(context: ChannelHandlerContext) {
    arm(after: limits.headTimeout, head: true, context: context)
  }

  private func armIdleTimer(context: ChannelHandlerContext) {
    arm(after: limits.idleTimeout, head: false, context: context)
  }

  private func arm(after duration: Duration, head: Bool, context: ChannelHandlerContext) {
    timer?.cancel()
    isHeadTimer = head
    let (seconds, attoseconds) = duration.components
    let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    timer = context.eventLoop.scheduleTask(in: delay) {
      let (handler, context) = loopBound.value
      handler.timerFired(head: head, context: context)
    }
  }

  private func timerFired(head: Bool, context: ChannelHandlerContext) {
    timer = nil
    guard phase == .head else { return }
    if head {
      refuse(
        RequestAdmission.Refusal(
          status: 408, phrase: "Request Timeout",
          reason: "a request head must arrive whole within \(limits.headTimeout)"),
        context: context)
    } else {
      phase = .closed
      context.close(promise: nil)
    }
  }
}

/// Finds where a request head ends, and refuses one that no HTTP/1.1 head could be, looking
/// at each byte once however the head arrives (a slow client sending a byte at a time
/// costs no more than one sending it whole).
struct HeadScanner: Sendable {
  enum Outcome: Equatable {
    /// The head is whole: its bytes are the first `end`.
    case end(Int)
    /// A line break that is not CRLF, or a NUL: refused at once rather than waited on.
    case problem(String)
    case incomplete
  }

  /// How many bytes of the head so far have been judged.
  private var scanned = 0
  /// Bytes looked at in all (for the test that counts them).
  private(set) var visited = 0

  /// Judges the bytes of `head` not judged yet.
  ///
  /// After ``Outcome/end(_:)`` the caller drops those bytes, and the next call starts a new
  /// head.
  mutating func scan(_ head: [UInt8]) -> Outcome {
    let crlf = Outcome.problem("lines of a request head must end with CRLF")
    var index = scanned
    while index < head.count {
      visited += 1
      switch head[index] {
      case 0:
        return .problem("a request head has a NUL byte")
      case 13:
        // Judged once the byte after it has come.
        guard index + 1 < head.count else {
          scanned = index
          return .incomplete
        }
        if head[index + 1] != 10 { return crlf }
      case 10:
        if index == 0 || head[index - 1] != 13 { return crlf }
        if index >= 3 && head[index - 2] == 10 && head[index - 3] == 13 {
          scanned = 0
          return .end(index + 1)
        }
      default:
        break
      }
      index += 1
    }
    scanned = index
    return .incomplete
  }
}

/// The last handler while a connection is HTTP: a request the HTTP parser rejects anyway
/// is answered with 400 and closed (Hummingbird's upgrade pipeline would leave it open).
final class ParseErrorResponder: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = Never
  let guardHandler: ConnectionGuard
  let guardContext: ChannelHandlerContext

  init(guardHandler: ConnectionGuard, guardContext: ChannelHandlerContext) {
    self.guardHandler = guardHandler
    self.guardContext = guardContext
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if error is HTTPParserError {
      guardHandler.refuse(.badRequest("not a valid HTTP/1.1 request"), context: guardContext)
      return
    }
    context.fireErrorCaught(error)
  }
}

/// Finds each frame's header in a WebSocket byte stream, to check that the page masked it.
///
/// It reads only headers (two bytes, the extended length, the mask key) and skips each
/// payload by its length, so it costs nothing per payload byte.
struct WebSocketFrameScanner: Sendable {
  /// Header bytes of the frame being read.
  private var header: [UInt8] = []
  /// Payload bytes still to skip before the next header.
  private var remaining: UInt64 = 0

  /// Scans `bytes`; false at the first frame that is not masked.
  mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    while index < bytes.count {
      if remaining > 0 {
        let skip = Int(min(remaining, UInt64(bytes.count - index)))
        index += skip
        remaining -= UInt64(skip)
        continue
      }
      header.append(bytes[index])
      index += 1
      guard header.count >= 2 else { continue }
      guard header[1] & 0x80 != 0 else { return false }
      let short = header[1] & 0x7F
      let lengthBytes = short == 126 ? 2 : short == 127 ? 8 : 0
      guard header.count == 2 + lengthBytes + 4 else { continue }
      var length = UInt64(short)
      if lengthBytes > 0 {
        length = header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
      }
      header = []
      remaining = length
    }
    return true
  }
}

/// Hummingbird's HTTP/1.1-and-WebSocket child channel, with ``ConnectionGuard`` first in
/// every connection's pipeline and ``ParseErrorResponder`` last.
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
  typealias Value = Base.Value
  let base: Base
  let admission: RequestAdmission
  let limits: PreviewServer.Limits

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let handler = NIOLoopBound(
      ConnectionGuard(admission: admission, limits: limits), eventLoop: channel.eventLoop)
    return channel.eventLoop.makeCompletedFuture {
      try channel.pipeline.syncOperations.addHandler(handler.value, position: .first)
    }.flatMap {
      base.setup(channel: channel, logger: logger)
    }.flatMapThrowing { value in
      let handler = handler.value
      let context = try channel.pipeline.syncOperations.context(handler: handler)
      try channel.pipeline.syncOperations.addHandler(
        ParseErrorResponder(guardHandler: handler, guardContext: context), position: .last)
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await base.handle(value: value, logger: logger)
  }
}
