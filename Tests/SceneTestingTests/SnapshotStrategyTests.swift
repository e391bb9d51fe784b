import Foundation
import SceneTestingSnapshots
import SnapshotTesting
import Testing

/// The strategies a Swift test suite uses, on the repository's own scenes.
///
/// Their golden files live in `__Snapshots__/` beside this file (swift-snapshot-testing's
/// layout). The wave's frames are not a second copy: `wave.1.jsonl` is a symbolic link to the
/// scene's own golden, `Scenes/__snapshots__/wave.jsonl`, which `scenec test` checks.
///
/// Missing snapshots are recorded on a developer's machine but never on CI, where a
/// missing one fails.
@Suite(.snapshots(record: ProcessInfo.processInfo.environment["CI"] == nil ? .missing : .never))
struct SnapshotStrategyTests {
  static let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Scenes")

  /// README.md's sample, verbatim (`swift test` runs in the package's folder).
  @Test func wave() {
    assertSnapshot(of: SceneFile("Scenes/wave.yaml"), as: .frames)  // JSON lines
    assertSnapshot(of: SceneFile("Scenes/wave.yaml"), as: .svg(at: 0.65))  // one frame
  }

  @Test func svgOfTheStickyBallStretched() {
    assertSnapshot(
      of: SceneFile(Self.scenes.appendingPathComponent("sticky-ball.yaml").path), as: .svg(at: 0.5))
  }
}
