import Foundation
import SceneDiagnostics
import SceneSyntax
import SceneTestSupport
import SceneYAML
import Testing

/// `scenec schema`: every key the YAML reader takes has a type, every scene in `Scenes/` and
/// every YAML sample in Grammar.md is valid against it under a real JSON Schema validator
/// (Python's `jsonschema`), and scenes with known mistakes are not.
@Suite struct SceneSchemaTests {
  @Test func everyKeyTheReaderTakesHasAType() {
    #expect(SceneSchema.untypedKeys == [])
  }

  @Test func theSchemaIsJSONAndNamesEveryTopLevelKey() throws {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(SceneSchema.json.utf8)) as? [String: Any])
    #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    let properties = try #require(object["properties"] as? [String: Any])
    #expect(Set(properties.keys) == Set(SceneDecoder.topLevelKeys))
  }

  /// A YAML document as JSON, its scalars read by YAML 1.2's core schema, as editors'
  /// YAML language servers read them: `off` is a string, `0.5` a number.
  static func json(ofYAML text: String, name: String) throws -> String {
    let node = try YAMLReader.read(SourceFile(name: name, text: text))
    return node.map(json) ?? "null"
  }

  static func json(_ node: DocumentNode) -> String {
    switch node.value {
    case .scalar(let s):
      if s.isQuoted { return quoted(s.text) }
      if ["", "~", "null", "Null", "NULL"].contains(s.text) { return "null" }
      if ["true", "True", "TRUE"].contains(s.text) { return "true" }
      if ["false", "False", "FALSE"].contains(s.text) { return "false" }
      if s.text.range(
        of: #"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$"#, options: .regularExpression)
        != nil,
        let value = Double(s.text), value.isFinite
      {
        return "\(value)"
      }
      return quoted(s.text)
    case .sequence(let items):
      return "[" + items.map(json).joined(separator: ",") + "]"
    case .mapping(let entries):
      return "{" + entries.map { quoted($0.key) + ":" + json($0.value) }.joined(separator: ",")
        + "}"
    }
  }

  static func quoted(_ text: String) -> String {
    let data = try? JSONSerialization.data(withJSONObject: [text], options: [])
    let array = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
    return String(array.dropFirst().dropLast())
  }

  /// Whether python3 with `jsonschema` is here (CI installs Debian's python3-jsonschema).
  static let validator: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import jsonschema"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
      process.waitUntilExit()
      return process.terminationStatus == 0
    } catch {
      return false
    }
  }()

  /// Each document's first validation error (its path and message), or "ok".
  static func validate(_ documents: [(String, String)]) throws -> [String: String] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try SceneSchema.json.write(
      to: folder.appendingPathComponent("schema.json"), atomically: true, encoding: .utf8)
    for (k, document) in documents.enumerated() {
      try document.1.write(
        to: folder.appendingPathComponent("\(k).json"), atomically: true, encoding: .utf8)
    }
    let script = """
      import json, sys, jsonschema
      folder, count = sys.argv[1], int(sys.argv[2])
      schema = json.load(open(folder + "/schema.json"))
      jsonschema.Draft202012Validator.check_schema(schema)
      validator = jsonschema.Draft202012Validator(schema)
      for k in range(count):
          errors = sorted(validator.iter_errors(json.load(open(f"{folder}/{k}.json"))), key=lambda e: list(e.absolute_path))
          print("ok" if not errors else "/".join(map(str, errors[0].absolute_path)) + ": " + errors[0].message[:200])
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, folder.path, String(documents.count)]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "the validator failed")
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    var results: [String: String] = [:]
    for (k, document) in documents.enumerated() where k < lines.count {
      results[document.0] = lines[k]
    }
    return results
  }

  /// The fenced `yaml` blocks of Grammar.md.
  static func grammarSamples() throws -> [String] {
    let text = try String(contentsOfFile: repositoryPath("Grammar.md"), encoding: .utf8)
    var samples: [String] = []
    var current: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```yaml" {
        current = ""
      } else if current != nil, line == "```" {
        samples.append(current ?? "")
        current = nil
      } else if current != nil {
        current? += line + "\n"
      }
    }
    return samples
  }

  @Test(
    .enabled(
      if: validator,
      "python3 with jsonschema is not installed: the schema cannot be validated here (Debian: apt-get install python3-jsonschema)"
    ))
  func theScenesAndTheGrammarsSamplesAreValid() throws {
    var documents: [(String, String)] = []
    let scenes = try FileManager.default.contentsOfDirectory(atPath: repositoryPath("Scenes"))
      .filter { $0.hasSuffix(".yaml") }.sorted()
    #expect(scenes.count >= 15)
    for scene in scenes {
      let text = try String(contentsOfFile: repositoryPath("Scenes/\(scene)"), encoding: .utf8)
      documents.append((scene, try Self.json(ofYAML: text, name: scene)))
    }
    for (k, sample) in try Self.grammarSamples().enumerated() {
      documents.append(
        ("Grammar.md sample \(k + 1)", try Self.json(ofYAML: sample, name: "g.yaml")))
    }
    for (name, result) in try Self.validate(documents) {
      #expect(result == "ok", "\(name): \(result)")
    }
  }

  @Test(
    .enabled(
      if: validator,
      "python3 with jsonschema is not installed: the schema cannot be validated here (Debian: apt-get install python3-jsonschema)"
    ))
  func scenesWithMistakesAreNot() throws {
    let bad: [(String, String, String)] = [
      ("an unknown key", "handles:\n  ball: { positon: [1, 2] }\n", "handles/ball"),
      ("a misspelt section", "handels: {}\n", ""),
      ("a colour that is not one", "scene: { background: \"#12345\" }\n", "scene/background"),
      (
        "a shape that is not one", "handles:\n  b: { position: [0, 0], shape: star }\n",
        "handles/b/shape"
      ),
      (
        "a bool that is not one", "handles:\n  b: { position: [0, 0], draggable: 3 }\n",
        "handles/b/draggable"
      ),
      (
        "two kinds in one constraint",
        "constraints:\n  - { follow: { handle: a, path: p }, drag: { handle: a } }\n",
        "constraints/0"
      ),
      ("a step that is not one", "gesture:\n  - jump: (1, 2)\n", "gesture"),
      (
        "a time that is not one", "springs:\n  s: { dampingRatio: 1, duration: soon }\n",
        "springs/s/duration"
      ),
      (
        "a transition without its target",
        "states:\n  m: { initial: a, states: { a: }, transitions: [ { from: a } ] }\n",
        "states/m/transitions/0"
      ),
      ("a handle without a position", "handles:\n  b: { r: 3 }\n", "handles/b"),
    ]
    let results = try Self.validate(
      try bad.map { ($0.0, try Self.json(ofYAML: $0.1, name: "bad.yaml")) })
    for (name, _, path) in bad {
      let result = results[name] ?? "missing"
      #expect(result != "ok", "\(name) passed")
      #expect(result.hasPrefix(path), "\(name): \(result)")
    }
  }
}
