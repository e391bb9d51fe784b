/// The full-line comments of a scene file, kept so that `fmt` can write them back.
///
/// A block of comment lines belongs to the scene item that follows it: the `scene`
/// header, a let, spring, handle or path, a constraint, a gesture step, an expectation.
/// A comment before a section (`handles:`) goes with the section's first item, since the
/// DSL has no section lines. Comments at the end of a line, inside a multi-line item, or
/// after the last item are not kept. The comment block at the top of the file is the
/// header, which `fmt` writes separately.
public struct SceneComments: Sendable {
  /// Each block's comment lines (the text after `#`, one leading space removed), keyed by
  /// the first line of content after it.
  var blocks: [(nextLine: Int, lines: [String])] = []

  public init() {}

  /// The comment blocks of `text` after its header block (see ``SceneLoader/header(of:)``).
  public init(text: String) {
    var pending: [String] = []
    var inHeader = true
    var lineNumber = 0
    for rawLine in text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    {
      lineNumber += 1
      let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine[...]
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("#") {
        if !inHeader {
          var comment = trimmed.dropFirst()
          if comment.hasPrefix(" ") { comment = comment.dropFirst() }
          pending.append(String(comment))
        }
        continue
      }
      inHeader = false
      if trimmed.isEmpty { continue }
      if !pending.isEmpty {
        blocks.append((lineNumber, pending))
        pending = []
      }
    }
  }

  /// Hands each block to the first of `itemLines` (sorted, ascending) at or after it.
  /// - Returns: the comment lines for each item line that gets any.
  func assign(to itemLines: [Int]) -> [Int: [String]] {
    var result: [Int: [String]] = [:]
    var index = 0
    for block in blocks {
      while index < itemLines.count && itemLines[index] < block.nextLine { index += 1 }
      guard index < itemLines.count else { break }
      result[itemLines[index], default: []] += block.lines
    }
    return result
  }
}
