import Testing

@testable import ScenePreview

/// Every message from the page is checked, and a bad one is refused with a clear reason.
@Suite struct PreviewMessageTests {
  @Test func pointerMessagesParse() throws {
    #expect(
      try PreviewMessage.parse(#"{"type":"pointer","phase":"down","id":2,"x":10.5,"y":-3}"#)
        == .pointer(.down, id: 2, x: 10.5, y: -3))
    #expect(
      try PreviewMessage.parse(#"{"type":"control","action":"stop-recording"}"#)
        == .control(.stopRecording))
    #expect(try PreviewMessage.parse(#"{"type":"speed","value":0.1}"#) == .speed(0.1))
    #expect(
      try PreviewMessage.parse(#"{"type":"save","trace":"a.csv","scene":"","confirm":"t1"}"#)
        == .save(trace: "a.csv", scene: nil, confirm: "t1"))
    #expect(
      try PreviewMessage.parse(#"{"type":"input","name":"loading","value":1}"#)
        == .input(name: "loading", value: 1))
    #expect(
      try PreviewMessage.parse(#"{"type":"tune","index":3,"value":0.25}"#)
        == .tune(index: 3, value: 0.25))
    #expect(try PreviewMessage.parse(#"{"type":"save-tuning"}"#) == .saveTuning)
    #expect(try PreviewMessage.parse(#"{"type":"seek","frame":40}"#) == .seek(frame: 40))
    #expect(
      try PreviewMessage.parse(#"{"type":"frames","from":3,"to":9}"#) == .frames(from: 3, to: 9))
    #expect(
      try PreviewMessage.parse(#"{"type":"control","action":"replay"}"#) == .control(.replay))
  }

  @Test(arguments: [
    ("not json", "a message must be a JSON object"),
    ("[1,2]", "a message must be a JSON object"),
    ("{}", "a message needs a 'type'"),
    (#"{"type":7}"#, "'type' has the wrong type"),
    (
      #"{"type":"hello"}"#,
      "unknown message type 'hello' (pointer, control, speed, save, input, tune, save-tuning, seek or frames)"
    ),
    (
      #"{"type":"pointer","phase":"hover","id":0,"x":0,"y":0}"#,
      "a pointer message needs a 'phase' of down, move, up or cancel"
    ),
    (#"{"type":"pointer","phase":"down","x":0,"y":0}"#, "a message needs 'id'"),
    (#"{"type":"pointer","phase":"down","id":99,"x":0,"y":0}"#, "'id' must be between 0 and 31"),
    (#"{"type":"pointer","phase":"down","id":1.5,"x":0,"y":0}"#, "'id' must be a whole number"),
    (#"{"type":"pointer","phase":"down","id":0,"x":"a","y":0}"#, "'x' has the wrong type"),
    (#"{"type":"pointer","phase":"down","id":0,"x":true,"y":0}"#, "'x' has the wrong type"),
    (
      #"{"type":"pointer","phase":"down","id":0,"x":1e300,"y":0}"#,
      "'x' must be between -1000000 and 1000000"
    ),
    (
      #"{"type":"control","action":"explode"}"#,
      "a control message needs an 'action': one of pause, resume, toggle, step, restart, script, record, replay, stop-recording, show-guides, hide-guides"
    ),
    (#"{"type":"speed","value":5}"#, "'value' must be between 0.1 and 2"),
    (#"{"type":"save"}"#, "a save message needs a 'trace' file name"),
    (#"{"type":"input","value":1}"#, "an input message needs a 'name' (at most 256 bytes)"),
    (#"{"type":"input","name":"a"}"#, "a message needs 'value'"),
    (
      #"{"type":"input","name":"a","value":1e300}"#,
      "'value' must be between -1000000000000000 and 1000000000000000"
    ),
    (#"{"type":"tune","value":1}"#, "a message needs 'index'"),
    (#"{"type":"tune","index":0.5,"value":1}"#, "'index' must be a whole number"),
    (#"{"type":"tune","index":-1,"value":1}"#, "'index' must be between 0 and 9999"),
    (#"{"type":"tune","index":0,"value":"x"}"#, "'value' has the wrong type"),
    (#"{"type":"seek"}"#, "a message needs 'frame'"),
    (#"{"type":"seek","frame":2.5}"#, "'frame' must be a whole number"),
    (#"{"type":"seek","frame":-3}"#, "'frame' must be between 0 and 1000000000"),
    (#"{"type":"frames","from":3}"#, "a message needs 'to'"),
    (#"{"type":"frames","from":3,"to":1.5}"#, "'from' and 'to' must be whole numbers"),
    (#"{"type":"frames","from":9,"to":3}"#, "'from' must not be after 'to'"),
  ])
  func badMessagesAreRefusedWordForWord(text: String, reason: String) {
    #expect(throws: PreviewMessage.Refusal(description: reason)) { try PreviewMessage.parse(text) }
  }

  @Test func oversizedMessagesAreRefusedBeforeParsing() {
    let text = #"{"type":"speed","value":1,"pad":""# + String(repeating: "x", count: 5000) + #""}"#
    #expect(throws: PreviewMessage.Refusal(description: "a message is larger than 4096 bytes")) {
      try PreviewMessage.parse(text)
    }
  }

  @Test func fileNamesForRecordingsAreChecked() throws {
    try PreviewHub.check(name: "pull-1.csv", extensions: ["csv", "jsonl"], what: "a trace")
    for bad in ["../x.csv", "a/b.csv", ".hidden.csv", "-x.csv", "x.txt", "", "x y.csv"] {
      #expect(throws: PreviewHub.SaveError.self) {
        try PreviewHub.check(name: bad, extensions: ["csv", "jsonl"], what: "a trace")
      }
    }
  }
}
