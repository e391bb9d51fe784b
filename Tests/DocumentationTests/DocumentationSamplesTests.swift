import Foundation
import SceneDiagnostics
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneRuntime
import SceneSyntax
import Testing

/// Every code sample in README.md and Grammar.md runs: scenes load and resolve clean, and
/// each Swift sample stands verbatim in a test that runs it (this file, for most), so a
/// sample cannot drift from the code.
@Suite struct DocumentationSamplesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The fenced code blocks of a Markdown file with the given language.
  static func blocks(_ language: String, in file: String) throws -> [String] {
    let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```" + language {
        current = []
      } else if let lines = current, line == "```" {
        blocks.append(lines.joined(separator: "\n") + "\n")
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  static let documents = ["README.md", "Grammar.md"]

  @Test(arguments: documents)
  func everySceneSampleLoadsClean(document: String) throws {
    for (language, syntax) in [("yaml", SceneLoader.Syntax.yaml), ("scene", .dsl)] {
      for (i, sample) in try Self.blocks(language, in: document).enumerated() {
        let name = "\(document) \(language) sample \(i + 1)"
        let read = SceneLoader.load(SourceFile(name: name, text: sample), syntax: syntax)
        let loaded = ScenePipeline.resolve(
          read, sceneFile: Self.root.appendingPathComponent("Scenes/x").path)
        #expect(loaded.graph != nil && loaded.diagnostics.isEmpty, "\(name):\n\(loaded.rendered())")
        if let graph = loaded.graph { #expect(try SceneRunner.frames(of: graph).count > 0) }
      }
    }
  }

  @Test func theWorkedExampleIsTheSameSceneInBothSyntaxes() throws {
    let yaml = try #require(try Self.blocks("yaml", in: "Grammar.md").first)
    let dsl = try #require(try Self.blocks("scene", in: "Grammar.md").first)
    let a = SceneLoader.load(SourceFile(name: "a.yaml", text: yaml), syntax: .yaml).spec
    let b = SceneLoader.load(SourceFile(name: "b.scene", text: dsl), syntax: .dsl).spec
    #expect(a != nil && a == b)
  }

  /// A Swift sample's code (imports left out; spacing and line breaks ignored, so the
  /// formatter may lay it out its own way) must stand, in order and together, in a test
  /// source that runs it.
  @Test(arguments: documents)
  func everySwiftSampleIsRunByATest(document: String) throws {
    func lines(_ text: String) -> [String] {
      text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
        !$0.isEmpty && !$0.hasPrefix("import ")
      }
    }
    func tokens(_ lines: [String]) -> String {
      String(lines.joined().unicodeScalars.filter { !CharacterSet.whitespaces.contains($0) })
    }
    let tests = try FileManager.default.subpathsOfDirectory(
      atPath: Self.root.appendingPathComponent("Tests").path
    )
    .filter { $0.hasSuffix(".swift") }
    .map {
      try String(
        contentsOf: Self.root.appendingPathComponent("Tests").appendingPathComponent($0),
        encoding: .utf8)
    }
    .map { tokens(lines($0)) }
    for sample in try Self.blocks("swift", in: document) {
      let wanted = tokens(lines(sample))
      #expect(
        tests.contains { $0.contains(wanted) },
        "no test runs this sample of \(document):\n\(sample)")
    }
  }

  // MARK: - The README's Swift samples, verbatim

  @Test func theGeometrySample() throws {
    let path = MeasuredPath(try Path(svgPathData: "M0 0 C 30 80 70 -40 100 0"))
    let length = path.length  // 129.436559692…
    let angle = path.position(atLength: 50).angle  // -0.445…
    let grab = path.nearest(to: Point(40, 10))  // global nearest point
    let dragged = path.nearest(to: Point(45, 12), continuingFrom: grab.length)  // tracking a drag
    let next = path.nearest(to: Point(50, 14), continuingFrom: dragged.position)  // next drag
    // What the comments promise:
    #expect(abs(length - 129.436559692) < 1e-9 && dragged.distance < grab.distance + 10)
    #expect(String(angle).hasPrefix("-0.445"))
    #expect(
      abs(next.length - path.nearest(to: Point(50, 14), continuingFrom: dragged.length).length)
        < 1e-9)
  }

  @Test func theEngineSample() throws {
    // `swift test` runs in the package's folder, where the sample's relative path points.
    let loaded = try ScenePipeline.load(path: "Scenes/elastic-drag.yaml")
    // Not loaded: its diagnostics, rendered clang-style.
    guard let graph = loaded.graph else { fatalError(loaded.rendered()) }
    var simulation = try Simulation(graph: graph)
    simulation.pointerDown(id: 0, at: Point(120, 150))  // grabs the badge
    simulation.pointerMoved(id: 0, to: Point(120, 250))
    let frame = try simulation.step(dt: 1.0 / 60)  // handles, paths, pointers, events
    simulation.pointerUp(id: 0)  // velocity from the last 100 ms of samples
    // What the comments promise: the badge was grabbed and moved at 0.7 of the finger.
    #expect(frame.namedEvents.contains(NamedEvent("grab", "badge")))
    #expect(frame.handles.first { $0.name == "badge" }?.y == 150 + 0.7 * 100)
  }
}
