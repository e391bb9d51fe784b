/// Where each value an expression can read lives in the runtime's flat state.
///
/// The built-ins come first at fixed slots; then two slots per `let` (a number uses the
/// first), then three per handle (x, y, angle). Names are resolved to these indices
/// once, so evaluating an expression never looks anything up by name.
public struct SlotLayout: Hashable, Sendable {
  public static let width = 0
  public static let height = 1
  public static let time = 2
  public static let frame = 3
  public static let pointerX = 4
  public static let pointerY = 5
  public static let pointerDown = 6
  public static let dragX = 7
  public static let dragY = 8
  public static let velocityX = 9
  public static let velocityY = 10
  /// `pointers.count`: how many fingers are down.
  public static let pointersCount = 11
  /// How many fingers expressions can read one by one (`pointers[0]` to `pointers[9]`).
  public static let readablePointers = 10
  /// `pointers[k].x`, `.y`, `.down`, `.id`: four slots from here for each k.
  public static func pointerSlot(_ k: Int) -> Int { 12 + 4 * k }
  public static let pinchScale = 52
  public static let pinchRotation = 53
  public static let pinchCenterX = 54
  public static let pinchCenterY = 55
  public static let pinchActive = 56
  public static let pinchStartX = 57
  public static let pinchStartY = 58
  public static let builtinCount = 59

  public let letCount: Int
  public let handleCount: Int
  /// How many inputs, and how many slots the state machines take (one for each machine's
  /// state number, then one per state: 1 while in it).
  public let inputCount: Int
  public let machineSlotCount: Int

  public init(letCount: Int, handleCount: Int, inputCount: Int = 0, machineSlotCount: Int = 0) {
    self.letCount = letCount
    self.handleCount = handleCount
    self.inputCount = inputCount
    self.machineSlotCount = machineSlotCount
  }

  /// The first of the two slots of let `index` (in declaration order).
  public func letSlot(_ index: Int) -> Int { Self.builtinCount + 2 * index }
  /// The x slot of handle `index`; y and angle follow it.
  public func handleSlot(_ index: Int) -> Int { Self.builtinCount + 2 * letCount + 3 * index }
  /// The slot of input `index`, after the handles'.
  public func inputSlot(_ index: Int) -> Int {
    Self.builtinCount + 2 * letCount + 3 * handleCount + index
  }
  /// The first slot of the machines', after the inputs'.
  public var firstMachineSlot: Int { inputSlot(inputCount) }
  /// How many slots the state has.
  public var count: Int { firstMachineSlot + machineSlotCount }

  /// What each built-in name an expression reads stands for (`width`, `time`, `pointer.x`,
  /// …): the one table of built-ins, for the compiler and for the names a scene may not
  /// take.
  public static let builtinSymbols: [String: Symbol] = [
    "width": .number(slot: SlotLayout.width), "height": .number(slot: SlotLayout.height),
    "time": .number(slot: SlotLayout.time), "frame": .number(slot: SlotLayout.frame),
    "pointer": .object(
      members: [
        "x": .number(slot: SlotLayout.pointerX), "y": .number(slot: SlotLayout.pointerY),
        "down": .number(slot: SlotLayout.pointerDown),
      ], value: nil),
    "drag": .object(
      members: ["dx": .number(slot: SlotLayout.dragX), "dy": .number(slot: SlotLayout.dragY)],
      value: nil),
    "velocity": .object(
      members: [
        "x": .number(slot: SlotLayout.velocityX), "y": .number(slot: SlotLayout.velocityY),
      ],
      value: nil),
    "pointers": .object(members: pointersMembers, value: nil),
    "pinch": .object(
      members: [
        "scale": .number(slot: SlotLayout.pinchScale),
        "rotation": .number(slot: SlotLayout.pinchRotation),
        "center": .point(x: SlotLayout.pinchCenterX, y: SlotLayout.pinchCenterY),
        "active": .number(slot: SlotLayout.pinchActive),
        "start": .point(x: SlotLayout.pinchStartX, y: SlotLayout.pinchStartY),
      ], value: nil),
  ]

  /// `count`, and `0` … `9` (written `pointers[0]`), each with `x`, `y`, `down` and `id`
  /// and the point `(x, y)` as its value.
  static var pointersMembers: [String: Symbol] {
    var members: [String: Symbol] = ["count": .number(slot: SlotLayout.pointersCount)]
    for k in 0..<readablePointers {
      let slot = pointerSlot(k)
      members[String(k)] = .object(
        members: [
          "x": .number(slot: slot), "y": .number(slot: slot + 1),
          "down": .number(slot: slot + 2), "id": .number(slot: slot + 3),
        ], value: .point(x: slot, y: slot + 1))
    }
    return members
  }
}
