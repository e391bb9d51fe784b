import FuzzSupport
import SceneSyntax

/// Any text as a trace file (CSV or JSON lines); a trace that parses must hold only finite
/// numbers and times that never go back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let text = String(decoding: bytes(start, count), as: UTF8.self)
  guard let trace = try? TraceFile.parse(text, name: "fuzz.csv") else { return 0 }
  var previous = -Double.infinity
  for sample in trace.samples {
    precondition(
      sample.time.isFinite && sample.position.isFinite, "a non-finite sample was accepted")
    precondition(sample.time >= previous, "time went back")
    previous = sample.time
  }
  return 0
}

@_cdecl("FuzzTrace_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  fuzzerMain(argc, argv, fuzzTrace)
}
