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

    init(_ code: [CompiledExpression.Instruction]) {
      switch (code.count, code.first, code.last) {
      case (1, .load(let x)?, _): self = .load(x: x, y: -1)
      case (2, .load(let x)?, .load(let y)?): self = .load(x: x, y: y)
      case (1, .constant(let x)?, _): self = .constant(x: Double(bitPattern: x), y: 0)
      case (2, .constant(let x)?, .constant(let y)?):
        self = .constant(x: Double(bitPattern: x), y: Double(bitPattern: y))
      default: self = .run
      }
    }
  }

  /// Links `expressions`; ``evaluate(_:state:)`` takes their indices in this array.
  public init(_ expressions: [CompiledExpression]) {
    var code: [CompiledExpression.Instruction] = []
    code.reserveCapacity(expressions.reduce(0) { $0 + $1.code.count })
    var starts = [0]
    starts.reserveCapacity(expressions.count + 1)
    var required = 0
    var shortcuts: [Shortcut] = []
    shortcuts.reserveCapacity(expressions.count)
    for expression in expressions {
      shortcuts.append(Shortcut(expression.code))
      code += expression.code
      starts.append(code.count)
      if let last = expression.dependencies.last { required = max(required, last + 1) }
    }
    self.code = code
    self.starts = starts
    self.requiredSlots = required
    self.shortcuts = shortcuts
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
    switch shortcuts[index] {
    case .run: return run(index, state: state)
    case .load(let x, let y): return (state[x], y >= 0 ? state[y] : 0)
    case .constant(let x, let y): return (x, y)
    }
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
