import Testing

@testable import SceneDiagnostics

/// The word-at-a-time line scan against a byte-at-a-time one, on seeded texts dense in
/// `\r`, `\n` and multi-byte scalars, at every alignment a word can straddle.
@Suite struct LineBreaksTests {
  /// Every break, one byte at a time: the rule the scan must keep.
  static func reference(_ bytes: [UInt8]) -> (breaks: [[Int]], isASCII: Bool) {
    var breaks: [[Int]] = []
    var at = 0
    while at < bytes.count {
      if bytes[at] == UInt8(ascii: "\r") && at + 1 < bytes.count
        && bytes[at + 1] == UInt8(ascii: "\n")
      {
        breaks.append([at, 2])
        at += 2
        continue
      }
      if bytes[at] == UInt8(ascii: "\n") || bytes[at] == UInt8(ascii: "\r") {
        breaks.append([at, 1])
      }
      at += 1
    }
    return (breaks, bytes.allSatisfy { $0 < 0x80 })
  }

  static func scanned(_ bytes: [UInt8]) -> (breaks: [[Int]], isASCII: Bool) {
    var breaks: [[Int]] = []
    let isASCII = bytes.withUnsafeBufferPointer { buffer in
      LineBreaks.scan(buffer) { offset, length in breaks.append([offset, length]) }
    }
    return (breaks, isASCII)
  }

  @Test func matchesAByteAtATimeScan() {
    // xorshift64*, seeded: texts of 0 to 60 bytes from pieces that put breaks anywhere
    // in a word, `\r\n` across a word's end included.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      state ^= state >> 12
      state ^= state << 25
      state ^= state >> 27
      return state &* 2_685_821_657_736_338_717
    }
    let pieces: [[UInt8]] = [
      [UInt8(ascii: "a")], [UInt8(ascii: "\n")], [UInt8(ascii: "\r")],
      [UInt8(ascii: "\r"), UInt8(ascii: "\n")], Array("é".utf8), Array("−".utf8),
      Array("abcdefg".utf8),
    ]
    var breaksSeen = 0
    for _ in 0..<5_000 {
      var bytes: [UInt8] = []
      let target = Int(next() % 61)
      while bytes.count < target { bytes += pieces[Int(next() % UInt64(pieces.count))] }
      let expected = Self.reference(bytes)
      let found = Self.scanned(bytes)
      #expect(found.breaks == expected.breaks, "\(bytes)")
      #expect(found.isASCII == expected.isASCII, "\(bytes)")
      breaksSeen += expected.breaks.count
    }
    #expect(breaksSeen > 10_000)
  }

  @Test func edges() {
    #expect(Self.scanned([]).breaks.isEmpty && Self.scanned([]).isASCII)
    // `\r\n` split across the first word's end, and a non-ASCII byte in the tail.
    let straddling = Array("abcdefg\r\nxy\u{e9}".utf8)
    #expect(Self.scanned(straddling).breaks == [[7, 2]])
    #expect(!Self.scanned(straddling).isASCII)
    // A lone `\r` as the last byte.
    #expect(Self.scanned(Array("abc\r".utf8)).breaks == [[3, 1]])
  }

  /// `SourceFile` cuts its lines at these breaks.
  @Test func sourceFileLines() {
    let file = SourceFile(name: "t", text: "one\r\ntwo\rthree\n\nfour é\r\n")
    #expect(file.lineCount == 6)
    #expect(
      (1...6).map { file.line($0).map(String.init) } == [
        "one", "two", "three", "", "four é", "",
      ])
  }
}
