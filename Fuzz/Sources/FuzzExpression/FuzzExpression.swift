import FuzzSupport
import SceneDiagnostics
import SceneSyntax

/// Any text as an expression and as an expectation; what parses must print and parse back
/// to the same tree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let text = String(decoding: bytes(start, count), as: UTF8.self)
  let origin = SourceSpan(SourceLocation(file: "fuzz", line: 1, column: 1))
  if let expression = try? ExpressionParser.parse(text, at: origin, verbatim: true) {
    let again = try? ExpressionParser.parse(expression.text, at: origin, verbatim: true)
    precondition(again == expression, "expression does not round-trip: \(text)")
  }
  _ = try? ExpectationParser.parse(text, at: origin, verbatim: true)
  return 0
}

@_cdecl("FuzzExpression_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  fuzzerMain(argc, argv, fuzzExpression)
}
