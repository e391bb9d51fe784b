import SceneDiagnostics
import SceneSyntax

/// Any text as an expression and as an expectation; what parses must print and parse back
/// to the same tree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  let origin = SourceSpan(SourceLocation(file: "fuzz", line: 1, column: 1))
  if let expression = try? ExpressionParser.parse(text, at: origin, verbatim: true) {
    let again = try? ExpressionParser.parse(expression.text, at: origin, verbatim: true)
    precondition(again == expression, "expression does not round-trip: \(text)")
  }
  _ = try? ExpectationParser.parse(text, at: origin, verbatim: true)
  return 0
}

/// libFuzzer's driver, given the test function: SwiftPM links an executable's entry
/// point as `FuzzExpression_main`, where libFuzzer's own `main` would otherwise be.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("FuzzExpression_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments) { fuzzExpression($0, $1) }
}
