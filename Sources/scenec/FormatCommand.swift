import ArgumentParser
import SceneCommandLine
import SceneDiagnostics
import SceneFiles
import ScenePipeline
import SceneSyntax
import SceneTesting
import SceneYAML

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

      With --check, nothing is written: each scene (files, or folders searched for
      scenes) is compared with its canonical form, the name of each that differs is
      printed, and the exit status is 1 when any differs (0 when all are canonical, 65
      when a scene has errors, 66 when one cannot be read): for CI.

      Examples:
        scenec fmt Scenes/wave.yaml --to dsl
        scenec fmt Scenes/wave.scene -w
        scenec fmt --check Scenes
      """
  )

  enum Target: String, ExpressibleByArgument, CaseIterable {
    case yaml, dsl
  }

  @Argument(help: "The scene file (with --check: scene files or folders).")
  var files: [String]

  @Flag(
    help: "Print the name of each scene not in canonical form and exit 1 if any; write nothing.")
  var check = false

  var file: String { files.first ?? "" }

  @Option(
    name: .customLong("to"), help: "The syntax to write: yaml or dsl (default: the file's own).")
  var target: Target?

  @Flag(name: .customShort("w"), help: "Write the result to the file instead of standard output.")
  var write = false

  @Flag(help: "With -w and --to, replace an existing file of the other syntax.")
  var force = false

  func validate() throws {
    if files.isEmpty { throw ValidationError("give a scene file") }
    if check && (write || target != nil || force) {
      throw ValidationError("--check writes nothing and keeps each file's syntax; give it alone")
    }
    if !check && files.count > 1 {
      throw ValidationError("give one scene file, or --check to check several")
    }
  }

  /// The canonical text of the scene at `path` in `syntax` (its own when `nil`), or the
  /// problems that keep it from having one, rendered.
  static func canonical(_ path: String, to syntax: SceneLoader.Syntax? = nil)
    throws(SceneLoader.ReadError) -> (text: String?, problems: String)
  {
    let result = try SceneLoader.load(path: path)
    guard let spec = result.spec, !result.hasErrors else {
      let renderer = DiagnosticRenderer(files: result.file.map { [$0] } ?? [])
      return (nil, renderer.render(result.diagnostics))
    }
    let source = SceneLoader.Syntax(fileName: path) ?? .yaml
    let tree = SceneEncoder.encode(spec, comments: SceneComments(text: result.file?.text ?? ""))
    let text =
      (syntax ?? source) == .yaml
      ? YAMLEmitter.emit(tree, header: result.header) : DSLEmitter.emit(tree, header: result.header)
    return (text, "")
  }

  func runCheck() throws {
    var problems: [String] = []
    let paths = SceneTest.discover(files, problems: &problems)
    for problem in problems { printError("error: \(problem)") }
    var unreadable = problems.count
    var invalid = 0
    var differing = 0
    for path in paths {
      do {
        let (text, rendered) = try Self.canonical(path)
        guard let text else {
          printError(rendered, terminator: "")
          invalid += 1
          continue
        }
        let written = try InputFile.read(path: path, upTo: YAMLReader.Limits().maxBytes + 1)
        if Array(text.utf8) != written {
          print(TerminalText.escaped(path))
          differing += 1
        }
      } catch let error as SceneLoader.ReadError {
        printError("error: \(error.description)")
        unreadable += 1
      } catch {
        printError("error: \(TerminalText.escaped(path)): \(error)")
        unreadable += 1
      }
    }
    let checked = paths.count - unreadable + problems.count
    if differing > 0 {
      printError(
        "\(differing) of \(checked) scene\(checked == 1 ? " is" : "s are") not in canonical form; scenec fmt FILE -w rewrites one"
      )
    }
    if invalid > 0 { throw Sysexits.dataError }
    if unreadable > 0 { throw Sysexits.noInput }
    if differing > 0 { throw ExitCode(1) }
  }

  func run() throws {
    if check { return try runCheck() }
    let source = SceneLoader.Syntax(fileName: file) ?? .yaml
    let syntax: SceneLoader.Syntax = target.map { $0 == .yaml ? .yaml : .dsl } ?? source
    let canonical: (text: String?, problems: String)
    do {
      canonical = try Self.canonical(file, to: syntax)
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.noInput
    }
    guard let text = canonical.text else {
      printError(canonical.problems, terminator: "")
      throw Sysexits.dataError
    }
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
