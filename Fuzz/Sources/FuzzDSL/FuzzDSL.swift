import Foundation
import SceneDiagnostics
import SceneSyntax

/// Any bytes as a DSL scene: read, decode, and render every diagnostic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDSL(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: start, count: count)
  let result = SceneLoader.load(data: Data(bytes), name: "fuzz.scene", syntax: .dsl)
  _ = DiagnosticRenderer(files: result.file.map { [$0] } ?? []).render(result.diagnostics)
  return 0
}

/// libFuzzer's driver, given the test function: SwiftPM links an executable's entry
/// point as `FuzzDSL_main`, where libFuzzer's own `main` would otherwise be.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("FuzzDSL_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments) { fuzzDSL($0, $1) }
}
