import SceneDiagnostics
import SceneGraph
import SceneSyntax
import SceneVocabulary

/// Compiles an ``Expression`` into a ``CompiledExpression``: resolves its names through a
/// ``SymbolTable``, checks its types, converts its units and folds its constant parts.
///
/// Every check happens here, once, so that evaluating every frame checks nothing. The
/// first error stops compiling; errors inside an operand come before errors about the
/// operator, so they are found in the order the text reads.
public enum ExpressionCompiler {
  /// Compiles `expression`, reading names from `symbols`.
  public static func compile(_ expression: Expression, symbols: SymbolTable) throws(ResolveError)
    -> CompiledExpression
  {
    if let literal = literal(expression) { return literal }
    return try compileInFull(expression, symbols: symbols)
  }

  /// A number or a point of two numbers, written out, as ``compileInFull(_:symbols:)``
  /// compiles it; `nil` for anything else.
  ///
  /// Most positions in a big scene are such literals; going through fragments, fusing and
  /// validating took most of resolving one.
  static func literal(_ expression: Expression) -> CompiledExpression? {
    let code: [CompiledExpression.Instruction]
    switch expression.kind {
    case .number(let value, let unit):
      code = [.constant(Compiler.baseUnits(value, unit))]
    case .point(let a, let b):
      guard case .number(let x, let xUnit) = a.kind, case .number(let y, let yUnit) = b.kind
      else { return nil }
      code = [.constant(Compiler.baseUnits(x, xUnit)), .constant(Compiler.baseUnits(y, yUnit))]
    default:
      return nil
    }
    return CompiledExpression(
      code: code, resultType: code.count == 1 ? .number : .point, stackDepth: code.count,
      source: expression.source)
  }

  /// Whether `expression` is a literal that ``literal(_:)`` compiles without the general
  /// compiler.
  static func isLiteral(_ expression: Expression) -> Bool {
    switch expression.kind {
    case .number: return true
    case .point(let a, let b):
      if case .number = a.kind, case .number = b.kind { return true }
      return false
    default: return false
    }
  }

  /// Compiles `expression` through the general compiler, without the shortcut for
  /// literals.
  static func compileInFull(_ expression: Expression, symbols: SymbolTable) throws(ResolveError)
    -> CompiledExpression
  {
    var compiler = Compiler(symbols: symbols)
    let type = try compiler.compile(expression).type
    // Handed over, so that fusing rewrites the compiler's own array rather than a copy.
    let code = CompiledExpression.fused((consume compiler).code)
    // The evaluator indexes its stack unchecked, so the finished program's depth is
    // measured afresh rather than taken from the compiler's bookkeeping.
    guard let depth = CompiledExpression.validated(code, type: type),
      depth <= CompiledExpression.maximumStackDepth
    else {
      throw ResolveError(
        "internal error: the expression compiled to an invalid program", at: expression.source.span)
    }
    return CompiledExpression(
      code: code, resultType: type, stackDepth: depth, source: expression.source)
  }
}

// MARK: - Fragments

/// The code for one subexpression: the compiler's one array from `start` to its end.
///
/// Run, it leaves one value of `type` on the stack.
///
/// Every subexpression's code goes straight into that one array, operands before their
/// operator, so compiling allocates nothing per node: an array per fragment, joined into
/// a new array per operator, cost about half of compiling.
private struct Fragment {
  /// Where the code begins.
  var start: Int
  var type: CompiledExpression.ValueType
  /// The most stack entries the code holds at once, starting from an empty stack.
  var depth: Int
  /// Whether the code reads no state.
  var isConstant: Bool
}

/// Operands compiled one after another, to be combined by one instruction: how deep the
/// stack gets under them and whether all are constant.
private struct Operands {
  let start: Int
  /// How many values the operands so far leave.
  private var below = 0
  var depth = 0
  var isConstant = true

  init(startingAt start: Int) { self.start = start }

  /// The operands given, each one's code right after the one before's: one initializer
  /// for each count, so that no array is made for them.
  init(_ first: Fragment) {
    self.init(startingAt: first.start)
    append(first)
  }

  init(_ first: Fragment, _ second: Fragment) {
    self.init(first)
    append(second)
  }

  init(_ first: Fragment, _ second: Fragment, _ third: Fragment) {
    self.init(first, second)
    append(third)
  }

  /// Counts `part`, whose code follows the operands before it.
  mutating func append(_ part: Fragment) {
    // Each part runs on top of the values its predecessors left.
    depth = max(depth, below + part.depth)
    below += part.type.width
    isConstant = isConstant && part.isConstant
  }
}

// MARK: - The compiler

private struct Compiler {
  typealias ValueType = CompiledExpression.ValueType
  typealias Instruction = CompiledExpression.Instruction

  let symbols: SymbolTable
  /// The code so far: every fragment's code, each after its operands'.
  var code: [Instruction] = []

  init(symbols: SymbolTable) { self.symbols = symbols }

  /// Appends the code for `e`, checked and folded.
  mutating func compile(_ e: Expression) throws(ResolveError) -> Fragment {
    switch e.kind {
    case .number(let value, let unit):
      return constant(Self.baseUnits(value, unit))
    case .point(let x, let y):
      var operands = Operands(startingAt: code.count)
      let xs = try compile(x)
      try expect(
        xs, .number, "a point's coordinates must be numbers, found \(xs.type.described)", at: x)
      operands.append(xs)
      let ys = try compile(y)
      try expect(
        ys, .number, "a point's coordinates must be numbers, found \(ys.type.described)", at: y)
      operands.append(ys)
      return try finish(operands, nil, type: .point, at: e)
    case .identifier(let name):
      return try value(of: try lookup(name, at: e), named: e)
    case .member(let base, let name):
      if let symbol = try symbol(of: base) {
        return try value(of: try member(name, of: symbol, base: base, at: e), named: e)
      }
      let operand = try compile(base)
      guard operand.type == .point else {
        throw ResolveError(
          "\(Self.quote(base)) has no member '\(name)'; it is a number", at: e.source.span)
      }
      guard name == "x" || name == "y" else {
        throw ResolveError(
          "\(Self.quote(base)) has no member '\(name)'; expected x or y", at: e.source.span)
      }
      return try finish(Operands(operand), name == "x" ? .pointX : .pointY, type: .number, at: e)
    case .unary(let op, let operand):
      return try unary(op, try compile(operand), at: e)
    case .binary(let op, let lhs, let rhs):
      if op == .equal || op == .notEqual, let flag = try stateFlagEitherWay(lhs, rhs) {
        let inState = try value(of: flag, named: e)
        return op == .equal ? inState : try unary(.not, inState, at: e)
      }
      return try binary(op, try compile(lhs), try compile(rhs), at: e)
    case .conditional(let condition, let then, let otherwise):
      return try conditional(condition, then, otherwise, at: e)
    case .call(let name, let arguments):
      return try call(name, arguments, at: e)
    }
  }

  /// A number in seconds or radians: `900ms` is 0.9, `90deg` is π/2.
  static func baseUnits(_ value: Double, _ unit: Expression.Unit?) -> Double {
    switch unit {
    case nil, .seconds, .radians: return value
    case .milliseconds: return value / 1000
    // Dividing first keeps the right angles exact: 90deg is exactly `.pi / 2`.
    case .degrees: return value / 180 * .pi
    }
  }

  /// A constant number.
  mutating func constant(_ value: Double) -> Fragment {
    code.append(.constant(value))
    return Fragment(start: code.count - 1, type: .number, depth: 1, isConstant: true)
  }

  /// A constant of `type` with every coordinate `value`.
  mutating func constant(_ value: Double, type: ValueType) -> Fragment {
    let start = code.count
    for _ in 0..<type.width { code.append(.constant(value)) }
    return Fragment(start: start, type: type, depth: type.width, isConstant: true)
  }

  /// The number at `slot`.
  mutating func load(_ slot: Int) -> Fragment {
    code.append(.load(slot: slot))
    return Fragment(start: code.count - 1, type: .number, depth: 1, isConstant: false)
  }

  /// `operands` combined into one value of `type` by `instruction`, finished.
  mutating func finish(
    _ operands: Operands, _ instruction: Instruction?, type: ValueType, at e: Expression
  ) throws(ResolveError) -> Fragment {
    if let instruction { code.append(instruction) }
    return try finish(
      Fragment(
        start: operands.start, type: type, depth: operands.depth,
        isConstant: operands.isConstant),
      at: e)
  }

  /// `fragment`, refused if its stack would be too deep, and folded to a constant if it
  /// reads no state.
  mutating func finish(_ fragment: Fragment, at e: Expression) throws(ResolveError) -> Fragment {
    guard fragment.depth <= CompiledExpression.maximumStackDepth else {
      throw ResolveError(
        "expression too deeply nested to evaluate (it needs more than "
          + "\(CompiledExpression.maximumStackDepth) intermediate values); "
          + "move part of it into a let",
        at: e.source.span)
    }
    guard fragment.isConstant, code.count - fragment.start > fragment.type.width else {
      return fragment
    }
    // Folding runs the very code evaluation would, so the constant has the same bits.
    let value = code[fragment.start...].withUnsafeBufferPointer { code in
      withUnsafeTemporaryAllocation(
        of: Double.self, capacity: CompiledExpression.maximumStackDepth
      ) { stack in
        CompiledExpression.run(code, state: UnsafeBufferPointer(start: nil, count: 0), stack: stack)
      }
    }
    code.removeSubrange(fragment.start...)
    code.append(.constant(value.x))
    if fragment.type == .point { code.append(.constant(value.y)) }
    return Fragment(
      start: fragment.start, type: fragment.type, depth: fragment.type.width, isConstant: true)
  }

  /// Throws `message` at `e` unless `fragment` is of `type`.
  func expect(
    _ fragment: Fragment, _ type: ValueType, _ message: @autoclosure () -> String,
    at e: Expression
  ) throws(ResolveError) {
    guard fragment.type == type else { throw ResolveError(message(), at: e.source.span) }
  }

  // MARK: Names

  /// ``stateFlag(_:_:)`` of `a` and `b`, or of `b` and `a`.
  func stateFlagEitherWay(_ a: Expression, _ b: Expression) throws(ResolveError) -> Symbol? {
    if let flag = try stateFlag(a, b) { return flag }
    return try stateFlag(b, a)
  }

  /// For `machine.state == NAME` (either way round): the machine's member `NAME`, 1 while
  /// it is in that state; `nil` when `a` is not a machine's `state` or `b` not a bare name.
  func stateFlag(_ a: Expression, _ b: Expression) throws(ResolveError) -> Symbol? {
    guard case .member(let base, "state") = a.kind, case .identifier(let name) = b.kind,
      case .object(let members, _)? = try symbol(of: base), members["#machine"] != nil
    else { return nil }
    if name != "state", !name.hasPrefix("#"), let flag = members[name] { return flag }
    let states = members.keys.filter { $0 != "state" && !$0.hasPrefix("#") }.sorted()
    throw ResolveError(
      "unknown state '\(name)' of machine '\(base.text)'\(Suggestion.didYouMean(name, among: states))",
      at: b.source.span)
  }

  /// The symbol `name` stands for, or an error with a suggestion.
  func lookup(_ name: String, at e: Expression) throws(ResolveError) -> Symbol {
    if let symbol = symbols.lookup(name) { return symbol }
    if Expression.functions[name] != nil {
      throw ResolveError(
        "'\(name)' is a function; call it with arguments: \(name)(…)", at: e.source.span)
    }
    throw ResolveError(
      "unknown name '\(name)'\(Suggestion.didYouMean(name, among: symbols.names))",
      at: e.source.span)
  }

  /// The symbol a name or a chain of members (`pointer`, `ball.x`) stands for, or `nil`
  /// when `e` is some other expression, whose members are those of its value.
  func symbol(of e: Expression) throws(ResolveError) -> Symbol? {
    switch e.kind {
    case .identifier(let name):
      return try lookup(name, at: e)
    case .member(let base, let name):
      guard let symbol = try symbol(of: base) else { return nil }
      return try member(name, of: symbol, base: base, at: e)
    default:
      return nil
    }
  }

  /// The member `name` of `symbol`, the symbol of `base`, written at `e`.
  ///
  /// An object's own members come first; an object whose value is a point also has that
  /// point's `x` and `y`.
  func member(_ name: String, of symbol: Symbol, base: Expression, at e: Expression)
    throws(ResolveError) -> Symbol
  {
    switch symbol {
    case .number:
      throw ResolveError(
        "\(Self.quote(base)) has no member '\(name)'; it is a number", at: e.source.span)
    case .point(let x, let y):
      if name == "x" { return .number(slot: x) }
      if name == "y" { return .number(slot: y) }
      throw ResolveError(
        "\(Self.quote(base)) has no member '\(name)'; expected x or y", at: e.source.span)
    case .handle(let slot):
      switch name {
      case "x": return .number(slot: slot)
      case "y": return .number(slot: slot + 1)
      case "angle": return .number(slot: slot + 2)
      default: return try member(name, of: symbol.expanded, base: base, at: e)
      }
    case .object(let members, let value):
      if let member = members[name] { return member }
      // An index (`pointers[12]`) past those there are: say what the indices are.
      if let first = name.unicodeScalars.first, ("0"..."9").contains(first) {
        let indices = members.keys.compactMap { Int($0) }.sorted()
        let range =
          indices.isEmpty
          ? "it has no indices" : "its indices are \(indices[0]) to \(indices[indices.count - 1])"
        throw ResolveError(
          "\(Self.quote(base)) has no [\(name)]; \(range)", at: e.source.span)
      }
      var names = members.keys.filter { !$0.hasPrefix("#") }
      if let value, case .point(let x, let y) = Self.pointValue(value) {
        if name == "x" { return .number(slot: x) }
        if name == "y" { return .number(slot: y) }
        names += ["x", "y"]
      }
      let expected = names.isEmpty ? "it has none" : "expected \(Self.list(names))"
      throw ResolveError(
        "\(Self.quote(base)) has no member '\(name)'; \(expected)", at: e.source.span)
    }
  }

  /// The point an object's value comes to, through objects whose value is an object.
  static func pointValue(_ symbol: Symbol) -> Symbol? {
    switch symbol {
    case .point: return symbol
    case .number: return nil
    case .handle(let slot): return .point(x: slot, y: slot + 1)
    case .object(_, let value): return value.flatMap(pointValue)
    }
  }

  /// The code that reads `symbol`, the meaning of the name or member `e`.
  mutating func value(of symbol: Symbol, named e: Expression) throws(ResolveError) -> Fragment {
    switch symbol {
    case .number(let slot):
      return load(try checked(slot, e))
    case .point(let x, let y):
      let (x, y) = (try checked(x, e), try checked(y, e))
      let start = load(x).start
      _ = load(y)
      return Fragment(start: start, type: .point, depth: 2, isConstant: false)
    case .handle(let slot):
      return try value(of: .point(x: slot, y: slot + 1), named: e)
    case .object(let members, let value):
      if let value { return try self.value(of: value, named: e) }
      guard !members.isEmpty else {
        throw ResolveError("\(Self.quote(e)) has no value and no members", at: e.source.span)
      }
      let uses = Self.sortedMembers(members.keys.filter { !$0.hasPrefix("#") }).map {
        "\(e.text).\($0)"
      }
      throw ResolveError(
        "\(Self.quote(e)) has no value of its own; use \(Self.list(uses, sorted: false))",
        at: e.source.span)
    }
  }

  /// `slot`, unless it cannot index the state: the resolver's mistake, reported rather
  /// than read out of bounds.
  func checked(_ slot: Int, _ e: Expression) throws(ResolveError) -> Int {
    guard slot >= 0 else {
      throw ResolveError(
        "internal error: \(Self.quote(e)) refers to the invalid slot \(slot)", at: e.source.span)
    }
    return slot
  }

  // MARK: Operators

  /// `-x`, `+x` or `!x` on the compiled operand.
  mutating func unary(_ op: Expression.UnaryOperator, _ operand: Fragment, at e: Expression)
    throws(ResolveError) -> Fragment
  {
    switch (op, operand.type) {
    case (.negate, .number): return try finish(Operands(operand), .negate, type: .number, at: e)
    case (.negate, .point): return try finish(Operands(operand), .negatePoint, type: .point, at: e)
    // `+x` is `x`, bit for bit.
    case (.plus, .number): return operand
    case (.not, .number): return try finish(Operands(operand), .not, type: .number, at: e)
    case (.plus, .point):
      throw ResolveError("unary '+' takes a number, found a point", at: e.source.span)
    case (.not, .point):
      throw ResolveError("'!' takes a number, found a point", at: e.source.span)
    }
  }

  /// A binary operator on compiled operands: on numbers, or the few that points allow.
  mutating func binary(
    _ op: Expression.BinaryOperator, _ a: Fragment, _ b: Fragment, at e: Expression
  ) throws(ResolveError) -> Fragment {
    if a.type == .number && b.type == .number {
      let instruction: Instruction
      switch op {
      case .add: instruction = .add
      case .subtract: instruction = .subtract
      case .multiply: instruction = .multiply
      case .divide: instruction = .divide
      case .remainder: instruction = .remainder
      case .less: instruction = .less
      case .lessOrEqual: instruction = .lessOrEqual
      case .greater: instruction = .greater
      case .greaterOrEqual: instruction = .greaterOrEqual
      case .equal: instruction = .equal
      case .notEqual: instruction = .notEqual
      case .and: instruction = .and
      case .or: instruction = .or
      }
      return try finish(Operands(a, b), instruction, type: .number, at: e)
    }
    let (x, y) = (a.type.described, b.type.described)
    switch (op, a.type, b.type) {
    case (.add, .point, .point):
      return try finish(Operands(a, b), .addPoints, type: .point, at: e)
    case (.subtract, .point, .point):
      return try finish(Operands(a, b), .subtractPoints, type: .point, at: e)
    case (.multiply, .point, .number), (.divide, .point, .number):
      let instruction: Instruction = op == .multiply ? .scalePoint : .dividePoint
      return try finish(Operands(a, b), instruction, type: .point, at: e)
    case (.multiply, .number, .point):
      // The point goes first, as `scalePoint` wants; IEEE multiplication commutes
      // exactly, so the bits are those of `s * x` and `s * y`. Its code moves before the
      // number's.
      let number = Array(code[a.start..<b.start])
      code.removeSubrange(a.start..<b.start)
      code.append(contentsOf: number)
      var point = b
      point.start = a.start
      var scale = a
      scale.start = a.start + (code.count - a.start - number.count)
      return try finish(Operands(point, scale), .scalePoint, type: .point, at: e)
    case (.add, _, _):
      throw ResolveError("cannot add \(y) to \(x)", at: e.source.span)
    case (.subtract, _, _):
      throw ResolveError("cannot subtract \(y) from \(x)", at: e.source.span)
    case (.multiply, _, _):
      throw ResolveError("cannot multiply \(x) by \(y)", at: e.source.span)
    case (.divide, _, _):
      throw ResolveError("cannot divide \(x) by \(y)", at: e.source.span)
    case (.less, _, _), (.lessOrEqual, _, _), (.greater, _, _), (.greaterOrEqual, _, _),
      (.equal, _, _), (.notEqual, _, _):
      throw ResolveError("cannot compare \(x) with \(y)", at: e.source.span)
    case (.remainder, _, _), (.and, _, _), (.or, _, _):
      throw ResolveError("'\(op.rawValue)' takes numbers, found \(x) and \(y)", at: e.source.span)
    }
  }

  /// `condition ? then : otherwise`: both branches are computed and one is selected, as
  /// neither can have effects and a select costs less than a jump in this machine.
  mutating func conditional(
    _ condition: Expression, _ then: Expression, _ otherwise: Expression, at e: Expression
  ) throws(ResolveError) -> Fragment {
    let c = try compile(condition)
    try expect(c, .number, "condition must be a number, found \(c.type.described)", at: condition)
    let a = try compile(then)
    let b = try compile(otherwise)
    guard a.type == b.type else {
      throw ResolveError(
        "both branches must be the same type: \(a.type.described) and \(b.type.described)",
        at: e.source.span)
    }
    // A constant condition picks its branch now; the other branch's reads then no longer
    // count as dependencies.
    if c.isConstant, case .constant(let bits) = code[c.start] {
      let value = Double(bitPattern: bits)
      if value.isNaN {
        code.removeSubrange(c.start...)
        return constant(.nan, type: a.type)
      }
      // Only the branch taken stays, where the condition began.
      var kept = value != 0 ? a : b
      if value != 0 { code.removeSubrange(b.start...) }
      code.removeSubrange(c.start..<kept.start)
      kept.start = c.start
      return kept
    }
    let instruction: Instruction = a.type == .number ? .select : .selectPoint
    return try finish(Operands(c, a, b), instruction, type: a.type, at: e)
  }

  // MARK: Functions

  /// A call of a built-in function, with its arguments checked in the order written.
  mutating func call(_ name: String, _ arguments: [Expression], at e: Expression)
    throws(ResolveError) -> Fragment
  {
    // The parser checks both, but an expression may also be built in code.
    guard let arity = Expression.functions[name] else {
      let suggestion = Suggestion.didYouMean(name, among: Expression.functions.keys.sorted())
      throw ResolveError("unknown function '\(name)'\(suggestion)", at: e.source.span)
    }
    guard arity.contains(arguments.count) else {
      let expected =
        arity.lowerBound == arity.upperBound
        ? "\(arity.lowerBound) argument\(arity.lowerBound == 1 ? "" : "s")"
        : "\(arity.lowerBound) to \(arity.upperBound) arguments"
      throw ResolveError("'\(name)' takes \(expected), found \(arguments.count)", at: e.source.span)
    }
    switch name {
    case "min", "max":
      let instruction: Instruction = name == "min" ? .minimum : .maximum
      var result = try numberArgument(arguments[0], of: name)
      // Pairwise from the left: the stack never holds more than two of the arguments.
      for argument in arguments.dropFirst() {
        let next = try numberArgument(argument, of: name)
        result = try finish(Operands(result, next), instruction, type: .number, at: e)
      }
      return result
    case "distance":
      var points = Operands(startingAt: code.count)
      for argument in arguments {
        let fragment = try compile(argument)
        try expect(fragment, .point, "'distance' takes points, found a number", at: argument)
        points.append(fragment)
      }
      return try finish(points, .distance, type: .number, at: e)
    case "lerp":
      let a = try compile(arguments[0])
      let b = try compile(arguments[1])
      try expect(
        b, a.type,
        "'lerp' takes two numbers or two points, found \(a.type.described) and \(b.type.described)",
        at: arguments[1])
      let t = try compile(arguments[2])
      try expect(
        t, .number, "'lerp' takes a number as its third argument, found a point", at: arguments[2])
      let instruction: Instruction = a.type == .number ? .lerp : .lerpPoints
      return try finish(Operands(a, b, t), instruction, type: a.type, at: e)
    default:
      let instruction: Instruction
      switch name {
      case "abs": instruction = .abs
      case "sqrt": instruction = .squareRoot
      case "sin": instruction = .sine
      case "cos": instruction = .cosine
      case "round": instruction = .round
      case "floor": instruction = .floor
      case "ceil": instruction = .ceil
      case "atan2": instruction = .arcTangent2
      case "hypot": instruction = .hypotenuse
      case "clamp": instruction = .clamp
      case "smoothstep": instruction = .smoothstep
      default:
        throw ResolveError("internal error: no code for the function '\(name)'", at: e.source.span)
      }
      var parts = Operands(startingAt: code.count)
      for argument in arguments { parts.append(try numberArgument(argument, of: name)) }
      return try finish(parts, instruction, type: .number, at: e)
    }
  }

  /// An argument of a function that takes only numbers.
  mutating func numberArgument(_ argument: Expression, of name: String) throws(ResolveError)
    -> Fragment
  {
    let fragment = try compile(argument)
    // The message is worked out only when it is written.
    func what() -> String {
      (Expression.functions[name]?.upperBound ?? 1) == 1 ? "a number" : "numbers"
    }
    try expect(fragment, .number, "'\(name)' takes \(what()), found a point", at: argument)
    return fragment
  }

  // MARK: Messages

  /// `'text'` for an expression, shortened when long so a message stays one line.
  static func quote(_ e: Expression) -> String {
    let text = e.text
    let limit = 40
    return text.count > limit ? "'\(text.prefix(limit))…'" : "'\(text)'"
  }

  /// Member names in the order messages list them: a point's `x` and `y` first, as the
  /// ones most often meant, then the others alphabetically.
  static func sortedMembers(_ names: [String]) -> [String] {
    let unique = Set(names)
    return ["x", "y"].filter(unique.contains) + unique.subtracting(["x", "y"]).sorted()
  }

  /// The names joined as prose: `a`, `a or b`, `a, b or c`.
  ///
  /// Member names are put in their message order first unless `sorted` is false.
  static func list(_ names: [String], sorted: Bool = true) -> String {
    let names = sorted ? sortedMembers(names) : names
    guard let last = names.last, names.count > 1 else { return names.last ?? "" }
    return names.dropLast().joined(separator: ", ") + " or " + last
  }
}
