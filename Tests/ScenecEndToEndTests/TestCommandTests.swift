import Foundation
import Testing

@Suite struct TestCommandTests {
  static let root = RunCommandTests.root

  func scratchCopyOfTheWave() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("__snapshots__"), withIntermediateDirectories: true)
    for name in ["wave.yaml", "__snapshots__/wave.jsonl", "__snapshots__/wave.look.json"] {
      try FileManager.default.copyItem(
        at: Self.root.appendingPathComponent("Scenes").appendingPathComponent(name),
        to: dir.appendingPathComponent(name))
    }
    return dir
  }

  /// `swift test` runs the scene tests of `Scenes/` end to end.
  @Test func everySceneMatchesItsSnapshot() throws {
    let result = try ScenecProcess.run(["test", Self.root.appendingPathComponent("Scenes").path])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.hasSuffix(" passed, 0 failed\n"))
  }

  /// A snapshot with no scene, or a scene with no snapshot, fails the meta-test.
  @Test func snapshotsAndScenesPairUp() throws {
    let scenes = Self.root.appendingPathComponent("Scenes")
    let files = try FileManager.default.contentsOfDirectory(atPath: scenes.path)
    let stems = Set(
      files.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".scene") }.map {
        ($0 as NSString).deletingPathExtension
      })
    let snapshots = Set(
      try FileManager.default.contentsOfDirectory(
        atPath: scenes.appendingPathComponent("__snapshots__").path
      )
      // `wave.jsonl` and `wave.look.json` are both the wave's.
      .map { ($0 as NSString).deletingPathExtension.replacingOccurrences(of: ".look", with: "") })
    #expect(
      stems == snapshots,
      "scenes without snapshots: \(stems.subtracting(snapshots)); snapshots without scenes: \(snapshots.subtracting(stems))"
    )
  }

  @Test func changingASpringConstantPointsAtTheFirstFrameAndFieldThatMoved() throws {
    let dir = try scratchCopyOfTheWave()
    let scene = dir.appendingPathComponent("wave.yaml")
    let text = try String(contentsOf: scene, encoding: .utf8)
    try text.replacingOccurrences(of: "dampingRatio: 0.57", with: "dampingRatio: 0.8").write(
      to: scene, atomically: true, encoding: .utf8)
    let failed = try ScenecProcess.run(["test", scene.path])
    #expect(failed.status == 1)
    #expect(failed.stdout.contains("FAIL \(scene.path)\n  first difference at frame 43, handles."))
    #expect(
      failed.stdout.contains(
        "  if the change is intended, re-record with: scenec test \(scene.path) --record\n"))
    #expect(failed.stdout.hasSuffix("0 passed, 1 failed\n"))
    // Re-recording makes it pass.
    #expect(try ScenecProcess.run(["test", scene.path, "--record"]).status == 0)
    let again = try ScenecProcess.run(["test", scene.path])
    #expect(again.status == 0 && again.stdout == "PASS \(scene.path)\n1 passed, 0 failed\n")
  }

  @Test func aMissingSnapshotFailsAndSaysHowToRecordIt() throws {
    let dir = try scratchCopyOfTheWave()
    try FileManager.default.removeItem(at: dir.appendingPathComponent("__snapshots__/wave.jsonl"))
    let scene = dir.appendingPathComponent("wave.yaml").path
    let result = try ScenecProcess.run(["test", scene])
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        FAIL \(scene): no snapshot at \(dir.path)/__snapshots__/wave.jsonl; record it with: scenec test \(scene) --record
        0 passed, 1 failed

        """)
    #expect(
      !FileManager.default.fileExists(
        atPath: dir.appendingPathComponent("__snapshots__/wave.jsonl").path))
  }

  /// A fill or a size that no frame carries still fails the test, naming what changed.
  @Test(arguments: [
    (
      "fill: \"#394359\"", "fill: \"#ff0000\"",
      "the look at rest differs at paths.wave.fill: expected \"#394359\", got \"#ff0000\""
    ),
    (
      "size: 375x300", "size: 375x320",
      "the look at rest differs at scene.height: expected 300, got 320"
    ),
  ])
  func aChangedLookFailsAndSaysWhatChanged(old: String, new: String, message: String) throws {
    let dir = try scratchCopyOfTheWave()
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = dir.appendingPathComponent("wave.yaml")
    let text = try String(contentsOf: scene, encoding: .utf8)
    #expect(text.contains(old))
    try text.replacingOccurrences(of: old, with: new).write(
      to: scene, atomically: true, encoding: .utf8)
    let failed = try ScenecProcess.run(["test", scene.path])
    #expect(failed.status == 1)
    #expect(
      failed.stdout == """
        FAIL \(scene.path)
          \(message)
          if the change is intended, re-record with: scenec test \(scene.path) --record
        0 passed, 1 failed

        """)
  }

  @Test func aMissingLookSnapshotFailsAndSaysHowToRecordIt() throws {
    let dir = try scratchCopyOfTheWave()
    defer { try? FileManager.default.removeItem(at: dir) }
    let look = dir.appendingPathComponent("__snapshots__/wave.look.json")
    try FileManager.default.removeItem(at: look)
    let scene = dir.appendingPathComponent("wave.yaml").path
    let result = try ScenecProcess.run(["test", scene])
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        FAIL \(scene): no look snapshot at \(dir.path)/__snapshots__/wave.look.json; record it with: scenec test \(scene) --record
        0 passed, 1 failed

        """)
    #expect(try ScenecProcess.run(["test", scene, "--record"]).status == 0)
    #expect(FileManager.default.fileExists(atPath: look.path))
    #expect(try ScenecProcess.run(["test", scene]).status == 0)
  }

  @Test func anInvalidSceneIsAnErrorNotARecording() throws {
    let dir = try scratchCopyOfTheWave()
    let bad = dir.appendingPathComponent("bad.yaml")
    try "handles:\n  b: { positon: [1, 2] }\n".write(to: bad, atomically: true, encoding: .utf8)
    let result = try ScenecProcess.run(["test", bad.path, "--record"])
    #expect(result.status == 65)
    #expect(result.stderr.contains("unknown key 'positon'"))
    #expect(
      !FileManager.default.fileExists(
        atPath: dir.appendingPathComponent("__snapshots__/bad.jsonl").path))
  }
}

@Suite struct TestCommandParallelTests {
  @Test func aParallelRunReportsExactlyWhatASerialRunDoes() throws {
    let scenes = RunCommandTests.root.appendingPathComponent("Scenes").path
    let parallel = try ScenecProcess.run(["test", scenes])
    let serial = try ScenecProcess.run(["test", scenes, "--jobs", "1"])
    #expect(parallel == serial)
  }
}
