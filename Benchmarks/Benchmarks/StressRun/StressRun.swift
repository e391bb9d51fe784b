import Foundation
import RuntimeWorkloads
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneStress
import SceneSyntax
import SceneYAML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runtime workloads stepped by a plain process, outside package-benchmark's harness, so
/// they can run under `valgrind --tool=callgrind` or `perf` and be compared between commits
/// by instruction count as well as by time. Run from `Benchmarks/`:
///
///     swift run -c release StressRun 1000 5            # the stress scene: handles, runs
///     swift run -c release StressRun follow 10000 5    # follow + spring: 60 frames a run
///     swift run -c release StressRun spring 10000 5    # elastic springs: 60 frames a run
///     swift run -c release StressRun spring 10000 1 120  # the same, 120 frames
///     swift run -c release StressRun load 40000 3      # the 5.2 MB stress YAML: load + resolve
///     swift run -c release StressRun syntaxes 40000 3  # the same scene as YAML and as DSL
///     swift run -c release StressRun phases 40000 3    # reading, decoding, resolving apart
///     swift run -c release StressRun parse 20000       # one of its expressions, parsed N times
///     swift run -c release StressRun measure 1000      # measure the 64-segment wavy path
///     swift run -c release StressRun longpath 350000   # check a follow path of N segments: memory
///     swift run -c release StressRun encode 10000 120 5  # springs: step, run, JSON lines apart
///     swift run -c release StressRun encode stress 1000 5  # the stress scene: run, JSON lines apart
///     swift run -c release StressRun arclength CUBICS [LENGTHS]  # arc lengths of cubics in a file
///     swift run -c release StressRun resolve follow 10000 5  # load once, resolve 5 times
///     swift run -c release StressRun resolve animate 10000 5 # the same, animated handles
///     valgrind --tool=callgrind .build/release/StressRun 1000 1
@main
enum StressRun {
  static func main() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "load" {
      try load(arguments.dropFirst().compactMap { Int($0) })
      return
    }
    if arguments.first == "longpath" {
      longPath(arguments.dropFirst().compactMap { Int($0) }.first ?? 350_000)
      return
    }
    if arguments.first == "parse" {
      parse(arguments.dropFirst().compactMap { Int($0) }.first ?? 20_000)
      return
    }
    if arguments.first == "phases" {
      try phases(arguments.dropFirst().compactMap { Int($0) })
      return
    }
    if arguments.first == "syntaxes" {
      try syntaxes(arguments.dropFirst().compactMap { Int($0) })
      return
    }
    if arguments.first == "resolve" {
      let workload = arguments.dropFirst().first.flatMap(RuntimeWorkload.init(rawValue:)) ?? .follow
      let numbers = arguments.compactMap { Int($0) }
      try resolve(
        workload, handles: numbers.first ?? 10_000, repetitions: numbers.dropFirst().first ?? 5)
      return
    }
    if arguments.first == "encode", arguments.dropFirst().first == "stress" {
      try encodeStress(arguments.dropFirst(2).compactMap { Int($0) })
      return
    }
    if arguments.first == "encode" {
      try encode(arguments.dropFirst().compactMap { Int($0) })
      return
    }
    if arguments.first == "arclength", arguments.count > 1 {
      try arcLengths(of: arguments[1], against: arguments.count > 2 ? arguments[2] : nil)
      return
    }
    if arguments.first == "numbers" {
      numbers(arguments.dropFirst().compactMap { Int($0) }.first ?? 1_000_000)
      return
    }
    if arguments.first == "runner" {
      let numbers = arguments.dropFirst().compactMap { Int($0) }
      try runnerOnly(handles: numbers.first ?? 10_000, frames: numbers.dropFirst().first ?? 600)
      return
    }
    if arguments.first == "measure" {
      measure(arguments.dropFirst().compactMap { Int($0) }.first ?? 1_000)
      return
    }
    let workload = arguments.first.flatMap(RuntimeWorkload.init(rawValue:)) ?? .stress
    if RuntimeWorkload(rawValue: arguments.first ?? "") != nil { arguments.removeFirst() }
    let numbers = arguments.compactMap { Int($0) }
    let count = numbers.first ?? 1_000
    let repetitions = numbers.dropFirst().first ?? 1
    // Frames per run of the follow and spring workloads (the stress scene runs its 601).
    let frames = max(1, numbers.dropFirst(2).first ?? 60)
    let text = workload.yaml(handles: count)
    let loadStart = ContinuousClock.now
    let graph = RuntimeWorkload.graph(of: text)
    let loaded = ContinuousClock.now - loadStart
    var handleFrames = 0
    var elapsed = Duration.zero
    var made = Duration.zero
    var setUp = Duration.zero
    for _ in 0..<repetitions {
      if workload == .stress {
        let start = ContinuousClock.now
        var runner = try SceneRunner(graph: graph)
        while let frame = try runner.nextFrame() { handleFrames += frame.handles.count }
        elapsed += ContinuousClock.now - start
      } else {
        let setUpStart = ContinuousClock.now
        var simulation = try Simulation(graph: graph)
        made += ContinuousClock.now - setUpStart
        let grabStart = ContinuousClock.now
        RuntimeWorkload.grabAndReleaseAll(&simulation, handles: count)
        setUp += ContinuousClock.now - grabStart
        let start = ContinuousClock.now
        for frame in 1...frames {
          handleFrames += try simulation.step(to: Double(frame) / 60).handles.count
        }
        elapsed += ContinuousClock.now - start
      }
    }
    let perHandleFrame = (nanoseconds(elapsed) / Double(max(handleFrames, 1)) * 10).rounded() / 10
    print(
      "\(workload) \(count) handles × \(repetitions) runs: \(elapsed), \(perHandleFrame) ns per handle per frame"
    )
    print("  load and resolve \(loaded)")
    if workload != .stress {
      print("  make the simulation: \(made / max(repetitions, 1)) per run")
      print("  grab and release every handle: \(setUp / max(repetitions, 1)) per run")
    }
  }

  /// `StressRun load N reps`: the stress scene of N handles as YAML, loaded to its AST and
  /// resolved `reps` times (the loading workload, for callgrind).
  static func load(_ numbers: [Int]) throws {
    let count = numbers.first ?? 40_000
    let repetitions = numbers.dropFirst().first ?? 1
    let text = StressScene(handles: count).yaml
    var elapsed = Duration.zero
    var processor = 0.0
    for _ in 0..<repetitions {
      let start = ContinuousClock.now
      let startProcessor = processorSeconds()
      let loaded = SceneLoader.load(SourceFile(name: "stress.yaml", text: text), syntax: .yaml)
      guard let spec = loaded.spec, SceneResolver.resolve(spec, parallel: .allCores).graph != nil
      else {
        fatalError("the stress scene does not load")
      }
      elapsed += ContinuousClock.now - start
      processor += processorSeconds() - startProcessor
    }
    let runs = Double(max(repetitions, 1))
    print(
      "load \(count) handles (\(text.utf8.count) bytes) × \(repetitions) runs: \(elapsed / max(repetitions, 1)) per run; "
        + "processor time (every thread): \(processor / runs * 1000) ms per run"
    )
  }

  /// The processor time used so far, in seconds: by the whole process (every thread), or
  /// with `CLOCK_THREAD_CPUTIME_ID` by the calling thread alone.
  static func processorSeconds(_ clock: clockid_t = CLOCK_PROCESS_CPUTIME_ID) -> Double {
    var now = timespec()
    clock_gettime(clock, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// `StressRun parse N`: the longest expression of the stress scene parsed N times (for
  /// callgrind: the difference of two counts is N parses).
  /// Loads and resolves (what `scenec check` does) a scene whose one `follow` track has
  /// `count` cubic segments, and prints the memory it took per segment.
  static func longPath(_ count: Int) {
    var data = "M0 0"
    data.reserveCapacity(count * 16)
    for i in 0..<count { data += "c3 \(5 + i % 7) 7 \(-5 - i % 5) 10 0" }
    let text = """
      scene: { name: Long, size: 400x300, duration: 1s }
      paths:
        track: { d: "\(data)" }
      handles:
        ball: { position: [0, 0], shape: circle, r: 5, draggable: true }
      constraints:
        - follow: { handle: ball, path: track }

      """
    let before = residentKB()
    let started = ContinuousClock.now
    let loaded = SceneLoader.load(SourceFile(name: "long.yaml", text: text), syntax: .yaml)
    guard let spec = loaded.spec else {
      print("the scene did not load")
      return
    }
    let resolved = SceneResolver.resolve(spec)
    let elapsed = ContinuousClock.now - started
    let peak = peakKB()
    withExtendedLifetime(resolved) {}
    print(
      "\(count) segments (\(text.utf8.count) bytes): load + resolve \(elapsed), "
        + "peak resident \(peak / 1024) MB, \((peak - before) * 1024 / count) bytes a segment above "
        + "the \(before / 1024) MB before; table: \(resolved.graph?.paths.first?.measured?.isPreparedForRepeatedPositions == true ? "yes" : "none")"
    )
  }

  /// The process's resident memory now, and at its peak, in KB.
  static func residentKB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = Int(status.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
  }

  static func peakKB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss)
  }

  static func parse(_ repetitions: Int) {
    let text = "(15 + sway, 105 + pull * 0.3 + 2 * sin(time * 6 + 0))"
    let origin = SourceSpan(SourceLocation(file: "stress.yaml", line: 1, column: 1))
    var nodes = 0
    let start = ContinuousClock.now
    for _ in 0..<repetitions {
      guard let parsed = try? ExpressionParser.parse(text, at: origin, verbatim: true) else {
        fatalError("the expression does not parse")
      }
      if case .point = parsed.kind { nodes += 1 }
    }
    let elapsed = ContinuousClock.now - start
    print(
      "parse \(text) × \(repetitions): \(nanoseconds(elapsed) / Double(max(repetitions, 1))) ns each"
        + (nodes == repetitions ? "" : " (?)"))
  }

  /// `StressRun phases N reps`: the stress scene of N handles as YAML, read to its document
  /// tree, decoded to its AST and resolved, each phase timed apart (fastest of `reps`).
  static func phases(_ numbers: [Int]) throws {
    let count = numbers.first ?? 40_000
    let repetitions = max(numbers.dropFirst().first ?? 3, 1)
    let file = SourceFile(name: "stress.yaml", text: StressScene(handles: count).yaml)
    var fastest = [Duration](repeating: .seconds(1_000), count: 5)
    var readerBusy = 1e9
    for _ in 0..<repetitions {
      var start = ContinuousClock.now
      func lap(_ phase: Int) {
        let now = ContinuousClock.now
        fastest[phase] = min(fastest[phase], now - start)
        start = now
      }
      // The reader builds the tree on this thread while libyaml parses on another.
      let readerStart = processorSeconds(CLOCK_THREAD_CPUTIME_ID)
      var document = try YAMLReader.read(file)
      readerBusy = min(readerBusy, processorSeconds(CLOCK_THREAD_CPUTIME_ID) - readerStart)
      lap(0)
      guard let tree = document else { fatalError("no document") }
      var decoded: SceneDecoder.Result? = SceneDecoder.decode(
        tree, keysAreUnique: true, parallel: .allCores)
      lap(1)
      document = nil
      _ = consume tree
      lap(2)
      guard let spec = decoded?.spec else { fatalError("no spec") }
      var graph = SceneResolver.resolve(spec, parallel: .allCores).graph
      guard graph != nil else { fatalError("the stress scene does not resolve") }
      lap(3)
      decoded = nil
      graph = nil
      _ = consume spec
      lap(4)
    }
    let names = ["read", "decode", "free the tree", "resolve", "free the AST and graph"]
    print(
      "\(count) handles, fastest of \(repetitions): "
        + zip(names, fastest).map { "\($0) \(nanoseconds($1) / 1e6) ms" }.joined(separator: ", ")
        + " (the reader's thread busy \(readerBusy * 1000) ms of the read)")
  }

  /// `StressRun syntaxes N reps`: the stress scene of N handles loaded to its AST from YAML
  /// and from the DSL (converted as `scenec fmt --to dsl` does), alternately; the fastest
  /// of `reps` each. `StressRun syntaxes N 1 dsl` loads only the DSL, for callgrind.
  static func syntaxes(_ numbers: [Int]) throws {
    let count = numbers.first ?? 40_000
    let repetitions = max(numbers.dropFirst().first ?? 3, 1)
    let yaml = StressScene(handles: count).yaml
    guard
      let spec = SceneLoader.load(SourceFile(name: "stress.yaml", text: yaml), syntax: .yaml).spec
    else { fatalError("the stress scene does not load") }
    let dsl = DSLEmitter.emit(SceneEncoder.encode(spec, comments: SceneComments(text: yaml)))
    let fromDSL = SceneLoader.load(SourceFile(name: "stress.scene", text: dsl), syntax: .dsl)
    guard fromDSL.spec == spec else { fatalError("the DSL does not load to the same scene") }
    let onlyDSL = CommandLine.arguments.last == "dsl"
    var fastest: [SceneLoader.Syntax: Duration] = [.yaml: .seconds(1_000), .dsl: .seconds(1_000)]
    for _ in 0..<repetitions {
      for (syntax, text) in [(SceneLoader.Syntax.yaml, yaml), (.dsl, dsl)] {
        if onlyDSL && syntax == .yaml { continue }
        let start = ContinuousClock.now
        let loaded = SceneLoader.load(SourceFile(name: "stress", text: text), syntax: syntax)
        let elapsed = ContinuousClock.now - start
        guard loaded.spec != nil else { fatalError("the scene does not load") }
        fastest[syntax] = min(fastest[syntax]!, elapsed)
      }
    }
    print(
      "\(count) handles to AST, fastest of \(repetitions): YAML (\(yaml.utf8.count) bytes) \(fastest[.yaml]!), DSL (\(dsl.utf8.count) bytes) \(fastest[.dsl]!)"
    )
  }

  /// `StressRun resolve follow|spring|stress N reps`: the scene loaded to its AST once (timed),
  /// then resolved `reps` times; the fastest resolve is printed.
  static func resolve(_ workload: RuntimeWorkload, handles count: Int, repetitions: Int) throws {
    let text = workload.yaml(handles: count)
    let start = ContinuousClock.now
    let loaded = SceneLoader.load(SourceFile(name: "workload.yaml", text: text), syntax: .yaml)
    let loading = ContinuousClock.now - start
    guard let spec = loaded.spec else { fatalError("the scene does not load") }
    var fastest = Duration.seconds(1_000)
    for _ in 0..<max(repetitions, 1) {
      let start = ContinuousClock.now
      guard SceneResolver.resolve(spec, parallel: .allCores).graph != nil else {
        fatalError("the scene does not resolve")
      }
      fastest = min(fastest, ContinuousClock.now - start)
    }
    print(
      "\(workload) \(count) handles: load to AST \(loading), resolve \(fastest) (fastest of \(repetitions))"
    )
  }

  /// `StressRun measure N`: `GeometryBenchmarks`' wavy 64-segment path measured N times,
  /// beside the arc lengths of its segments alone (the measuring workload, for callgrind),
  /// and a path of 64 random cubics.
  static func measure(_ repetitions: Int) {
    let path = WavyPath.makePath()
    let cubics = path.subpaths[0].drawnSegments.map(\.cubic)
    var sink = 0.0
    var fastest = Duration.seconds(1_000)
    for _ in 0..<max(repetitions, 1) {
      let start = ContinuousClock.now
      sink += MeasuredPath(path).length
      fastest = min(fastest, ContinuousClock.now - start)
    }
    // The arc lengths alone, by the adaptive rule (kurbo's method), at the documented
    // accuracy and looser ones: kurbo's published 4.4 µs does not say at which.
    var fastestLengths: [Double: Duration] = [:]
    for accuracy in [1e-9, 1e-6, 1e-3] {
      var fastest = Duration.seconds(1_000)
      for _ in 0..<max(repetitions, 1) {
        let start = ContinuousClock.now
        for cubic in cubics { sink += cubic.arcLength(accuracy: accuracy) }
        fastest = min(fastest, ContinuousClock.now - start)
      }
      fastestLengths[accuracy] = fastest
    }
    // 64 cubics of seeded random points in −200…200, end to end: loops, sharp turns and
    // near cusps, which the wavy path has none of.
    var state: UInt64 = 2026
    func coordinate() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53) * 400 - 200
    }
    var segments: [Segment] = []
    var end = Point(x: coordinate(), y: coordinate())
    let start = end
    for _ in 0..<64 {
      let points = (0..<3).map { _ in Point(x: coordinate(), y: coordinate()) }
      segments.append(.cubic(end, points[0], points[1], points[2]))
      end = points[2]
    }
    let random = Path(start: start, segments: segments)
    var fastestRandom = Duration.seconds(1_000)
    for _ in 0..<max(repetitions, 1) {
      let start = ContinuousClock.now
      sink += MeasuredPath(random).length
      fastestRandom = min(fastestRandom, ContinuousClock.now - start)
    }
    print(
      "measure the wavy path: \(nanoseconds(fastest) / 1_000) µs (fastest of \(repetitions)); "
        + "its \(cubics.count) arc lengths alone: "
        + [1e-9, 1e-6, 1e-3].map {
          "\(nanoseconds(fastestLengths[$0] ?? .zero) / 1_000) µs at \($0)"
        }.joined(separator: ", ") + "; "
        + "a path of 64 random cubics: \(nanoseconds(fastestRandom) / 1_000) µs "
        + "(\(sink > 0 ? "ok" : "?"))")
  }

  /// `StressRun encode N frames reps`: the spring scene of N handles, every one released
  /// at once, stepped for `frames` frames in three ways measured in the same run: the
  /// library loop (`Simulation.step`), the same frames through `SceneRunner` (what
  /// `scenec run` drives, gesture player included), and the library loop's frames written
  /// as JSON lines into memory. Prints each per handle per frame, the fastest of `reps`.
  static func encode(_ numbers: [Int]) throws {
    let count = numbers.first ?? 10_000
    let frames = max(1, numbers.dropFirst().first ?? 120)
    let repetitions = max(1, numbers.dropFirst(2).first ?? 5)
    // The runner's scene releases every handle through its own gesture script.
    let graph = RuntimeWorkload.graph(of: RuntimeWorkload.spring.yaml(handles: count))
    let scripted = RuntimeWorkload.graph(
      of: RuntimeWorkload.spring.yaml(handles: count, gestures: true))
    let context = OutputContext(graph: graph, precision: 3, fps: 60)
    var fastestStep = Duration.seconds(1_000)
    var fastestEncode = Duration.seconds(1_000)
    var fastestRunner = Duration.seconds(1_000)
    var fastestGrab = Duration.seconds(1_000)
    var bytes = 0
    for _ in 0..<repetitions {
      var simulation = try Simulation(graph: graph)
      let grabStart = ContinuousClock.now
      RuntimeWorkload.grabAndReleaseAll(&simulation, handles: count)
      fastestGrab = min(fastestGrab, ContinuousClock.now - grabStart)
      var writer = FrameOutput.jsonl.writer(for: context)
      var sink = TextBytes(capacity: 1 << 20)
      var stepping = Duration.zero
      var encoding = Duration.zero
      bytes = 0
      for f in 1...frames {
        let start = ContinuousClock.now
        let frame = try simulation.step(to: Double(f) / 60)
        let stepped = ContinuousClock.now
        writer.frame(frame, into: &sink)
        encoding += ContinuousClock.now - stepped
        stepping += stepped - start
        bytes += sink.count
        sink.removeAll()
      }
      fastestStep = min(fastestStep, stepping)
      fastestEncode = min(fastestEncode, encoding)
      var runner = try SceneRunner(graph: scripted, fps: 60, duration: Double(frames) / 60)
      let start = ContinuousClock.now
      while let frame = try runner.nextFrame() { _ = frame.handles.count }
      fastestRunner = min(fastestRunner, ContinuousClock.now - start)
    }
    let handleFrames = Double(count * frames)
    func per(_ duration: Duration, _ n: Double) -> String {
      String((nanoseconds(duration) / n * 10).rounded() / 10) + " ns"
    }
    print("springs: \(count) handles × \(frames) frames, fastest of \(repetitions) runs")
    print(
      "  Simulation.step (the library loop): \(per(fastestStep, handleFrames)) per handle per frame"
    )
    print(
      "    its grab and release of every handle first: \(per(fastestGrab, Double(count))) per handle"
    )
    print("    both together: \(per(fastestStep + fastestGrab, handleFrames)) per handle per frame")
    print(
      "  SceneRunner.nextFrame (scenec run): \(per(fastestRunner, handleFrames + Double(count))) per handle per frame"
    )
    print(
      "  JSON lines of those frames: \(per(fastestEncode, handleFrames)) per handle per frame, \(bytes / frames / count) bytes per handle"
    )
  }

  /// `StressRun encode stress N reps`: the stress scene of N handles run by `SceneRunner`
  /// (its 601 frames), each frame written as JSON lines into memory as it comes; the
  /// runner's time and the writer's are summed apart. Prints each per handle per frame,
  /// the fastest of `reps`.
  static func encodeStress(_ numbers: [Int]) throws {
    let count = numbers.first ?? 1_000
    let repetitions = max(1, numbers.dropFirst().first ?? 5)
    let graph = RuntimeWorkload.graph(of: RuntimeWorkload.stress.yaml(handles: count))
    let context = OutputContext(graph: graph, precision: 3, fps: graph.fps)
    var fastestRun = Duration.seconds(1_000)
    var fastestEncode = Duration.seconds(1_000)
    var handleFrames = 0
    var bytes = 0
    for _ in 0..<repetitions {
      var runner = try SceneRunner(graph: graph)
      var writer = FrameOutput.jsonl.writer(for: context)
      var sink = TextBytes(capacity: 1 << 20)
      var running = Duration.zero
      var encoding = Duration.zero
      handleFrames = 0
      bytes = 0
      while true {
        let start = ContinuousClock.now
        guard let frame = try runner.nextFrame() else { break }
        let made = ContinuousClock.now
        writer.frame(frame, into: &sink)
        encoding += ContinuousClock.now - made
        running += made - start
        handleFrames += frame.handles.count
        bytes += sink.count
        sink.removeAll()
      }
      fastestRun = min(fastestRun, running)
      fastestEncode = min(fastestEncode, encoding)
    }
    let n = Double(max(handleFrames, 1))
    func per(_ duration: Duration) -> String {
      String((nanoseconds(duration) / n * 10).rounded() / 10) + " ns"
    }
    print(
      "stress: \(count) handles, \(handleFrames / max(count, 1)) frames, fastest of \(repetitions) runs"
    )
    print("  SceneRunner.nextFrame: \(per(fastestRun)) per handle per frame")
    print(
      "  JSON lines: \(per(fastestEncode)) per handle per frame, \(bytes / max(handleFrames, 1)) bytes per handle"
    )
  }

  /// `StressRun arclength CUBICS [LENGTHS]`: the arc length, at the default 1e-9, of each
  /// cubic in the file `CUBICS` (eight numbers a line: the four points), the fastest of 20
  /// passes, per cubic; with `LENGTHS` (one a line, another library's for the same cubics),
  /// also the largest relative difference from them. For measuring a peer on the very same
  /// inputs in the same run.
  static func arcLengths(of cubicsFile: String, against lengthsFile: String?) throws {
    func numbers(in file: String) throws -> [Double] {
      try String(contentsOfFile: file, encoding: .utf8)
        .split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
    }
    let values = try numbers(in: cubicsFile)
    let cubics = stride(from: 0, to: values.count - 7, by: 8).map { k in
      CubicBezier(
        Point(values[k], values[k + 1]), Point(values[k + 2], values[k + 3]),
        Point(values[k + 4], values[k + 5]), Point(values[k + 6], values[k + 7]))
    }
    var lengths: [Double] = []
    var fastest = Duration.seconds(1_000)
    for _ in 0..<20 {
      let start = ContinuousClock.now
      lengths = cubics.map(\.arcLength)
      fastest = min(fastest, ContinuousClock.now - start)
    }
    var report =
      "scenec arcLength (1e-9): \(nanoseconds(fastest) / Double(cubics.count)) ns per cubic "
      + "(fastest of 20 passes over \(cubics.count)), sum \(lengths.reduce(0, +))"
    if let lengthsFile {
      let theirs = try numbers(in: lengthsFile)
      let worst = zip(lengths, theirs).map { abs($0 - $1) / max(abs($1), 1e-300) }.max() ?? 0
      report += "; largest relative difference from \(lengthsFile): \(worst)"
    }
    print(report)
  }

  /// `StressRun numbers N`: N numbers between -1000 and 1000 written at precision 3, the
  /// way every text format writes them; prints the time per number, the fastest of five.
  static func numbers(_ count: Int) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let values = (0..<count).map { _ -> Double in
      state ^= state >> 12
      state ^= state << 25
      state ^= state >> 27
      return Double((state &* 2_685_821_657_736_338_717) >> 11) / Double(1 << 53) * 2000 - 1000
    }
    var sink = TextBytes(capacity: count * 10)
    var fastest = Duration.seconds(1_000)
    for _ in 0..<5 {
      sink.removeAll()
      let start = ContinuousClock.now
      for value in values { sink.append(value, precision: 3) }
      fastest = min(fastest, ContinuousClock.now - start)
    }
    print(
      "numbers: \(nanoseconds(fastest) / Double(count)) ns each, \(sink.count / count) bytes each")
  }

  /// `StressRun runner N frames`: only the `SceneRunner` part of `encode`, for a profiler.
  static func runnerOnly(handles count: Int, frames: Int) throws {
    let scripted = RuntimeWorkload.graph(
      of: RuntimeWorkload.spring.yaml(handles: count, gestures: true))
    var runner = try SceneRunner(graph: scripted, fps: 60, duration: Double(frames) / 60)
    let start = ContinuousClock.now
    var handleFrames = 0
    while let frame = try runner.nextFrame() { handleFrames += frame.handles.count }
    let elapsed = ContinuousClock.now - start
    print("SceneRunner: \(nanoseconds(elapsed) / Double(handleFrames)) ns per handle per frame")
  }

  static func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
  }
}
