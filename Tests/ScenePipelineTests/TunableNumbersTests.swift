import Foundation
import SceneDiagnostics
import ScenePipeline
import SceneSyntax
import SceneTestSupport
import Testing

/// The numbers the preview tunes: found in both syntaxes with their places, and written
/// back as an edit of their own text only.
@Suite struct TunableNumbersTests {
  static func tunables(_ scene: String) throws -> (text: String, numbers: [TunableNumber]) {
    let path = repositoryPath("Scenes/\(scene)")
    let read = try SceneLoader.load(path: path)
    let document = try #require(read.document)
    let file = try #require(read.file)
    return (file.text, TunableNumbers.find(in: document, file: file))
  }

  @Test(arguments: ["wave.yaml", "wave.scene"])
  func theWavesSpringIsTunableInEitherSyntax(scene: String) throws {
    let (text, numbers) = try Self.tunables(scene)
    let ratio = try #require(numbers.first { $0.path == "springs.wave.dampingRatio" })
    #expect(ratio.value == 0.57 && ratio.text == "0.57" && ratio.unit == "")
    #expect(ratio.minimum == 0.05 && ratio.maximum == 2 && ratio.step == 0.01)
    let duration = try #require(numbers.first { $0.path == "springs.wave.duration" })
    #expect(duration.value == 0.9 && duration.unit == "s")
    let height = try #require(numbers.first { $0.path == "let.minimalHeight" })
    #expect(height.value == 50 && height.minimum == 0 && height.maximum == 100)
    // `pull: max(drag.dy, 0)` is an expression, not a number.
    #expect(!numbers.contains { $0.path == "let.pull" })

    // The edit changes those four characters and nothing else.
    let (edited, updated) = try #require(TunableNumbers.edit(text, setting: ratio, to: 0.3))
    #expect(updated.text == "0.3" && updated.value == 0.3)
    let before = Array(text.utf8)
    let after = Array(edited.utf8)
    #expect(after.count == before.count - 1)
    #expect(after[..<ratio.offset] == before[..<ratio.offset])
    #expect(Array(after[ratio.offset..<ratio.offset + 3]) == Array("0.3".utf8))
    #expect(after[(ratio.offset + 3)...] == before[(ratio.offset + 4)...])

    // And the edited text is the same scene with the new damping.
    let reread = SceneLoader.load(
      SourceFile(name: scene, text: edited),
      syntax: try #require(SceneLoader.Syntax(fileName: scene)))
    let spring = try #require(reread.spec?.springs.first)
    guard case .dampingRatio(let r, _) = spring.parameters else {
      Issue.record("not a damping-ratio spring")
      return
    }
    #expect(r.value == 0.3)
  }

  @Test func constraintSettingsAreNamedByTheirHandle() throws {
    let (_, numbers) = try Self.tunables("elastic-drag.yaml")
    let paths = numbers.map(\.path)
    #expect(paths.contains("constraints.elastic badge.resistance.factor"))
    #expect(paths.contains("constraints.elastic badge.return.speed"))
    #expect(paths.contains("constraints.elastic band.resistance.rubberband"))
    let speed = try #require(numbers.first { $0.path == "constraints.elastic badge.return.speed" })
    #expect(speed.value == 900 && speed.minimum == 0 && speed.maximum == 1800 && speed.step == 10)
    // In file order.
    #expect(numbers.map(\.offset) == numbers.map(\.offset).sorted())
  }

  /// The elastic badge's return written as a cubic-bezier, in YAML (quoted, for the commas
  /// in a flow mapping) and in the DSL (made by the DSL emitter from the YAML).
  static func bezierBadge(dsl: Bool) throws -> (SourceFile, SceneLoader.Syntax) {
    let text = try String(
      contentsOfFile: repositoryPath("Scenes/elastic-drag.yaml"), encoding: .utf8
    ).replacingOccurrences(of: "ease: ease-out", with: #"ease: "cubic-bezier(0, 0, 0.58, 1)""#)
    let yaml = SourceFile(name: "badge.yaml", text: text)
    guard dsl else { return (yaml, .yaml) }
    let document = try #require(SceneLoader.load(yaml, syntax: .yaml).document)
    return (SourceFile(name: "badge.scene", text: DSLEmitter.emit(document)), .dsl)
  }

  @Test(arguments: [false, true])
  func aCubicBeziersFourNumbersAreTunable(dsl: Bool) throws {
    let (file, syntax) = try Self.bezierBadge(dsl: dsl)
    let read = SceneLoader.load(file, syntax: syntax)
    let numbers = TunableNumbers.find(in: try #require(read.document), file: file)
    let path = "constraints.elastic badge.return.ease."
    let easing = numbers.filter { $0.path.hasPrefix(path) }
    #expect(easing.map(\.path) == ["x1", "y1", "x2", "y2"].map { path + $0 })
    #expect(easing.map(\.value) == [0, 0, 0.58, 1])
    #expect(easing.map(\.minimum) == [0, -1, 0, -1] && easing.map(\.maximum) == [1, 2, 1, 2])
    // Each number's place is its own text, so y2 edits to a curve that overshoots.
    let y2 = easing[3]
    let (edited, _) = try #require(TunableNumbers.edit(file.text, setting: y2, to: 1.4))
    let bezier = "cubic-bezier(0, 0, 0.58, 1)"
    let tuned = "cubic-bezier(0, 0, 0.58, 1.4)"
    #expect(file.text.contains(bezier))
    #expect(edited == file.text.replacingOccurrences(of: bezier, with: tuned))
    let reread = SceneLoader.load(SourceFile(name: file.name, text: edited), syntax: syntax)
    #expect(reread.spec != nil)
    #expect(reread.diagnostics.isEmpty)
  }

  @Test func aFileChangedUnderTheNumberIsNotEdited() throws {
    let (text, numbers) = try Self.tunables("wave.yaml")
    let ratio = try #require(numbers.first { $0.path == "springs.wave.dampingRatio" })
    let shifted = "# a new first line\n" + text
    #expect(TunableNumbers.edit(shifted, setting: ratio, to: 0.3) == nil)
  }

  @Test(arguments: [
    (0.3, 0.01, "0.3"), (0.305, 0.01, "0.31"), (1.0, 0.01, "1"), (900, 10, "900"),
    (-0.0001, 0.01, "0"), (0.99876, 0.0001, "0.9988"), (12.5, 0.1, "12.5"),
  ])
  func valuesAreWrittenToTheStep(value: Double, step: Double, text: String) {
    #expect(TunableNumbers.text(of: value, step: step) == text)
  }
}
