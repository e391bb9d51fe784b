import Foundation
import Testing

/// The README's terminal sessions (`$ scenec …` and what it printed) are run for real, and
/// what scenec prints now must be what the README shows.
///
/// A session abbreviated with `…`
/// is only run, since its text cannot be compared.
@Suite struct ReadmeCommandTests {
  /// Files the README's sessions read, written into a scratch folder that also links the
  /// repository's `Scenes/`.
  static let fixtures = ["bad.yaml": "handles:\n  ball: { positon: [1, 2], hitRadius: big }\n"]

  struct Session {
    var arguments: [String]
    var expected: String
  }

  /// Every `$ scenec …` line of README.md's code blocks, with the lines after it.
  static func sessions() throws -> [Session] {
    let text = try String(
      contentsOf: RunCommandTests.root.appendingPathComponent("README.md"), encoding: .utf8)
    var sessions: [Session] = []
    var inBlock = false
    var current: Int?  // The session whose output is being read, within one block.
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inBlock.toggle()
        current = nil
        continue
      }
      guard inBlock else { continue }
      if line.hasPrefix("$ scenec ") {
        sessions.append(Session(arguments: try words(String(line.dropFirst(9))), expected: ""))
        current = sessions.count - 1
      } else if let current, !(line.isEmpty && sessions[current].expected.isEmpty) {
        sessions[current].expected += line + "\n"
      }
    }
    // A blank line separates two sessions in one block.
    return sessions.map { session in
      var session = session
      while session.expected.hasSuffix("\n\n") { session.expected.removeLast() }
      return session
    }
  }

  /// A command line split into words, double quotes grouping.
  static func words(_ line: String) throws -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in line {
      if character == "\"" {
        quoted.toggle()
        started = true
      } else if character == " " && !quoted {
        if started { words.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
        started = true
      }
    }
    if started { words.append(current) }
    return words
  }

  @Test func theReadmeShowsWhatScenecPrints() throws {
    let sessions = try Self.sessions()
    #expect(sessions.count >= 5)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-readme-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for (name, text) in Self.fixtures {
      try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    }
    try FileManager.default.createSymbolicLink(
      at: dir.appendingPathComponent("Scenes"),
      withDestinationURL: RunCommandTests.root.appendingPathComponent("Scenes"))
    for session in sessions {
      let result = try ScenecProcess.run(session.arguments, directory: dir)
      let printed = result.stdout + result.stderr
      if session.expected.contains("…") {
        #expect(
          !printed.isEmpty, "scenec \(session.arguments.joined(separator: " ")) printed nothing")
        // The parts around each ellipsis must still be there.
        for part in session.expected.split(separator: "…") where part.count > 12 {
          let piece = part.trimmingCharacters(in: .whitespacesAndNewlines)
          #expect(
            printed.contains(piece.prefix(40)),
            "scenec \(session.arguments.joined(separator: " ")): no '\(piece.prefix(40))'")
        }
      } else {
        #expect(printed == session.expected, "scenec \(session.arguments.joined(separator: " "))")
      }
    }
  }

  /// Each SVG picture in README.md is what the command written under it draws today.
  @Test func theReadmePicturesAreWhatScenecDraws() throws {
    let root = RunCommandTests.root
    let readme = try String(
      contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let pattern = try NSRegularExpression(pattern: "`scenec run ([^`]*) -o (docs/[^ `]+\\.svg)`")
    let matches = pattern.matches(in: readme, range: NSRange(readme.startIndex..., in: readme))
    #expect(matches.count >= 2)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-pictures-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for (k, match) in matches.enumerated() {
      guard let arguments = Range(match.range(at: 1), in: readme),
        let picture = Range(match.range(at: 2), in: readme)
      else { continue }
      let output = dir.appendingPathComponent("\(k).svg").path
      let words = readme[arguments].split(separator: " ").map(String.init)
      let result = try ScenecProcess.run(["run"] + words + ["-q", "-o", output], directory: root)
      #expect(result.status == 0, "scenec run \(readme[arguments]): \(result.stderr)")
      let drawn = try Data(contentsOf: URL(fileURLWithPath: output))
      let committed = try Data(contentsOf: root.appendingPathComponent(String(readme[picture])))
      #expect(drawn == committed, "\(readme[picture]) is not what scenec draws now")
    }
  }
}
