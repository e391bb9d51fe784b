import Foundation
import SceneDiagnostics
import SceneGraph
import SceneOutputs
import SceneRuntime
import SceneSyntax

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
    let stem = ((scene as NSString).lastPathComponent as NSString).deletingPathExtension
    return ((scene as NSString).deletingLastPathComponent as NSString)
      .appendingPathComponent("__snapshots__/" + stem + ".jsonl")
  }

  /// The frames of a run as JSON lines, and the rendered failures of its `expect:` lines
  /// (`nil` when every expectation held).
  public struct Run: Sendable {
    public var frames: String
    public var failedExpectations: String?
  }

  /// The scene's frames as JSON lines, or the diagnostics that stopped it.
  public func frames(fps: Double? = nil) -> Result<Run, SceneTestError> {
    let loaded: SceneLoader.Result
    do {
      loaded = try SceneLoader.load(path: scene)
    } catch {
      return .failure(SceneTestError(text: "error: \(error.description)\n"))
    }
    var renderer = DiagnosticRenderer(files: loaded.file.map { [$0] } ?? [])
    guard let spec = loaded.spec else {
      return .failure(SceneTestError(text: renderer.render(loaded.diagnostics)))
    }
    let resolved = SceneResolver.resolve(spec)
    guard let graph = resolved.graph else {
      return .failure(SceneTestError(text: renderer.render(resolved.errors.map(\.diagnostic))))
    }
    let traces = TraceLoader.load(for: graph, sceneFile: scene)
    traces.files.forEach { renderer.add($0) }
    guard traces.diagnostics.isEmpty else { return .failure(SceneTestError(text: renderer.render(traces.diagnostics))) }
    do {
      var runner = try SceneRunner(graph: graph, traces: traces.traces, fps: fps)
      let context = OutputContext(graph: graph, precision: Self.snapshotPrecision, fps: runner.fps)
      var checker = ExpectationChecker(graph: graph, fps: runner.fps)
      var text = ""
      while let frame = try runner.nextFrame() {
        text += FrameOutput.jsonl.frame(context, frame)
        checker.observe(frame, simulation: runner.simulation)
      }
      let failures = checker.finish()
      return .success(Run(frames: text, failedExpectations: failures.isEmpty ? nil : renderer.render(failures)))
    } catch {
      return .failure(SceneTestError(text: renderer.render(error.diagnostic)))
    }
  }

  /// The frame nearest `time` seconds, with the output context to render it.
  public func frame(at time: Double, fps: Double? = nil) -> Result<(OutputContext, Frame), SceneTestError> {
    let loaded: SceneLoader.Result
    do {
      loaded = try SceneLoader.load(path: scene)
    } catch {
      return .failure(SceneTestError(text: "error: \(error.description)\n"))
    }
    let renderer = DiagnosticRenderer(files: loaded.file.map { [$0] } ?? [])
    guard let spec = loaded.spec else { return .failure(SceneTestError(text: renderer.render(loaded.diagnostics))) }
    let resolved = SceneResolver.resolve(spec)
    guard let graph = resolved.graph else {
      return .failure(SceneTestError(text: renderer.render(resolved.errors.map(\.diagnostic))))
    }
    let traces = TraceLoader.load(for: graph, sceneFile: scene)
    do {
      var runner = try SceneRunner(graph: graph, traces: traces.traces, fps: fps)
      let wanted = Int((time * runner.fps).rounded())
      let context = OutputContext(graph: graph, precision: Self.snapshotPrecision, fps: runner.fps)
      var last: Frame?
      while let frame = try runner.nextFrame() {
        last = frame
        if frame.index == wanted { break }
      }
      guard let last else { return .failure(SceneTestError(text: "error: the scene has no frames\n")) }
      return .success((context, last))
    } catch {
      return .failure(SceneTestError(text: renderer.render(error.diagnostic)))
    }
  }

  /// Runs the scene, checks its expectations and compares (or records) its snapshot.
  public func run(record: Bool = false, fps: Double? = nil) -> (outcome: Outcome, failedExpectations: String?) {
    let run: Run
    switch frames(fps: fps) {
    case .success(let result): run = result
    case .failure(let error): return (.invalid(error.text), nil)
    }
    // A recording is only made of a scene that also meets its own expectations.
    if record && run.failedExpectations != nil { return (.invalid(run.failedExpectations ?? ""), nil) }
    return (compare(run.frames, record: record), run.failedExpectations)
  }

  func compare(_ actual: String, record: Bool) -> Outcome {
    if record {
      do {
        try FileManager.default.createDirectory(
          atPath: (snapshotPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(actual.utf8).write(to: URL(fileURLWithPath: snapshotPath), options: .atomic)
        return .recorded
      } catch {
        return .invalid("error: cannot write '\(snapshotPath)': \(error.localizedDescription)\n")
      }
    }
    guard let expected = try? String(contentsOfFile: snapshotPath, encoding: .utf8) else { return .missingSnapshot }
    if let diff = SnapshotDiff.compare(expected: expected, actual: actual) { return .mismatch(diff) }
    return .passed
  }

  /// Every scene file under `paths` (files as given, directories searched), sorted,
  /// leaving out snapshot folders.
  public static func discover(_ paths: [String]) -> [String] {
    var found: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        found.append(path)  // Reported as unreadable when run.
        continue
      }
      guard isDirectory.boolValue else {
        found.append(path)
        continue
      }
      let enumerator = FileManager.default.enumerator(atPath: path)
      while let relative = enumerator?.nextObject() as? String {
        guard !relative.contains("__snapshots__"), SceneLoader.Syntax(fileName: relative) != nil else { continue }
        found.append((path as NSString).appendingPathComponent(relative))
      }
    }
    return found.sorted()
  }
}

public struct SceneTestError: Error, Sendable {
  public var text: String
}
