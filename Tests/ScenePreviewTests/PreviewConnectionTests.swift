import Foundation
import Testing

@testable import ScenePreview

/// A connection without a network: what it sends for what it receives, at given instants.
@Suite struct PreviewConnectionTests {
  actor Outbox {
    var texts: [String] = []
    func add(_ text: String) { texts.append(text) }
  }

  /// A clock that stands still: every instant a test uses is one it chose.
  struct StillClock: Clock {
    struct Instant: InstantProtocol {
      var offset: Duration
      func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
      func duration(to other: Instant) -> Duration { other.offset - offset }
      static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }
    var now: Instant { Instant(offset: .zero) }
    var minimumResolution: Duration { .nanoseconds(1) }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
  }

  static let zero = StillClock.Instant(offset: .zero)

  static func connection(
    shared: SharedRateLimiter<StillClock.Instant>? = nil
  ) async throws -> (PreviewConnection<StillClock>, Outbox) {
    let folder = try PreviewSessionTests.folder(with: "elastic-drag.yaml")
    let hub = PreviewHub(sceneFile: folder + "/elastic-drag.yaml")
    await hub.load()
    let outbox = Outbox()
    let connection = PreviewConnection(hub: hub, clock: StillClock(), shared: shared) {
      await outbox.add($0)
    }
    let (_, updates) = try #require(await hub.subscribe())
    var iterator = updates.makeAsyncIterator()
    await connection.receive(try #require(await iterator.next()))
    return (connection, outbox)
  }

  @Test func aFloodIsCutToTheRateWithOneWarning() async throws {
    let (connection, outbox) = try await Self.connection()
    let now = Self.zero
    // 2,500 messages in the same instant: the burst of 2,000 passes, the rest is dropped.
    for _ in 0..<2500 { await connection.receive(text: #"{"type":"speed","value":1}"#, at: now) }
    #expect(await connection.messagesRefused == 500)
    let warnings = await outbox.texts.filter { $0.contains("too many messages") }
    #expect(
      warnings == [
        #"{"message":"too many messages: some were dropped (at most 1000 a second)","type":"error"}"#
      ])
    // A second later, 1,000 more are allowed again.
    for _ in 0..<1000 {
      await connection.receive(
        text: #"{"type":"speed","value":1}"#, at: now.advanced(by: .seconds(1)))
    }
    #expect(await connection.messagesRefused == 500)
  }

  @Test func manyPagesTogetherGetTheServersRateNotTheSumOfTheirs() async throws {
    let shared = SharedRateLimiter<StillClock.Instant>()
    var pages: [(PreviewConnection<StillClock>, Outbox)] = []
    for _ in 0..<5 { pages.append(try await Self.connection(shared: shared)) }
    // Each page sends its own burst of 2,000 at the same instant: 10,000 in all, of which
    // the server's burst of 4,000 pass.
    for (connection, _) in pages {
      for _ in 0..<2000 {
        await connection.receive(text: #"{"type":"speed","value":1}"#, at: Self.zero)
      }
    }
    var refused = 0
    for (connection, _) in pages { refused += await connection.messagesRefused }
    #expect(refused == 10_000 - Int(RateLimit.serverBurst))
    let warnings = await pages[4].1.texts.filter { $0.contains("too many messages") }
    #expect(
      warnings == [
        #"{"message":"too many messages from all pages together: some were dropped (at most 2000 a second)","type":"error"}"#
      ])
  }

  @Test func framesComeOnTheSceneScheduleAndInputMakesTheNextAtOnce() async throws {
    let (connection, outbox) = try await Self.connection()
    let interval = Duration.seconds(1.0 / 60)
    // The first frame is due at once; the next one interval after it was due.
    let first = await connection.tick(at: Self.zero.advanced(by: .seconds(1)))
    #expect(await connection.framesSent == 1)
    // Not due yet: nothing.
    #expect(await connection.tick(at: first.advanced(by: interval / -2)) == first)
    #expect(await connection.framesSent == 1)
    // A pointer half-way makes the next frame now, not at its tick, and the schedule
    // moves on: the tick at its time finds nothing due.
    await connection.receive(
      text: #"{"type":"pointer","phase":"down","id":0,"x":120,"y":150}"#,
      at: first.advanced(by: interval / -2))
    #expect(await connection.framesSent == 2)
    let next = await connection.tick(at: first)
    #expect(await connection.framesSent == 2 && next == first.advanced(by: interval))
    let frames = await outbox.texts.filter { $0.hasPrefix(#"{"type":"frame""#) }
    #expect(frames.count == 2 && frames[1].contains(#"["grab","badge"]"#))
  }

  @Test func pausedSessionsMakeFramesOnlyWhenStepped() async throws {
    let (connection, _) = try await Self.connection()
    let now = Self.zero
    await connection.receive(text: #"{"type":"control","action":"pause"}"#, at: now)
    _ = await connection.tick(at: now.advanced(by: .seconds(1)))
    #expect(await connection.framesSent == 0)
    await connection.receive(text: #"{"type":"control","action":"step"}"#, at: now)
    #expect(await connection.framesSent == 1)
  }
}
