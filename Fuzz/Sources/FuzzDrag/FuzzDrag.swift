import FuzzSupport
import SceneDiagnostics
import ScenePipeline
import SceneSyntax
import SceneTesting

/// `drag` settings and window expectations, where the other targets rarely reach.
///
/// The first byte picks the mode. Even: the rest is a YAML scene (seeded from the drag
/// scenes), run as `scenec test` runs it, expectations and all. Odd: the rest chooses the
/// settings of a drag scene written here: numbers from a palette of extremes (zero,
/// subnormals, 1e308, NaN-making expressions such as `1/0`), huge grids, up to thousands
/// of snap points, bounds crossed or absent, every momentum form, paging, and window
/// expectations at, past and before the end. Whatever the input, nothing may crash or
/// hang, and every frame must hold finite numbers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDrag(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = FuzzSupport.bytes(start, count)
  guard let first = bytes.first else { return 0 }
  let text: String
  if first & 1 == 0 {
    text = String(decoding: bytes.dropFirst(), as: UTF8.self)
  } else {
    var reader = Reader(bytes: Array(bytes.dropFirst()))
    text = DragScene.text(&reader)
  }
  let read = SceneLoader.load(
    SourceFile(name: "fuzz.yaml", text: text), syntax: .yaml)
  let loaded = ScenePipeline.resolve(read, sceneFile: "/nonexistent/fuzz.yaml")
  _ = loaded.rendered()
  guard loaded.graph != nil else { return 0 }
  if case .success(let run) = SceneTest.run(loaded, fps: 60) {
    // Frames are JSON text: a non-finite number would be written as one, never silently.
    precondition(!run.frames.contains("nan") && !run.frames.contains("inf"), "a non-finite frame")
  }
  return 0
}

/// Bytes read as choices; past the end, every choice is the first.
struct Reader {
  let bytes: [UInt8]
  var index = 0

  mutating func byte() -> Int {
    defer { index += 1 }
    return index < bytes.count ? Int(bytes[index]) : 0
  }

  mutating func pick<T>(_ options: [T]) -> T { options[byte() % options.count] }

  mutating func chance(_ percent: Int) -> Bool { byte() % 100 < percent }
}

enum DragScene {
  /// Numbers that break things: zero, signs, tiny and huge, and expressions that are NaN
  /// or infinite.
  static let numbers = [
    "0", "-0", "1", "-1", "0.5", "10", "-10", "100", "300", "-300", "1e-300", "5e-324", "1e9",
    "-1e9", "1e300", "1e308", "-1e308", "3600", "123.456", "1/0", "-1/0", "0/0", "sqrt(-1)",
    "h.x", "h.y", "width", "time * 1e300",
  ]
  static let times = ["0s", "0.1s", "0.5s", "1s", "2s", "10s", "3600s", "1ms", "0", "1e-9s"]

  static func number(_ reader: inout Reader) -> String { reader.pick(numbers) }

  static func text(_ reader: inout Reader) -> String {
    var settings: [String] = ["handle: h"]
    if reader.chance(40) { settings.append("axis: " + reader.pick(["x", "y"])) }
    if reader.chance(20) { settings.append("lock: true") }
    if reader.chance(60) {
      var bounds: [String] = []
      for key in ["minX", "maxX", "minY", "maxY"] where reader.chance(60) {
        bounds.append("\(key): \(number(&reader))")
      }
      settings.append("bounds: { \(bounds.joined(separator: ", ")) }")
    }
    if reader.chance(40) {
      settings.append(
        reader.pick([
          "overdrag: { factor: \(number(&reader)) }",
          "overdrag: { rubberband: \(number(&reader)), dimension: \(number(&reader)) }",
          "overdrag: none",
        ]))
    }
    if reader.chance(70) {
      settings.append(
        reader.pick([
          "momentum: none", "momentum: normal", "momentum: fast",
          "momentum: { rate: \(number(&reader)) }",
          "momentum: { power: \(number(&reader)), timeConstant: \(reader.pick(times)) }",
        ]))
    }
    if reader.chance(60) {
      // Up to thousands of targets, named apart.
      let count = reader.pick([1, 2, 3, 10, 100, 2_000])
      let base = (number(&reader), number(&reader))
      let points = (0..<count).map { k in "p\(k): [\(base.0) + \(k), \(base.1) - \(k)]" }
      settings.append("snap: { \(points.joined(separator: ", ")) }")
    }
    if reader.chance(40) { settings.append("grid: [\(number(&reader)), \(number(&reader))]") }
    if reader.chance(30) { settings.append("paging: true") }
    if reader.chance(50) { settings.append("spring: s") }
    if reader.chance(50) { settings.append("bounce: s") }
    var steps = ["press: h"]
    for _ in 0..<(reader.byte() % 4) {
      steps.append(
        reader.pick([
          "drag: { by: [\(number(&reader)), \(number(&reader))], over: \(reader.pick(times)) }",
          "move: { to: [\(number(&reader)), \(number(&reader))] }",
          "hold: \(reader.pick(times))",
        ]))
    }
    steps.append(
      reader.pick([
        "release", "release: { velocity: [\(number(&reader)), \(number(&reader))] }",
        "fling: { by: [\(number(&reader)), \(number(&reader))], over: \(reader.pick(times)) }",
      ]))
    var expectations: [String] = []
    for _ in 0..<(reader.byte() % 6) {
      let window = "\(reader.pick(times))..\(reader.pick(times + ["end"]))"
      expectations.append(
        reader.pick([
          "always h.x < \(number(&reader)) during \(window)",
          "never h.y > \(number(&reader)) ± \(number(&reader)) during \(window)",
          "max h.speed during \(window) < \(number(&reader))",
          "min h.x during \(window) > \(number(&reader))",
          "at \(reader.pick(times)): h.x ≈ \(number(&reader))",
          "event snap of h after \(reader.pick(times))",
          "at end: all at rest",
        ]))
    }
    let duration = reader.pick(["1s", "2s", "until-rest"])
    return """
      scene: { size: 400x600, fps: 60, duration: \(duration), maxDuration: 3s }
      springs:
        s: { dampingRatio: \(number(&reader)), duration: \(reader.pick(times)) }
      handles:
        h: { position: [\(number(&reader)), \(number(&reader))], r: 10, draggable: true }
      constraints:
        - drag: { \(settings.joined(separator: ", ")) }
      gesture:
      \(steps.map { "  - " + $0 }.joined(separator: "\n"))
      expect:
      \(expectations.map { "  - \"" + $0 + "\"" }.joined(separator: "\n"))

      """
  }
}

@_cdecl("FuzzDrag_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  fuzzerMain(argc, argv, fuzzDrag)
}
