import ArgumentParser
import SceneCommandLine
import SceneDiagnostics
import SceneFiles
import SceneGeometry
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneRaster
import SceneRuntime
import SceneSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `scenec run`: plays a scene and writes its frames.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a scene and write its frames (JSON lines by default).",
    discussion: """
      Plays the scene's gesture script at a fixed time step and streams the frames to
      standard output, or writes them to -o FILE, whose extension picks the format unless
      --format does (a name without an extension, such as /dev/null, gets JSON lines). A file is written to a temporary name and renamed when complete, so
      a failed run never leaves a partial file or clobbers a good one.

      Formats: \(Self.formats.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ")).

      Exit status: 0 ok, 64 usage, 65 invalid scene (or a run that degenerates), 66
      missing input, 73 cannot write the output.

      Examples:
        scenec run Scenes/wave.yaml
        scenec run Scenes/wave.yaml -o wave.html
        scenec run Scenes/wave.yaml --format svg --at 0.8s -o frame.svg
      """
  )

  @Argument(help: "The scene file (.yaml, .yml or .scene).")
  var file: String

  @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
  var output: String?

  @Option(help: "The output format: \(Self.formats.map(\.name).joined(separator: ", ")).")
  var format: String?

  @Option(help: "Frames per second (default: the scene's).")
  var fps: Double?

  @Option(help: "How long to run, such as 2s or 1500ms (default: the scene's).")
  var duration: String?

  @Option(help: "Write only frame N.")
  var frame: Int?

  @Option(help: "Write only the frame at this time, such as 1.2s.")
  var at: String?

  @Option(help: "Decimals in numbers.")
  var precision = 3

  @Option(help: "The most frames a run may have.")
  var maxFrames = SceneRunner.defaultMaxFrames

  @Option(help: "A folder traces may be read from besides the scene's own (repeatable).")
  var traceFolder: [String] = []

  @Option(help: "Pixels per point for png and gif, 0.1…8 (default 1).")
  var scale: Double = 1

  @Option(
    name: .customLong("plot"),
    help: ArgumentHelp(
      "A value to chart over time, HANDLE.VALUE with VALUE one of x, y, angle, speed, rotation, scale, opacity (repeatable; implies --format graph; by default the graph charts the 8 values that move furthest).",
      valueName: "handle.value"))
  var plots: [String] = []

  @Option(
    name: .customLong("input"),
    help: ArgumentHelp(
      "Start an input at a value instead of its default, NAME=VALUE (repeatable).",
      valueName: "name=value"))
  var inputs: [String] = []

  @Flag(name: .shortAndLong, help: "No summary line on standard error after writing a file.")
  var quiet = false

  @Flag(
    help:
      "With an HTML output: one page that runs the scene in scenec's engine compiled to WebAssembly, to drag it rather than watch it (needs the engine: Scripts/build-wasm)."
  )
  var interactive = false

  @Option(
    help: ArgumentHelp(
      "The WebAssembly engine for --interactive (default: $SCENEC_ENGINE, else scenec-engine.wasm beside scenec, else .build-wasm/scenec-engine.wasm).",
      valueName: "file.wasm"))
  var engine: String?

  func validate() throws {
    if let fps, !FrameClock.fpsRange.contains(fps) {
      throw ValidationError("--fps must be \(FrameClock.fpsRangeDescription)")
    }
    if let duration, Self.seconds(duration).map({ $0 > 0 && $0 <= 3600 }) != true {
      throw ValidationError("--duration must be a time such as 2s or 1500ms, up to 3600s")
    }
    if let at, Self.seconds(at).map({ $0 >= 0 && $0 <= 3600 }) != true {
      throw ValidationError("--at must be a time such as 1.2s, up to 3600s")
    }
    if frame != nil && at != nil { throw ValidationError("give --frame or --at, not both") }
    if let frame, frame < 0 || frame > 1_000_000_000 {
      throw ValidationError("--frame must be between 0 and 1000000000")
    }
    if !(0...15).contains(precision) {
      throw ValidationError("--precision must be between 0 and 15")
    }
    if maxFrames < 1 { throw ValidationError("--max-frames must be at least 1") }
    if !(0.1...8).contains(scale) { throw ValidationError("--scale must be between 0.1 and 8") }
    for input in inputs where Self.inputAssignment(input) == nil {
      throw ValidationError(
        "--input takes NAME=VALUE, such as --input loading=true; found '\(TerminalText.escaped(input))'"
      )
    }
    if let problem = TraceFolders.problems(traceFolder).first {
      throw ValidationError(problem)
    }
    if let format, OutputRegistry.named(format, in: Self.formats) == nil {
      throw ValidationError(
        "unknown format '\(format)'; expected \(Self.formats.map(\.name).joined(separator: ", "))"
      )
    }
    if interactive {
      let html =
        format.map { $0 == "html" } ?? output.map {
          OutputRegistry.forFile($0, in: Self.formats)?.name == "html"
        } ?? false
      guard html else {
        throw ValidationError(
          "--interactive writes an HTML page: give -o FILE.html (or --format html)")
      }
      let others = [
        frame.map { _ in "--frame" }, at.map { _ in "--at" }, plots.isEmpty ? nil : "--plot",
        inputs.isEmpty ? nil : "--input", fps.map { _ in "--fps" },
        duration.map { _ in "--duration" },
      ].compactMap { $0 }
      if let first = others.first {
        throw ValidationError(
          "--interactive runs the scene as it is written, in the page: \(first) does not apply")
      }
    } else if engine != nil {
      throw ValidationError("--engine is the engine for --interactive")
    }
    if !plots.isEmpty, let format, format != "graph" {
      throw ValidationError("--plot draws a chart: it goes with --format graph, not \(format)")
    }
    if format == nil, plots.isEmpty, let output, Self.hasExtension(output),
      OutputRegistry.forFile(output, in: Self.formats) == nil
    {
      throw ValidationError(
        "cannot tell the format of '\(TerminalText.escaped(output))' from its extension; add --format (\(Self.formats.map(\.name).joined(separator: ", ")))"
      )
    }
  }

  /// Whether the file name has an extension; one without (`/dev/null`, `frames`) gets
  /// JSON lines.
  static func hasExtension(_ path: String) -> Bool {
    !PathName.pathExtension(path).isEmpty
  }

  static func seconds(_ text: String) -> Double? { TimeText.seconds(text) }

  /// The parts of a numbered file name (`frames/%04d.png`) around its number, and the
  /// number's width; `nil` for a name without one.
  static func sequencePattern(_ path: String) -> (head: String, width: Int, tail: String)? {
    guard let percent = path.firstIndex(of: "%") else { return nil }
    var index = path.index(after: percent)
    var digits = ""
    while index < path.endIndex, path[index].isASCII, path[index].isNumber {
      digits.append(path[index])
      index = path.index(after: index)
    }
    guard index < path.endIndex, path[index] == "d" else { return nil }
    let tail = String(path[path.index(after: index)...])
    guard !tail.contains("%"), digits.count <= 2, Int(digits) ?? 0 <= 12 else { return nil }
    return (String(path[..<percent]), Int(digits) ?? 0, tail)
  }

  /// Frame `index`'s file name in a numbered sequence.
  static func sequenceName(_ pattern: (head: String, width: Int, tail: String), _ index: Int)
    -> String
  {
    let number = String(index)
    let padding = String(repeating: "0", count: max(0, pattern.width - number.count))
    return pattern.head + padding + number + pattern.tail
  }

  /// Writes each frame (or only `wanted`) as its own PNG, named by its number: each file
  /// whole or not at all, never over an input.
  func writeSequence(
    runner: inout SceneRunner, context: OutputContext,
    pattern: (head: String, width: Int, tail: String), wanted: Int?, inputs: [String],
    renderer: DiagnosticRenderer
  ) throws {
    let folder = PathName.deletingLastComponent(pattern.head + "0")
    do {
      if !folder.isEmpty { try OutputFile.createFolders(atPath: folder) }
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.cannotCreate
    }
    var written = 0
    do {
      while let frame = try runner.nextFrame() {
        if let wanted, frame.index != wanted { continue }
        var writer = FrameOutput.png.writer(for: context)
        var bytes = TextBytes(capacity: 1 << 16)
        writer.frame(frame, into: &bytes)
        writer.end(into: &bytes)
        if let failure = writer.failure {
          printError("error: \(TerminalText.escaped(failure))")
          throw Sysexits.software
        }
        var file = try OutputFile(
          path: Self.sequenceName(pattern, frame.index), policy: WritePolicy(inputs: inputs))
        try file.write(bytes.bytes)
        try file.commit()
        written += 1
        if wanted != nil { break }
      }
    } catch let error as RuntimeError {
      printError(renderer.render(error.diagnostic), terminator: "")
      throw Sysexits.dataError
    } catch let error as OutputFile.WriteError {
      printError("error: \(error.description)")
      throw Sysexits.cannotCreate
    }
    if !quiet {
      printError(
        "wrote \(written) PNG frame\(written == 1 ? "" : "s") to \(TerminalText.escaped(pattern.head))…"
      )
    }
  }

  /// Every format `run` writes: the built-in text formats and the raster ones.
  static let formats = OutputRegistry.builtIn + RasterOutputs.all

  /// `NAME=VALUE` split, or `nil` when it is not of that form.
  static func inputAssignment(_ text: String) -> (name: String, value: String)? {
    guard let equals = text.firstIndex(of: "=") else { return nil }
    let name = String(text[..<equals])
    let value = String(text[text.index(after: equals)...])
    guard !name.isEmpty, !value.isEmpty else { return nil }
    return (name, value)
  }

  func run() throws {
    let loaded: ScenePipeline.Loaded
    do {
      loaded = try ScenePipeline.load(
        path: file, options: ScenePipeline.Options(traceFolders: traceFolder))
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.noInput
    }
    let renderer = DiagnosticRenderer(files: loaded.files)
    guard var graph = loaded.graph else {
      printError(loaded.rendered(), terminator: "")
      throw Sysexits.dataError
    }
    if !loaded.diagnostics.isEmpty { printError(loaded.rendered(), terminator: "") }
    for input in inputs {
      guard let (name, value) = Self.inputAssignment(input) else { continue }
      if let problem = graph.setDefault(ofInput: name, to: value) {
        printError(
          "error: --input \(TerminalText.escaped(input)): \(TerminalText.escaped(problem))")
        throw Sysexits.usage
      }
    }
    if interactive { return try writeInteractivePage(loaded: loaded, graph: graph) }
    let format =
      format.flatMap { OutputRegistry.named($0, in: Self.formats) }
      ?? (plots.isEmpty ? nil : .graph)
      ?? output.flatMap { OutputRegistry.forFile($0, in: Self.formats) }
      ?? .jsonl
    if VideoEncoder.needsFFmpeg(format.name) && VideoEncoder.ffmpeg() == nil {
      printError("error: \(VideoEncoder.missing(format.name))")
      throw Sysexits.unavailable
    }
    if format.isBinary && output == nil && isatty(1) != 0 {
      printError(
        "error: \(format.name) is binary and standard output is a terminal; give -o FILE, or redirect standard output to a file"
      )
      throw Sysexits.usage
    }
    let started = ContinuousClock.now
    var runner: SceneRunner
    do {
      runner = try SceneRunner(
        graph: graph, fps: fps, duration: duration.flatMap(Self.seconds),
        maxFrames: maxFrames)
    } catch {
      printError(renderer.render(error.diagnostic), terminator: "")
      throw Sysexits.dataError
    }
    var context = OutputContext(graph: graph, precision: precision, fps: runner.fps)
    context.scale = scale
    context.plots = plots
    let clock = FrameClock(fps: runner.fps)
    let wanted: Int? = frame ?? at.flatMap(Self.seconds).flatMap(clock.frame(nearest:))
    if let wanted, wanted > runner.lastFrame {
      let limit =
        graph.duration.isUntilRest && duration == nil
        ? " (it runs until rest, for at most \((Double(runner.lastFrame) / runner.fps).shortestDescription) s)"
        : ""
      printError(
        "error: the scene has frames 0 to \(runner.lastFrame)\(limit); frame \(wanted) does not exist"
      )
      throw Sysexits.usage
    }
    if let output, let pattern = Self.sequencePattern(output) {
      guard format.name == "png" else {
        printError(
          "error: a numbered file name (\(TerminalText.escaped(output))) is for PNG frames: end it in .png"
        )
        throw Sysexits.usage
      }
      return try writeSequence(
        runner: &runner, context: context, pattern: pattern, wanted: wanted,
        inputs: loaded.inputs, renderer: renderer)
    }
    var sink = try openOutput(inputs: loaded.inputs)
    var frames = 0
    var lastTime = 0.0
    do {
      var writer = format.writer(for: context)
      if let failure = writer.failure {
        // Refused before a frame is run: what was asked for cannot be written.
        sink.abandon()
        printError("error: \(TerminalText.escaped(failure))")
        throw Sysexits.usage
      }
      var bytes = TextBytes(capacity: 1 << 17)
      // Drains what the writer appended to the output, in large pieces.
      func drain(_ bytes: inout TextBytes, force: Bool) throws(OutputFile.WriteError) {
        guard force || bytes.count >= 1 << 16 else { return }
        try sink.write(bytes.bytes)
        bytes.removeAll()
      }
      var found = false
      let progress = ProgressBar(
        limit: Double(runner.lastFrame) / runner.fps,
        untilRest: graph.duration.isUntilRest && duration == nil)
      // A single frame is written only once found: past the real end of an until-rest
      // scene there is nothing to write, and nothing is.
      if wanted == nil { writer.begin(into: &bytes) }
      while let next = try runner.nextFrame() {
        frames += 1
        lastTime = next.time
        progress.update(next)
        if let wanted {
          guard next.index == wanted else { continue }
          found = true
          writer.begin(into: &bytes)
          writer.frame(next, into: &bytes)
          break
        }
        writer.frame(next, into: &bytes)
        try drain(&bytes, force: false)
      }
      progress.finish()
      if let wanted, !found {
        // An until-rest run ended at rest before the frame asked for: the scene stays as it
        // is, so that frame is the rest, stepped on to its own time (a time-driven value
        // still reads its time there).
        let restFrame = frames - 1
        var simulation = runner.simulation
        var last: Frame?
        for index in (restFrame + 1)...wanted {
          last = try simulation.step(to: clock.time(ofFrame: index))
        }
        guard var shown = last else { throw Sysexits.software }
        shown.index = wanted
        writer.begin(into: &bytes)
        writer.frame(shown, into: &bytes)
        lastTime = shown.time
        printError(
          "note: the scene came to rest at frame \(restFrame) (t = \(FixedDecimals.text(clock.time(ofFrame: restFrame), decimals: 3)) s); frame \(wanted) shows it at rest"
        )
      }
      try writer.end(into: &bytes, flush: { try drain(&$0, force: false) })
      for note in writer.notes { printError("note: \(TerminalText.escaped(note))") }
      if let failure = writer.failure {
        sink.abandon()
        printError("error: \(TerminalText.escaped(failure))")
        throw Sysexits.software
      }
      try drain(&bytes, force: true)
      try sink.commit()
    } catch let error as RuntimeError {
      sink.abandon()
      printError(renderer.render(error.diagnostic), terminator: "")
      throw Sysexits.dataError
    } catch let error as OutputFile.WriteError {
      printError("error: \(error.description)")
      throw Sysexits.cannotCreate
    }
    if runner.stoppedAtLimit {
      let moving = runner.simulation.movingHandleNames
      printError(
        "warning: \(TerminalText.escaped(file)): the run stopped at its maxDuration of \(lastTime.shortestDescription) s without coming to rest"
          + (moving.isEmpty
            ? " (the gesture was still playing)"
            : "; still moving: \(moving.joined(separator: ", "))"))
    }
    if let output, !quiet, sink.isRegularFile {
      let elapsed = ContinuousClock.now - started
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let count = wanted == nil ? frames : 1
      printError(
        "wrote \(TerminalText.escaped(output)): \(format.name), \(count) frame\(count == 1 ? "" : "s"), \(FixedDecimals.text(lastTime, decimals: 2)) s of scene, in \(FixedDecimals.text(seconds, decimals: 3)) s"
      )
    }
  }
}

extension RunCommand {
  /// The output `-o` names (standard output without it), never over the scene or a trace
  /// it replays (`inputs`), under any name or link; exit 73 with why when it cannot be.
  func openOutput(inputs: [String]) throws -> OutputFile {
    do {
      return try output.map { path throws(OutputFile.WriteError) in
        try OutputFile(path: path, policy: WritePolicy(inputs: inputs))
      } ?? .standardOutput()
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.cannotCreate
    }
  }

  /// Where `--interactive` looks for the WebAssembly engine, in order.
  func engineCandidates() -> [String] {
    if let engine { return [engine] }
    var candidates: [String] = []
    if let fromEnvironment = ProcessInfo.processInfo.environment["SCENEC_ENGINE"],
      !fromEnvironment.isEmpty
    {
      candidates.append(fromEnvironment)
    }
    let executable = CommandLine.arguments.first ?? ""
    if executable.contains("/") {
      let folder = PathName.deletingLastComponent(executable)
      candidates.append((folder.isEmpty ? "." : folder) + "/scenec-engine.wasm")
    }
    candidates.append(".build-wasm/scenec-engine.wasm")
    return candidates
  }

  /// `--interactive`: the page that runs the scene in the WebAssembly engine, written
  /// whole or not at all, never over the scene.
  func writeInteractivePage(loaded: ScenePipeline.Loaded, graph: SceneGraph) throws {
    guard let spec = loaded.spec else { throw Sysexits.software }
    let candidates = engineCandidates()
    guard
      let path = candidates.first(where: { InputFile.kind(atPath: $0) == .regularFile }),
      let bytes = try? InputFile.read(path: path, upTo: 64 << 20)
    else {
      printError(
        "error: --interactive needs the WebAssembly engine, and it is not at \(candidates.map(TerminalText.escaped).joined(separator: ", ")); build it with Scripts/build-wasm (or give --engine FILE)"
      )
      throw Sysexits.unavailable
    }
    guard let exported = InteractivePage.exportedNames(of: Array(bytes)) else {
      printError("error: \(TerminalText.escaped(path)) is not a WebAssembly module")
      throw Sysexits.dataError
    }
    let missing = InteractivePage.engineExports.filter { !exported.contains($0) }
    guard missing.isEmpty else {
      printError(
        "error: \(TerminalText.escaped(path)) is not the engine this scenec's page calls (it lacks \(missing.joined(separator: ", "))); build it again with Scripts/build-wasm"
      )
      throw Sysexits.dataError
    }
    // The engine reads the DSL: the scene as `scenec fmt --to dsl` writes it.
    let tree = SceneEncoder.encode(
      spec, comments: SceneComments(text: loaded.files.first?.text ?? ""))
    let sceneText = DSLEmitter.emit(tree, header: nil)
    let context = OutputContext(graph: graph, precision: precision, fps: graph.fps)
    // The traces its gesture replays go in the page, as CSV (exact: they read back to the
    // same samples).
    let page = InteractivePage.html(
      context: context, sceneText: sceneText,
      traces: loaded.traces.mapValues(\.csvText), engine: Array(bytes))
    var sink = try openOutput(inputs: loaded.inputs)
    do {
      try sink.write(page)
      try sink.commit()
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.cannotCreate
    }
    if let output, !quiet, sink.isRegularFile {
      printError(
        "wrote \(TerminalText.escaped(output)): an interactive page (the engine \(bytes.count) bytes, from \(TerminalText.escaped(path)))"
      )
    }
  }
}

/// A progress bar on standard error, only when it is a terminal and the run is long.
///
/// A fixed-length run shows frames against its length; an until-rest run, whose end is
/// not known ahead, shows scene time against its `maxDuration` cap and says it is a cap.
struct ProgressBar {
  let limit: Double
  let untilRest: Bool
  let enabled: Bool

  init(limit: Double, untilRest: Bool) {
    self.limit = limit
    self.untilRest = untilRest
    enabled = isatty(2) != 0 && limit >= 10
  }

  func update(_ frame: Frame) {
    guard enabled, frame.index % 60 == 0 else { return }
    let width = 30
    let done = min(width, Int(frame.time / max(limit, 1e-9) * Double(width)))
    let label =
      untilRest
      ? "t = \(FixedDecimals.text(frame.time, decimals: 1)) s of at most \(limit.shortestDescription) s (until rest), frame \(frame.index)"
      : "t = \(FixedDecimals.text(frame.time, decimals: 1)) of \(limit.shortestDescription) s, frame \(frame.index)"
    printError(
      "\r[" + String(repeating: "#", count: done) + String(repeating: " ", count: width - done)
        + "] " + label, terminator: "")
  }

  func finish() {
    if enabled { printError("\r" + String(repeating: " ", count: 100) + "\r", terminator: "") }
  }
}
