/// What a name in an expression stands for: a number or a point in the runtime's state,
/// or an object with members such as `pointer` or a handle.
///
/// Slots index the flat `[Double]` state the runtime owns and rewrites every frame; a
/// compiled expression reads them and nothing else.
public indirect enum Symbol: Hashable, Sendable {
  /// A number stored at `slot`: `time`, `width`, a `let` holding a number.
  case number(slot: Int)
  /// A point stored in two slots: a `let` holding a point.
  case point(x: Int, y: Int)
  /// A name with members, and optionally a value of its own.
  ///
  /// `ball` has members `x`, `y` and `angle`, and `ball` alone is its position; `pointer`
  /// has `x`, `y` and `down` but no value, so it can only be used through a member.
  case object(members: [String: Symbol], value: Symbol?)
}

/// The names an expression may read, as the resolver supplies them to
/// ``ExpressionCompiler``.
///
/// The lookup is a function rather than a dictionary so that the resolver can answer
/// from whatever tables it already has; `names` lists every name it knows, and only
/// serves to suggest one when a name is misspelt.
public struct SymbolTable {
  /// The symbol a name stands for, or `nil` for an unknown name.
  public let lookup: (String) -> Symbol?
  /// Every known name, in the order suggestions should prefer them on a tie; worked out
  /// only when asked (for a suggestion), since a big scene has thousands of names.
  public var names: [String] { namesProvider() }
  private let namesProvider: () -> [String]

  public init(lookup: @escaping (String) -> Symbol?, names: [String]) {
    self.lookup = lookup
    self.namesProvider = { names }
  }

  /// A table of exactly `symbols`; suggestions prefer names in alphabetical order.
  public init(_ symbols: [String: Symbol]) {
    self.lookup = { symbols[$0] }
    self.namesProvider = { symbols.keys.sorted() }
  }

  /// A table with no names, for expressions that may read nothing.
  public static var empty: SymbolTable { SymbolTable([:]) }
}
