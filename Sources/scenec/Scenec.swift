import ArgumentParser
import SceneCommandLine

/// The `scenec` command: a declarative scene interpreter for gesture-driven vector motion.
@main
struct Scenec: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scenec",
    abstract: "Interpret scenes of gesture-driven vector motion.",
    discussion: """
      Scenes are written in YAML or in scenec's DSL (.scene); Grammar.md documents both.

      Examples:
        scenec run Scenes/wave.yaml -o wave.html
        scenec run Scenes/wave.yaml --at 0.65s -o frame.svg
        scenec check Scenes/wave.yaml
        scenec preview Scenes/wave.yaml
        scenec fmt Scenes/wave.yaml --to dsl
        scenec path "M0 0 C 30 80 70 -40 100 0" --at-length 50 --nearest 40,10
        scenec export swift Scenes/wave.yaml
        scenec schema -o scene.schema.json
      """,
    version: "0.1.0",
    subcommands: [
      RunCommand.self, TestCommand.self, CheckCommand.self, FormatCommand.self, PathCommand.self,
      GenerateCommand.self, PreviewCommand.self, ExportCommand.self, SchemaCommand.self,
    ]
  )

  /// Every command's output is checked, down to the help text.
  static func main() {
    StandardOutput.checkAtExit()
    main(nil)
  }
}
