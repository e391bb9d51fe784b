import Foundation
import SceneTestSupport
import Testing

/// `scenec test --images`: each scene's picture at its end against `__snapshots__/NAME.png`.
@Suite struct ImageSnapshotTests {
  /// A folder with a copy of the toggle scene and its snapshots.
  func scratchToggle() throws -> URL {
    let folder = try makeScratchFolder("scenec-images")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("__snapshots__"), withIntermediateDirectories: true)
    for name in ["toggle.yaml", "__snapshots__/toggle.jsonl", "__snapshots__/toggle.look.json"] {
      try FileManager.default.copyItem(
        at: RunCommandTests.root.appendingPathComponent("Scenes").appendingPathComponent(name),
        to: folder.appendingPathComponent(name))
    }
    return folder
  }

  @Test func aPictureIsRecordedThenCompared() throws {
    let folder = try scratchToggle()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("toggle.yaml").path
    let image = folder.appendingPathComponent("__snapshots__/toggle.png").path
    let missing = try ScenecProcess.run(["test", scene, "--images"])
    #expect(missing.status == 1)
    #expect(
      missing.stdout == """
        FAIL \(scene)
          no image snapshot at \(image); record it with: scenec test \(scene) --images --record
        0 passed, 1 failed

        """)
    #expect(try ScenecProcess.run(["test", scene, "--images", "--record"]).status == 0)
    #expect(FileManager.default.fileExists(atPath: image))
    let again = try ScenecProcess.run(["test", scene, "--images"])
    #expect(again.status == 0 && again.stdout == "PASS \(scene)\n1 passed, 0 failed\n")
    // Without --images the picture is not looked at.
    #expect(try ScenecProcess.run(["test", scene]).status == 0)
  }

  @Test func aDifferentPictureFailsAndShowsWhere() throws {
    let folder = try scratchToggle()
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("toggle.yaml").path
    let image = folder.appendingPathComponent("__snapshots__/toggle.png").path
    // The switch on, 0.5 s in, where the run ends with it off: the same size, a knob and
    // a track apart.
    #expect(try ScenecProcess.run(["run", scene, "--at", "0.5s", "-o", image, "-q"]).status == 0)
    let failed = try ScenecProcess.run(["test", scene, "--images"])
    #expect(failed.status == 1)
    let diff = folder.appendingPathComponent("__snapshots__/toggle.diff.png").path
    #expect(failed.stdout.hasPrefix("FAIL \(scene)\n  the picture at its end differs: "))
    #expect(failed.stdout.contains(" of 24000 pixels by more than 16 (at most "))
    #expect(failed.stdout.contains("; where, in magenta: \(diff)\n"))
    #expect(FileManager.default.fileExists(atPath: diff))
    // A looser tolerance does not hide a knob on the other side.
    #expect(try ScenecProcess.run(["test", scene, "--images", "--tolerance", "200"]).status == 1)
    #expect(
      try ScenecProcess.run(["test", scene, "--images", "--tolerance", "300"]).status == 64)
    // Re-recorded, it passes, and the picture of the old difference is gone.
    #expect(try ScenecProcess.run(["test", scene, "--images", "--record"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: diff))
  }
}
