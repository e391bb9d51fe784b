import Foundation
import Testing

@testable import SceneTesting

@Suite struct SnapshotDiffTests {
  @Test func equalStreamsHaveNoDifference() {
    #expect(SnapshotDiff.compare(expected: "{\"a\":1}\n", actual: "{\"a\":1}\n") == nil)
  }

  @Test func theFirstDifferingFrameAndFieldAreNamed() throws {
    let expected = """
      {"frame":0,"handles":{"c":{"x":1,"y":50}},"time":0}
      {"frame":1,"handles":{"c":{"x":1,"y":60}},"time":0.017}

      """
    let actual = """
      {"frame":0,"handles":{"c":{"x":1,"y":50}},"time":0}
      {"frame":1,"handles":{"c":{"x":1,"y":61.5}},"time":0.017}

      """
    let diff = try #require(SnapshotDiff.compare(expected: expected, actual: actual))
    #expect(diff.line == 1)
    #expect(diff.field == "handles.c.y")
    #expect(diff.expected == "60" && diff.actual == "61.5")
    #expect(
      diff.report == """
        first difference at frame 1, handles.c.y: expected 60, got 61.5
        @@ frame 1 @@
         {"frame":0,"handles":{"c":{"x":1,"y":50}},"time":0}
        -{"frame":1,"handles":{"c":{"x":1,"y":60}},"time":0.017}
        +{"frame":1,"handles":{"c":{"x":1,"y":61.5}},"time":0.017}

        """)
  }

  @Test func missingFramesAndKeysAreReported() throws {
    let shorter = try #require(
      SnapshotDiff.compare(expected: "{\"a\":1}\n{\"a\":2}\n", actual: "{\"a\":1}\n"))
    #expect(shorter.line == 1 && shorter.field == nil && shorter.actual == "")
    let key = try #require(SnapshotDiff.compare(expected: "{\"a\":1,\"b\":2}", actual: "{\"a\":1}"))
    #expect(key.field == "b" && key.actual == "<missing>")
    let list = try #require(
      SnapshotDiff.compare(expected: "{\"e\":[1,2]}", actual: "{\"e\":[1,3]}"))
    #expect(list.field == "e[1]")
  }

  @Test func snapshotsLiveBesideTheScene() {
    #expect(SceneTest(scene: "Scenes/wave.yaml").snapshotPath == "Scenes/__snapshots__/wave.jsonl")
    #expect(SceneTest(scene: "Scenes/wave.scene").snapshotPath == "Scenes/__snapshots__/wave.jsonl")
  }
}

/// `SceneTest.discover`: the scene files below a folder, by POSIX walk.
@Suite struct DiscoverTests {
  /// Scene files in nested folders are found, snapshot folders and other files left out,
  /// and a symbolic link that loops back to its own folder ends the walk, not the process.
  @Test func findsSceneFilesBelowAFolderAndSurvivesALinkLoop() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("scenec-discover-\(getpid())")
    let fileManager = FileManager.default
    try fileManager.createDirectory(
      at: folder.appendingPathComponent("a/b/__snapshots__"), withIntermediateDirectories: true)
    defer { try? fileManager.removeItem(at: folder) }
    for name in [
      "top.yaml", "a/one.scene", "a/b/two.yml", "a/b/notes.txt", "a/b/__snapshots__/two.yaml",
    ] {
      try Data("x".utf8).write(to: folder.appendingPathComponent(name))
    }
    try fileManager.createSymbolicLink(
      atPath: folder.appendingPathComponent("a/b/loop").path, withDestinationPath: "..")
    let root = folder.path
    #expect(
      SceneTest.discover([root]) == [
        root + "/a/b/two.yml", root + "/a/one.scene", root + "/top.yaml",
      ])
  }
}
