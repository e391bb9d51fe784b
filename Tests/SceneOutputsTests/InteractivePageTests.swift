import Foundation
import SceneTestSupport
import Testing

@testable import SceneOutputs

/// What the interactive page asks of the engine: the functions its script calls, and how
/// a module's exports are read to check an engine has them.
@Suite struct InteractivePageTests {
  /// A module of `sections` (id, contents), after the header.
  static func module(_ sections: [(UInt8, [UInt8])]) -> [UInt8] {
    var bytes: [UInt8] = [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00]
    for (id, contents) in sections { bytes += [id, UInt8(contents.count)] + contents }
    return bytes
  }

  /// An export section naming `names`, each a function (kind 0) of index 0.
  static func exports(_ names: [String]) -> [UInt8] {
    var contents = [UInt8(names.count)]
    for name in names { contents += [UInt8(name.utf8.count)] + Array(name.utf8) + [0, 0] }
    return contents
  }

  @Test func everyEngineFunctionThePageCallsIsChecked() {
    let script = String(decoding: PackageResources.interactive_js, as: UTF8.self)
    var called = Set<String>()
    var rest = script[...]
    while let start = rest.range(of: "scenec_") {
      let name = rest[start.lowerBound...].prefix { $0.isLetter || $0 == "_" }
      called.insert(String(name))
      rest = rest[start.upperBound...]
    }
    #expect(called.union(["memory"]) == Set(InteractivePage.engineExports))
  }

  @Test func theExportsOfAModuleAreRead() {
    let names = ["memory", "scenec_load", "scenec_frame"]
    // A type section first, skipped; then the exports.
    let bytes = Self.module([(1, [1, 0x60, 0, 0]), (7, Self.exports(names))])
    #expect(InteractivePage.exportedNames(of: bytes) == names)
    #expect(InteractivePage.exportedNames(of: Self.module([])) == [])
  }

  @Test func aModuleThatCannotBeReadIsNil() {
    let good = Self.module([(7, Self.exports(["memory", "scenec_load"]))])
    // Every truncation of it, a section longer than the file, a number that never ends.
    for length in 0..<good.count where length != 8 {
      #expect(InteractivePage.exportedNames(of: Array(good[..<length])) == nil, "\(length)")
    }
    #expect(InteractivePage.exportedNames(of: Self.module([]) + [7, 0x7F]) == nil)
    #expect(
      InteractivePage.exportedNames(of: Self.module([]) + [7, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        == nil)
    #expect(InteractivePage.exportedNames(of: Array("not wasm".utf8)) == nil)
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: repositoryPath(".build-wasm/scenec-engine.wasm")),
      "the WebAssembly engine is not built here (Scripts/build-wasm)"))
  func theBuiltEngineHasEveryFunctionThePageCalls() throws {
    let bytes = Array(
      try Data(contentsOf: URL(fileURLWithPath: repositoryPath(".build-wasm/scenec-engine.wasm"))))
    let exported = try #require(InteractivePage.exportedNames(of: bytes))
    #expect(InteractivePage.engineExports.allSatisfy(exported.contains))
  }
}
