/// Many compiled expressions linked into one program, for a runtime that evaluates them
/// all on every frame.
///
/// Each ``CompiledExpression`` owns its code, its dependency list and its source, so
/// reading one out of an array to run it retains and releases all three. A batch keeps
/// every program in one contiguous instruction array and names each by its index, an
/// `Int`: evaluating costs no reference counting, and the check that the state is large
/// enough is made once for the whole batch rather than on every call.
public struct ExpressionBatch: Sendable {
  /// Every program, one after another.
  let code: [CompiledExpression.Instruction]
  /// Where each program starts in `code`; `starts[k + 1]` is where it ends.
  let starts: [Int]
  /// How many state slots evaluating may read: one more than the highest dependency.
  public let requiredSlots: Int
  /// For each program, how to answer it without starting the machine, if it can be.
  @usableFromInline let shortcuts: [Shortcut]

  /// A program answered without the machine, with the bits the machine would give.
  ///
  /// Segment paths' points are mostly handles named where a point is expected (two loads),
  /// and rests mostly written as numbers (two constants): for such programs, the call to
  /// the machine would cost many times the work.
  @usableFromInline
  enum Shortcut: Sendable {
    /// A program with real work to do.
    case run
    /// One load (a number, whose y is 0: `y` is −1) or two (a point).
    case load(x: Int, y: Int)
    /// One constant (a number, `y` 0) or two (a point).
    case constant(x: Double, y: Double)
    /// A point of a constant x and a loaded y (`(40, restY + …)`, once the y is shared).
    case constantAndLoad(x: Double, y: Int)
    /// A point of a loaded x and a constant y.
    case loadAndConstant(x: Int, y: Double)

    init(_ code: [CompiledExpression.Instruction]) {
      switch (code.count, code.first, code.last) {
      case (1, .load(let x)?, _): self = .load(x: x, y: -1)
      case (2, .load(let x)?, .load(let y)?): self = .load(x: x, y: y)
      case (1, .constant(let x)?, _): self = .constant(x: Double(bitPattern: x), y: 0)
      case (2, .constant(let x)?, .constant(let y)?):
        self = .constant(x: Double(bitPattern: x), y: Double(bitPattern: y))
      case (2, .constant(let x)?, .load(let y)?):
        self = .constantAndLoad(x: Double(bitPattern: x), y: y)
      case (2, .load(let x)?, .constant(let y)?):
        self = .loadAndConstant(x: x, y: Double(bitPattern: y))
      default: self = .run
      }
    }

    /// The program's value on `state`, from `machine` when it has real work to do.
    @inlinable @inline(__always)
    func value(
      _ state: UnsafeBufferPointer<Double>, machine: () -> (x: Double, y: Double)
    ) -> (x: Double, y: Double) {
      switch self {
      case .run: return machine()
      case .load(let x, let y): return (state[x], y >= 0 ? state[y] : 0)
      case .constant(let x, let y): return (x, y)
      case .constantAndLoad(let x, let y): return (x, state[y])
      case .loadAndConstant(let x, let y): return (state[x], y)
      }
    }
  }

  /// Links `expressions`; ``evaluate(_:state:)`` takes their indices in this array.
  public init(_ expressions: [CompiledExpression]) {
    self.init(expressions, frameConstantSlots: 0..<0, firstFreeSlot: 0)
  }

  /// Links `expressions`, computing once what several of them compute alike from the
  /// slots in `frameConstantSlots` alone.
  ///
  /// Such a part (`sin(time * 6)` in every handle of a generated scene) has the same value
  /// in every program, for as long as those slots keep theirs: it becomes a program of its
  /// own whose value goes to a slot from `firstFreeSlot` on, and the programs load it
  /// from there. The parts are calls of a function (`sin`, `cos`, `sqrt`, `atan2`,
  /// `hypot`, `%`, `distance`) with their arguments: the arithmetic around them is
  /// cheaper to redo than to share. The caller writes the shared values with
  /// ``evaluateShared(_:)`` whenever it has written those slots, before evaluating any
  /// program; the state must then hold ``slotCount`` slots. Every program gives the bits it
  /// gives alone: a shared part runs the same instructions in the same order.
  public init(
    _ expressions: [CompiledExpression], frameConstantSlots: Range<Int>, firstFreeSlot: Int
  ) {
    let sharing = SharedParts(
      expressions, frameConstantSlots: frameConstantSlots, firstFreeSlot: firstFreeSlot)
    var code: [CompiledExpression.Instruction] = []
    code.reserveCapacity(expressions.reduce(0) { $0 + $1.code.count })
    var starts = [0]
    starts.reserveCapacity(expressions.count + 1)
    var required = 0
    var shortcuts: [Shortcut] = []
    shortcuts.reserveCapacity(expressions.count)
    for (index, expression) in expressions.enumerated() {
      if !sharing.rewrites.isEmpty, let rewrites = sharing.rewritesOfProgram[index] {
        let program = SharedParts.rewrite(expression.code, sharing.rewrites[rewrites])
        shortcuts.append(Shortcut(program))
        code += program
      } else {
        shortcuts.append(Shortcut(expression.code))
        code += expression.code
      }
      starts.append(code.count)
      if let last = expression.dependencies.last { required = max(required, last + 1) }
    }
    self.code = code
    self.starts = starts
    self.shortcuts = shortcuts
    sharedCode = sharing.parts.flatMap { $0 }
    var sharedStarts = [0]
    for part in sharing.parts {
      sharedStarts.append(sharedStarts[sharedStarts.count - 1] + part.count)
    }
    self.sharedStarts = sharedStarts
    self.firstSharedSlot = firstFreeSlot
    for part in sharing.parts {
      for instruction in part {
        if let slot = instruction.slot { required = max(required, slot + 1) }
      }
    }
    if !sharing.parts.isEmpty { required = max(required, firstFreeSlot + sharing.parts.count) }
    self.requiredSlots = required
  }

  /// The parts computed once for several programs, one after another (see
  /// ``init(_:frameConstantSlots:firstFreeSlot:)``).
  let sharedCode: [CompiledExpression.Instruction]
  /// Where each shared part starts in `sharedCode`; `sharedStarts[k + 1]` is where it ends.
  let sharedStarts: [Int]
  /// The slot shared part `k` is written to is `firstSharedSlot + k`.
  let firstSharedSlot: Int

  /// How many parts are computed once for several programs.
  public var sharedCount: Int { sharedStarts.count - 1 }

  /// How many slots the state must hold: at least ``requiredSlots``.
  public var slotCount: Int { requiredSlots }

  /// Writes every shared part's value to its slot, from the frame-constant slots of
  /// `state`; a state shorter than ``requiredSlots`` is left as it is.
  public func evaluateShared(_ state: UnsafeMutableBufferPointer<Double>) {
    guard sharedCount > 0, state.count >= requiredSlots else { return }
    let readable = UnsafeBufferPointer(state)
    sharedCode.withUnsafeBufferPointer { code in
      withUnsafeTemporaryAllocation(of: Double.self, capacity: CompiledExpression.maximumStackDepth)
      { stack in
        for k in 0..<sharedCount {
          let part = UnsafeBufferPointer(rebasing: code[sharedStarts[k]..<sharedStarts[k + 1]])
          let value = CompiledExpression.run(part, state: readable, stack: stack)
          state[firstSharedSlot + k] = value.x
        }
      }
    }
  }

  /// How many expressions the batch holds.
  public var count: Int { starts.count - 1 }

  /// The value of expression `index` (an index into the array the batch was made from)
  /// on `state`; for a number, `y` is 0.
  ///
  /// A state shorter than ``requiredSlots`` is the caller's mistake; the result is then
  /// NaN, as ``CompiledExpression/evaluate(_:)`` gives, rather than a read past the buffer.
  ///
  /// Inlinable, so that a shortcut (see ``Shortcut``) costs the caller a few
  /// instructions rather than a call; the machine itself is not inlined.
  @inlinable
  public func evaluate(_ index: Int, state: UnsafeBufferPointer<Double>) -> (x: Double, y: Double) {
    guard state.count >= requiredSlots else { return (.nan, .nan) }
    return shortcuts[index].value(state) { run(index, state: state) }
  }

  /// Runs program `index` on the machine; the state has been checked.
  @usableFromInline
  func run(_ index: Int, state: UnsafeBufferPointer<Double>) -> (x: Double, y: Double) {
    let range = starts[index]..<starts[index + 1]
    return code.withUnsafeBufferPointer { code in
      withUnsafeTemporaryAllocation(of: Double.self, capacity: CompiledExpression.maximumStackDepth)
      { stack in
        CompiledExpression.run(
          UnsafeBufferPointer(rebasing: code[range]), state: state, stack: stack)
      }
    }
  }
}

extension ExpressionBatch {
  /// The batch's arrays, borrowed for a loop that evaluates many programs in a row.
  ///
  /// ``ExpressionBatch/evaluate(_:state:)`` reaches each array through the batch, with
  /// its bounds checks and a copy of the batch's references, on every call; a frame makes
  /// thousands of calls. The evaluator holds the arrays' storage directly, and is valid
  /// only inside ``ExpressionBatch/withEvaluator(_:)``.
  public struct Evaluator {
    let code: UnsafeBufferPointer<CompiledExpression.Instruction>
    let starts: UnsafeBufferPointer<Int>
    @usableFromInline let shortcuts: UnsafeBufferPointer<Shortcut>
    @usableFromInline let requiredSlots: Int

    /// The value of program `index` on `state`, with the bits
    /// ``ExpressionBatch/evaluate(_:state:)`` gives; `index` must be one of the batch's.
    @inlinable
    public func evaluate(_ index: Int, state: UnsafeBufferPointer<Double>) -> (
      x: Double, y: Double
    ) {
      guard state.count >= requiredSlots else { return (.nan, .nan) }
      return shortcuts[index].value(state) { run(index, state: state) }
    }

    @usableFromInline
    func run(_ index: Int, state: UnsafeBufferPointer<Double>) -> (x: Double, y: Double) {
      let range = starts[index]..<starts[index + 1]
      return withUnsafeTemporaryAllocation(
        of: Double.self, capacity: CompiledExpression.maximumStackDepth
      ) { stack in
        CompiledExpression.run(
          UnsafeBufferPointer(rebasing: code[range]), state: state, stack: stack)
      }
    }
  }

  /// `body` given an ``Evaluator`` for this batch's programs.
  public func withEvaluator<R>(_ body: (Evaluator) -> R) -> R {
    code.withUnsafeBufferPointer { code in
      starts.withUnsafeBufferPointer { starts in
        shortcuts.withUnsafeBufferPointer { shortcuts in
          body(
            Evaluator(
              code: code, starts: starts, shortcuts: shortcuts, requiredSlots: requiredSlots))
        }
      }
    }
  }
}

/// The parts of programs worth computing once for all (see
/// ``ExpressionBatch/init(_:frameConstantSlots:firstFreeSlot:)``): which ones, and where
/// each program uses them.
///
/// Kept in flat arrays, not an array per program: a scene of 10,000 handles has thousands
/// of programs with a part, and an allocation for each of them cost more than the search.
struct SharedParts {
  typealias Instruction = CompiledExpression.Instruction
  typealias Rewrite = (range: ClosedRange<Int>, slot: Int)

  /// Each shared part's code.
  var parts: [[Instruction]] = []
  /// The ranges to replace, program after program, each with the slot to load instead.
  var rewrites: [Rewrite] = []
  /// For each program that uses a shared part, where its rewrites are in ``rewrites``.
  var rewritesOfProgram: [Int: Range<Int>] = [:]

  init(_ expressions: [CompiledExpression], frameConstantSlots: Range<Int>, firstFreeSlot: Int) {
    guard !frameConstantSlots.isEmpty else { return }
    // Every candidate of every program, numbered by its code (one hash per candidate), and
    // how many programs hold each.
    var numbers: [ArraySlice<Instruction>: Int] = [:]
    var holders: [Int] = []
    var lastHolder: [Int] = []
    var ranges: [ClosedRange<Int>] = []
    var partOfRange: [Int] = []
    var programs: [(program: Int, ranges: Range<Int>)] = []
    var stack: [(start: Int, isFrameConstant: Bool)] = []
    for (index, expression) in expressions.enumerated() {
      let code = expression.code
      guard code.contains(where: { $0.callsAFunction }) else { continue }
      let first = ranges.count
      Self.candidates(
        in: code, frameConstantSlots: frameConstantSlots, stack: &stack, into: &ranges)
      guard ranges.count > first else { continue }
      for range in ranges[first...] {
        let part: Int
        if let known = numbers[code[range]] {
          part = known
        } else {
          part = holders.count
          numbers[code[range]] = part
          holders.append(0)
          lastHolder.append(-1)
        }
        if lastHolder[part] != index {
          holders[part] += 1
          lastHolder[part] = index
        }
        partOfRange.append(part)
      }
      programs.append((index, first..<ranges.count))
    }
    // Each program takes its largest parts that another program holds too, none inside
    // another it took: `sqrt(sin(time))` whole where two programs have it. The candidates
    // of a program come inner first, so the largest is the last.
    var taken: [(range: ClosedRange<Int>, part: Int)] = []
    var takenOfProgram: [(program: Int, taken: Range<Int>)] = []
    var uses = [Int](repeating: 0, count: holders.count)
    for (program, candidates) in programs {
      let first = taken.count
      for k in candidates.reversed() where holders[partOfRange[k]] >= 2 {
        guard !taken[first...].contains(where: { $0.range.overlaps(ranges[k]) }) else { continue }
        taken.append((ranges[k], partOfRange[k]))
        uses[partOfRange[k]] += 1
      }
      if taken.count > first { takenOfProgram.append((program, first..<taken.count)) }
    }
    // A part left with one user stays where it is.
    var slotOfPart = [Int](repeating: -1, count: holders.count)
    for (program, its) in takenOfProgram {
      let code = expressions[program].code
      let first = rewrites.count
      for (range, part) in taken[its] where uses[part] >= 2 {
        if slotOfPart[part] < 0 {
          slotOfPart[part] = firstFreeSlot + parts.count
          parts.append(Array(code[range]))
        }
        rewrites.append((range, slotOfPart[part]))
      }
      guard rewrites.count > first else { continue }
      rewrites[first...].sort { $0.range.lowerBound < $1.range.lowerBound }
      rewritesOfProgram[program] = first..<rewrites.count
    }
  }

  /// Appends to `found` the calls of `code` whose arguments read only constants and
  /// `frameConstantSlots`, inner ones first.
  ///
  /// In the postfix code, a value's instructions run from the start of its first operand's
  /// to the one that pushes it, here the call. `stack` is scratch space, kept by the
  /// caller.
  static func candidates(
    in code: [Instruction], frameConstantSlots: Range<Int>,
    stack: inout [(start: Int, isFrameConstant: Bool)], into found: inout [ClosedRange<Int>]
  ) {
    // For each entry on the stack: where the instructions computing it start, and whether
    // they read only frame constants.
    stack.removeAll(keepingCapacity: true)
    let first = found.count
    for (index, instruction) in code.enumerated() {
      let (pops, pushes) = instruction.effect
      guard stack.count >= pops else {
        found.removeSubrange(first...)
        return
      }
      var start = index
      var isFrameConstant = instruction.slot.map(frameConstantSlots.contains) ?? true
      for _ in 0..<pops {
        let operand = stack.removeLast()
        start = min(start, operand.start)
        isFrameConstant = isFrameConstant && operand.isFrameConstant
      }
      // Only calls are parts: `restY + 3 * sin(time * 4 + c)` shares `sin(time * 4 + c)`,
      // whose copies are many, not the whole, whose copies are few; the cheap arithmetic
      // around a call costs less than calling it.
      if pushes == 1 && isFrameConstant && instruction.callsAFunction {
        found.append(start...index)
      }
      for _ in 0..<pushes { stack.append((start, isFrameConstant)) }
    }
  }

  /// `code` with each range replaced by a load of its slot, then fused again (a load
  /// before `+` becomes one step, as the compiler makes it).
  static func rewrite(_ code: [Instruction], _ rewrites: ArraySlice<Rewrite>) -> [Instruction] {
    var result: [Instruction] = []
    result.reserveCapacity(code.count)
    var index = 0
    for (range, slot) in rewrites {
      result += code[index..<range.lowerBound]
      result.append(.load(slot: slot))
      index = range.upperBound + 1
    }
    result += code[index...]
    return CompiledExpression.fused(result)
  }
}

extension CompiledExpression.Instruction {
  /// Whether the instruction calls a mathematical function: the steps a shared part saves.
  var callsAFunction: Bool {
    switch self {
    case .sine, .cosine, .squareRoot, .arcTangent2, .hypotenuse, .remainder, .distance: true
    default: false
    }
  }
}
