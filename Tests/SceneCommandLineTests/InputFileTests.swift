import Foundation
import SceneFiles
import Testing

/// `InputFile`: bounded reads and what a path is, by POSIX calls.
@Suite struct InputFileTests {
  @Test func readsAtMostTheLimit() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-input-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("bytes").path
    // More than one 64 KiB chunk, so the loop's joins are exercised.
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(try InputFile.read(path: path, upTo: 1_000_000) == bytes)
    #expect(try InputFile.read(path: path, upTo: 70_001) == Array(bytes.prefix(70_001)))
    #expect(try InputFile.read(path: path, upTo: 0) == [])
    #expect(InputFile.kind(atPath: path) == .regularFile)
    #expect(InputFile.kind(atPath: folder.path) == .directory)
    #expect(InputFile.kind(atPath: "/dev/null") == .other)
    #expect(InputFile.kind(atPath: folder.appendingPathComponent("none").path) == nil)
  }

  @Test func aMissingFileIsAnErrorWhileOpening() {
    #expect {
      try InputFile.read(path: "/nonexistent/scenec-input", upTo: 10)
    } throws: { error in
      let error = error as? InputFile.ReadError
      return error?.whileOpening == true && error?.reason == "No such file or directory"
    }
  }

  /// Linux opens a folder for reading and refuses at the first read: the error after
  /// opening, which `SceneLoader` reports as "read failed" (it refuses folders before).
  @Test func aFolderFailsWhileReading() {
    #expect {
      try InputFile.read(path: FileManager.default.temporaryDirectory.path, upTo: 10)
    } throws: { error in
      let error = error as? InputFile.ReadError
      return error?.whileOpening == false && error?.reason == "Is a directory"
    }
  }
}
