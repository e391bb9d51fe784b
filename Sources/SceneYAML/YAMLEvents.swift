import Dispatch
import Synchronization

/// libyaml's events for the tree builder, parsed on the builder's own thread or, for a
/// large input, on a second thread that runs ahead of it.
///
/// libyaml's scanning and parsing cost about as much as building the tree from its events
/// (callgrind, the 5.2 MB stress scene: 1.25 G and 1.0 G instructions), and neither waits
/// for the other except at the end, so on two cores they overlap. The events and their
/// order are the same either way; only where libyaml runs differs.
struct YAMLEvents: ~Copyable {
  /// Inputs of at least this many bytes are parsed on a second thread.
  ///
  /// Starting it costs tens of microseconds, more than libyaml needs for a small scene.
  static let pipelineThreshold = 256 << 10

  /// Whether an input of `byteCount` bytes is parsed on a second thread.
  static func isPipelined(byteCount: Int) -> Bool { byteCount >= pipelineThreshold }

  private enum Source {
    case direct(LibYAMLParser)
    case pipelined(EventPipeline)
  }

  private let source: Source
  /// The batch being read, when pipelined, and the index of its next event.
  private var batch = EventBatch()
  private var index = 0
  /// Events read on this thread, when direct.
  private var directEvents = 0

  /// The events of `bytes`, on a second thread when `pipelined`.
  ///
  /// `maxDepth` is the reader's nesting limit: the second thread stops after the first
  /// collection deeper than it, which the reader refuses, rather than let libyaml read on
  /// (it slows down superlinearly with depth).
  init(bytes: [UInt8], maxDepth: Int, pipelined: Bool) {
    source =
      pipelined
      ? .pipelined(EventPipeline(bytes: bytes, maxDepth: maxDepth))
      : .direct(LibYAMLParser(bytes: bytes))
  }

  /// The next event, or libyaml's error.
  ///
  /// After `streamEnd` or an error there are no more.
  mutating func next() throws(LibYAMLParser.Failure) -> LibYAMLParser.Event {
    switch source {
    case .direct(let parser):
      directEvents += 1
      return try parser.next()
    case .pipelined(let pipeline):
      while index == batch.records.count {
        // libyaml's error ends the last batch, after any events before it.
        if let failure = batch.failure { throw failure }
        guard let more = pipeline.nextBatch() else {
          // Only after the last event, which the reader never reads past.
          throw LibYAMLParser.Failure(
            kind: .other, problem: "no more YAML events", context: nil,
            problemMark: LibYAMLParser.Mark(index: 0), contextMark: LibYAMLParser.Mark(index: 0),
            problemOffset: 0, problemValue: -1)
        }
        batch = more
        index = 0
      }
      index += 1
      return batch.event(at: index - 1)
    }
  }

  /// Stops libyaml if it runs on a second thread, waiting until it has, and returns how
  /// many events (and errors) libyaml produced in all, read or not.
  mutating func stop() -> Int {
    switch source {
    case .direct: return directEvents
    case .pipelined(let pipeline): return pipeline.stop()
    }
  }

  deinit {
    // A reader that stops early (a duplicate key, an alias over budget) stops libyaml too,
    // and waits for it, so no thread outlives the read.
    if case .pipelined(let pipeline) = source { _ = pipeline.stop() }
  }
}

/// libyaml on a second thread, handing its events over in batches through a bounded
/// queue: at most ``capacity`` batches wait, so memory stays bounded however far ahead
/// libyaml could run.
final class EventPipeline: Sendable {
  /// Events per batch: one hand-over costs about as much as a few events.
  static let batchSize = 1_024
  /// Batches that may wait to be read.
  static let capacity = 8

  private struct Queue {
    var batches: [EventBatch] = []
    var head = 0
    var isStopped = false
    var isFinished = false
    /// Events (and errors) libyaml has produced, queued or not.
    var produced = 0
  }

  private let queue = Mutex(Queue())
  /// Signalled once per batch queued, and once more when the producer ends.
  private let filled = DispatchSemaphore(value: 0)
  /// Room for batches; starts at zero and is signalled up to `capacity`, because
  /// libdispatch refuses to free a semaphore whose count is below its initial value.
  private let room = DispatchSemaphore(value: 0)
  /// Signalled once when the producer has returned and libyaml is freed.
  private let ended = DispatchSemaphore(value: 0)

  init(bytes: [UInt8], maxDepth: Int) {
    for _ in 0..<Self.capacity { room.signal() }
    // A queue of its own, not the global one: the global queue keeps to about a thread
    // per core, and a reader that is itself one of those threads (`scenec test` reads
    // scenes side by side) would wait for a producer that has to wait for a thread.
    DispatchQueue(label: "scenec.yaml-events", qos: .userInitiated).async { [self] in
      produce(bytes, maxDepth: maxDepth)
    }
  }

  /// The next batch, waiting for it if need be, or `nil` after the last.
  func nextBatch() -> EventBatch? {
    filled.wait()
    let batch = queue.withLock { queue -> EventBatch? in
      guard queue.head < queue.batches.count else { return nil }
      let batch = queue.batches[queue.head]
      queue.batches[queue.head] = EventBatch()
      queue.head += 1
      if queue.head == queue.batches.count {
        queue.batches.removeAll(keepingCapacity: true)
        queue.head = 0
      }
      return batch
    }
    // After the last batch every call answers `nil`: the end is signalled again for the next.
    if batch == nil { filled.signal() } else { room.signal() }
    return batch
  }

  /// Stops the producer if it is still running and returns how many events (and errors)
  /// it produced.
  ///
  /// The first call waits until the producer has returned; later ones do not wait.
  func stop() -> Int {
    let isFirst = queue.withLock { queue in
      defer { queue.isStopped = true }
      return !queue.isStopped
    }
    if isFirst {
      // A producer waiting for room wakes, sees the stop and returns.
      room.signal()
      ended.wait()
    }
    return queue.withLock { $0.produced }
  }

  private func produce(_ bytes: [UInt8], maxDepth: Int) {
    defer {
      queue.withLock { $0.isFinished = true }
      filled.signal()
      ended.signal()
    }
    let parser = LibYAMLParser(bytes: bytes)
    var depth = 0
    var isDone = false
    while !isDone {
      var batch = EventBatch()
      batch.records.reserveCapacity(Self.batchSize)
      batch.bytes.reserveCapacity(Self.batchSize * 16)
      while !isDone && batch.records.count < Self.batchSize {
        do {
          switch try parser.next(into: &batch) {
          case .streamEnd:
            isDone = true
          case .sequenceStart, .mappingStart:
            depth += 1
            if depth > maxDepth { isDone = true }
          case .sequenceEnd, .mappingEnd:
            depth -= 1
          default:
            break
          }
        } catch {
          batch.failure = error
          isDone = true
        }
      }
      room.wait()
      let isStopped = queue.withLock { queue in
        queue.produced += batch.records.count + (batch.failure == nil ? 0 : 1)
        if !queue.isStopped { queue.batches.append(batch) }
        return queue.isStopped
      }
      if isStopped { return }
      filled.signal()
    }
  }
}

/// A run of libyaml's events as plain data: a record per event, the text of every scalar,
/// anchor and tag in one byte array, and libyaml's error if it stopped at the end of the
/// run.
///
/// Made on the second thread with two allocations per thousand events; the strings are
/// made from it on the reader's thread (``event(at:)``), which also frees them.
struct EventBatch: Sendable {
  enum Kind: UInt8, Sendable {
    case streamStart, streamEnd, documentStart, documentEnd, alias, scalar
    case sequenceStart, sequenceEnd, mappingStart, mappingEnd
  }

  /// One event; its texts are ranges of ``bytes``.
  struct Record: Sendable {
    var kind: Kind
    var style: LibYAMLParser.ScalarStyle
    var start: Int
    var end: Int
    /// A scalar's text, or the anchor an alias names.
    var value = 0..<0
    var anchor: Range<Int>?
    var tag: Range<Int>?
  }

  var records: [Record] = []
  var bytes: [UInt8] = []
  var failure: LibYAMLParser.Failure?

  /// Record `index` as an event, the same as `LibYAMLParser.next()` gives.
  func event(at index: Int) -> LibYAMLParser.Event {
    let record = records[index]
    let start = LibYAMLParser.Mark(index: record.start)
    let end = LibYAMLParser.Mark(index: record.end)
    func node() -> LibYAMLParser.Node {
      LibYAMLParser.Node(
        anchor: record.anchor.map(text), tag: record.tag.map(text), start: start, end: end)
    }
    switch record.kind {
    case .streamStart: return .streamStart
    case .streamEnd: return .streamEnd
    case .documentStart: return .documentStart(start: start, end: end)
    case .documentEnd: return .documentEnd
    case .alias: return .alias(anchor: text(record.value), start: start, end: end)
    case .scalar:
      let value = bytes[record.value]
      let string = text(record.value)
      // Nearly always ASCII, one scalar per byte.
      let scalarCount =
        value.allSatisfy { $0 < 0x80 } ? value.count : string.unicodeScalars.count
      return .scalar(string, scalarCount: scalarCount, style: record.style, node: node())
    case .sequenceStart: return .sequenceStart(node())
    case .sequenceEnd: return .sequenceEnd
    case .mappingStart: return .mappingStart(node())
    case .mappingEnd: return .mappingEnd
    }
  }

  private func text(_ range: Range<Int>) -> String {
    bytes.withUnsafeBufferPointer { String(decoding: $0[range], as: UTF8.self) }
  }
}
