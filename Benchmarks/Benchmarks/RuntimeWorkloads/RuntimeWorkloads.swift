import CYAMLBench
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneStress

/// The runtime workloads the suite and `StressRun` share: the same scenes, set up the same
/// way, so a figure from one can be checked with the other under callgrind or perf.
public enum RuntimeWorkload: String, CaseIterable, Sendable {
  /// The stress scene (`scenec generate --handles N`) for 600 frames through `SceneRunner`.
  case stress
  /// Every handle follows its own cubic track and springs back along it.
  case follow
  /// Every handle is `elastic` and springs back to its rest in the plane.
  case spring
  /// Every handle is animated along its own cubic track, looping (for resolving: issue 15
  /// asks for 10,000 followed or animated paths in 50 ms).
  case animate

  /// The scene's YAML for `count` handles; with `gestures`, a follow or spring scene also
  /// has one gesture track per handle doing what ``grabAndReleaseAll(_:handles:)`` does
  /// (press, 0.05 s drag by (40, 10), release at 600 points/s), for runs driven by
  /// `SceneRunner` as `scenec run` drives them.
  public func yaml(handles count: Int, gestures: Bool = false) -> String {
    var text = body(handles: count)
    guard gestures, self == .follow || self == .spring else { return text }
    text += "gesture:\n"
    for i in 0..<count {
      let start = Self.start(ofHandle: i)
      text +=
        "  \(i): [{ press: [\(Int(start.x)), \(Int(start.y))] }, { drag: { by: [40, 10], over: 0.05s } }, { release: { velocity: [600, 0] } }]\n"
    }
    return text
  }

  private func body(handles count: Int) -> String {
    switch self {
    case .stress: return StressScene(handles: count).yaml
    case .follow:
      return Self.trackScene(handles: count) {
        "follow: { handle: h\($0), path: p\($0), spring: loose }"
      }
    case .spring:
      return Self.trackScene(handles: count) { "elastic: { handle: h\($0), return: loose }" }
    case .animate:
      return Self.trackScene(handles: count) {
        "animate: { handle: h\($0), path: p\($0), duration: \(2 + $0 % 7)s, repeat: loop }"
      }
    }
  }

  /// Where handle `i` of the follow and spring scenes starts.
  public static func start(ofHandle i: Int) -> Point {
    Point(Double(i % 40 * 100 + 50), Double(i / 40 * 100 + 50))
  }

  static func trackScene(handles count: Int, constraint: (Int) -> String) -> String {
    var yaml = """
      scene: { size: 4000x4000, fps: 60, duration: 10s }
      springs:
        loose: { dampingRatio: 0.2, duration: 1.5s }
      paths:

      """
    for i in 0..<count {
      let x = i % 40 * 100
      let y = i / 40 * 100
      yaml +=
        "  p\(i): { d: \"M\(x) \(y + 50) C \(x + 30) \(y - 20) \(x + 70) \(y + 120) \(x + 100) \(y + 50)\" }\n"
    }
    yaml += "handles:\n"
    for i in 0..<count {
      let start = start(ofHandle: i)
      yaml += "  h\(i): { position: [\(Int(start.x)), \(Int(start.y))], r: 10, draggable: true }\n"
    }
    yaml += "constraints:\n"
    for i in 0..<count {
      yaml += "  - \(constraint(i))\n"
    }
    return yaml
  }

  /// The scene graph of `text`, or a crash with the scene's diagnostics: a benchmark of a
  /// scene that does not load would measure nothing.
  public static func graph(of text: String) -> SceneGraph {
    let loaded = SceneLoader.load(SourceFile(name: "workload.yaml", text: text), syntax: .yaml)
    guard let spec = loaded.spec, !loaded.hasErrors, let graph = SceneResolver.resolve(spec).graph
    else {
      let files = loaded.file.map { [$0] } ?? []
      fatalError(
        "the benchmark scene does not load:\n\(DiagnosticRenderer(files: files).render(loaded.diagnostics))"
      )
    }
    return graph
  }

  /// Grabs every handle of a follow or spring scene through the pointer API, pulls it 40
  /// points right and 10 down, and lets go at 600 points/s: afterwards every handle springs.
  public static func grabAndReleaseAll(_ simulation: inout Simulation, handles count: Int) {
    for i in 0..<count {
      let handle = start(ofHandle: i)
      simulation.pointerDown(id: 0, at: handle)
      simulation.pointerMoved(id: 0, to: handle + Vector(40, 10))
      simulation.pointerUp(id: 0, velocity: Vector(600, 0))
    }
  }
}

/// libyaml's own event loop over `bytes`, counting events: the floor scenec's loading is
/// measured against (`LoadingBenchmarks`, `PeerFigures`).
public func rawEventCount(_ bytes: [UInt8]) -> Int {
  var parser = yaml_parser_t()
  guard yaml_parser_initialize(&parser) == 1 else { return -1 }
  defer { yaml_parser_delete(&parser) }
  var count = 0
  bytes.withUnsafeBufferPointer { buffer in
    yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
    var event = yaml_event_t()
    while yaml_parser_parse(&parser, &event) == 1 {
      let done = event.type == YAML_STREAM_END_EVENT
      yaml_event_delete(&event)
      count += 1
      if done { break }
    }
  }
  return count
}
