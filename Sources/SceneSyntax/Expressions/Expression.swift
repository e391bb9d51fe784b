import SceneDiagnostics

/// An expression of the scene language, as parsed: `min(pull * 0.6, 100)`,
/// `(pointer.x, baseY + waveHeight)`, `90deg`.
///
/// Both front ends parse expression text with the same ``ExpressionParser``. Numbers keep
/// the unit they were written with, so formatting prints `0.9s` back, not `0.9`; the
/// resolver converts to base units (seconds, radians).
public struct Expression: Hashable, Sendable {
  public indirect enum Kind: Hashable, Sendable {
    /// A number as written, with its unit if any.
    case number(Double, Unit?)
    /// A point or vector `(x, y)`.
    case point(Expression, Expression)
    /// A name: a `let`, a handle, or a built-in such as `width`, `time`, `pointer`.
    case identifier(String)
    /// A member of a value: `ball.x`, `pointer.down`, `drag.dy`.
    case member(Expression, String)
    case unary(UnaryOperator, Expression)
    case binary(BinaryOperator, Expression, Expression)
    /// `condition ? then : else`.
    case conditional(Expression, Expression, Expression)
    /// A call of a built-in function: `clamp(x, 0, 1)`.
    case call(String, [Expression])
  }

  public enum Unit: String, Hashable, Sendable, CaseIterable {
    case seconds = "s"
    case milliseconds = "ms"
    case degrees = "deg"
    case radians = "rad"
  }

  public enum UnaryOperator: String, Hashable, Sendable {
    case negate = "-"
    case plus = "+"
    case not = "!"
  }

  public enum BinaryOperator: String, Hashable, Sendable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case equal = "=="
    case notEqual = "!="
    case and = "&&"
    case or = "||"

    /// Binding strength: higher binds tighter.
    public var precedence: Int {
      switch self {
      case .or: return 1
      case .and: return 2
      case .equal, .notEqual: return 3
      case .less, .lessOrEqual, .greater, .greaterOrEqual: return 4
      case .add, .subtract: return 5
      case .multiply, .divide, .remainder: return 6
      }
    }
  }

  public var kind: Kind
  public var source: SourceRef

  public init(_ kind: Kind, at source: SourceRef = .synthesized) {
    self.kind = kind
    self.source = source
  }

  /// The built-in functions and how many arguments each takes.
  public static let functions: [String: ClosedRange<Int>] = [
    "min": 2...8, "max": 2...8, "clamp": 3...3, "abs": 1...1, "sqrt": 1...1, "sin": 1...1,
    "cos": 1...1, "atan2": 2...2, "hypot": 2...2, "lerp": 3...3, "smoothstep": 3...3,
    "distance": 2...2, "round": 1...1, "floor": 1...1, "ceil": 1...1,
  ]
}
