import SceneDiagnostics
import SceneGeometry
import Testing

@testable import SceneSyntax

@Suite struct TraceFileTests {
  typealias Sample = TraceFile.Sample

  /// The error `text` fails with, as `line:column+length: message`.
  static func failure(_ text: String, maximumSamples: Int = TraceFile.maximumSamples) -> String {
    do {
      let trace = try TraceFile.parse(text, name: "t.csv", maximumSamples: maximumSamples)
      return "parsed \(trace.samples.count) samples"
    } catch {
      #expect(error.span.start.file == "t.csv")
      return
        "\(error.span.start.line):\(error.span.start.column)+\(error.span.length): \(error.message)"
    }
  }

  // MARK: - Reading

  /// A NUL byte ends a C string: `Double` alone read "1\0 2" as 1 and accepted it.
  @Test func controlCharactersInsideANumberAreRefused() {
    #expect(
      Self.failure("t,x,y,phase\n0,1\u{0}2,3,down\n")
        == "2:3+3: 'x' must be a number, found '1\u{FFFD}2'")
    #expect(
      Self.failure("0,1,2,down,1\u{0}\n")
        == "1:12+2: 'id' must be a whole number from 0 to 2147483647, found '1\u{FFFD}'")
  }

  @Test func csvWithHeader() throws {
    let text = "t,x,y,phase,id\r\n0, 10, 20, down, 0\r\n\r\n0.5,11.5,-2,move,0\n1,12,-3,up,\n"
    let trace = try TraceFile.parse(text, name: "a.csv")
    #expect(
      trace.samples == [
        Sample(time: 0, position: Vector(10, 20), phase: .down, pointer: 0),
        Sample(time: 0.5, position: Vector(11.5, -2), phase: .move, pointer: 0),
        Sample(time: 1, position: Vector(12, -3), phase: .up, pointer: nil),
      ])
    #expect(trace.duration == 1)
  }

  @Test func csvWithoutHeaderAndUIKitPhases() throws {
    let text = "  \n3,1,2,began\n3.25,1e1,2,\"moved\"\n3.5,4,5,Ended\n"
    let trace = try TraceFile.parse(text, name: "b.csv")
    #expect(
      trace.samples == [
        Sample(time: 3, position: Vector(1, 2), phase: .down),
        Sample(time: 3.25, position: Vector(10, 2), phase: .move),
        Sample(time: 3.5, position: Vector(4, 5), phase: .up),
      ])
    #expect(trace.duration == 0.5)
  }

  @Test func jsonLinesInAnyKeyOrder() throws {
    let text = """

      {"t":0,"x":1,"y":2,"phase":"down","id":0}
        { "phase" : "d\\u006fwn", "id": 1, "y": 4, "x": 3, "t": 0 }
      {"x":1.5,"y":2,"t":0.25,"phase":"moved","id":null}

      {"id":1,"t":0.5,"x":3,"y":4,"phase":"up"}
      """
    let trace = try TraceFile.parse(text, name: "c.jsonl")
    #expect(
      trace.samples == [
        Sample(time: 0, position: Vector(1, 2), phase: .down, pointer: 0),
        Sample(time: 0, position: Vector(3, 4), phase: .down, pointer: 1),
        Sample(time: 0.25, position: Vector(1.5, 2), phase: .move, pointer: nil),
        Sample(time: 0.5, position: Vector(3, 4), phase: .up, pointer: 1),
      ])
  }

  @Test func aMillionSamplesAndNoMore() {
    var text = "0,0,0,down\n"
    text.reserveCapacity(16 * TraceFile.maximumSamples)
    for n in 1...TraceFile.maximumSamples { text += "\(n),1,2,move\n" }
    #expect(Self.failure(text) == "1000001:1+16: the trace has more than 1000000 samples")
  }

  // MARK: - Errors

  @Test func emptyFiles() {
    #expect(Self.failure("") == "1:1+1: the trace file is empty")
    #expect(Self.failure(" \n\t\r\n") == "1:1+1: the trace file is empty")
    #expect(Self.failure("t,x,y,phase\n\n") == "1:1+1: the trace has no samples after its header")
  }

  @Test func csvFields() {
    #expect(Self.failure("0,abc,2,down") == "1:3+3: 'x' must be a number, found 'abc'")
    #expect(Self.failure("0,1,2,down\n1, 2 ,,move") == "2:7+1: empty field 'y'; expected a number")
    #expect(Self.failure("0,1,2") == "1:6+1: missing field 'phase'; a sample is t,x,y,phase[,id]")
    #expect(
      Self.failure("t,x,y,phase\n0,1,2,down,0")
        == "2:12+1: unexpected field '0'; a sample is t,x,y,phase")
    #expect(
      Self.failure("0,1,2,down,0,9") == "1:14+1: unexpected field '9'; a sample is t,x,y,phase[,id]"
    )
    #expect(
      Self.failure("0,1,2,down,-1")
        == "1:12+2: 'id' must be a whole number from 0 to 2147483647, found '-1'")
    #expect(
      Self.failure("0,1,2,down,1.5")
        == "1:12+3: 'id' must be a whole number from 0 to 2147483647, found '1.5'")
  }

  @Test func header() {
    #expect(
      Self.failure("time,x,y,phase\n")
        == "1:1+4: expected a time or the header 't,x,y,phase[,id]', found 'time'")
    #expect(Self.failure("t,x,z,phase\n") == "1:5+1: expected column 'y' in the header, found 'z'")
    #expect(
      Self.failure("t,x,y\n")
        == "1:6+1: missing column 'phase' in the header; expected t,x,y,phase[,id]")
    #expect(
      Self.failure("T, X, Y, Phase, ID, force\n")
        == "1:21+5: unexpected column 'force' in the header; expected t,x,y,phase[,id]")
  }

  @Test func nonFiniteNumbers() {
    #expect(Self.failure("nan,1,2,down") == "1:1+3: 't' must be finite, found 'nan'")
    #expect(Self.failure("0,inf,2,down") == "1:3+3: 'x' must be finite, found 'inf'")
    #expect(Self.failure("0,1,-1e999,down") == "1:5+6: 'y' must be finite, found '-1e999'")
    #expect(
      Self.failure(#"{"t":Infinity,"x":1,"y":2,"phase":"down"}"#)
        == "1:6+8: 't' must be finite, found 'Infinity'")
  }

  @Test func timesMustIncrease() throws {
    #expect(
      Self.failure("0,1,2,down\n0.5,1,2,move\n0.5,1,2,move")
        == "3:1+3: time '0.5' is not after the previous sample at '0.5'")
    #expect(
      Self.failure("0,1,2,down\n0.5,1,2,move\n0.25,1,2,move")
        == "3:1+4: time '0.25' is before the previous sample's time '0.5'")
    #expect(
      Self.failure("0,1,2,down,1\n0,5,5,down,1")
        == "2:1+1: time '0' is not after the previous sample of pointer 1 at '0'")
    // The note points at the previous sample.
    do {
      _ = try TraceFile.parse("0,1,2,down\n  0.5,1,2,move\n0.4,1,2,move", name: "n.csv")
      Issue.record("parsed")
    } catch {
      #expect(
        error.diagnostic.notes == [
          Diagnostic.Note(
            "the previous sample is here",
            at: SourceSpan(SourceLocation(file: "n.csv", line: 2, column: 3), length: 3))
        ])
      #expect(
        error.description == "n.csv:3:1: time '0.4' is before the previous sample's time '0.5'")
    }
    // Two fingers may go down at the same moment.
    #expect(try TraceFile.parse("0,1,2,down,0\n0,5,5,down,1", name: "two.csv").samples.count == 2)
  }

  @Test func phaseOrder() {
    #expect(Self.failure("0,1,2,move") == "1:7+4: 'move' before the first 'down'")
    #expect(Self.failure("0,1,2,ended") == "1:7+5: 'up' before the first 'down'")
    #expect(
      Self.failure("0,1,2,down\n1,1,2,move,1")
        == "2:7+4: 'move' of pointer 1 before the first 'down'")
    #expect(
      Self.failure("0,1,2,down\n1,1,2,up\n2,1,2,move")
        == "3:7+4: 'move' after 'up' without a new 'down'")
    #expect(
      Self.failure("0,1,2,down\n1,1,2,began")
        == "2:7+5: 'down' while already down; an 'up' must come first")
  }

  @Test func unknownPhases() {
    #expect(Self.failure("0,1,2,dwon") == "1:7+4: unknown phase 'dwon'; did you mean 'down'?")
    #expect(Self.failure("0,1,2,mvoe") == "1:7+4: unknown phase 'mvoe'; did you mean 'move'?")
    #expect(Self.failure("0,1,2,ennded") == "1:7+6: unknown phase 'ennded'; did you mean 'ended'?")
    #expect(Self.failure("0,1,2,jump") == "1:7+4: unknown phase 'jump'; expected down, move or up")
    #expect(
      Self.failure(#"{"t":0,"x":1,"y":2,"phase":"dówn"}"#)
        == "1:28+6: unknown phase 'dówn'; did you mean 'down'?")
  }

  @Test func jsonErrors() {
    #expect(
      Self.failure(#"{"t":0,"x":1,"y":2,"phsae":"down"}"#)
        == "1:20+7: unknown key 'phsae'; did you mean 'phase'?")
    #expect(
      Self.failure(#"{"t":0,"x":1,"y":2,"force":1}"#)
        == "1:20+7: unknown key 'force'; a sample has t, x, y, phase and optionally id")
    #expect(Self.failure(#"{"t":0,"x":1,"phase":"down"}"#) == "1:1+28: missing key 'y'")
    #expect(
      Self.failure(#"{"t":0,"x":"1","y":2,"phase":"down"}"#)
        == #"1:12+3: 'x' must be a number, found '"1"'"#)
    #expect(
      Self.failure(#"{"t":0,"x":1,"y":2,"phase":3}"#)
        == #"1:28+1: 'phase' must be a string such as "down", found '3'"#)
    #expect(Self.failure(#"{"t":0,"t":1}"#) == "1:8+3: duplicate key 't'")
    #expect(
      Self.failure(#"{"t":0 "x":1}"#)
        == "1:8+1: expected ',' or '}' after the value of 't', found '\"'")
    #expect(
      Self.failure(#"{"t":0,"x":1,}"#) == "1:14+1: expected a key in double quotes, found '}'")
    #expect(
      Self.failure(#"{"t":0,"x":1"#)
        == "1:13+1: expected ',' or '}' after the value of 'x', found the end of the line")
    #expect(
      Self.failure(#"{"t":0,"x":1,"y":2,"phase":"down"} x"#)
        == "1:36+1: unexpected text after the JSON object: 'x'")
    #expect(Self.failure(#"{"t":0,"x":1,"y":2,"phase":"do"#) == "1:28+3: unterminated string")
    #expect(
      Self.failure(#"{"t":0,"x":1,"y":2,"phase":"\q"}"#)
        == #"1:29+2: invalid escape '\q' in a string"#)
    #expect(
      Self.failure("{\"t\":0,\"x\":1,\"y\":2,\"phase\":\"down\"}\n0,1,2,move")
        == "2:1+1: expected a JSON object such as {\"t\":0,\"x\":1,\"y\":2,\"phase\":\"down\"}, found '0'"
    )
    // Columns count Unicode scalars, not bytes.
    #expect(
      Self.failure(#"{"phase":"úp","x":1,"y":2,"t":"0"}"#)
        == #"1:31+3: 't' must be a number, found '"0"'"#)
  }

  @Test func tooManySamples() {
    #expect(Self.failure("0,1,2,down\n1,1,2,move\n\n", maximumSamples: 2) == "parsed 2 samples")
    #expect(
      Self.failure("0,1,2,down\n1,1,2,move\n\n2,1,2,up", maximumSamples: 2)
        == "4:1+8: the trace has more than 2 samples")
  }

  @Test func diagnosticsRender() {
    do {
      _ = try TraceFile.parse("t,x,y,phase\n0,1,2,dwon\n", name: "swipe.csv")
      Issue.record("parsed")
    } catch {
      let file = SourceFile(name: "swipe.csv", text: "t,x,y,phase\n0,1,2,dwon\n")
      #expect(error.diagnostic.message == "unknown phase 'dwon'; did you mean 'down'?")
      #expect(file.snippet(for: error.span) == "    0,1,2,dwon\n          ^~~~")
    }
  }
}
