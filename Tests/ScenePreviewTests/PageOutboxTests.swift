import Foundation
import Testing

@testable import ScenePreview

/// A page that does not read costs the server one frame, however many are made.
@Suite struct PageOutboxTests {
  @Test func onlyTheNewestFrameWaitsAndMessagesKeepTheirOrder() async {
    let outbox = PageOutbox()
    let frame = String(repeating: "x", count: 100_000)
    #expect(outbox.push("scene", isFrame: false))
    for n in 0..<1_000 { #expect(outbox.push("\(n)" + frame, isFrame: true)) }
    // One scene message and one frame wait: about 100 KB, not 100 MB.
    #expect(outbox.waitingBytes == 5 + 3 + frame.utf8.count)
    #expect(outbox.framesDropped == 999)
    #expect(outbox.push("diagnostics", isFrame: false))
    // A message after a frame makes it stale.
    #expect(await outbox.next() == ["scene", "diagnostics"])
    #expect(outbox.waitingBytes == 0)
  }

  @Test func aPageThatReadsNothingIsCutOffAfterTooManyMessages() {
    let outbox = PageOutbox()
    for n in 0..<PageOutbox.maximumMessages { #expect(outbox.push("m\(n)", isFrame: false)) }
    #expect(!outbox.push("one more", isFrame: false))
  }

  @Test func closingEndsAWaitingWriterAndDropsEverything() async {
    let outbox = PageOutbox()
    async let batch = outbox.next()
    outbox.close()
    #expect(await batch == nil)
    #expect(!outbox.push("late", isFrame: false))
    #expect(outbox.waitingBytes == 0)
  }

  @Test func aCancelledWriterReturns() async {
    let outbox = PageOutbox()
    let task = Task { await outbox.next() }
    task.cancel()
    #expect(await task.value == nil)
  }
}
