import FuzzSupport
import SceneOutputs
import ScenePipeline
import SceneRuntime
import SceneSyntax

/// Any bytes as a scene (the first byte picks YAML or the DSL): load, resolve, and if that
/// succeeds run half a second at 60 fps through every output; frames must hold only
/// finite numbers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = FuzzSupport.bytes(start, count)
  guard let first = bytes.first else { return 0 }
  let syntax: SceneLoader.Syntax = first & 1 == 0 ? .yaml : .dsl
  let read = readScene(bytes.dropFirst(), syntax: syntax)
  let loaded = ScenePipeline.resolve(read, sceneFile: "/nonexistent/fuzz")
  _ = loaded.rendered()
  guard let graph = loaded.graph else { return 0 }
  guard var runner = try? SceneRunner(graph: graph, fps: 60, duration: 0.5)
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
    _ = format.bytes(of: frames, context: context)
  }
  return 0
}

@_cdecl("FuzzPipeline_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  fuzzerMain(argc, argv, fuzzPipeline)
}
