import SceneGeometry

extension Expression {
  /// The canonical text of the expression, which ``ExpressionParser`` reads back as an
  /// equal expression.
  ///
  /// Parentheses appear only where precedence or left-associativity needs them
  /// (`a - (b - c)`, but `a - b - c`); binary operators have a space on each side, points
  /// and argument lists separate with `, `, unary operators are glued (`-x`), and numbers
  /// print in their shortest exact form followed by their unit (`0.9s`, `1e-05`).
  ///
  /// The parser never makes a negative number (it reads `-1` as a negation of `1`), so a
  /// negative `.number` prints as `-1` but reads back as that negation.
  public var text: String {
    var text = ""
    write(to: &text)
    return text
  }
}

extension Expression {
  /// How tightly the printed form binds: 0 for a conditional, the operator's precedence
  /// (1 to 6) for a binary, 7 for a unary and 8 for everything else.
  private var printingPrecedence: Int {
    switch kind {
    case .conditional: return 0
    case .binary(let op, _, _): return op.precedence
    case .unary: return 7
    case .number, .point, .identifier, .member, .call: return 8
    }
  }

  private func write(to text: inout String, parenthesised: Bool) {
    if parenthesised { text += "(" }
    write(to: &text)
    if parenthesised { text += ")" }
  }

  private func write(to text: inout String) {
    switch kind {
    case .number(let value, let unit):
      text += value.shortestDescription
      text += unit?.rawValue ?? ""
    case .point(let x, let y):
      text += "("
      x.write(to: &text)
      text += ", "
      y.write(to: &text)
      text += ")"
    case .identifier(let name):
      text += name
    case .member(let base, let name):
      base.write(to: &text, parenthesised: base.printingPrecedence < 8)
      // An index (`pointers[1]`) is a member named by its digits.
      if let first = name.unicodeScalars.first, ("0"..."9").contains(first) {
        text += "[" + name + "]"
      } else {
        text += "."
        text += name
      }
    case .unary(let op, let operand):
      text += op.rawValue
      operand.write(to: &text, parenthesised: operand.printingPrecedence < 7)
    case .binary(let op, let lhs, let rhs):
      // Left-associative: an equal-precedence operand needs parentheses on the right only.
      lhs.write(to: &text, parenthesised: lhs.printingPrecedence < op.precedence)
      text += " \(op.rawValue) "
      rhs.write(to: &text, parenthesised: rhs.printingPrecedence <= op.precedence)
    case .conditional(let condition, let then, let otherwise):
      // The condition is an `or`; the branches are whole expressions.
      condition.write(to: &text, parenthesised: condition.printingPrecedence < 1)
      text += " ? "
      then.write(to: &text)
      text += " : "
      otherwise.write(to: &text)
    case .call(let name, let arguments):
      text += name
      text += "("
      for (index, argument) in arguments.enumerated() {
        if index > 0 { text += ", " }
        argument.write(to: &text)
      }
      text += ")"
    }
  }
}
