import ArgumentParser
import SceneCommandLine
import SceneDiagnostics
import SceneFiles
import SceneOutputs
import ScenePipeline

/// `scenec export`: a scene's tuned values in another tool's terms.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export a scene's springs, easings and momentum as code for an app.",
    subcommands: [ExportSwiftCommand.self]
  )
}

/// `scenec export swift FILE`: the springs, easings and momentum as Swift source.
struct ExportSwiftCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "swift",
    abstract:
      "Print the scene's springs, easings and momentum as SwiftUI, UIKit and Core Animation values.",
    discussion: """
      Each spring becomes SwiftUI's Spring(mass:stiffness:damping:) and
      Spring(duration:bounce:), Animation.interpolatingSpring, UIKit's
      UISpringTimingParameters and Core Animation's CASpringAnimation, all with scenec's
      own constants, so the app's motion is the scene's. Easings become
      Animation.timingCurve and CAMediaTimingFunction; a drag's momentum a
      UIScrollView.DecelerationRate. A comment beside each value says how it maps.

      Examples:
        scenec export swift Scenes/wave.yaml
        scenec export swift Scenes/bottom-sheet.yaml -o BottomSheetMotion.swift
      """
  )

  @Argument(help: "The scene file (.yaml, .yml or .scene).")
  var file: String

  @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
  var output: String?

  func run() throws {
    let loaded: ScenePipeline.Loaded
    do {
      loaded = try ScenePipeline.load(path: file, options: ScenePipeline.Options())
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.noInput
    }
    guard let graph = loaded.graph else {
      printError(loaded.rendered(), terminator: "")
      throw Sysexits.dataError
    }
    if !loaded.diagnostics.isEmpty { printError(loaded.rendered(), terminator: "") }
    let text = SwiftMotionCode.source(for: graph, sceneFile: PathName.lastComponent(file))
    do {
      var sink =
        try output.map { path throws(OutputFile.WriteError) in
          // Never over the scene it reads, under any name or link.
          try OutputFile(path: path, policy: WritePolicy(inputs: loaded.inputs))
        } ?? .standardOutput()
      try sink.write(Array(text.utf8))
      try sink.commit()
    } catch {
      printError("error: \(error.description)")
      throw Sysexits.cannotCreate
    }
  }
}
