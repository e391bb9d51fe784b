import Foundation
import SceneDiagnostics
import ScenePipeline
import SceneSyntax

/// libFuzzer's driver, given the test function.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer on `test` with the process's arguments.
///
/// SwiftPM links an executable's
/// entry point as `MODULE_main`, where libFuzzer's own `main` would otherwise be, so each
/// target's entry point calls this.
public func fuzzerMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments, test)
}

/// The input as bytes.
public func bytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> UnsafeBufferPointer<UInt8> {
  UnsafeBufferPointer(start: start, count: count)
}

/// Reads `bytes` as a scene in `syntax` and renders every diagnostic, as `scenec check`
/// would print them.
public func readScene(_ bytes: some Collection<UInt8>, syntax: SceneLoader.Syntax)
  -> SceneLoader.Result
{
  let result = SceneLoader.load(data: Data(bytes), name: "fuzz", syntax: syntax)
  _ = DiagnosticRenderer(files: result.file.map { [$0] } ?? []).render(result.diagnostics)
  return result
}
