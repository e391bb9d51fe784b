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
  /// For each program that only reads its value from the state, the slots it reads.
  let directReads: [DirectRead]

  /// The slots of a program that is one load (a number) or two (a point: a handle or a
  /// let named where a point is expected, as segment paths' points mostly are); such a
  /// program is answered without starting the machine, with the same bits.
  struct DirectRead {
    /// The slot of x, or −1 when the program must run.
    var x: Int
    /// The slot of y, or −1 for a number (whose y is 0).
    var y: Int

    static let none = DirectRead(x: -1, y: -1)

    init(x: Int, y: Int) {
      self.x = x
      self.y = y
    }

    init(_ code: [CompiledExpression.Instruction]) {
      switch (code.count, code.first, code.last) {
      case (1, .load(let x)?, _): self.init(x: x, y: -1)
      case (2, .load(let x)?, .load(let y)?): self.init(x: x, y: y)
      default: self = .none
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
    var directReads: [DirectRead] = []
    directReads.reserveCapacity(expressions.count)
    for expression in expressions {
      directReads.append(DirectRead(expression.code))
      code += expression.code
      starts.append(code.count)
      if let last = expression.dependencies.last { required = max(required, last + 1) }
    }
    self.code = code
    self.starts = starts
    self.requiredSlots = required
    self.directReads = directReads
  }

  /// How many expressions the batch holds.
  public var count: Int { starts.count - 1 }

  /// The value of expression `index` (an index into the array the batch was made from)
  /// on `state`; for a number, `y` is 0.
  ///
  /// A state shorter than ``requiredSlots`` is the caller's mistake; the result is then
  /// NaN, as ``CompiledExpression/evaluate(_:)`` gives, rather than a read past the buffer.
  @inline(__always)
  public func evaluate(_ index: Int, state: UnsafeBufferPointer<Double>) -> (x: Double, y: Double) {
    guard state.count >= requiredSlots else { return (.nan, .nan) }
    let direct = directReads[index]
    if direct.x >= 0 { return (state[direct.x], direct.y >= 0 ? state[direct.y] : 0) }
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
