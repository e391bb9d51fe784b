import ArgumentParser
import SceneCommandLine
import SceneFiles
import SceneSyntax

/// `scenec schema`: the JSON Schema of scene YAML, for editors.
struct SchemaCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schema",
    abstract: "Print the JSON Schema of scene YAML, for editors that complete and check keys.",
    discussion: """
      The schema's keys are the ones scenec's YAML reader takes, from the same tables, with
      each value's type (names, expressions, points, times, colours, easings). Save it and
      point your editor at it: with the YAML language server (VS Code's YAML extension),
      put this line at the top of a scene:

        # yaml-language-server: $schema=scene.schema.json

      What needs the whole scene (that a name exists, an expression compiles, a value is
      in range) is for scenec check.

      Examples:
        scenec schema -o scene.schema.json
      """
  )

  @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
  var output: String?

  func run() throws {
    do {
      try AtomicFile.write(SceneSchema.json.utf8, to: output)
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.cannotCreate
    }
  }
}
