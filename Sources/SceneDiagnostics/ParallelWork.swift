/// A way to run independent pieces of work side by side.
///
/// The engine's core starts no threads of its own: it also builds for WebAssembly, and an
/// app embedding it owns its threads. A stage whose work splits into independent pieces
/// (decoding 40,000 handles, compiling their expressions) hands the pieces to the
/// `ParallelWork` its caller passed, and the caller decides how they run. ``serial`` runs
/// them one after another on the calling thread; `ScenePipeline` passes one that spreads
/// them over every core.
///
/// Whatever runs them, the results come back in the order of the pieces, so the output
/// (the AST, the graph, every message) is the same byte for byte.
public struct ParallelWork: Sendable {
  /// Calls `body` once for every index in `0..<count`, perhaps on several threads at
  /// once, and returns when every call has returned.
  public let perform: @Sendable (_ count: Int, _ body: @Sendable (Int) -> Void) -> Void
  /// Whether `perform` may run pieces at once; when not, splitting work gains nothing.
  public let isConcurrent: Bool
  /// The fewest items worth a piece of their own: handing a piece to another thread costs
  /// about as much as decoding a few items.
  public let minimumPiece: Int

  public init(
    isConcurrent: Bool = true, minimumPiece: Int = 256,
    perform: @escaping @Sendable (_ count: Int, _ body: @Sendable (Int) -> Void) -> Void
  ) {
    self.isConcurrent = isConcurrent
    self.minimumPiece = max(minimumPiece, 1)
    self.perform = perform
  }

  /// One piece after another, in order, on the calling thread.
  public static let serial = ParallelWork(isConcurrent: false) { count, body in
    for index in 0..<count { body(index) }
  }

  /// `transform` of every index in `0..<count`, in order of index, however `perform`
  /// runs the calls.
  public func map<T: Sendable>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
    let values = Slots<T>(count: count)
    perform(count) { index in values.initialize(index, to: transform(index)) }
    return values.moveOut()
  }

  /// `transform` of every index in `0..<count`, in order of index, and the state of each
  /// piece.
  ///
  /// The indices are cut into ``pieces(of:maximumPieces:)``. Each piece runs on one
  /// thread, its indices in order, with a state of its own that `start` makes (a decoder
  /// collecting messages, say). The values are built where they end up, so none is
  /// copied to join the pieces.
  public func map<T: Sendable, State: Sendable>(
    _ count: Int, state start: @Sendable () -> State,
    _ transform: @Sendable (inout State, Int) -> T
  ) -> (values: [T], states: [State]) {
    let pieces = pieces(of: count)
    let values = Slots<T>(count: count)
    let states = Slots<State>(count: pieces.count)
    perform(pieces.count) { piece in
      var state = start()
      for index in pieces[piece] { values.initialize(index, to: transform(&state, index)) }
      states.initialize(piece, to: state)
    }
    return (values.moveOut(), states.moveOut())
  }

  /// How to cut `count` items into pieces worth handing out: one piece when the work is
  /// serial or small, else up to `maximumPieces` of at least ``minimumPiece`` items each
  /// (more pieces than threads, so that a slow piece does not hold the others up).
  public func pieces(of count: Int, maximumPieces: Int = 16) -> [Range<Int>] {
    let pieceCount = isConcurrent ? min(max(count / minimumPiece, 1), maximumPieces) : 1
    return (0..<pieceCount).map { piece in
      (count * piece / pieceCount)..<(count * (piece + 1) / pieceCount)
    }
  }
}

/// Uninitialized room for `count` values, each initialized once by one call, perhaps on
/// another thread, then moved out whole into an array: nothing is copied or retained.
///
/// `@unchecked Sendable`: the calls initialize distinct slots, and `perform` returns only
/// after all of them have, which orders their writes before ``moveOut()`` reads.
private final class Slots<T>: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<T>
  private let isSet: UnsafeMutableBufferPointer<Bool>
  private var isMoved = false

  init(count: Int) {
    slots = .allocate(capacity: count)
    isSet = .allocate(capacity: count)
    isSet.initialize(repeating: false)
  }

  func initialize(_ index: Int, to value: T) {
    slots.initializeElement(at: index, to: value)
    isSet[index] = true
  }

  /// Every value, in order; the slots are left uninitialized.
  func moveOut() -> [T] {
    guard isSet.allSatisfy({ $0 }) else {
      preconditionFailure("ParallelWork.perform skipped a piece")
    }
    isMoved = true
    return Array(unsafeUninitializedCapacity: slots.count) { buffer, count in
      if let target = buffer.baseAddress, let source = slots.baseAddress {
        target.moveInitialize(from: source, count: slots.count)
      }
      count = slots.count
    }
  }

  deinit {
    if !isMoved {
      for index in isSet.indices where isSet[index] { _ = slots.moveElement(from: index) }
    }
    slots.deallocate()
    isSet.deallocate()
  }
}
