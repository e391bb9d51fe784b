import Foundation
import RuntimeWorkloads
import SceneDiagnostics
import SceneGeometry
import ScenePipeline
import SceneRuntime
import SceneStress
import SceneSyntax

/// scenec's side of `Peers/run`: the same inputs the Python peers get, measured here, as
/// one JSON object on standard output. Every time is the minimum over several passes.
///
/// - `arcLengthNs`, `lengths`: the geometry benchmark's 1,000 cubics (the same xorshift64*
///   stream and seed as `Peers/curves.py`), their arc lengths at the default 1e-9;
/// - `kurboCurveNs`, `kurboCurveAbsoluteNs`: kurbo's own arc-length benchmark cubic, at
///   1e-9 relative and at 1e-9 absolute (kurbo's accuracy is absolute);
/// - `measureUs`, `positionNs`, `wavyLength`: the geometry benchmark's 64-segment wavy
///   path (`Peers/curves.py` builds the same one), measured, then 1,000 positions at length;
/// - `springNs`: 1,000 and 10,000 elastic handles springing back after a flick, ns per handle
///   per frame (the `spring` runtime workload), against pymunk's damped springs;
/// - `yamlBytes`, `loadMs`, `rawLibyamlMs`: the 40,000-handle stress scene's YAML (written to
///   the path given as the first argument, for the peers) loaded to the AST, and the same bytes
///   through raw libyaml events.
@main
enum PeerFigures {
  struct XorShift64Star {
    var state: UInt64

    mutating func next() -> UInt64 {
      state ^= state >> 12
      state ^= state << 25
      state ^= state >> 27
      return state &* 0x2545_F491_4F6C_DD1D
    }

    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    mutating func uniform() -> Double { -200 + 400 * unit() }
    mutating func point() -> Point { Point(uniform(), uniform()) }
  }

  static func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
  }

  /// The least time `work` took over `passes` runs, in nanoseconds.
  static func fastest(_ passes: Int, _ work: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<passes {
      let start = ContinuousClock.now
      try work()
      best = min(best, nanoseconds(ContinuousClock.now - start))
    }
    return best
  }

  static func main() throws {
    var random = XorShift64Star(state: 0x5CE0_EC0D_E5EE_D001)
    var cubics: [CubicBezier] = []
    for _ in 0..<1_000 {
      cubics.append(CubicBezier(random.point(), random.point(), random.point(), random.point()))
      _ = random.point()  // The query point.
      _ = random.next()  // The target length.
    }
    var lengths: [Double] = []
    let arcLength = fastest(20) { lengths = cubics.map(\.arcLength) } / Double(cubics.count)

    // kurbo's own arc-length benchmark curve (`benches/cubic_arclen.rs`), at the default
    // 1e-9 relative and at kurbo's absolute 1e-9 (relative 1e-9 / length).
    let kurboCurve = CubicBezier(Point(0, 0), Point(1.0 / 3, 0), Point(2.0 / 3, 1), Point(1, 1))
    let kurboLength = kurboCurve.arcLength
    var kurboSink = 0.0
    let kurboCurveNs =
      fastest(20) { for _ in 0..<10_000 { kurboSink += kurboCurve.arcLength } } / 10_000
    let kurboAbsoluteNs =
      fastest(20) {
        for _ in 0..<10_000 {
          kurboSink += kurboCurve.arcLength(accuracy: 1e-9 / kurboLength)
        }
      } / 10_000

    let path = WavyPath.makePath()
    var measured = MeasuredPath(path)
    let measure = fastest(200) { measured = MeasuredPath(path) } / 1_000
    var targets = XorShift64Star(state: 0x1E46_7415_0000_0003)
    let queries = (0..<1_000).map { _ in targets.unit() * measured.length }
    var sink = 0.0
    let position =
      fastest(20) { for s in queries { sink += measured.position(atLength: s).point.x } }
      / Double(queries.count)

    // Stepping only: the set-up of each pass is outside the clock.
    var spring: [Double] = []
    for count in [1_000, 10_000] {
      let graph = RuntimeWorkload.graph(of: RuntimeWorkload.spring.yaml(handles: count))
      var best = Double.infinity
      for _ in 0..<5 {
        var simulation = try Simulation(graph: graph)
        RuntimeWorkload.grabAndReleaseAll(&simulation, handles: count)
        let start = ContinuousClock.now
        for frame in 1...60 { sink += try simulation.step(to: Double(frame) / 60).time }
        best = min(best, nanoseconds(ContinuousClock.now - start))
      }
      spring.append(best / Double(count * 60))
    }

    let yaml = StressScene(handles: 40_000).yaml
    let bytes = Array(yaml.utf8)
    if CommandLine.arguments.count > 1 {
      let file = fopen(CommandLine.arguments[1], "wb")
      _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
      fclose(file)
    }
    var events = 0
    let raw = fastest(5) { events = rawEventCount(bytes) } / 1e6
    let load =
      fastest(5) {
        let loaded = SceneLoader.load(SourceFile(name: "stress.yaml", text: yaml), syntax: .yaml)
        precondition(loaded.spec != nil)
      } / 1e6
    precondition(events > 0 && sink.isFinite && kurboSink.isFinite)

    let list = lengths.map { "\($0)" }.joined(separator: ",")
    print(
      """
      {"arcLengthNs":\(arcLength),"kurboCurveNs":\(kurboCurveNs),\
      "kurboCurveAbsoluteNs":\(kurboAbsoluteNs),"lengths":[\(list)],"measureUs":\(measure),\
      "positionNs":\(position),"wavyLength":\(measured.length),\
      "springNs":{"1000":\(spring[0]),"10000":\(spring[1])},"yamlBytes":\(bytes.count),\
      "loadMs":\(load),"rawLibyamlMs":\(raw)}
      """)
  }
}
