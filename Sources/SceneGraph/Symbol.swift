/// What a name in an expression stands for: a number or a point in the runtime's state,
/// or an object with members such as `pointer` or a handle.
///
/// Slots index the flat `[Double]` state the runtime owns and rewrites every frame; a
/// compiled expression reads them and nothing else.
public enum Symbol: Hashable, Sendable {
  /// A number stored at `slot`: `time`, `width`, a `let` holding a number.
  case number(slot: Int)
  /// A point stored in two slots: a `let` holding a point.
  case point(x: Int, y: Int)
  /// A name with members, and optionally a value of its own.
  ///
  /// `ball` has members `x`, `y` and `angle`, and `ball` alone is its position; `pointer`
  /// has `x`, `y` and `down` but no value, so it can only be used through a member.
  ///
  /// The only case boxed: numbers and points are stored inline, so the thousands of
  /// handle members a big scene has cost no allocation each.
  indirect case object(members: [String: Symbol], value: Symbol?)
  /// A handle whose `x`, `y` and `angle` are at `slot` and the two slots after it, and
  /// whose value is its position: the object ``handleMembers(slot:)`` spells out.
  ///
  /// A case of its own so that naming the thousands of handles of a big scene builds no
  /// table of members for each.
  case handle(slot: Int)

  /// The members of the handle at `slot`.
  public static func handleMembers(slot: Int) -> [String: Symbol] {
    ["x": .number(slot: slot), "y": .number(slot: slot + 1), "angle": .number(slot: slot + 2)]
  }

  /// This symbol with a handle spelt out as the object it stands for.
  public var expanded: Symbol {
    guard case .handle(let slot) = self else { return self }
    return .object(
      members: Self.handleMembers(slot: slot), value: .point(x: slot, y: slot + 1))
  }
}
