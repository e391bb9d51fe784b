/// The line breaks of UTF-8 text: `\n`, `\r\n` (one break) and a lone `\r`, as YAML and
/// the DSL's lexer both count lines.
///
/// Every reader splits its whole input into lines before anything else, so this is one of
/// the few passes over every byte. It reads eight bytes at a time and looks at single
/// bytes only in a word that holds a `\n` or a `\r` (SWAR: SIMD within a register), which
/// is about one word in six in a scene file: a tenth of the instructions of a loop over
/// every byte.
package enum LineBreaks {
  /// Calls `found(offset, length)` for every break, in order, and says whether every
  /// byte is ASCII.
  ///
  /// `offset` is that of the break's first byte; `length` is 2 for `\r\n`, else 1.
  @inline(__always)
  package static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, _ found: (_ offset: Int, _ length: Int) -> Void
  ) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let count = bytes.count
    var high: UInt64 = 0
    var offset = 0
    // The `\n` of a `\r\n` whose `\r` ended the word before: already counted.
    var skip = -1
    func single(_ at: Int) {
      let byte = base[at]
      if byte == UInt8(ascii: "\n") {
        if at != skip { found(at, 1) }
      } else if byte == UInt8(ascii: "\r") {
        if at + 1 < count && base[at + 1] == UInt8(ascii: "\n") {
          found(at, 2)
          skip = at + 1
        } else {
          found(at, 1)
        }
      }
    }
    let raw = UnsafeRawPointer(base)
    while offset + 8 <= count {
      let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      high |= word
      if containsByte(word, 0x0A) || containsByte(word, 0x0D) {
        for at in offset..<offset + 8 { single(at) }
      }
      offset += 8
    }
    while offset < count {
      high |= UInt64(base[offset])
      single(offset)
      offset += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }

  /// Whether any of the eight bytes of `word` is `byte`: the classic exact test for a
  /// zero byte, applied to `word` XOR `byte` in every lane.
  @inline(__always)
  static func containsByte(_ word: UInt64, _ byte: UInt8) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let x = word ^ (ones &* UInt64(byte))
    return (x &- ones) & ~x & (ones &* 0x80) != 0
  }
}
