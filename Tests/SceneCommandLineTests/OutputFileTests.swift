import Foundation
import SceneFiles
import SceneTestSupport
import Testing

/// Two writers of one file in one process (a scene and its twin recording the same
/// snapshot) each get a temporary file of their own, and the file ends whole.
@Suite struct OutputFileTests {
  @Test func twoWritersOfOneFileInOneProcessBothFinish() throws {
    let folder = try makeScratchFolder("scenec-output")
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("golden.jsonl").path
    var first = try OutputFile(path: target)
    var second = try OutputFile(path: target)
    let open = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(open.count == 2)
    #expect(open.allSatisfy { $0.hasPrefix(".golden.jsonl.scenec-") && $0.hasSuffix(".tmp") })
    try first.write(Array("one\n".utf8))
    try second.write(Array("two\n".utf8))
    try first.commit()
    try second.commit()
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["golden.jsonl"])
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "two\n")
  }
}
