import ArgumentParser

/// What `scenec preview` takes: parsed and checked by `scenec` itself (so its help and its
/// usage errors are `scenec`'s), then handed to the `scenec-preview` executable that serves.
public struct PreviewOptions: ParsableArguments {
  /// The help both executables show.
  public static let abstract =
    "Touch a scene: a local page where your mouse, finger or pen drives the engine."
  public static let discussion = """
    Starts a web server and prints its address. The page sends its Pointer Events (mouse,
    touch, pen, several fingers) over a WebSocket to the engine, which steps the scene at
    its frame rate and sends the frames back; each page gets its own run. Saving the scene
    (or a trace it replays) reloads it; a scene with errors keeps the last good one running
    and shows the errors in the page and here. The page can play the scene's own gesture,
    pause, step, slow down to 0.1×, and record your pointers as a trace beside the scene,
    with a copy of the scene that replays it (a `scenec test` case).

    By default only this machine can connect (127.0.0.1). Ctrl-C stops the server.

    The server is its own executable, scenec-preview, built and installed beside scenec,
    so that the other commands start without loading it.

    Examples:
      scenec preview Scenes/wave.yaml
      scenec preview Scenes/sticky-ball.yaml --port 9000 --open
    """

  @Argument(help: "The scene file (.yaml, .yml or .scene).")
  public var file: String

  @Option(help: "The port to listen on (0: any free port).")
  public var port: Int = 8080

  @Option(help: "The address to listen on; 0.0.0.0 shares the preview with your network.")
  public var host: String = "127.0.0.1"

  @Flag(help: "Open the page in the default browser.")
  public var open = false

  @Option(
    name: .customLong("trace-folder"),
    help: "Also allow traces from this folder (and its subfolders); repeatable.")
  public var traceFolders: [String] = []

  public init() {}

  public func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("--port must be between 0 and 65535, found \(port)")
    }
    if let problem = TraceFolders.problems(traceFolders).first {
      throw ValidationError(problem)
    }
  }

  /// The same options as a command line that parses back to them: every option spelled
  /// out, and the file after `--`, so a file named like an option stays a file.
  public var commandLine: [String] {
    var arguments = ["--port", String(port), "--host", host]
    if open { arguments.append("--open") }
    for folder in traceFolders { arguments += ["--trace-folder", folder] }
    return arguments + ["--", file]
  }
}
