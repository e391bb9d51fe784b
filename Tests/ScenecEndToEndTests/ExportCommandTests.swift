import Foundation
import Testing

/// `scenec export swift`: prints or writes the Swift, and never writes over its scene.
@Suite struct ExportCommandTests {
  @Test func printsTheSwiftAndWritesItWhereAsked() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = RunCommandTests.root.appendingPathComponent("Scenes/bottom-sheet.yaml").path
    let printed = try ScenecProcess.run(["export", "swift", scene])
    #expect(printed.status == 0, "\(printed.stderr)")
    #expect(printed.stdout.hasPrefix("// The springs, easings and momentum of \"Bottom sheet\""))
    #expect(printed.stdout.contains("enum SettleSpring {"))
    let file = folder.appendingPathComponent("Motion.swift").path
    let written = try ScenecProcess.run(["export", "swift", scene, "-o", file])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.stdout)
  }

  @Test func neverWritesOverItsScene() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("wave.yaml")
    try FileManager.default.copyItem(
      at: RunCommandTests.root.appendingPathComponent("Scenes/wave.yaml"), to: scene)
    let before = try Data(contentsOf: scene)
    let run = try ScenecProcess.run(["export", "swift", scene.path, "-o", scene.path])
    #expect(run.status == 73)
    #expect(run.stderr.contains("error:"))
    #expect(try Data(contentsOf: scene) == before)
  }

  @Test func aSceneWithErrorsIsReportedAndNothingIsPrinted() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("bad.yaml").path
    try "springs:\n  s: { dampingRatio: 0.5 }\n".write(
      toFile: scene, atomically: true, encoding: .utf8)
    let run = try ScenecProcess.run(["export", "swift", scene])
    #expect(run.status == 65)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("bad.yaml:2:3: error: spring 's' needs dampingRatio and duration"))
  }
}

/// `scenec schema`: the JSON Schema, printed or written.
@Suite struct SchemaCommandTests {
  @Test func printsAndWritesTheSchema() throws {
    let printed = try ScenecProcess.run(["schema"])
    #expect(printed.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8))
    #expect((object as? [String: Any])?["title"] as? String == "A scenec scene (YAML)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("scene.schema.json").path
    #expect(try ScenecProcess.run(["schema", "-o", file]).status == 0)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.stdout)
  }
}
