import Foundation
import SceneTestingSnapshots
import SnapshotTesting
import Testing

/// The strategies a Swift test suite uses, on the repository's own scenes; their golden
/// files live in `__Snapshots__/` beside this file (swift-snapshot-testing's layout).
@Suite struct SnapshotStrategyTests {
  static let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Scenes")

  @Test func framesOfTheWave() {
    assertSnapshot(of: SceneFile(Self.scenes.appendingPathComponent("wave.yaml").path), as: .frames)
  }

  @Test func svgOfTheStickyBallStretched() {
    assertSnapshot(of: SceneFile(Self.scenes.appendingPathComponent("sticky-ball.yaml").path), as: .svg(at: 0.5))
  }
}
