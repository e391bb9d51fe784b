import Foundation
import SceneOutputs
import ScenePipeline
import SceneRuntime
import SceneSyntax

/// Any bytes as a scene (the first byte picks YAML or the DSL): load, resolve, and if that
/// succeeds run half a second at 60 fps through every output, whose frames must hold only finite numbers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: start, count: count)
  guard let first = bytes.first else { return 0 }
  let syntax: SceneLoader.Syntax = first & 1 == 0 ? .yaml : .dsl
  let read = SceneLoader.load(data: Data(bytes.dropFirst()), name: "fuzz", syntax: syntax)
  let loaded = ScenePipeline.resolve(read, sceneFile: "/nonexistent/fuzz")
  _ = loaded.rendered()
  guard let graph = loaded.graph else { return 0 }
  guard var runner = try? SceneRunner(graph: graph, traces: loaded.traces, fps: 60, duration: 0.5)
  else { return 0 }
  let context = OutputContext(graph: graph, precision: 3, fps: 60)
  var frames: [Frame] = []
  while let frame = try? runner.nextFrame() {
    frames.append(frame)
    for handle in frame.handles {
      precondition(
        handle.x.isFinite && handle.y.isFinite && handle.angle.isFinite,
        "a frame holds a non-finite handle")
    }
  }
  for format in OutputRegistry.builtIn {
    _ =
      format.begin(context) + frames.map { format.frame(context, $0) }.joined()
      + format.end(context, frames)
  }
  return 0
}

/// libFuzzer's driver, given the test function: SwiftPM links an executable's entry
/// point as `FuzzPipeline_main`, where libFuzzer's own `main` would otherwise be.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("FuzzPipeline_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments) { fuzzPipeline($0, $1) }
}
