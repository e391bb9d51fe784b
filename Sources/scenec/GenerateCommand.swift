import ArgumentParser
import SceneCommandLine
import SceneFiles
import SceneGraph
import SceneStress

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `scenec generate`: writes the stress scene the benchmarks use, at any size.
struct GenerateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Write a generated stress scene, for measuring scenec at scale.",
    discussion: """
      Writes a grid of cells, eight handles each: a follow handle on a cubic track with a
      spring, an elastic handle, a gooey anchor and ball, two points bound to the drag
      that spring back, and two bound to time; a path through the bound points; and a
      four-finger gesture in two-second rounds. The same arguments always give the same
      bytes. Benchmarks/README.md uses it at 100, 1,000 and 10,000 handles.

      Examples:
        scenec generate --handles 1000 -o stress-1000.yaml
        scenec generate --handles 100 -o stress.yaml && scenec run stress.yaml -o stress.html
      """
  )

  @Option(help: "How many handles, 8…60000.")
  var handles: Int = 1000

  @Option(help: "How long the scene runs, in seconds.")
  var duration: Double = 10

  @Option(help: "Frames per second.")
  var fps: Int = 60

  @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
  var output: String?

  func validate() throws {
    guard (8...60_000).contains(handles) else {
      throw ValidationError(
        "--handles must be between 8 and 60000, the most that fits the 8 MiB scene limit (got \(handles))"
      )
    }
    guard duration.isFinite, duration > 0, duration <= 3600 else {
      throw ValidationError("--duration must be a number of seconds in 0…3600 (got \(duration))")
    }
    guard FrameClock.fpsRange.contains(Double(fps)) else {
      throw ValidationError("--fps must be in 1…1000 (got \(fps))")
    }
  }

  func run() throws {
    let text = StressScene(handles: handles, duration: duration, fps: fps).yaml
    do {
      try AtomicFile.write(text.utf8, to: output)
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.cannotCreate
    }
  }
}
