import SceneGraph

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
