import FuzzSupport

/// Any bytes as a YAML scene: read, decode, and render every diagnostic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  _ = readScene(bytes(start, count), syntax: .yaml)
  return 0
}

@_cdecl("FuzzYAML_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  fuzzerMain(argc, argv, fuzzYAML)
}
