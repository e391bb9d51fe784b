import ArgumentParser
import SceneCommandLine
import SceneDiagnostics
import SceneFiles
import ScenePipeline
import SceneSyntax

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `scenec fmt`: canonical formatting, and conversion between YAML and the DSL.
struct FormatCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fmt",
    abstract: "Format a scene canonically, or convert it between YAML and the DSL.",
    discussion: """
      Prints the scene in canonical form: keys in a fixed order, numbers in their
      shortest form, times in seconds, colours as #rrggbb; path data and shorthand values
      as written. The comment block at the top of the file is kept, and so is every
      comment written on lines of its own before an item (the scene header, a let, spring,
      handle or path, a constraint, a gesture step, an expectation; before a section, it
      goes with the section's first item). Comments at the end of a line or inside a
      multi-line item are not kept. Converting and converting back gives the same scene.

      With -w the result replaces the file (written to a temporary file and renamed, so
      a failure never leaves a half-written file). With -w and --to naming the other
      syntax, it is written beside the original with the new extension (.yaml or .scene)
      and the original is left alone; an existing file of that name is not replaced
      unless --force is given (exit 73 otherwise).

      Examples:
        scenec fmt Scenes/wave.yaml --to dsl
        scenec fmt Scenes/wave.scene -w
      """
  )

  enum Target: String, ExpressibleByArgument, CaseIterable {
    case yaml, dsl
  }

  @Argument(help: "The scene file.")
  var file: String

  @Option(
    name: .customLong("to"), help: "The syntax to write: yaml or dsl (default: the file's own).")
  var target: Target?

  @Flag(name: .customShort("w"), help: "Write the result to the file instead of standard output.")
  var write = false

  @Flag(help: "With -w and --to, replace an existing file of the other syntax.")
  var force = false

  func run() throws {
    let result: SceneLoader.Result
    do {
      result = try SceneLoader.load(path: file)
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.noInput
    }
    guard let spec = result.spec, !result.hasErrors else {
      let renderer = DiagnosticRenderer(files: result.file.map { [$0] } ?? [])
      printError(renderer.render(result.diagnostics), terminator: "")
      throw Sysexits.dataError
    }
    let source = SceneLoader.Syntax(fileName: file) ?? .yaml
    let syntax: SceneLoader.Syntax = target.map { $0 == .yaml ? .yaml : .dsl } ?? source
    let tree = SceneEncoder.encode(spec, comments: SceneComments(text: result.file?.text ?? ""))
    let text =
      syntax == .yaml
      ? YAMLEmitter.emit(tree, header: result.header) : DSLEmitter.emit(tree, header: result.header)
    guard write else {
      do {
        try AtomicFile.write(text.utf8, to: nil)
      } catch {
        printError("error: \(error.description)")
        throw Sysexits.cannotCreate
      }
      return
    }
    var destination = file
    if syntax != source {
      let base = PathName.deletingPathExtension(file)
      destination = base + (syntax == .yaml ? ".yaml" : ".scene")
      if !force && FileManager.default.fileExists(atPath: destination) {
        printError(
          "error: '\(TerminalText.escaped(destination))' exists; not replacing it with the converted scene (add --force to replace it)"
        )
        throw Sysexits.cannotCreate
      }
    }
    do {
      // `-w` replaces the scene itself on purpose; a converted twin never replaces it (a
      // twin that links to the scene would).
      try AtomicFile.write(
        text.utf8, to: destination,
        policy: WritePolicy(inputs: destination == file ? [] : [file]))
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.cannotCreate
    }
  }
}
