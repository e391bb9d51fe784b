import Foundation
import Testing

@Suite struct RunCommandTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
  static let scenes: [String] = {
    let names =
      (try? FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent("Scenes").path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".scene") }.sorted()
  }()

  func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test(arguments: scenes)
  func everySceneChecksAndRunsClean(name: String) throws {
    let path = Self.root.appendingPathComponent("Scenes").appendingPathComponent(name).path
    let check = try ScenecProcess.run(["check", path])
    #expect(check.status == 0, "\(check.stderr)")
    let run = try ScenecProcess.run(["run", path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr == "")
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count > 1)
    for line in lines {
      #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
      #expect(!line.contains("nan") && !line.contains("inf"))
    }
  }

  @Test func twinScenesRunToTheSameBytes() throws {
    for base in ["wave", "drag-along-curve"] {
      let scenes = Self.root.appendingPathComponent("Scenes")
      let yaml = try ScenecProcess.run(["run", scenes.appendingPathComponent(base + ".yaml").path])
      let dsl = try ScenecProcess.run(["run", scenes.appendingPathComponent(base + ".scene").path])
      #expect(yaml.stdout == dsl.stdout, "\(base) twins differ")
    }
  }

  @Test func runsAreDeterministicToTheByte() throws {
    let wave = Self.root.appendingPathComponent("Scenes/wave.yaml").path
    let a = try ScenecProcess.run(["run", wave, "--format", "csv"])
    let b = try ScenecProcess.run(["run", wave, "--format", "csv"])
    #expect(a.status == 0 && a.stdout == b.stdout)
  }

  @Test func aSingleFrameAndItsTime() throws {
    let wave = Self.root.appendingPathComponent("Scenes/wave.yaml").path
    let byFrame = try ScenecProcess.run(["run", wave, "--frame", "30"])
    let byTime = try ScenecProcess.run(["run", wave, "--at", "0.5s"])
    #expect(byFrame.status == 0 && byFrame.stdout == byTime.stdout)
    #expect(byFrame.stdout.hasPrefix("{\"events\":[],\"frame\":30,"))
    #expect(byFrame.stdout.split(separator: "\n").count == 1)
    let missing = try ScenecProcess.run(["run", wave, "--frame", "100000"])
    #expect(missing.status == 64)
  }

  @Test func aFailingRunLeavesNoFileAndKeepsAnExistingOne() throws {
    let dir = try scratch()
    let scene = dir.appendingPathComponent("bad.yaml")
    try "let:\n  k: 1 / (time - time)\nhandles:\n  h: { position: [k, 0] }\n".write(
      to: scene, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("frames.jsonl")
    let failed = try ScenecProcess.run(["run", scene.path, "-o", out.path])
    #expect(failed.status == 65)
    #expect(
      failed.stderr.hasPrefix("\(scene.path):2:3: error: let 'k' is not a finite number at t = 0"))
    #expect(!FileManager.default.fileExists(atPath: out.path))
    try "good\n".write(to: out, atomically: true, encoding: .utf8)
    _ = try ScenecProcess.run(["run", scene.path, "-o", out.path])
    #expect(try String(contentsOf: out, encoding: .utf8) == "good\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
        "bad.yaml", "frames.jsonl",
      ])
  }

  @Test func formatsComeFromTheExtensionOrTheFlag() throws {
    let dir = try scratch()
    let wave = Self.root.appendingPathComponent("Scenes/wave.yaml").path
    let csv = dir.appendingPathComponent("wave.csv")
    #expect(try ScenecProcess.run(["run", wave, "-o", csv.path]).status == 0)
    #expect(
      try String(contentsOf: csv, encoding: .utf8).hasPrefix("frame,time,handle,x,y,angle,state\n"))
    let unknown = try ScenecProcess.run([
      "run", wave, "-o", dir.appendingPathComponent("wave.xyz").path,
    ])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("cannot tell the format of"))
    let bad = try ScenecProcess.run(["run", wave, "--format", "tiff"])
    #expect(bad.status == 64)
    #expect(try ScenecProcess.run(["run", "/nonexistent.yaml"]).status == 66)
  }

  @Test func theFrameCapIsEnforced() throws {
    let wave = Self.root.appendingPathComponent("Scenes/car-along-path.yaml").path
    let result = try ScenecProcess.run(["run", wave, "--max-frames", "100"])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: the scene would run 720 frames; the limit is 100 (raise it with --max-frames)\n")
  }
}

@Suite struct RunToDevicesTests {
  @Test func runningToDevNullWritesJSONLinesAndLeavesTheDeviceAlone() throws {
    let wave = RunCommandTests.root.appendingPathComponent("Scenes/wave.yaml").path
    let result = try ScenecProcess.run(["run", wave, "-o", "/dev/null"])
    #expect(result.status == 0 && result.stderr == "")
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: "/dev/null", isDirectory: &isDirectory))
    let type =
      try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
    #expect(type == .typeCharacterSpecial)
  }
}
