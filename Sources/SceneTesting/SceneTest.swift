import SceneDiagnostics
import SceneFiles
import SceneGeometry
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneRuntime

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

/// One scene checked against its golden frames: the unit `scenec test` runs.
///
/// The golden file of `Scenes/wave.yaml` is `Scenes/__snapshots__/wave.jsonl`, the
/// scene's JSON-lines frames at precision 3, so a YAML scene and its `.scene` twin share
/// one snapshot and must agree with it byte for byte. A missing snapshot is a failure
/// that says how to record it; recording happens only when asked.
public struct SceneTest: Sendable {
  public enum Outcome: Equatable, Sendable {
    case passed
    /// Recorded (or re-recorded) on request.
    case recorded
    /// The frames differ from the snapshot.
    case mismatch(SnapshotDiff)
    case missingSnapshot
    /// What the scene looks like at rest differs from its look snapshot
    /// (``SceneLook``): a style or size that no frame carries.
    case lookMismatch(SnapshotDiff)
    /// The frames match, but there is no look snapshot to compare with.
    case missingLook
    /// `--record` was asked for, but the scene's own expectations fail: nothing written.
    case notRecorded
    /// The scene could not be loaded, resolved or run: rendered diagnostics.
    case invalid(String)
  }

  public let scene: String
  /// The precision snapshots are written at: stable across machines.
  public static let snapshotPrecision = 3

  public init(scene: String) { self.scene = scene }

  /// Where this scene's golden frames live.
  public var snapshotPath: String {
    // Path arithmetic on the text, so a relative scene path gives a relative snapshot path.
    let stem = PathName.deletingPathExtension(PathName.lastComponent(scene))
    return PathName.appending(
      "__snapshots__/" + stem + ".jsonl", to: PathName.deletingLastComponent(scene))
  }

  /// Where this scene's picture at its end lives (`scenec test --images`), beside its frames.
  public var imagePath: String {
    let stem = PathName.deletingPathExtension(PathName.lastComponent(scene))
    return PathName.appending(
      "__snapshots__/" + stem + ".png", to: PathName.deletingLastComponent(scene))
  }

  /// Where this scene's look at rest lives (``SceneLook``), beside its frames.
  public var lookPath: String {
    let stem = PathName.deletingPathExtension(PathName.lastComponent(scene))
    return PathName.appending(
      "__snapshots__/" + stem + ".look.json", to: PathName.deletingLastComponent(scene))
  }

  /// The folder the scene is in, where its snapshots must stay.
  public var sceneFolder: String {
    let folder = PathName.deletingLastComponent(scene)
    return folder.isEmpty ? "." : folder
  }

  /// The largest snapshot read.
  public static let maximumSnapshotBytes = 1 << 30

  /// The frames of a run as JSON lines, and the rendered failures of its `expect:` lines
  /// (`nil` when every expectation held).
  public struct Run: Sendable {
    public var frames: String
    public var failedExpectations: String?
    /// The handles still moving when an until-rest run stopped at its `maxDuration`
    /// (empty if only the gesture was still playing); `nil` when it came to rest.
    public var stoppedAtLimit: [String]?
    /// What the scene looks like at rest (``SceneLook``).
    public var look = ""
    /// The run's last frame, and the context to draw it in (for image snapshots).
    public var lastFrame: Frame?
    public var context: OutputContext?
  }

  /// The scene loaded through the one pipeline, or the rendered reason it cannot run.
  func loaded() -> Result<ScenePipeline.Loaded, SceneTestError> {
    let loaded: ScenePipeline.Loaded
    do {
      loaded = try ScenePipeline.load(path: scene)
    } catch {
      return .failure(SceneTestError(text: "error: \(error.description)\n"))
    }
    guard loaded.graph != nil else { return .failure(SceneTestError(text: loaded.rendered())) }
    return .success(loaded)
  }

  /// The scene's frames as JSON lines, or the diagnostics that stopped it.
  public func frames(fps: Double? = nil) -> Result<Run, SceneTestError> {
    switch self.loaded() {
    case .success(let loaded): Self.run(loaded, fps: fps)
    case .failure(let error): .failure(error)
    }
  }

  /// Runs a scene already loaded (from a file or from text) as `scenec test` does: its
  /// frames as JSON lines and its expectations checked; or the diagnostics that stop it.
  public static func run(_ loaded: ScenePipeline.Loaded, fps: Double? = nil) -> Result<
    Run, SceneTestError
  > {
    guard let graph = loaded.graph else { return .failure(SceneTestError(text: loaded.rendered())) }
    let renderer = DiagnosticRenderer(files: loaded.files)
    do {
      var runner = try SceneRunner(graph: graph, fps: fps)
      let context = OutputContext(graph: graph, precision: Self.snapshotPrecision, fps: runner.fps)
      var checker = ExpectationChecker(graph: graph, fps: runner.fps)
      var writer = FrameOutput.jsonl.writer(for: context)
      var bytes = TextBytes(capacity: 1 << 16)
      writer.begin(into: &bytes)
      var last: Frame?
      while let frame = try runner.nextFrame() {
        writer.frame(frame, into: &bytes)
        checker.observe(frame, simulation: runner.simulation)
        last = frame
      }
      writer.end(into: &bytes)
      let text = bytes.string
      checker.finishRun(runner.simulation, stoppedAtLimit: runner.stoppedAtLimit)
      let failures = checker.finish()
      var run = Run(
        frames: text, failedExpectations: failures.isEmpty ? nil : renderer.render(failures),
        stoppedAtLimit: runner.stoppedAtLimit ? runner.simulation.movingHandleNames : nil)
      run.look = SceneLook.json(of: graph)
      run.lastFrame = last
      run.context = context
      return .success(run)
    } catch {
      return .failure(SceneTestError(text: renderer.render(error.diagnostic)))
    }
  }

  /// The frame nearest `time` seconds, with the output context to render it.
  public func frame(at time: Double, fps: Double? = nil) -> Result<
    (OutputContext, Frame), SceneTestError
  > {
    let loaded: ScenePipeline.Loaded
    switch self.loaded() {
    case .success(let value): loaded = value
    case .failure(let error): return .failure(error)
    }
    guard let graph = loaded.graph else { return .failure(SceneTestError(text: loaded.rendered())) }
    do {
      var runner = try SceneRunner(graph: graph, fps: fps)
      let clock = FrameClock(fps: runner.fps)
      guard let wanted = clock.frame(nearest: time), wanted <= runner.lastFrame else {
        return .failure(
          SceneTestError(
            text:
              "error: the scene has frames 0 to \(runner.lastFrame); there is no frame at \(time.shortestDescription) s\n"
          ))
      }
      let context = OutputContext(graph: graph, precision: Self.snapshotPrecision, fps: runner.fps)
      var last: Frame?
      while let frame = try runner.nextFrame() {
        last = frame
        if frame.index == wanted { break }
      }
      guard let last else {
        return .failure(SceneTestError(text: "error: the scene has no frames\n"))
      }
      return .success((context, last))
    } catch {
      return .failure(
        SceneTestError(text: DiagnosticRenderer(files: loaded.files).render(error.diagnostic)))
    }
  }

  /// What one scene test found.
  public struct Report: Sendable {
    public var outcome: Outcome
    /// The rendered failures of its `expect:` lines, if any failed.
    public var failedExpectations: String?
    /// A warning to show whatever the outcome: an until-rest run that stopped at its
    /// `maxDuration` instead of coming to rest.
    public var warning: String?
    /// The run's last frame and its context, for a check of its picture.
    public var lastFrame: Frame?
    public var context: OutputContext?

    public init(outcome: Outcome, failedExpectations: String? = nil, warning: String? = nil) {
      self.outcome = outcome
      self.failedExpectations = failedExpectations
      self.warning = warning
    }
  }

  /// Runs the scene, checks its expectations and compares (or records) its snapshot.
  public func run(record: Bool = false, fps: Double? = nil) -> Report {
    let run: Run
    switch frames(fps: fps) {
    case .success(let result): run = result
    case .failure(let error): return Report(outcome: .invalid(error.text))
    }
    let warning = run.stoppedAtLimit.map { moving in
      "warning: \(TerminalText.escaped(scene)): the run stopped at its maxDuration without coming to rest"
        + (moving.isEmpty
          ? " (the gesture was still playing)\n"
          : "; still moving: \(moving.joined(separator: ", "))\n")
    }
    // A recording is only made of a scene that also meets its own expectations.
    if record && run.failedExpectations != nil {
      return Report(
        outcome: .notRecorded, failedExpectations: run.failedExpectations, warning: warning)
    }
    var report = Report(
      outcome: compare(run.frames, look: run.look, record: record),
      failedExpectations: run.failedExpectations, warning: warning)
    report.lastFrame = run.lastFrame
    report.context = run.context
    return report
  }

  func compare(_ actual: String, look: String, record: Bool) -> Outcome {
    if record {
      do {
        try OutputFile.createFolders(atPath: PathName.deletingLastComponent(snapshotPath))
      } catch {
        return .invalid("error: \(error.description)\n")
      }
      do {
        // Whole or not at all, through the same writer as `scenec run -o`; a cloned folder
        // may hold a snapshot that links elsewhere, so only inside the scene's folder.
        try AtomicFile.write(
          actual.utf8, to: snapshotPath, policy: WritePolicy(folder: sceneFolder))
        try AtomicFile.write(look.utf8, to: lookPath, policy: WritePolicy(folder: sceneFolder))
        return .recorded
      } catch {
        return .invalid("error: \(error.description)\n")
      }
    }
    switch compare(actual, with: snapshotPath) {
    case .missing: return .missingSnapshot
    case .unreadable(let message): return .invalid(message)
    case .different(let diff): return .mismatch(diff)
    case .same: break
    }
    switch compare(look, with: lookPath) {
    case .missing: return .missingLook
    case .unreadable(let message): return .invalid(message)
    case .different(let diff): return .lookMismatch(diff)
    case .same: return .passed
    }
  }

  /// How a snapshot file compares with what the run gave.
  enum Comparison {
    case same
    case missing
    case different(SnapshotDiff)
    case unreadable(String)
  }

  /// `actual` compared with the snapshot at `snapshotPath`, read only from inside the
  /// scene's folder.
  func compare(_ actual: String, with snapshotPath: String) -> Comparison {
    let bytes: [UInt8]
    switch snapshotBytes(at: snapshotPath) {
    case .success(nil): return .missing
    case .success(let read?): bytes = read
    case .failure(let error): return .unreadable(error.text)
    }
    let expected = String(decoding: bytes, as: UTF8.self)
    if let diff = SnapshotDiff.compare(expected: expected, actual: actual) {
      return .different(diff)
    }
    return .same
  }

  /// The bytes of the snapshot at `snapshotPath`, `nil` when there is none, or why it
  /// may not be read: one that leads outside the scene's folder (a link to a key, say)
  /// or is not a regular file is refused before it is read.
  public func snapshotBytes(at snapshotPath: String) -> Result<[UInt8]?, SceneTestError> {
    guard InputFile.kind(atPath: snapshotPath) != nil else { return .success(nil) }
    guard let real = FileIdentity.realPath(snapshotPath),
      OutputFile.isInside(real, folder: sceneFolder)
    else {
      return .failure(
        SceneTestError(
          text:
            "error: the snapshot '\(TerminalText.escaped(snapshotPath))' leads outside the scene's folder; snapshots are read and written only beside their scene\n"
        ))
    }
    guard InputFile.kind(atPath: real) == .regularFile,
      let bytes = try? InputFile.read(path: real, upTo: Self.maximumSnapshotBytes + 1),
      bytes.count <= Self.maximumSnapshotBytes
    else {
      return .failure(
        SceneTestError(
          text:
            "error: the snapshot '\(TerminalText.escaped(snapshotPath))' is not a regular file of at most \(Self.maximumSnapshotBytes >> 20) MiB\n"
        ))
    }
    return .success(bytes)
  }

  /// Every scene file under `paths` (files as given, directories searched), sorted,
  /// leaving out snapshot folders.
  public static func discover(_ paths: [String]) -> [String] {
    var problems: [String] = []
    return discover(paths, problems: &problems)
  }

  /// ``discover(_:)``, adding to `problems` a message for each folder that could not be
  /// searched (a folder that may not be read is not an empty one).
  public static func discover(_ paths: [String], problems: inout [String]) -> [String] {
    var found: [String] = []
    for path in paths {
      // A missing file is reported as unreadable when run.
      guard InputFile.kind(atPath: path) == .directory else {
        found.append(path)
        continue
      }
      // Listed through its real path: a folder reached by a symbolic link is searched too.
      let real = realpath(path, nil)
      defer { free(real) }
      let listed = real.map { String(cString: $0) } ?? path
      for relative in Self.files(under: listed, problems: &problems) {
        guard !relative.contains("__snapshots__"), SceneLoader.Syntax(fileName: relative) != nil
        else { continue }
        found.append(PathName.appending(relative, to: path))
      }
    }
    return found.sorted()
  }
}

extension SceneTest {
  /// Every file below `folder`, as paths relative to it: a folder that cannot be read is
  /// passed over, not the end of the search, and symbolic links to folders are not
  /// followed (no loops).
  static func files(under folder: String, problems: inout [String]) -> [String] {
    var found: [String] = []
    var pending = [""]
    while let relative = pending.popLast() {
      let directory = relative.isEmpty ? folder : PathName.appending(relative, to: folder)
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
        let reason =
          access(directory, R_OK | X_OK) == 0 ? "it cannot be listed" : "permission denied"
        problems.append(
          "cannot read the folder '\(TerminalText.escaped(directory))': \(reason)")
        continue
      }
      for entry in entries {
        let path = relative.isEmpty ? entry : relative + "/" + entry
        var status = stat()
        if lstat(PathName.appending(entry, to: directory), &status) == 0
          && status.st_mode & S_IFMT == S_IFDIR
        {
          pending.append(path)
        } else {
          found.append(path)
        }
      }
    }
    return found
  }
}

public struct SceneTestError: Error, Sendable {
  public var text: String
}
