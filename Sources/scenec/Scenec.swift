import ArgumentParser

/// The `scenec` command: a declarative scene interpreter for gesture-driven vector motion.
@main
struct Scenec: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scenec",
    abstract: "Interpret scenes of gesture-driven vector motion.",
    discussion: """
      Today scenec measures paths exactly; scene files come next.

      Example:
        scenec path "M0 0 C 30 80 70 -40 100 0" --at-length 50 --nearest 40,10
      """,
    version: "0.1.0",
    subcommands: [PathCommand.self]
  )
}
