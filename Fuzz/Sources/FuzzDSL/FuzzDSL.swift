import FuzzSupport

/// Any bytes as a DSL scene: read, decode, and render every diagnostic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDSL(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  _ = readScene(bytes(start, count), syntax: .dsl)
  return 0
}

@_cdecl("FuzzDSL_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  fuzzerMain(argc, argv, fuzzDSL)
}
