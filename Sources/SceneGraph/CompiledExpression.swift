import RealModule
import SceneDiagnostics

/// An expression compiled for the runtime: a flat program for a small stack machine that
/// reads numbers from the runtime's state and computes a number or a point.
///
/// Made by ``ExpressionCompiler``, which has already checked every name and type, folded
/// every subexpression that reads no state into a constant, and computed how deep the
/// stack gets. So evaluating does no checking, never allocates (its stack lives in the
/// caller's frame) and costs a nanosecond or two per operation: it is meant to run for
/// every expression on every frame.
///
/// Evaluation follows IEEE arithmetic and returns non-finite results as they are; the
/// runtime, which knows which part of the scene the value feeds, reports them. To keep a
/// NaN from disappearing silently, comparisons, `!`, `&&`, `||`, `min`, `max` and `c ? a :
/// b` give NaN when an operand (or the condition) is NaN, rather than 0 or a branch.
public struct CompiledExpression: Sendable, Hashable {
  /// The type of a value: a number, or a point `(x, y)`.
  public enum ValueType: String, Hashable, Sendable {
    case number
    case point

    /// How many stack entries (and `Double`s) a value of the type takes.
    package var width: Int { self == .number ? 1 : 2 }

    /// The type with its article, as messages use it: `a number`, `a point`.
    package var described: String { self == .number ? "a number" : "a point" }
  }

  /// Whether the result is a number or a point.
  public let resultType: ValueType
  /// The state slots the program reads, sorted, each once.
  ///
  /// Only reads that survive constant folding count: `0 ? a : b` depends on `b` alone.
  public let dependencies: [Int]
  /// Where the expression was written, for the runtime to point at a bad value.
  public let source: SourceRef
  /// The program, run from first to last instruction on an empty stack.
  package let code: [Instruction]
  /// The most stack entries the program holds at once.
  package let stackDepth: Int

  /// How many stack entries a program may use: the stack is allocated at this size on
  /// every evaluation, so it stays small enough (1 KiB) to always live on the call stack.
  package static let maximumStackDepth = 128

  /// Wraps a finished program, which the compiler has checked against
  /// ``maximumStackDepth`` (``validated(_:type:)``).
  package init(code: [Instruction], resultType: ValueType, stackDepth: Int, source: SourceRef) {
    self.code = code
    self.resultType = resultType
    self.stackDepth = stackDepth
    self.source = source
    // Counted first, so the array is allocated once, and not at all for a constant.
    var slots: [Int] = []
    slots.reserveCapacity(code.reduce(0) { $0 + ($1.slot == nil ? 0 : 1) })
    for instruction in code {
      if let slot = instruction.slot { slots.append(slot) }
    }
    // Sorted without duplicates; most programs read no slot, or one or two.
    slots.sort()
    var unique = 0
    for i in slots.indices where unique == 0 || slots[unique - 1] != slots[i] {
      slots[unique] = slots[i]
      unique += 1
    }
    slots.removeLast(slots.count - unique)
    self.dependencies = slots
  }

  /// Whether the value never changes: the program reads no state.
  public var isConstant: Bool { dependencies.isEmpty }

  /// The value, when ``isConstant``.
  public var constantValue: (x: Double, y: Double)? {
    guard isConstant else { return nil }
    return evaluate(UnsafeBufferPointer(start: nil, count: 0))
  }

  /// Computes the value from the runtime's state; for a number, `y` is 0.
  ///
  /// `state` must hold every slot in ``dependencies``. A shorter one is the caller's
  /// mistake; the result is then NaN, which the runtime's guard against non-finite values
  /// reports, rather than a read past the buffer.
  public func evaluate(_ state: UnsafeBufferPointer<Double>) -> (x: Double, y: Double) {
    if let last = dependencies.last, state.count <= last { return (.nan, .nan) }
    return code.withUnsafeBufferPointer { code in
      withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.maximumStackDepth) { stack in
        Self.run(code, state: state, stack: stack)
      }
    }
  }

  /// Computes the value from `state`, as the buffer version does; for tests and tools.
  public func evaluate(_ state: [Double]) -> (x: Double, y: Double) {
    state.withUnsafeBufferPointer { evaluate($0) }
  }
}

// MARK: - Instructions

extension CompiledExpression {
  /// One step of the stack machine.
  ///
  /// A number takes one stack entry and a point two (x below y). Each instruction pops its
  /// operands, first operand deepest, and pushes its result. The types are fixed when
  /// compiling, so there is one instruction per operator and type, and none checks.
  package enum Instruction: Hashable, Sendable {
    /// Pushes a constant, kept as its bits so that programs holding a NaN compare equal.
    case constant(bits: UInt64)
    /// Pushes the number at a state slot.
    case load(slot: Int)

    // Number → number.
    case negate, not, abs, squareRoot, sine, cosine, round, floor, ceil

    // Number, number → number.
    case add, subtract, multiply, divide, remainder
    case less, lessOrEqual, greater, greaterOrEqual, equal, notEqual, and, or
    case minimum, maximum, arcTangent2, hypotenuse

    // Number → number, with the second operand in the instruction: a load or a constant
    // followed by `+`, `-`, `*` or `/` fused into one step, as ``fused(_:)`` makes them.
    case addSlot(Int)
    case subtractSlot(Int)
    case multiplySlot(Int)
    case divideSlot(Int)
    case addConstant(bits: UInt64)
    case subtractConstant(bits: UInt64)
    case multiplyConstant(bits: UInt64)
    case divideConstant(bits: UInt64)

    // A load times a constant, pushed (`a * 2`, `2 * a`) or added to the number below
    // (`b + a * 2`): the commonest terms of a bound point, one step each
    // (``fused(_:)``). The slot is 32 bits, after the constant, so that the instruction
    // stays 16 bytes like the others.
    case loadTimesConstant(bits: UInt64, slot: Int32)
    case addSlotTimesConstant(bits: UInt64, slot: Int32)

    // Three numbers → number: clamp(x, lo, hi), lerp(a, b, t), smoothstep(e0, e1, x),
    // and select(c, a, b) for `c ? a : b`.
    case clamp, lerp, smoothstep, select

    /// Point → its x.
    case pointX
    /// Point → its y.
    case pointY
    /// Point → point.
    case negatePoint
    /// Point, point → point.
    case addPoints, subtractPoints
    /// Point, number → point: `p * s` (and `s * p`, compiled in this order), `p / s`.
    case scalePoint, dividePoint
    /// Point, point, number → point.
    case lerpPoints
    /// Number, point, point → point: `c ? a : b` on points.
    case selectPoint
    /// Point, point → number.
    case distance

    /// The state slot the instruction reads, if any.
    var slot: Int? {
      switch self {
      case .load(let slot), .addSlot(let slot), .subtractSlot(let slot), .multiplySlot(let slot),
        .divideSlot(let slot):
        return slot
      case .loadTimesConstant(_, let slot), .addSlotTimesConstant(_, let slot): return Int(slot)
      default: return nil
      }
    }

    /// A number pushed as its bits.
    package static func constant(_ value: Double) -> Instruction {
      .constant(bits: value.bitPattern)
    }

    /// How many entries the instruction pops and pushes.
    var effect: (pops: Int, pushes: Int) {
      switch self {
      case .constant, .load, .loadTimesConstant: return (0, 1)
      case .negate, .not, .abs, .squareRoot, .sine, .cosine, .round, .floor, .ceil, .addSlot,
        .subtractSlot,
        .multiplySlot, .divideSlot, .addConstant, .subtractConstant, .multiplyConstant,
        .divideConstant, .addSlotTimesConstant:
        return (1, 1)
      case .add, .subtract, .multiply, .divide, .remainder, .less, .lessOrEqual, .greater,
        .greaterOrEqual, .equal, .notEqual, .and, .or, .minimum, .maximum, .arcTangent2,
        .hypotenuse, .pointX, .pointY:
        return (2, 1)
      case .clamp, .lerp, .smoothstep, .select: return (3, 1)
      case .negatePoint: return (2, 2)
      case .scalePoint, .dividePoint: return (3, 2)
      case .addPoints, .subtractPoints: return (4, 2)
      case .distance: return (4, 1)
      case .lerpPoints, .selectPoint: return (5, 2)
      }
    }
  }

  /// `code` rewritten into fewer, fatter steps, with the same bits.
  ///
  /// An interpreter's time goes mostly into dispatching, so fewer steps are faster: `a * 2
  /// + b` runs as three steps instead of five, `restY + pull * 0.3 + 2 * s` as three
  /// instead of seven.
  /// 1. A load or a constant that is the second operand of `+`, `-`, `*` or `/` rides in
  ///    that operation (``fuseOperands(_:)``).
  /// 2. A constant first operand of `+` or `*` becomes the second (``commute(_:)``):
  ///    IEEE addition and multiplication are commutative to the bit, NaN payloads aside,
  ///    and a NaN constant is left where it is.
  /// 3. A load times a constant is one step, and so is adding it (``fuseProducts(_:)``).
  ///
  /// Every step rewrites one copy of the code in place, so fusing costs one allocation
  /// whatever it finds.
  package static func fused(_ code: consuming [Instruction]) -> [Instruction] {
    var code = code
    fuseOperands(&code)
    commute(&code)
    fuseProducts(&code)
    return code
  }

  /// Fuses each load or constant that is the second operand of `+`, `-`, `*` or `/` into
  /// that operation.
  ///
  /// An operand pushed right before a binary operation is always its second operand, so
  /// the pairs are found by looking at neighbours alone.
  static func fuseOperands(_ code: inout [Instruction]) {
    rewrite(&code) { code, index in
      guard index + 1 < code.count else { return nil }
      switch (code[index], code[index + 1]) {
      case (.load(let slot), .add): return (.addSlot(slot), 2)
      case (.load(let slot), .subtract): return (.subtractSlot(slot), 2)
      case (.load(let slot), .multiply): return (.multiplySlot(slot), 2)
      case (.load(let slot), .divide): return (.divideSlot(slot), 2)
      case (.constant(let bits), .add): return (.addConstant(bits: bits), 2)
      case (.constant(let bits), .subtract): return (.subtractConstant(bits: bits), 2)
      case (.constant(let bits), .multiply): return (.multiplyConstant(bits: bits), 2)
      case (.constant(let bits), .divide): return (.divideConstant(bits: bits), 2)
      default: return nil
      }
    }
  }

  /// Rewrites `code` in place, left to right, by `rule`.
  ///
  /// At each instruction the rule may replace it and the ones after it with one
  /// instruction, saying how many it took; otherwise the instruction stays. The rule reads
  /// the code as it was: what is written never gets ahead of what is read.
  @inline(__always)
  static func rewrite(
    _ code: inout [Instruction],
    _ rule: (UnsafeMutableBufferPointer<Instruction>, Int) -> (Instruction, taken: Int)?
  ) {
    let kept = code.withUnsafeMutableBufferPointer { code in
      var kept = 0
      var index = 0
      while index < code.count {
        if let (replacement, taken) = rule(code, index) {
          code[kept] = replacement
          index += taken
        } else {
          code[kept] = code[index]
          index += 1
        }
        kept += 1
      }
      return kept
    }
    if kept < code.count { code.removeLast(code.count - kept) }
  }

  /// Moves every constant that is the first operand of `+` or `*` after the other
  /// operand, into the operation: `c S +` becomes `S +c` and `c x *` becomes `x *c`, one
  /// step shorter each (two steps for `c * x` stay two, but ``fuseProducts(_:)`` makes
  /// them one).
  ///
  /// Each move deletes the constant and changes the operation, so the stack is the same
  /// for every other instruction: every move is found on the code as it stands, and all
  /// are made in one pass (a scene's expressions are untrusted, and a move at a time
  /// would shift the array once per move).
  static func commute(_ code: inout [Instruction]) {
    let kept = code.withUnsafeMutableBufferPointer { code in
      let count = code.count
      return withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { dropped in
        dropped.initialize(repeating: false)
        var anyDropped = false
        for index in 0..<count {
          guard case .constant(let bits) = code[index], !Double(bitPattern: bits).isNaN else {
            continue
          }
          if index + 1 < count, case .multiplySlot(let slot) = code[index + 1] {
            code[index] = .load(slot: slot)
            code[index + 1] = .multiplyConstant(bits: bits)
            continue
          }
          // The other operand: the instructions after the constant that leave one value
          // on top of it; the operation that takes both comes right after them. The scan
          // is as long as the operand, and never reaches an instruction an earlier move
          // changed: those come before the constant, or after the operation.
          var height = 0
          for k in (index + 1)..<count {
            let (pops, pushes) = code[k].effect
            if pops > height {
              guard height == 1 && k > index + 1 else { break }
              switch code[k] {
              case .add:
                code[k] = .addConstant(bits: bits)
                dropped[index] = true
                anyDropped = true
              case .multiply:
                code[k] = .multiplyConstant(bits: bits)
                dropped[index] = true
                anyDropped = true
              default: break
              }
              break
            }
            height += pushes - pops
          }
        }
        guard anyDropped else { return count }
        var kept = 0
        for index in 0..<count where !dropped[index] {
          code[kept] = code[index]
          kept += 1
        }
        return kept
      }
    }
    if kept < code.count { code.removeLast(code.count - kept) }
  }

  /// Rewrites each load followed by a multiplication by a constant as one step, and that
  /// step followed by `+` as one more.
  static func fuseProducts(_ code: inout [Instruction]) {
    rewrite(&code) { code, index in
      guard index + 1 < code.count, case .load(let slot) = code[index],
        case .multiplyConstant(let bits) = code[index + 1], let narrow = Int32(exactly: slot)
      else { return nil }
      if index + 2 < code.count, case .add = code[index + 2] {
        return (.addSlotTimesConstant(bits: bits, slot: narrow), 3)
      }
      return (.loadTimesConstant(bits: bits, slot: narrow), 2)
    }
  }

  /// The most entries `code` holds at once, provided it is well formed: never pops what
  /// is not there and leaves exactly one value of `type`; `nil` otherwise.
  ///
  /// The evaluator trusts the stack depth blindly, so this is checked once per program,
  /// whatever the compiler's own bookkeeping says.
  package static func validated(_ code: [Instruction], type: ValueType) -> Int? {
    var height = 0
    var deepest = 0
    for instruction in code {
      let (pops, pushes) = instruction.effect
      guard height >= pops else { return nil }
      height += pushes - pops
      deepest = Swift.max(deepest, height)
    }
    return height == type.width ? deepest : nil
  }
}

// MARK: - The machine

extension CompiledExpression {
  /// Runs `code` on `stack` and returns the value left on it.
  ///
  /// Both constant folding and evaluation come here, so a folded constant has exactly the
  /// bits evaluation would have computed.
  @inline(__always)
  package static func run(
    _ code: UnsafeBufferPointer<Instruction>, state: UnsafeBufferPointer<Double>,
    stack s: UnsafeMutableBufferPointer<Double>
  ) -> (x: Double, y: Double) {
    // `top` is the number of entries on the stack; `b` below is where an instruction's
    // operands start, and where its result goes.
    var top = 0
    for instruction in code {
      switch instruction {
      case .constant(let bits):
        s[top] = Double(bitPattern: bits)
        top &+= 1
      case .load(let slot):
        s[top] = state[slot]
        top &+= 1

      case .negate: s[top &- 1] = -s[top &- 1]
      case .not: s[top &- 1] = Math.not(s[top &- 1])
      case .abs: s[top &- 1] = Swift.abs(s[top &- 1])
      case .squareRoot: s[top &- 1] = s[top &- 1].squareRoot()
      case .sine: s[top &- 1] = Double.sin(s[top &- 1])
      case .cosine: s[top &- 1] = Double.cos(s[top &- 1])
      // Halves away from zero, as C's `round` does.
      case .round: s[top &- 1] = s[top &- 1].rounded(.toNearestOrAwayFromZero)
      case .floor: s[top &- 1] = s[top &- 1].rounded(.down)
      case .ceil: s[top &- 1] = s[top &- 1].rounded(.up)

      case .add:
        top &-= 1
        s[top &- 1] = s[top &- 1] + s[top]
      case .subtract:
        top &-= 1
        s[top &- 1] = s[top &- 1] - s[top]
      case .multiply:
        top &-= 1
        s[top &- 1] = s[top &- 1] * s[top]
      case .divide:
        top &-= 1
        s[top &- 1] = s[top &- 1] / s[top]
      case .remainder:
        top &-= 1
        s[top &- 1] = s[top &- 1].truncatingRemainder(dividingBy: s[top])
      case .less:
        top &-= 1
        s[top &- 1] = Math.compare(s[top &- 1], s[top], s[top &- 1] < s[top])
      case .lessOrEqual:
        top &-= 1
        s[top &- 1] = Math.compare(s[top &- 1], s[top], s[top &- 1] <= s[top])
      case .greater:
        top &-= 1
        s[top &- 1] = Math.compare(s[top &- 1], s[top], s[top &- 1] > s[top])
      case .greaterOrEqual:
        top &-= 1
        s[top &- 1] = Math.compare(s[top &- 1], s[top], s[top &- 1] >= s[top])
      case .equal:
        top &-= 1
        s[top &- 1] = Math.compare(s[top &- 1], s[top], s[top &- 1] == s[top])
      case .notEqual:
        top &-= 1
        s[top &- 1] = Math.compare(s[top &- 1], s[top], s[top &- 1] != s[top])
      case .and:
        top &-= 1
        s[top &- 1] = Math.compare(s[top &- 1], s[top], s[top &- 1] != 0 && s[top] != 0)
      case .or:
        top &-= 1
        s[top &- 1] = Math.compare(s[top &- 1], s[top], s[top &- 1] != 0 || s[top] != 0)
      case .addSlot(let slot): s[top &- 1] = s[top &- 1] + state[slot]
      case .subtractSlot(let slot): s[top &- 1] = s[top &- 1] - state[slot]
      case .multiplySlot(let slot): s[top &- 1] = s[top &- 1] * state[slot]
      case .divideSlot(let slot): s[top &- 1] = s[top &- 1] / state[slot]
      case .addConstant(let bits): s[top &- 1] = s[top &- 1] + Double(bitPattern: bits)
      case .subtractConstant(let bits): s[top &- 1] = s[top &- 1] - Double(bitPattern: bits)
      case .multiplyConstant(let bits): s[top &- 1] = s[top &- 1] * Double(bitPattern: bits)
      case .divideConstant(let bits): s[top &- 1] = s[top &- 1] / Double(bitPattern: bits)
      case .loadTimesConstant(let bits, let slot):
        s[top] = state[Int(slot)] * Double(bitPattern: bits)
        top &+= 1
      case .addSlotTimesConstant(let bits, let slot):
        s[top &- 1] = s[top &- 1] + state[Int(slot)] * Double(bitPattern: bits)
      case .minimum:
        top &-= 1
        s[top &- 1] = Math.minimum(s[top &- 1], s[top])
      case .maximum:
        top &-= 1
        s[top &- 1] = Math.maximum(s[top &- 1], s[top])
      case .arcTangent2:
        top &-= 1
        s[top &- 1] = Double.atan2(y: s[top &- 1], x: s[top])
      case .hypotenuse:
        top &-= 1
        s[top &- 1] = Double.hypot(s[top &- 1], s[top])

      case .clamp:
        let b = top &- 3
        s[b] = Math.clamp(s[b], s[b &+ 1], s[b &+ 2])
        top = b &+ 1
      case .lerp:
        let b = top &- 3
        s[b] = Math.lerp(s[b], s[b &+ 1], s[b &+ 2])
        top = b &+ 1
      case .smoothstep:
        let b = top &- 3
        s[b] = Math.smoothstep(s[b], s[b &+ 1], s[b &+ 2])
        top = b &+ 1
      case .select:
        let b = top &- 3
        s[b] = Math.select(s[b], s[b &+ 1], s[b &+ 2])
        top = b &+ 1

      case .pointX:
        top &-= 1
      case .pointY:
        top &-= 1
        s[top &- 1] = s[top]
      case .negatePoint:
        s[top &- 2] = -s[top &- 2]
        s[top &- 1] = -s[top &- 1]
      case .addPoints:
        let b = top &- 4
        s[b] = s[b] + s[b &+ 2]
        s[b &+ 1] = s[b &+ 1] + s[b &+ 3]
        top = b &+ 2
      case .subtractPoints:
        let b = top &- 4
        s[b] = s[b] - s[b &+ 2]
        s[b &+ 1] = s[b &+ 1] - s[b &+ 3]
        top = b &+ 2
      case .scalePoint:
        let b = top &- 3
        s[b] = s[b] * s[b &+ 2]
        s[b &+ 1] = s[b &+ 1] * s[b &+ 2]
        top = b &+ 2
      case .dividePoint:
        let b = top &- 3
        s[b] = s[b] / s[b &+ 2]
        s[b &+ 1] = s[b &+ 1] / s[b &+ 2]
        top = b &+ 2
      case .lerpPoints:
        let b = top &- 5
        s[b] = Math.lerp(s[b], s[b &+ 2], s[b &+ 4])
        s[b &+ 1] = Math.lerp(s[b &+ 1], s[b &+ 3], s[b &+ 4])
        top = b &+ 2
      case .selectPoint:
        let b = top &- 5
        let c = s[b]
        s[b] = Math.select(c, s[b &+ 1], s[b &+ 3])
        s[b &+ 1] = Math.select(c, s[b &+ 2], s[b &+ 4])
        top = b &+ 2
      case .distance:
        let b = top &- 4
        s[b] = Double.hypot(s[b &+ 2] - s[b], s[b &+ 3] - s[b &+ 1])
        top = b &+ 1
      }
    }
    return top == 2 ? (s[0], s[1]) : (s[0], 0)
  }
}

// MARK: - Operations

extension CompiledExpression {
  /// The operations that are more than one IEEE operation, shared by folding and evaluation.
  enum Math {
    /// 1 or 0 for a truth value, or NaN when either operand is NaN, so that a NaN reaching a
    /// comparison still shows in the result.
    @inline(__always)
    static func compare(_ a: Double, _ b: Double, _ truth: Bool) -> Double {
      a.isNaN || b.isNaN ? .nan : (truth ? 1 : 0)
    }

    /// 1 for 0, 0 for any other number, NaN for NaN.
    @inline(__always)
    static func not(_ a: Double) -> Double { a.isNaN ? .nan : (a == 0 ? 1 : 0) }

    /// Swift's `min`, except that a NaN operand gives NaN: `Swift.min` keeps or drops a
    /// NaN depending on which side it is.
    @inline(__always)
    static func minimum(_ a: Double, _ b: Double) -> Double {
      a.isNaN || b.isNaN ? .nan : Swift.min(a, b)
    }

    /// Swift's `max`, except that a NaN operand gives NaN.
    @inline(__always)
    static func maximum(_ a: Double, _ b: Double) -> Double {
      a.isNaN || b.isNaN ? .nan : Swift.max(a, b)
    }

    /// `x` limited to `lo…hi`; `hi` wins when `lo > hi`.
    @inline(__always)
    static func clamp(_ x: Double, _ lo: Double, _ hi: Double) -> Double {
      minimum(maximum(x, lo), hi)
    }

    /// `a` at `t = 0`, `b` at `t = 1`, extrapolating outside.
    @inline(__always)
    static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

    /// The smooth Hermite step from 0 at `e0` to 1 at `e1`.
    ///
    /// When `e0 == e1` the ramp has no width and would divide zero by zero; it becomes a
    /// hard step at `e0` instead (GLSL leaves that case undefined).
    @inline(__always)
    static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
      if e0 == e1 { return compare(x, e0, x >= e0) }
      let t = clamp((x - e0) / (e1 - e0), 0, 1)
      return t * t * (3 - 2 * t)
    }

    /// `a` when `c` is non-zero, else `b`; NaN for a NaN condition.
    @inline(__always)
    static func select(_ c: Double, _ a: Double, _ b: Double) -> Double {
      c.isNaN ? .nan : (c != 0 ? a : b)
    }
  }
}
