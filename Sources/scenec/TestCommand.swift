import ArgumentParser
import Dispatch
import SceneCommandLine
import SceneDiagnostics
import SceneFiles
import SceneGraph
import SceneOutputs
import SceneRaster
import SceneTesting

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

/// `scenec test`: scene-level snapshot tests.
struct TestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Run scenes and compare their frames with golden snapshots.",
    discussion: """
      Finds the scenes under the given paths (default Scenes/), runs them in parallel and
      checks each one's expect: lines and compares its JSON-lines frames with
      __snapshots__/NAME.jsonl beside it (a
      YAML scene and its .scene twin share one). A difference is reported at the first
      frame and field that changed, with a short diff. A missing snapshot fails and says
      how to record it; --record (re)writes the snapshots of the scenes that ran.
      Ends with a line 'N passed, M failed'. Exit status: 0 all passed, 1 a test failed,
      65 a scene is invalid.

      Examples:
        scenec test
        scenec test Scenes/wave.yaml --record
      """
  )

  @Argument(help: "Scene files or folders (default: Scenes).")
  var paths: [String] = []

  @Flag(help: "Write the snapshots instead of comparing.")
  var record = false

  @Option(help: "Only scenes whose path contains this text.")
  var filter: String?

  @Option(help: "Run at this frame rate (snapshots are recorded at the scenes' own).")
  var fps: Double?

  @Option(help: "How many scenes to run at once (default: all cores).")
  var jobs: Int?

  @Flag(
    help:
      "Also compare each scene's picture at its end with __snapshots__/NAME.png (with --record, write it)."
  )
  var images = false

  @Option(help: "With --images, the largest difference of a colour channel (0…255) still the same.")
  var tolerance: Int = ImageSnapshot.defaultTolerance

  func validate() throws {
    if let fps, !FrameClock.fpsRange.contains(fps) {
      throw ValidationError("--fps must be \(FrameClock.fpsRangeDescription)")
    }
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    if !(0...255).contains(tolerance) {
      throw ValidationError("--tolerance must be between 0 and 255")
    }
  }

  func run() throws {
    var problems: [String] = []
    let scenes = SceneTest.discover(paths.isEmpty ? ["Scenes"] : paths, problems: &problems)
      .filter { filter == nil || $0.contains(filter ?? "") }
    // A folder that cannot be searched fails the run: its scenes were not tested.
    for problem in problems { printError("error: \(problem)") }
    guard problems.isEmpty else {
      try StandardOutput.write("0 passed, \(problems.count) failed")
      throw Sysexits.noInput
    }
    guard !scenes.isEmpty else {
      try StandardOutput.write("0 passed, 0 failed")
      return
    }
    let outcomes = Self.runAll(
      scenes.map(SceneTest.init(scene:)), record: record, fps: fps, jobs: jobs)
    var passed = 0
    var failed = 0
    var invalid = 0
    for (scene, report) in zip(scenes, outcomes) {
      let (outcome, failedExpectations) = (report.outcome, report.failedExpectations)
      // A file name can hold terminal escapes ("PASS" drawn over a failure): never raw.
      let shown = TerminalText.escaped(scene)
      if let warning = report.warning { printError(warning, terminator: "") }
      if let failedExpectations, outcome == .passed {
        failed += 1
        try StandardOutput.write("FAIL \(shown)")
        try StandardOutput.write(failedExpectations, terminator: "")
        continue
      }
      if let failedExpectations, outcome != .notRecorded {
        try StandardOutput.write(failedExpectations, terminator: "")
      }
      if images, outcome == .passed || outcome == .recorded,
        let problem = checkImage(scene, report: report, record: outcome == .recorded)
      {
        failed += 1
        try StandardOutput.write("FAIL \(shown)")
        try StandardOutput.write("  " + problem)
        continue
      }
      switch outcome {
      case .passed:
        passed += 1
        try StandardOutput.write("PASS \(shown)")
      case .recorded:
        passed += 1
        let test = SceneTest(scene: scene)
        try StandardOutput.write(
          "RECORDED \(shown) → \(TerminalText.escaped(test.snapshotPath)), \(TerminalText.escaped(PathName.lastComponent(test.lookPath)))"
        )
      case .mismatch(let diff):
        failed += 1
        try StandardOutput.write("FAIL \(shown)")
        try StandardOutput.write(
          diff.report.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
            .joined(separator: "\n"))
        try StandardOutput.write(
          "  if the change is intended, re-record with: scenec test \(shown) --record")
      case .lookMismatch(let diff):
        failed += 1
        try StandardOutput.write("FAIL \(shown)")
        try StandardOutput.write("  " + diff.lookReport)
        try StandardOutput.write(
          "  if the change is intended, re-record with: scenec test \(shown) --record")
      case .missingLook:
        failed += 1
        try StandardOutput.write(
          "FAIL \(shown): no look snapshot at \(TerminalText.escaped(SceneTest(scene: scene).lookPath)); record it with: scenec test \(shown) --record"
        )
      case .notRecorded:
        failed += 1
        try StandardOutput.write("FAIL \(shown): not recorded, because its own expectations fail")
        try StandardOutput.write(failedExpectations ?? "", terminator: "")
      case .missingSnapshot:
        failed += 1
        try StandardOutput.write(
          "FAIL \(shown): no snapshot at \(TerminalText.escaped(SceneTest(scene: scene).snapshotPath)); record it with: scenec test \(shown) --record"
        )
      case .invalid(let diagnostics):
        failed += 1
        invalid += 1
        try StandardOutput.write("ERROR \(shown)")
        printError(diagnostics, terminator: "")
      }
    }
    try StandardOutput.write("\(passed) passed, \(failed) failed")
    if invalid > 0 { throw Sysexits.dataError }
    if failed > 0 { throw ExitCode(1) }
  }

  /// With `--images`: the scene's picture at its end against `__snapshots__/NAME.png`.
  ///
  /// Recorded there with `--record`. What is wrong, or `nil`; a difference writes a
  /// picture of where, `__snapshots__/NAME.diff.png`.
  func checkImage(_ scene: String, report: SceneTest.Report, record: Bool) -> String? {
    let problem = imageProblem(scene, report: report, record: record)
    // The picture of an old difference goes once the pictures agree again.
    let test = SceneTest(scene: scene)
    let diffPath = PathName.deletingPathExtension(test.imagePath) + ".diff.png"
    if problem == nil, let real = FileIdentity.realPath(diffPath),
      OutputFile.isInside(real, folder: test.sceneFolder),
      InputFile.kind(atPath: real) == .regularFile
    {
      unlink(real)
    }
    return problem
  }

  /// ``checkImage(_:report:record:)`` without the clearing of an old difference.
  func imageProblem(_ scene: String, report: SceneTest.Report, record: Bool) -> String? {
    let test = SceneTest(scene: scene)
    guard let frame = report.lastFrame, let context = report.context else {
      return "the scene has no frame to draw"
    }
    let png: [UInt8]
    do {
      png = try SVGRaster.png(
        FrameOutput.svg.bytes(of: [frame], context: context), scale: 1)
    } catch {
      return "its picture could not be drawn: \(error.description)"
    }
    let policy = WritePolicy(folder: test.sceneFolder)
    if record {
      do {
        try AtomicFile.write(png, to: test.imagePath, policy: policy)
      } catch {
        return "cannot record its picture: \(error.description)"
      }
      return nil
    }
    let expected: [UInt8]
    switch test.snapshotBytes(at: test.imagePath) {
    case .success(let bytes?): expected = bytes
    case .success(nil):
      return
        "no image snapshot at \(TerminalText.escaped(test.imagePath)); record it with: scenec test \(TerminalText.escaped(scene)) --images --record"
    case .failure(let error):
      return String(error.text.drop { $0 == "\n" }.reversed().drop { $0 == "\n" }.reversed())
    }
    let difference: ImageSnapshot.Difference?
    do {
      difference = try ImageSnapshot.compare(expected: expected, actual: png, tolerance: tolerance)
    } catch {
      return "its image snapshot cannot be read: \(error.description)"
    }
    guard let difference else { return nil }
    let diffPath = PathName.deletingPathExtension(test.imagePath) + ".diff.png"
    let written = (try? AtomicFile.write(difference.diffPNG, to: diffPath, policy: policy)) != nil
    return
      "the picture at its end differs: \(difference.differing) of \(difference.pixels) pixels by more than \(tolerance) (at most \(difference.largest))"
      + (written ? "; where, in magenta: \(TerminalText.escaped(diffPath))" : "")
  }

  /// Runs every test, in parallel on all cores; the results come back in the given order.
  ///
  /// Every test's outcome in the order given, whatever order they ran in.
  static func runAll(_ tests: [SceneTest], record: Bool, fps: Double?, jobs: Int?) -> [SceneTest
    .Report]
  {
    let results = ResultSlots(count: tests.count)
    let workers = min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, tests.count)
    // Each worker takes every `workers`-th test, so no two run the same one.
    DispatchQueue.concurrentPerform(iterations: max(workers, 1)) { worker in
      for index in stride(from: worker, to: tests.count, by: max(workers, 1)) {
        results.set(index, tests[index].run(record: record, fps: fps))
      }
    }
    return results.values
  }
}

/// One slot per test, each written by exactly one worker, read after all have finished.
///
/// No lock: the slots are separate memory, no two workers write the same one, and
/// `concurrentPerform` returns only after every worker has (which orders their writes
/// before the read).
final class ResultSlots: @unchecked Sendable {
  private let storage: UnsafeMutableBufferPointer<SceneTest.Report?>

  init(count: Int) {
    storage = .allocate(capacity: count)
    storage.initialize(repeating: nil)
  }

  deinit {
    storage.deinitialize()
    storage.deallocate()
  }

  func set(_ index: Int, _ outcome: SceneTest.Report) { storage[index] = outcome }

  var values: [SceneTest.Report] {
    storage.map { $0 ?? SceneTest.Report(outcome: .invalid("error: the test did not run\n")) }
  }
}
