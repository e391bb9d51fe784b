import Foundation

/// What a page is sent, waiting for the WebSocket: at most one frame, the newest, and a
/// bounded queue of other messages.
///
/// A page that stops reading (a background tab, a hostile client) must not make the
/// server hold its frames: a frame is only useful until the next, so a new frame replaces
/// one not yet sent. Other messages (the scene, diagnostics, replies) are few and kept in
/// order, up to ``maximumMessages``; past that the page is not reading at all and
/// ``push(_:isFrame:)`` says so, and the connection is closed. So a page costs at most one
/// frame and a few small messages, however large the scene or slow the page.
final class PageOutbox: @unchecked Sendable {
  /// The most messages other than frames waiting at once.
  static let maximumMessages = 64

  private let lock = NSLock()
  /// Waiting messages in order; a frame is always the last, if present.
  private var queue: [String] = []
  private var lastIsFrame = false
  private var isClosed = false
  private var waiter: CheckedContinuation<[String]?, Never>?

  private var dropped = 0

  /// Frames dropped because a newer one came first.
  var framesDropped: Int { lock.withLock { dropped } }

  /// Adds `text`; false when the page has fallen so far behind that it should be closed.
  @discardableResult
  func push(_ text: String, isFrame: Bool) -> Bool {
    let (resume, batch, accepted): (CheckedContinuation<[String]?, Never>?, [String], Bool) =
      lock.withLock {
        guard !isClosed else { return (nil, [], false) }
        if isFrame && lastIsFrame {
          queue[queue.count - 1] = text
          dropped += 1
        } else {
          if !isFrame && queue.count - (lastIsFrame ? 1 : 0) >= Self.maximumMessages {
            return (nil, [], false)
          }
          if lastIsFrame && !isFrame {
            // A message after a frame (a new scene, say) makes that frame stale.
            queue.removeLast()
            dropped += 1
          }
          queue.append(text)
        }
        lastIsFrame = isFrame
        guard let waiter else { return (nil, [], true) }
        self.waiter = nil
        let batch = queue
        queue = []
        lastIsFrame = false
        return (waiter, batch, true)
      }
    resume?.resume(returning: batch)
    return accepted
  }

  /// Everything waiting, in order, once there is something; `nil` once closed.
  func next() async -> [String]? {
    // A cancelled writer closes the outbox, so a waiting `next()` always returns.
    await withTaskCancellationHandler {
      await wait()
    } onCancel: {
      close()
    }
  }

  private func wait() async -> [String]? {
    await withCheckedContinuation { continuation in
      let ready: [String]?? = lock.withLock {
        if !queue.isEmpty {
          let batch = queue
          queue = []
          lastIsFrame = false
          return .some(batch)
        }
        if isClosed { return .some(nil) }
        waiter = continuation
        return .none
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Drops everything waiting and ends ``next()``.
  func close() {
    let waiter: CheckedContinuation<[String]?, Never>? = lock.withLock {
      isClosed = true
      queue = []
      let waiter = self.waiter
      self.waiter = nil
      return waiter
    }
    waiter?.resume(returning: nil)
  }

  /// The bytes waiting (for tests: a page that does not read holds at most one frame).
  var waitingBytes: Int { lock.withLock { queue.reduce(0) { $0 + $1.utf8.count } } }
}
