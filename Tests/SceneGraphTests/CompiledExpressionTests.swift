import SceneDiagnostics
import SceneSyntax
import SceneTestSupport
import Testing

@testable import SceneGraph
@testable import SceneResolve

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Fixtures

/// The names the tests read, and where they live in ``state``.
private let symbolMap: [String: Symbol] = [
  "time": .number(slot: 0),
  "width": .number(slot: 1),
  "height": .number(slot: 2),
  "ball": .object(
    members: ["x": .number(slot: 3), "y": .number(slot: 4), "angle": .number(slot: 5)],
    value: .point(x: 3, y: 4)),
  "pointer": .object(
    members: ["x": .number(slot: 6), "y": .number(slot: 7), "down": .number(slot: 8)],
    value: nil),
  "a": .number(slot: 9),
  "b": .number(slot: 10),
  "p": .point(x: 11, y: 12),
  "q": .point(x: 13, y: 14),
  "drag": .object(members: ["dx": .number(slot: 15), "dy": .number(slot: 16)], value: nil),
]

/// time, width, height, ball (x, y, angle), pointer (x, y, down), a, b, p, q, drag (dx, dy).
private let state: [Double] = [
  0.75, 400, 300, 120, 80, 0.5, 30, 40, 1, 2.5, -1.25, 3, 4, -6, 8, 12, -7,
]

/// `text` parsed as it stands at column 1 of line 1 of the file `t`.
private func parse(_ text: String) throws -> Expression {
  try ExpressionParser.parse(
    text,
    at: SourceSpan(
      SceneDiagnostics.SourceLocation(file: "t", line: 1, column: 1), length: text.count),
    verbatim: true)
}

private func compile(_ text: String) throws -> CompiledExpression {
  try ExpressionCompiler.compile(try parse(text), symbols: SymbolTable(symbolMap))
}

/// The value of `text` as a number, read from ``state``.
private func number(_ text: String, _ values: [Double] = state) throws -> Double {
  let compiled = try compile(text)
  #expect(compiled.resultType == .number, "\(text)")
  return compiled.evaluate(values).x
}

/// The value of `text` as a point, read from ``state``.
private func point(_ text: String, _ values: [Double] = state) throws -> (x: Double, y: Double) {
  let compiled = try compile(text)
  #expect(compiled.resultType == .point, "\(text)")
  return compiled.evaluate(values)
}

/// The error compiling `text` reports, if any.
private func failure(_ text: String) throws -> ResolveError? {
  let expression = try parse(text)
  do {
    _ = try ExpressionCompiler.compile(expression, symbols: SymbolTable(symbolMap))
    return nil
  } catch {
    return error
  }
}

/// Equal bits, or both NaN (of whatever payload).
private func identical(_ a: Double, _ b: Double) -> Bool {
  a.isNaN ? b.isNaN : a.bitPattern == b.bitPattern
}

/// `value` as expression text that reads back as exactly `value`.
private func literal(_ value: Double) -> String { value < 0 ? "(-\(-value))" : "\(value)" }

@Suite struct CompiledExpressionTests {
  // MARK: - Numbers and units

  @Test func units() throws {
    #expect(try number("900ms") == 0.9)
    #expect(try number("1.5s") == 1.5)
    #expect(try number("1.5") == 1.5)
    #expect(try number("2rad") == 2)
    #expect(try number("90deg") == .pi / 2)
    #expect(try number("180deg") == .pi)
    #expect(try number("45deg") == .pi / 4)
    #expect(try number("30deg") == 30 / 180 * .pi)
    #expect(try number("-90deg") == -.pi / 2)
    #expect(try number("250ms + 1s") == 1.25)
    #expect(try number("sin(90deg)") == 1)
  }

  // MARK: - Operators against Swift

  /// Values that meet every branch: zero, signs, fractions, tiny and large magnitudes.
  static let operands: [Double] = [0, 1, -1, 2.5, -2.5, 0.1, 3, 7, 1e-300, 1e300, -0.75]

  @Test(arguments: Expression.BinaryOperator.allCases)
  func binaryOperator(_ op: Expression.BinaryOperator) throws {
    let swift: (Double, Double) -> Double
    func truth(_ value: Bool) -> Double { value ? 1 : 0 }
    switch op {
    case .add: swift = { $0 + $1 }
    case .subtract: swift = { $0 - $1 }
    case .multiply: swift = { $0 * $1 }
    case .divide: swift = { $0 / $1 }
    case .remainder: swift = { $0.truncatingRemainder(dividingBy: $1) }
    case .less: swift = { truth($0 < $1) }
    case .lessOrEqual: swift = { truth($0 <= $1) }
    case .greater: swift = { truth($0 > $1) }
    case .greaterOrEqual: swift = { truth($0 >= $1) }
    case .equal: swift = { truth($0 == $1) }
    case .notEqual: swift = { truth($0 != $1) }
    case .and: swift = { truth($0 != 0 && $1 != 0) }
    case .or: swift = { truth($0 != 0 || $1 != 0) }
    }
    let program = try compile("a \(op.rawValue) b")
    #expect(program.dependencies == [9, 10])
    for x in Self.operands {
      for y in Self.operands {
        var values = state
        values[9] = x
        values[10] = y
        let expected = swift(x, y)
        let evaluated = program.evaluate(values).x
        #expect(identical(evaluated, expected), "\(x) \(op.rawValue) \(y)")
        // The same operation on literals is folded, and must give the same bits.
        let folded = try compile("\(literal(x)) \(op.rawValue) \(literal(y))")
        #expect(folded.isConstant)
        #expect(folded.code.count == 1)
        #expect(identical(folded.evaluate([]).x, expected), "\(x) \(op.rawValue) \(y) folded")
      }
    }
  }

  @Test func unaryOperators() throws {
    for x in Self.operands {
      var values = state
      values[9] = x
      #expect(identical(try number("-a", values), -x))
      #expect(identical(try number("+a", values), x))
      #expect(identical(try number("!a", values), x == 0 ? 1 : 0))
      #expect(identical(try number("-\(literal(x))"), -x))
      #expect(identical(try number("!\(literal(x))"), x == 0 ? 1 : 0))
    }
    #expect(try number("!!a") == 1)
    #expect(try number("--a") == 2.5)
  }

  @Test func precedenceAndIEEE() throws {
    #expect(try number("1 + 2 * 3") == 7)
    #expect(try number("(1 + 2) * 3") == 9)
    #expect(try number("a - b - 1") == 2.5 - -1.25 - 1)
    #expect(try number("a < b || b < a && time") == 1)
    #expect(try number("7 % 3") == 1)
    #expect(try number("-7 % 3") == -1)
    // Division by zero folds without trapping, as IEEE says.
    #expect(try number("1 / 0") == .infinity)
    #expect(try number("-1 / 0") == -.infinity)
    #expect(try number("0 / 0").isNaN)
    #expect(try number("1 % 0").isNaN)
    #expect(try number("sqrt(-1)").isNaN)
    #expect(try number("a / (b - b)") == .infinity)
  }

  /// A NaN never turns into a plain 0 or 1 or picks a branch: it shows in the result.
  @Test func nanPropagates() throws {
    for text in [
      "0 / 0 < 1", "1 == 0 / 0", "!(0 / 0)", "0 / 0 && 1", "0 / 0 || 1", "min(0 / 0, 1)",
      "min(1, 0 / 0)", "max(0 / 0, 1)", "max(1, 0 / 0)", "clamp(0 / 0, 0, 1)",
      "smoothstep(0, 1, 0 / 0)", "smoothstep(1, 1, 0 / 0)", "0 / 0 ? 1 : 2", "sqrt(a - 3) > 0",
      "sqrt(a - 3) ? 1 : 2",
    ] {
      #expect(try number(text).isNaN, "\(text)")
    }
    let nanPoint = try point("sqrt(b) ? p : q")
    #expect(nanPoint.x.isNaN && nanPoint.y.isNaN)
    let foldedNaNPoint = try point("0 / 0 ? (1, 2) : (3, 4)")
    #expect(foldedNaNPoint.x.isNaN && foldedNaNPoint.y.isNaN)
  }

  // MARK: - Functions against Swift

  @Test func functions() throws {
    let triples: [(Double, Double, Double)] = [
      (0.3, -2, 5), (-4, 1, 2), (9, 3, 7), (0.5, 0.25, 0.75), (2, 2, 2), (-1.5, 4, -3),
    ]
    for (x, y, z) in triples {
      var values = state
      values[0] = x  // time
      values[9] = y  // a
      values[10] = z  // b
      /// `template` with `$x`, `$y`, `$z` read from slots, and again written in.
      func check(
        _ template: String, _ expected: Double,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
      ) throws {
        let text = template.replacing("$x", with: "time").replacing("$y", with: "a")
          .replacing("$z", with: "b")
        let program = try compile(text)
        #expect(
          identical(program.evaluate(values).x, expected), "\(text) at \(x), \(y), \(z)",
          sourceLocation: sourceLocation)
        // With the values written in, it folds to one constant with the same bits.
        let written = template.replacing("$x", with: literal(x)).replacing("$y", with: literal(y))
          .replacing("$z", with: literal(z))
        let folded = try compile(written)
        #expect(
          folded.isConstant && folded.code.count == 1, "\(written)", sourceLocation: sourceLocation)
        #expect(
          identical(folded.evaluate([]).x, expected), "\(written)", sourceLocation: sourceLocation)
      }
      let t = (z - y) == 0 ? 0 : Swift.min(Swift.max((x - y) / (z - y), 0), 1)
      let smooth = y == z ? (x < y ? 0 : 1) : t * t * (3 - 2 * t)
      try check("min($x, $y)", Swift.min(x, y))
      try check("min($x, $y, $z)", Swift.min(x, y, z))
      try check("max($x, $y)", Swift.max(x, y))
      try check("max($x, $y, $z, 1)", Swift.max(x, y, z, 1))
      try check("clamp($x, $y, $z)", Swift.min(Swift.max(x, y), z))
      try check("abs($y)", Swift.abs(y))
      try check("sqrt(abs($z))", Swift.abs(z).squareRoot())
      try check("sin($x)", sin(x))
      try check("cos($x)", cos(x))
      try check("atan2($y, $z)", atan2(y, z))
      try check("hypot($y, $z)", hypot(y, z))
      try check("lerp($y, $z, $x)", y + (z - y) * x)
      try check("smoothstep($y, $z, $x)", smooth)
      try check("distance(($y, $z), ($x, 1))", hypot(x - y, 1 - z))
    }
    // The ramp of smoothstep: ends, middle, and a reversed ramp.
    #expect(try number("smoothstep(0, 1, 0.5)") == 0.5)
    #expect(try number("smoothstep(0, 1, -1)") == 0)
    #expect(try number("smoothstep(0, 1, 2)") == 1)
    #expect(try number("smoothstep(1, 0, 0.25)") == 0.84375)
    #expect(try number("clamp(5, 0, 1)") == 1)
    #expect(try number("clamp(-5, 0, 1)") == 0)
  }

  // MARK: - Points

  @Test func points() throws {
    func check(
      _ text: String, _ x: Double, _ y: Double,
      sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
      let value = try point(text)
      #expect(value.x == x && value.y == y, "\(text) is \(value)", sourceLocation: sourceLocation)
    }
    // p = (3, 4), q = (-6, 8), ball = (120, 80), a = 2.5.
    try check("p", 3, 4)
    try check("(a, 1)", 2.5, 1)
    try check("p + q", -3, 12)
    try check("p - q", 9, -4)
    try check("p * a", 7.5, 10)
    try check("a * p", 7.5, 10)
    try check("p / 2", 1.5, 2)
    try check("-p", -3, -4)
    try check("-(1, 2)", -1, -2)
    try check("ball", 120, 80)
    try check("ball + (10, 0) * 2", 140, 80)
    try check("lerp(p, q, 0.5)", -1.5, 6)
    try check("lerp(p, q, a)", 3 + (-6 - 3) * 2.5, 4 + (8 - 4) * 2.5)
    try check("pointer.down ? p : q", 3, 4)
    try check("!pointer.down ? p : q", -6, 8)
    try check("(pointer.x, pointer.y)", 30, 40)
    #expect(try number("distance(p, q)") == hypot(-9, 4))
    #expect(try number("distance(p, (0, 0))") == 5)
    #expect(try number("(p + q).x") == -3)
    #expect(try number("(p + q).y") == 12)
    #expect(try number("(1, 2).y") == 2)
    #expect(try number("lerp(p, q, 0.5).y") == 6)
    // A number result leaves y at 0.
    #expect(try compile("a").evaluate(state).y == 0)
  }

  // MARK: - Member access

  @Test func members() throws {
    #expect(try number("ball.x") == 120)
    #expect(try number("ball.y") == 80)
    #expect(try number("ball.angle") == 0.5)
    #expect(try number("pointer.down") == 1)
    #expect(try number("drag.dy") == -7)
    #expect(try number("p.x") == 3)
    #expect(try number("q.y") == 8)
    #expect(try compile("ball.x").code == [.load(slot: 3)])
    #expect(try compile("p.y").code == [.load(slot: 12)])
    // An object whose value is a point but which lacks members of its own still has x and y.
    let symbols = SymbolTable([
      "knob": .object(members: ["spin": .number(slot: 2)], value: .point(x: 0, y: 1)),
      "outer": .object(
        members: ["inner": .object(members: ["deep": .number(slot: 1)], value: nil)], value: nil),
    ])
    let knobY = try ExpressionCompiler.compile(try parse("knob.y + knob.spin"), symbols: symbols)
    #expect(knobY.evaluate([10, 20, 30]).x == 50)
    let deep = try ExpressionCompiler.compile(try parse("outer.inner.deep"), symbols: symbols)
    #expect(deep.evaluate([10, 20, 30]).x == 20)
    let knob = try ExpressionCompiler.compile(try parse("knob"), symbols: symbols)
    #expect(knob.resultType == .point)
    #expect(knob.evaluate([10, 20, 30]) == (10, 20))
  }

  /// A handle named by its slot compiles exactly as the object it stands for: the same
  /// code, or the same message.
  @Test func aHandleSymbolIsTheObjectItStandsFor() throws {
    let handle = SymbolTable(["ball": .handle(slot: 3), "p": .point(x: 11, y: 12)])
    let object = SymbolTable(["ball": Symbol.handle(slot: 3).expanded, "p": .point(x: 11, y: 12)])
    #expect(
      Symbol.handle(slot: 3).expanded
        == .object(
          members: ["x": .number(slot: 3), "y": .number(slot: 4), "angle": .number(slot: 5)],
          value: .point(x: 3, y: 4)))
    let texts = [
      "ball", "ball.x", "ball.y", "ball.angle", "ball.z", "ball.x.y", "ball + p", "-ball",
      "ball.angle * 2", "ball.speed", "(ball).x", "ball == p", "distance(ball, p)",
      "lerp(ball, p, ball.x)", "ball.angle.x",
    ]
    for text in texts {
      let expression = try parse(text)
      func outcome(_ symbols: SymbolTable) -> String {
        do {
          return "\(try ExpressionCompiler.compile(expression, symbols: symbols).code)"
        } catch {
          return error.message
        }
      }
      #expect(outcome(handle) == outcome(object), "\(text)")
    }
  }

  /// Literals take a shortcut past the general compiler, to the same program.
  @Test func aLiteralCompilesAsTheGeneralCompilerWould() throws {
    let literals = [
      "0", "1.5", "1e300", "900ms", "90deg", "2s", "1rad", "(3, 4)", "(0.1, 1e-300)",
      "(90deg, 250ms)", "(1.5e10, 0)",
    ]
    for text in literals {
      let expression = try parse(text)
      let shortcut = try #require(ExpressionCompiler.literal(expression), "\(text)")
      let full = try ExpressionCompiler.compileInFull(expression, symbols: .empty)
      #expect(shortcut.code == full.code, "\(text)")
      #expect(shortcut.resultType == full.resultType, "\(text)")
      #expect(shortcut.stackDepth == full.stackDepth, "\(text)")
      #expect(shortcut.dependencies == full.dependencies, "\(text)")
    }
    for text in ["-1", "(1, -2)", "(1, 2 + 3)", "time", "(time, 1)", "((1, 2), 3)"] {
      #expect(ExpressionCompiler.literal(try parse(text)) == nil, "\(text)")
    }
  }

  /// Odd shapes a resolver might hand over get a message, not a crash.
  @Test func oddSymbols() throws {
    let symbols = SymbolTable([
      "hollow": .object(members: [:], value: nil),
      "knob": .object(members: ["spin": .number(slot: 2)], value: .point(x: 0, y: 1)),
      "bad": .point(x: 0, y: -3),
    ])
    func message(_ text: String) throws -> String? {
      let expression = try parse(text)
      do {
        _ = try ExpressionCompiler.compile(expression, symbols: symbols)
        return nil
      } catch {
        return error.message
      }
    }
    #expect(try message("hollow") == "'hollow' has no value and no members")
    #expect(try message("hollow.x") == "'hollow' has no member 'x'; it has none")
    #expect(try message("knob.z") == "'knob' has no member 'z'; expected x, y or spin")
    #expect(try message("bad + (1, 1)") == "internal error: 'bad' refers to the invalid slot -3")
    #expect(try message("bad.x") == nil)
  }

  /// The lookup closure and the names for suggestions can come from anywhere.
  @Test func customLookup() throws {
    let table = SymbolTable(
      lookup: { $0.hasPrefix("v") ? Int($0.dropFirst()).map { .number(slot: $0) } : nil },
      names: ["v0", "v1", "v2"])
    let sum = try ExpressionCompiler.compile(try parse("v0 + v2 * 10"), symbols: table)
    #expect(sum.evaluate([1, 2, 3]).x == 31)
    #expect(sum.dependencies == [0, 2])
    #expect(
      throws: ResolveError(
        "unknown name 'w1'; did you mean 'v1'?",
        at: SourceSpan(
          SceneDiagnostics.SourceLocation(file: "t", line: 1, column: 1), length: 2))
    ) {
      try ExpressionCompiler.compile(try parse("w1"), symbols: table)
    }
  }

  // MARK: - Dependencies and folding

  @Test func dependencies() throws {
    #expect(try compile("ball.x + a * time + ball.x").dependencies == [0, 3, 9])
    #expect(try compile("ball").dependencies == [3, 4])
    #expect(try compile("distance(p, q) + drag.dx").dependencies == [11, 12, 13, 14, 15])
    #expect(try compile("pointer.down ? a : b").dependencies == [8, 9, 10])
    // A constant condition keeps only the branch it picks.
    #expect(try compile("1 > 2 ? a : b").dependencies == [10])
    #expect(try compile("1 < 2 ? a : b").dependencies == [9])
    #expect(try compile("1 + 2").dependencies == [])
    #expect(try compile("1 + 2").isConstant)
    #expect(!(try compile("1 + a").isConstant))
  }

  @Test func folding() throws {
    let mixed = try compile("sin(90deg) * 2 + a * (3 - 1)")
    #expect(
      mixed.code == [
        .loadTimesConstant(bits: (2.0).bitPattern, slot: 9), .addConstant(bits: (2.0).bitPattern),
      ])
    #expect(mixed.evaluate(state).x == 7)
    let constantPoint = try compile("(1, 2) * 3 + (0.5, 0)")
    #expect(constantPoint.code == [.constant(3.5), .constant(6)])
    #expect(constantPoint.constantValue! == (3.5, 6))
    #expect(try compile("a").constantValue == nil)
    // Members of a constant point fold too.
    #expect(try compile("((1, 2) + (3, 4)).y").code == [.constant(6)])
    // `min` folds its constant prefix.
    #expect(try compile("min(5, 3, a)").code == [.constant(3), .load(slot: 9), .minimum])
    // Equal programs are equal, a NaN constant included.
    #expect(try compile("0 / 0 + a") == (try compile("0 / 0 + a")))
    #expect(try compile("a + 1") != (try compile("a + 2")))
    #expect(try compile("1 / 0").constantValue?.x == .infinity)
  }

  /// A load or constant right before `+`, `-`, `*` or `/` rides in that instruction.
  @Test func fusion() throws {
    let program = try compile("a * 2 + b - time / ball.x")
    #expect(
      program.code == [
        .loadTimesConstant(bits: (2.0).bitPattern, slot: 9), .addSlot(10), .load(slot: 0),
        .divideSlot(3), .subtract,
      ])
    #expect(program.dependencies == [0, 3, 9, 10])
    #expect(program.evaluate(state).x == 2.5 * 2 + -1.25 - 0.75 / 120)
    #expect(
      try compile("2 - a").code == [.constant(2), .subtractSlot(9)])
    #expect(
      try compile("1 / a + 3").code == [
        .constant(1), .divideSlot(9), .addConstant(bits: (3.0).bitPattern),
      ])
    #expect(
      try compile("a - 0.5").code == [.load(slot: 9), .subtractConstant(bits: (0.5).bitPattern)])
    #expect(try compile("a / 4").code == [.load(slot: 9), .divideConstant(bits: (4.0).bitPattern)])
    #expect(try compile("b * a").code == [.load(slot: 10), .multiplySlot(9)])
    // A constant first operand of `+` or `*` moves after the other: `c + S` runs as
    // `S +c`, and `2 * a` as `a * 2`, in one step.
    #expect(
      try compile("2 * a").code == [.loadTimesConstant(bits: (2.0).bitPattern, slot: 9)])
    #expect(
      try compile("1 + sin(a)").code == [
        .load(slot: 9), .sine, .addConstant(bits: (1.0).bitPattern),
      ])
    #expect(
      try compile("3 * (a - b)").code == [
        .load(slot: 9), .subtractSlot(10), .multiplyConstant(bits: (3.0).bitPattern),
      ])
    // Terms of a bound point: `restY + pull * 0.3 + 2 * s`, three steps instead of seven.
    let term = try compile("105 + a * 0.3 + 2 * sin(b)")
    #expect(
      term.code == [
        .loadTimesConstant(bits: (0.3).bitPattern, slot: 9),
        .addConstant(bits: (105.0).bitPattern), .load(slot: 10), .sine,
        .multiplyConstant(bits: (2.0).bitPattern), .add,
      ])
    #expect(
      try compile("b + a * 0.5").code == [
        .load(slot: 10), .addSlotTimesConstant(bits: (0.5).bitPattern, slot: 9),
      ])
    // Not commutative, or not a constant that may move: left as they are.
    #expect(try compile("2 - sin(a)").code == [.constant(2), .load(slot: 9), .sine, .subtract])
    #expect(try compile("2 / a").code == [.constant(2), .divideSlot(9)])
    let nan = try compile("0 / 0 + sin(a)").code
    #expect(nan.count == 4 && nan[0] != .constant(0) && nan[3] == .add)
    // Only numbers fuse: a point's coordinates are two pushes, not an operand.
    #expect(
      try compile("p + q").code == [
        .load(slot: 11), .load(slot: 12), .load(slot: 13), .load(slot: 14), .addPoints,
      ])
  }

  @Test func stackDepth() throws {
    // A left-leaning chain needs one entry however long it is: each `+ a` is one step.
    // 250 terms: close to the parser's limit on the height of a tree.
    let chain = try compile(Array(repeating: "a", count: 250).joined(separator: " + "))
    #expect(chain.stackDepth == 1)
    #expect(chain.evaluate(state).x == 625)
    // Right-leaning numbers need one entry per level (the innermost `a - a` is one step).
    let nested = String(repeating: "a - (", count: 90) + "a" + String(repeating: ")", count: 90)
    let program = try compile(nested)
    #expect(program.stackDepth == 90)
    #expect(program.evaluate(state).x == 2.5)
    // Right-leaning points need two per level: the innermost node too deep is reported.
    let levels = 80
    let points =
      String(repeating: "p + (", count: levels) + "p" + String(repeating: ")", count: levels)
    let error = try #require(try failure(points))
    #expect(
      error.message
        == "expression too deeply nested to evaluate (it needs more than 128 intermediate values); move part of it into a let"
    )
    // The node whose operands need 2 × 63 + 4 = 130 entries: 63 levels above the innermost.
    #expect(error.span?.start.column == 1 + 5 * (levels - 64))
  }

  /// A state that does not cover every slot read gives NaN, not a read out of bounds.
  @Test func shortState() throws {
    let program = try compile("ball.x + 1")
    #expect(program.evaluate([1, 2, 3]).x.isNaN)
    #expect(program.evaluate([1, 2, 3, 4]).x == 5)
    #expect(try compile("1 + 1").evaluate([]).x == 2)
  }

  /// A batch answers every program with the bits the program gives alone, whether it
  /// reads its value straight from the state (a name) or runs the machine, and still
  /// refuses a short state.
  @Test func batchMatchesEachProgram() throws {
    let texts = [
      "ball", "a", "p", "time", "ball.y", "q", "a + 0", "-a", "(a, b)", "(b, a)", "p * 2",
      "sin(time * 6) + a", "(1, 2)", "3", "drag.dx", "(-0.0, 1 / 0)", "-(0.0)", "(1, a)",
      "(a, -2)", "(a + 1, 2)",
    ]
    let programs = try texts.map(compile)
    let batch = ExpressionBatch(programs)
    #expect(batch.count == texts.count)
    // Programs that only load or push constants, one or two, are answered directly; the
    // rest run.
    let direct = batch.shortcuts.map { if case .run = $0 { false } else { true } }
    #expect(
      direct == [
        true, true, true, true, true, true, false, false, true, true, false, false, true,
        true, true, true, true, true, true, false,
      ])
    var withNaN = state
    withNaN[9] = .nan
    withNaN[12] = -0.0
    for values in [state, withNaN] {
      values.withUnsafeBufferPointer { buffer in
        for (k, program) in programs.enumerated() {
          let alone = program.evaluate(buffer)
          let batched = batch.evaluate(k, state: buffer)
          #expect(identical(alone.x, batched.x) && identical(alone.y, batched.y), "\(texts[k])")
        }
      }
    }
    [1.0, 2, 3].withUnsafeBufferPointer { short in
      #expect(batch.evaluate(0, state: short).x.isNaN)
    }
  }

  // MARK: - Errors

  @Test(arguments: [
    // Names.
    ("bal + 1", "unknown name 'bal'; did you mean 'ball'?", 1),
    ("1 + tme", "unknown name 'tme'; did you mean 'time'?", 5),
    ("zzzzz", "unknown name 'zzzzz'", 1),
    ("sin + 1", "'sin' is a function; call it with arguments: sin(…)", 1),
    // Members.
    ("ball.z", "'ball' has no member 'z'; expected x, y or angle", 1),
    ("2 * ball.angel", "'ball' has no member 'angel'; expected x, y or angle", 5),
    (
      "pointer + 1", "'pointer' has no value of its own; use pointer.x, pointer.y or pointer.down",
      1
    ),
    ("drag", "'drag' has no value of its own; use drag.dx or drag.dy", 1),
    ("drag.x", "'drag' has no member 'x'; expected dx or dy", 1),
    ("time.x", "'time' has no member 'x'; it is a number", 1),
    ("pointer.down.x", "'pointer.down' has no member 'x'; it is a number", 1),
    ("p.angle", "'p' has no member 'angle'; expected x or y", 1),
    ("1 + (a + 1).x", "'a + 1' has no member 'x'; it is a number", 5),
    ("(p + q).z", "'p + q' has no member 'z'; expected x or y", 1),
    ("ball.x.y", "'ball.x' has no member 'y'; it is a number", 1),
    // Points in arithmetic.
    ("p * q", "cannot multiply a point by a point", 1),
    ("1 + p * q", "cannot multiply a point by a point", 5),
    ("p + 1", "cannot add a number to a point", 1),
    ("1 + p", "cannot add a point to a number", 1),
    ("p - 1", "cannot subtract a number from a point", 1),
    ("a - ball", "cannot subtract a point from a number", 1),
    ("1 / p", "cannot divide a number by a point", 1),
    ("p / q", "cannot divide a point by a point", 1),
    ("p % 2", "'%' takes numbers, found a point and a number", 1),
    ("p < 1", "cannot compare a point with a number", 1),
    ("a >= p", "cannot compare a number with a point", 1),
    ("p == q", "cannot compare a point with a point", 1),
    ("p != q", "cannot compare a point with a point", 1),
    ("a && p", "'&&' takes numbers, found a number and a point", 1),
    ("p || 1", "'||' takes numbers, found a point and a number", 1),
    ("!p", "'!' takes a number, found a point", 1),
    ("1 - +p", "unary '+' takes a number, found a point", 5),
    ("(p, 1)", "a point's coordinates must be numbers, found a point", 2),
    ("(1, q)", "a point's coordinates must be numbers, found a point", 5),
    // Functions.
    ("sin(p)", "'sin' takes a number, found a point", 5),
    ("2 * sqrt(ball)", "'sqrt' takes a number, found a point", 10),
    ("atan2(1, p)", "'atan2' takes numbers, found a point", 10),
    ("min(1, 2, ball)", "'min' takes numbers, found a point", 11),
    ("max(p, 2)", "'max' takes numbers, found a point", 5),
    ("clamp(p, 0, 1)", "'clamp' takes numbers, found a point", 7),
    ("smoothstep(0, 1, q)", "'smoothstep' takes numbers, found a point", 18),
    ("hypot(p, 1)", "'hypot' takes numbers, found a point", 7),
    ("abs(p)", "'abs' takes a number, found a point", 5),
    ("cos(p)", "'cos' takes a number, found a point", 5),
    ("distance(p, 1)", "'distance' takes points, found a number", 13),
    ("lerp(1, p, 0.5)", "'lerp' takes two numbers or two points, found a number and a point", 9),
    ("lerp(p, q, p)", "'lerp' takes a number as its third argument, found a point", 12),
    // Conditionals.
    ("p ? 1 : 2", "condition must be a number, found a point", 1),
    ("1 + (p ? 1 : 2)", "condition must be a number, found a point", 6),
    ("a > 1 ? p : 2", "both branches must be the same type: a point and a number", 1),
    ("1 + (a ? 1 : p)", "both branches must be the same type: a number and a point", 6),
    // The first error in the text wins.
    ("bal + p * q", "unknown name 'bal'; did you mean 'ball'?", 1),
    ("p * q + zz", "cannot multiply a point by a point", 1),
    ("p ? zz : 1", "condition must be a number, found a point", 1),
  ])
  func error(_ text: String, _ message: String, _ column: Int) throws {
    let error = try #require(try failure(text), "\(text)")
    #expect(error.message == message, "\(text)")
    #expect(error.span?.start.column == column, "\(text)")
    #expect(error.span?.start.line == 1)
    #expect(error.span?.start.file == "t")
    #expect(error.diagnostic.severity == .error)
  }

  /// Expressions built in code skip the parser's checks, so the compiler repeats them.
  @Test func builtInCode() throws {
    func message(_ e: Expression) -> String? {
      do {
        _ = try ExpressionCompiler.compile(e, symbols: .empty)
        return nil
      } catch {
        return error.message
      }
    }
    let one = Expression(.number(1, nil))
    #expect(message(Expression(.call("sin", []))) == "'sin' takes 1 argument, found 0")
    #expect(message(Expression(.call("min", [one]))) == "'min' takes 2 to 8 arguments, found 1")
    #expect(message(Expression(.call("atan2", [one]))) == "'atan2' takes 2 arguments, found 1")
    #expect(
      message(Expression(.call("sinh", [one]))) == "unknown function 'sinh'; did you mean 'sin'?")
    #expect(message(Expression(.call("frobnicate", [one]))) == "unknown function 'frobnicate'")
    let negativeSlot = SymbolTable(["bad": .number(slot: -1)])
    #expect(throws: ResolveError.self) {
      try ExpressionCompiler.compile(Expression(.identifier("bad")), symbols: negativeSlot)
    }
    #expect(try ExpressionCompiler.compile(one, symbols: .empty).constantValue! == (1, 0))
  }

  // MARK: - Differential test

  /// 2,000 random well-typed trees, printed, parsed back, compiled and evaluated on three
  /// random states each, against a plain recursive interpreter.
  @Test func differential() throws {
    var generator = TreeGenerator(rng: SeededGenerator(seed: 0x5CE4EC))
    var folded = 0
    var products = 0
    for index in 0..<2000 {
      let type: CompiledExpression.ValueType = generator.rng.next() % 3 == 0 ? .point : .number
      let tree = generator.tree(type, depth: 0)
      let text = tree.text
      let parsed = try parse(text)
      #expect(parsed == tree, "tree \(index) reads back: \(text)")
      let program = try ExpressionCompiler.compile(parsed, symbols: SymbolTable(symbolMap))
      #expect(program.resultType == type, "\(text)")
      if program.isConstant && tree.nodeCount > 1 { folded += 1 }
      if program.code.contains(where: {
        switch $0 {
        case .loadTimesConstant, .addSlotTimesConstant: true
        default: false
        }
      }) {
        products += 1
      }
      for _ in 0..<3 {
        let values = generator.state()
        let expected = Interpreter(state: values).evaluate(tree)
        let actual = program.evaluate(values)
        let same =
          switch expected {
          case .number(let x): identical(actual.x, x) && actual.y == 0
          case .point(let x, let y): identical(actual.x, x) && identical(actual.y, y)
          }
        #expect(same, "tree \(index): \(text) gives \(actual), expected \(expected)")
      }
    }
    // Literals are common enough that many trees fold to a constant entirely, and that
    // many run a product of a load and a constant as one step.
    #expect(folded > 25)
    #expect(products > 25)
  }
}

// MARK: - Reference interpreter

/// A value as the reference interpreter computes it.
private enum Value: CustomStringConvertible {
  case number(Double)
  case point(Double, Double)

  var description: String {
    switch self {
    case .number(let x): return "\(x)"
    case .point(let x, let y): return "(\(x), \(y))"
    }
  }
}

/// The semantics written the obvious way: a tree walk over Swift's own math, with the
/// documented rules for NaN (comparisons, logic, min, max and conditions keep it).
private struct Interpreter {
  let state: [Double]

  func evaluate(_ e: Expression) -> Value {
    switch e.kind {
    case .number(let value, let unit):
      switch unit {
      case .milliseconds: return .number(value / 1000)
      case .degrees: return .number(value / 180 * .pi)
      default: return .number(value)
      }
    case .point(let x, let y):
      return .point(number(x), number(y))
    case .identifier, .member:
      if let symbol = symbol(e) { return value(symbol) }
      guard case .member(let base, let name) = e.kind, case .point(let x, let y) = evaluate(base)
      else {
        Issue.record("ill-typed \(e.text)")
        return .number(.nan)
      }
      return .number(name == "x" ? x : y)
    case .unary(let op, let operand):
      switch (op, evaluate(operand)) {
      case (.negate, .number(let x)): return .number(-x)
      case (.negate, .point(let x, let y)): return .point(-x, -y)
      case (.plus, let value): return value
      case (.not, .number(let x)): return .number(x.isNaN ? .nan : (x == 0 ? 1 : 0))
      case (.not, .point): return ill(e)
      }
    case .binary(let op, let lhs, let rhs):
      return binary(op, evaluate(lhs), evaluate(rhs), e)
    case .conditional(let c, let a, let b):
      let condition = number(c)
      let (x, y) = (evaluate(a), evaluate(b))
      if condition.isNaN {
        if case .point = x { return .point(.nan, .nan) }
        return .number(.nan)
      }
      return condition != 0 ? x : y
    case .call(let name, let arguments):
      return call(name, arguments.map(evaluate), e)
    }
  }

  func ill(_ e: Expression) -> Value {
    Issue.record("ill-typed \(e.text)")
    return .number(.nan)
  }

  func number(_ e: Expression) -> Double {
    if case .number(let x) = evaluate(e) { return x }
    Issue.record("not a number: \(e.text)")
    return .nan
  }

  func symbol(_ e: Expression) -> Symbol? {
    switch e.kind {
    case .identifier(let name): return symbolMap[name]
    case .member(let base, let name):
      switch symbol(base)?.expanded {
      case .object(let members, let value)?:
        if let member = members[name] { return member }
        if case .point(let x, let y)? = value { return .number(slot: name == "x" ? x : y) }
        return nil
      case .point(let x, let y)?: return .number(slot: name == "x" ? x : y)
      default: return nil
      }
    default: return nil
    }
  }

  func value(_ symbol: Symbol) -> Value {
    switch symbol {
    case .number(let slot): return .number(state[slot])
    case .point(let x, let y): return .point(state[x], state[y])
    case .object(_, let value?): return self.value(value)
    case .handle: return self.value(symbol.expanded)
    case .object(_, nil):
      Issue.record("object without a value")
      return .number(.nan)
    }
  }

  static func truth(_ a: Double, _ b: Double, _ value: Bool) -> Value {
    .number(a.isNaN || b.isNaN ? .nan : (value ? 1 : 0))
  }

  static func minimum(_ a: Double, _ b: Double) -> Double {
    a.isNaN || b.isNaN ? .nan : Swift.min(a, b)
  }

  static func maximum(_ a: Double, _ b: Double) -> Double {
    a.isNaN || b.isNaN ? .nan : Swift.max(a, b)
  }

  func binary(_ op: Expression.BinaryOperator, _ l: Value, _ r: Value, _ e: Expression) -> Value {
    switch (op, l, r) {
    case (.add, .number(let a), .number(let b)): return .number(a + b)
    case (.subtract, .number(let a), .number(let b)): return .number(a - b)
    case (.multiply, .number(let a), .number(let b)): return .number(a * b)
    case (.divide, .number(let a), .number(let b)): return .number(a / b)
    case (.remainder, .number(let a), .number(let b)):
      return .number(a.truncatingRemainder(dividingBy: b))
    case (.less, .number(let a), .number(let b)): return Self.truth(a, b, a < b)
    case (.lessOrEqual, .number(let a), .number(let b)): return Self.truth(a, b, a <= b)
    case (.greater, .number(let a), .number(let b)): return Self.truth(a, b, a > b)
    case (.greaterOrEqual, .number(let a), .number(let b)): return Self.truth(a, b, a >= b)
    case (.equal, .number(let a), .number(let b)): return Self.truth(a, b, a == b)
    case (.notEqual, .number(let a), .number(let b)): return Self.truth(a, b, a != b)
    case (.and, .number(let a), .number(let b)): return Self.truth(a, b, a != 0 && b != 0)
    case (.or, .number(let a), .number(let b)): return Self.truth(a, b, a != 0 || b != 0)
    case (.add, .point(let ax, let ay), .point(let bx, let by)): return .point(ax + bx, ay + by)
    case (.subtract, .point(let ax, let ay), .point(let bx, let by)):
      return .point(ax - bx, ay - by)
    case (.multiply, .point(let x, let y), .number(let s)): return .point(x * s, y * s)
    case (.multiply, .number(let s), .point(let x, let y)): return .point(s * x, s * y)
    case (.divide, .point(let x, let y), .number(let s)): return .point(x / s, y / s)
    default: return ill(e)
    }
  }

  func call(_ name: String, _ arguments: [Value], _ e: Expression) -> Value {
    var numbers: [Double] = []
    var points: [(Double, Double)] = []
    for argument in arguments {
      switch argument {
      case .number(let x): numbers.append(x)
      case .point(let x, let y): points.append((x, y))
      }
    }
    switch (name, numbers.count, points.count) {
    case ("min", _, 0): return .number(numbers.dropFirst().reduce(numbers[0], Self.minimum))
    case ("max", _, 0): return .number(numbers.dropFirst().reduce(numbers[0], Self.maximum))
    case ("clamp", 3, 0):
      return .number(Self.minimum(Self.maximum(numbers[0], numbers[1]), numbers[2]))
    case ("abs", 1, 0): return .number(Swift.abs(numbers[0]))
    case ("sqrt", 1, 0): return .number(numbers[0].squareRoot())
    case ("sin", 1, 0): return .number(sin(numbers[0]))
    case ("cos", 1, 0): return .number(cos(numbers[0]))
    case ("atan2", 2, 0): return .number(atan2(numbers[0], numbers[1]))
    case ("hypot", 2, 0): return .number(hypot(numbers[0], numbers[1]))
    case ("lerp", 3, 0):
      return .number(numbers[0] + (numbers[1] - numbers[0]) * numbers[2])
    case ("lerp", 1, 2):
      let (a, b, t) = (points[0], points[1], numbers[0])
      return .point(a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
    case ("smoothstep", 3, 0):
      let (e0, e1, x) = (numbers[0], numbers[1], numbers[2])
      if x.isNaN { return .number(.nan) }
      if e0 == e1 { return .number(x < e0 ? 0 : 1) }
      let t = Self.minimum(Self.maximum((x - e0) / (e1 - e0), 0), 1)
      return .number(t * t * (3 - 2 * t))
    case ("distance", 0, 2):
      return .number(hypot(points[1].0 - points[0].0, points[1].1 - points[0].1))
    default: return ill(e)
    }
  }
}

// MARK: - Random trees

/// Well-typed random expressions over ``symbolMap``, as the parser would build them: no
/// negative literals (the parser reads `-1` as a negation).
private struct TreeGenerator {
  var rng: SeededGenerator

  mutating func pick<T>(_ options: [T]) -> T { options[Int(rng.next() % UInt64(options.count))] }
  mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }

  /// A state for ``symbolMap``: mostly moderate values, with 0 and 1 common enough that
  /// conditions and `pointer.down` go both ways.
  mutating func state() -> [Double] {
    (0..<17).map { _ in
      chance(20) ? pick([0, 1]) : Double.random(in: -10...10, using: &rng)
    }
  }

  mutating func literal() -> Expression {
    let value: Double = pick([0, 1, 2, 0.5, 3.25, 10, 100, 0.001, 7, 1e-300])
    let unit: Expression.Unit? = chance(80) ? nil : pick(Expression.Unit.allCases)
    return Expression(.number(value, unit))
  }

  mutating func leaf(_ type: CompiledExpression.ValueType) -> Expression {
    func member(_ base: String, _ name: String) -> Expression {
      Expression(.member(Expression(.identifier(base)), name))
    }
    switch type {
    case .number:
      if chance(45) { return literal() }
      let names: [Expression] = [
        Expression(.identifier("a")), Expression(.identifier("b")), Expression(.identifier("time")),
        member("ball", "x"), member("ball", "angle"), member("pointer", "down"),
        member("pointer", "y"), member("drag", "dx"), member("p", "x"), member("q", "y"),
      ]
      return pick(names)
    case .point:
      if chance(25) { return Expression(.point(literal(), literal())) }
      return Expression(.identifier(pick(["ball", "p", "q"])))
    }
  }

  mutating func tree(_ type: CompiledExpression.ValueType, depth: Int) -> Expression {
    if depth >= 5 || chance(UInt64(10 + depth * 15)) { return leaf(type) }
    let d = depth + 1
    switch type {
    case .number:
      switch rng.next() % 8 {
      case 0:
        return Expression(.unary(pick([.negate, .plus, .not]), tree(.number, depth: d)))
      case 1, 2:
        let op = pick(Expression.BinaryOperator.allCases)
        return Expression(.binary(op, tree(.number, depth: d), tree(.number, depth: d)))
      case 3:
        return Expression(
          .conditional(tree(.number, depth: d), tree(.number, depth: d), tree(.number, depth: d)))
      case 4:
        return Expression(.member(tree(.point, depth: d), pick(["x", "y"])))
      case 5:
        let name = pick(["min", "max"])
        let count = 2 + Int(rng.next() % 3)
        return Expression(.call(name, (0..<count).map { _ in tree(.number, depth: d) }))
      case 6:
        let name = pick(["abs", "sqrt", "sin", "cos"])
        return Expression(.call(name, [tree(.number, depth: d)]))
      default:
        switch pick(["atan2", "hypot", "clamp", "lerp", "smoothstep", "distance"]) {
        case "distance":
          return Expression(.call("distance", [tree(.point, depth: d), tree(.point, depth: d)]))
        case let name where name == "atan2" || name == "hypot":
          return Expression(.call(name, [tree(.number, depth: d), tree(.number, depth: d)]))
        case let name:
          return Expression(.call(name, (0..<3).map { _ in tree(.number, depth: d) }))
        }
      }
    case .point:
      switch rng.next() % 7 {
      case 0: return Expression(.point(tree(.number, depth: d), tree(.number, depth: d)))
      case 1: return Expression(.unary(.negate, tree(.point, depth: d)))
      case 2:
        let op = pick([Expression.BinaryOperator.add, .subtract])
        return Expression(.binary(op, tree(.point, depth: d), tree(.point, depth: d)))
      case 3:
        let op = pick([Expression.BinaryOperator.multiply, .divide])
        return Expression(.binary(op, tree(.point, depth: d), tree(.number, depth: d)))
      case 4:
        return Expression(.binary(.multiply, tree(.number, depth: d), tree(.point, depth: d)))
      case 5:
        return Expression(
          .conditional(tree(.number, depth: d), tree(.point, depth: d), tree(.point, depth: d)))
      default:
        return Expression(
          .call("lerp", [tree(.point, depth: d), tree(.point, depth: d), tree(.number, depth: d)]))
      }
    }
  }
}

extension Expression {
  /// How many nodes the tree has, to tell whether compiling folded anything.
  fileprivate var nodeCount: Int {
    switch kind {
    case .number, .identifier: return 1
    case .point(let a, let b), .binary(_, let a, let b): return 1 + a.nodeCount + b.nodeCount
    case .member(let a, _), .unary(_, let a): return 1 + a.nodeCount
    case .conditional(let a, let b, let c): return 1 + a.nodeCount + b.nodeCount + c.nodeCount
    case .call(_, let arguments): return 1 + arguments.map(\.nodeCount).reduce(0, +)
    }
  }
}

/// ``ExpressionBatch``'s shared parts: what reads only frame-constant slots and calls a
/// function, held by two programs or more, is computed once.
@Suite struct SharedPartTests {
  static let texts = [
    "a + 2 * sin(time * 6)", "b - 2 * sin(time * 6)", "(a, 3 * sin(time * 4 + 0.5))",
    "p * cos(time) + (sin(time * 6), 1)", "2 * sin(time * 6)", "sin(time * 6) + a",
    "sqrt(width * width + height) + a", "sqrt(width * width + height)", "sin(a * time)",
    "sin(a * time) + 1", "cos(time) * b", "a + b", "time * 2 + sin(time * 2)",
    "3 * sin(time * 4 + 0.5) - a", "hypot(width, height) / 2", "sin(time * 6)",
  ]

  /// Four parts are shared, and one pass over every program calls 8 functions, not 16.
  ///
  /// The parts: `sin(time * 6)`, `sin(time * 4 + 0.5)`, `cos(time)` and
  /// `sqrt(width * width + height)`. The calls of programs reading `a`, and those no other
  /// program makes (`sin(time * 2)`, `hypot(…)`), stay where they are.
  @Test func eachPartHeldTwiceIsComputedOnce() throws {
    let programs = try Self.texts.map(compile)
    let whole = ExpressionBatch(programs)
    let shared = ExpressionBatch(
      programs, frameConstantSlots: 0..<3, firstFreeSlot: state.count)
    func calls(_ code: [CompiledExpression.Instruction]) -> Int {
      code.filter(\.callsAFunction).count
    }
    #expect(whole.sharedCount == 0 && calls(whole.code) == 16)
    #expect(shared.sharedCount == 4)
    #expect(calls(shared.code) == 4 && calls(shared.sharedCode) == 4)
    #expect(shared.slotCount == state.count + 4)
    // `sin(time * 6)` alone is now one load, answered without the machine.
    if case .load(let x, -1) = shared.shortcuts[15] {
      #expect(x == state.count)
    } else {
      Issue.record("program 15 is not one load: \(shared.shortcuts[15])")
    }
  }

  /// Every program gives the bits it gives alone, on seeded states (NaNs and infinities
  /// among them) whose shared slots are written first.
  @Test func sharedPartsGiveTheBitsOfTheWholePrograms() throws {
    let programs = try Self.texts.map(compile)
    let shared = ExpressionBatch(
      programs, frameConstantSlots: 0..<3, firstFreeSlot: state.count)
    var random = SeededGenerator(seed: 2026)
    let specials: [Double] = [.nan, .infinity, -.infinity, -0.0, 0, 1e300]
    for _ in 0..<500 {
      var values = state.map { _ in
        random.next() % 8 == 0
          ? specials[Int(random.next() % UInt64(specials.count))]
          : Double(Int64(bitPattern: random.next() % 2_000_001) - 1_000_000) / 1_000
      }
      values += Array(repeating: -1, count: shared.slotCount - values.count)
      values.withUnsafeMutableBufferPointer { shared.evaluateShared($0) }
      values.withUnsafeBufferPointer { buffer in
        for (k, program) in programs.enumerated() {
          let alone = program.evaluate(buffer)
          let batched = shared.evaluate(k, state: buffer)
          #expect(
            identical(alone.x, batched.x) && identical(alone.y, batched.y), "\(Self.texts[k])")
        }
      }
    }
  }
}

extension CompiledExpressionTests {
  /// Where code is not in the order written, the compiler's one array is rearranged.
  ///
  /// The compiler writes every subexpression into that array, operands first. The point of
  /// a number times a point moves before the number, and a constant condition leaves only
  /// its branch.
  @Test func compilingRearrangesItsOneArray() throws {
    #expect(
      try compile("(a + 1) * p").code == [
        .load(slot: 11), .load(slot: 12), .load(slot: 9), .addConstant(bits: (1.0).bitPattern),
        .scalePoint,
      ])
    #expect(try compile("b + (1 < 2 ? a : a * 2)").code == [.load(slot: 10), .addSlot(9)])
    #expect(
      try compile("b - (1 > 2 ? a : a * 2)").code == [
        .load(slot: 10), .loadTimesConstant(bits: (2.0).bitPattern, slot: 9), .subtract,
      ])
    #expect(
      try compile("(1 > 2 ? p : q) + (a, b)").code == [
        .load(slot: 13), .load(slot: 14), .load(slot: 9), .load(slot: 10), .addPoints,
      ])
    let nanBranch = try compile("2 * (a, 3) + (0 / 0 ? p : q)")
    #expect(
      nanBranch.code.prefix(4) == [.load(slot: 9), .constant(3), .constant(2), .scalePoint])
    #expect(nanBranch.code.count == 7 && nanBranch.code.last == .addPoints)
    let value = nanBranch.evaluate(state)
    #expect(value.x.isNaN && value.y.isNaN)
  }
}
