import ArgumentParser
import Foundation
import SceneDiagnostics
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneRuntime
import SceneSyntax

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

      Formats: \(OutputRegistry.builtIn.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ")).

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

  @Option(help: "The output format: \(OutputRegistry.builtIn.map(\.name).joined(separator: ", ")).")
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

  func validate() throws {
    if let fps, !(fps >= 1 && fps <= 1000) { throw ValidationError("--fps must be between 1 and 1000") }
    if let duration, Self.seconds(duration).map({ $0 > 0 && $0 <= 3600 }) != true {
      throw ValidationError("--duration must be a time such as 2s or 1500ms, up to 3600s")
    }
    if let at, Self.seconds(at).map({ $0 >= 0 }) != true {
      throw ValidationError("--at must be a time such as 1.2s")
    }
    if frame != nil && at != nil { throw ValidationError("give --frame or --at, not both") }
    if let frame, frame < 0 { throw ValidationError("--frame must not be negative") }
    if !(0...15).contains(precision) { throw ValidationError("--precision must be between 0 and 15") }
    if maxFrames < 1 { throw ValidationError("--max-frames must be at least 1") }
    if let format, OutputRegistry.named(format) == nil {
      throw ValidationError(
        "unknown format '\(format)'; expected \(OutputRegistry.builtIn.map(\.name).joined(separator: ", "))")
    }
    if format == nil, let output, Self.hasExtension(output), OutputRegistry.forFile(output) == nil {
      throw ValidationError(
        "cannot tell the format of '\(output)' from its extension; add --format (\(OutputRegistry.builtIn.map(\.name).joined(separator: ", ")))"
      )
    }
  }

  /// Whether the file name has an extension; one without (`/dev/null`, `frames`) gets
  /// JSON lines.
  static func hasExtension(_ path: String) -> Bool {
    !((path as NSString).lastPathComponent as NSString).pathExtension.isEmpty
  }

  static func seconds(_ text: String) -> Double? { TimeText.seconds(text) }


  func run() throws {
    let loaded: ScenePipeline.Loaded
    do {
      loaded = try ScenePipeline.load(path: file, options: ScenePipeline.Options(traceFolders: traceFolder))
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.noInput
    }
    let renderer = DiagnosticRenderer(files: loaded.files)
    guard let graph = loaded.graph else {
      printError(loaded.rendered(), terminator: "")
      throw Sysexits.dataError
    }
    let format = format.flatMap { OutputRegistry.named($0) } ?? output.flatMap { OutputRegistry.forFile($0) } ?? .jsonl
    var sinkToClean: OutputSink?
    do {
      var runner = try SceneRunner(
        graph: graph, traces: loaded.traces, fps: fps, duration: duration.flatMap(Self.seconds),
        maxFrames: maxFrames)
      let context = OutputContext(graph: graph, precision: precision, fps: runner.fps)
      let wanted: Int? = frame ?? at.flatMap(Self.seconds).map { Int(($0 * runner.fps).rounded()) }
      if let wanted, wanted > runner.lastFrame {
        printError("error: the scene has frames 0 to \(runner.lastFrame); frame \(wanted) does not exist")
        throw Sysexits.usage
      }
      var sink = try OutputSink(path: output)
      sinkToClean = sink
      sink.write(format.begin(context))
      var kept: [Frame] = []
      let progress = ProgressBar(total: runner.lastFrame + 1)
      while let next = try runner.nextFrame() {
        progress.update(next.index)
        if let wanted, next.index != wanted { continue }
        if format.needsAllFrames { kept.append(next) } else { sink.write(format.frame(context, next)) }
        if let wanted, next.index == wanted { break }
      }
      progress.finish()
      sink.write(format.end(context, kept))
      try sink.commit()
    } catch let error as RuntimeError {
      sinkToClean?.abandon()
      printError(renderer.render(error.diagnostic), terminator: "")
      throw Sysexits.dataError
    }
  }
}

/// Where frames go: standard output as they come, or a temporary file renamed into place
/// at the end.
struct OutputSink {
  let path: String?
  var buffer = ""
  var handle: FileHandle
  let temporary: URL?

  init(path: String?) throws {
    self.path = path
    guard let path else {
      handle = FileHandle.standardOutput
      temporary = nil
      return
    }
    let url = URL(fileURLWithPath: path)
    // A device or pipe (`-o /dev/null`) is written directly: there is nothing to replace.
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
      let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType,
      type != .typeRegular, let direct = FileHandle(forWritingAtPath: path)
    {
      handle = direct
      temporary = nil
      return
    }
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).scenec-\(ProcessInfo.processInfo.processIdentifier).tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
      let handle = try? FileHandle(forWritingTo: temporary)
    else {
      printError("error: cannot write '\(path)'")
      throw Sysexits.cannotCreate
    }
    self.handle = handle
    self.temporary = temporary
  }

  mutating func write(_ text: String) {
    buffer += text
    if buffer.utf8.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    guard !buffer.isEmpty else { return }
    handle.write(Data(buffer.utf8))
    buffer = ""
  }

  /// Finishes the output: the file appears whole, or not at all.
  mutating func commit() throws {
    flush()
    guard let temporary, let path else { return }
    try? handle.close()
    if rename(temporary.path, path) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      printError("error: cannot write '\(path)': \(reason)")
      throw Sysexits.cannotCreate
    }
  }

  /// Removes a temporary file left by a run that failed.
  func abandon() {
    if let temporary { try? FileManager.default.removeItem(at: temporary) }
  }
}

/// A progress bar on standard error, only when it is a terminal and the run is long.
struct ProgressBar {
  let total: Int
  let enabled: Bool

  init(total: Int) {
    self.total = total
    enabled = isatty(2) != 0 && total >= 600
  }

  func update(_ index: Int) {
    guard enabled, index % 60 == 0 else { return }
    let width = 30
    let done = min(width, index * width / max(total, 1))
    printError(
      "\r[" + String(repeating: "#", count: done) + String(repeating: " ", count: width - done)
        + "] frame \(index)/\(total - 1)", terminator: "")
  }

  func finish() {
    if enabled { printError("\r" + String(repeating: " ", count: 60) + "\r", terminator: "") }
  }
}
