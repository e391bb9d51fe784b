import Foundation
import SceneOutputs
import SceneRuntime
import SceneTesting
import SnapshotTesting

/// A scene file to snapshot in a Swift test suite.
///
/// ```swift
/// assertSnapshot(of: SceneFile("Scenes/wave.yaml"), as: .frames)
/// assertSnapshot(of: SceneFile("Scenes/wave.yaml"), as: .svg(at: 0.65))
/// ```
public struct SceneFile: Sendable {
  public let path: String

  public init(_ path: String) { self.path = path }
}

extension Snapshotting where Value == SceneFile, Format == String {
  /// Every frame as JSON lines at 3 decimals (the `scenec test` snapshot format); the
  /// scene's own `expect:` failures, if any, are part of the text so they show in the diff.
  public static var frames: Snapshotting {
    var strategy = Snapshotting<String, String>.lines.pullback { (scene: SceneFile) -> String in
      switch SceneTest(scene: scene.path).frames() {
      case .success(let run):
        return run.frames + (run.failedExpectations.map { "# expectations failed:\n" + $0 } ?? "")
      case .failure(let error): return "# the scene did not run:\n" + error.text
      }
    }
    strategy.pathExtension = "jsonl"
    return strategy
  }

  /// The frame nearest `time` seconds as a standalone SVG.
  public static func svg(at time: Double) -> Snapshotting {
    var strategy = Snapshotting<String, String>.lines.pullback { (scene: SceneFile) -> String in
      switch SceneTest(scene: scene.path).frame(at: time) {
      case .success(let (context, frame)):
        return FrameOutput.svg.text(of: [frame], context: context)
      case .failure(let error): return "<!-- the scene did not run:\n" + error.text + "-->\n"
      }
    }
    strategy.pathExtension = "svg"
    return strategy
  }
}
