import ArgumentParser
import SceneCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `scenec preview`: checks its options here, then becomes `scenec-preview`, the executable
/// that serves the page (see `ScenecPreview`), in the same process: its output, its exit
/// status and Ctrl-C are the server's own.
struct PreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview", abstract: PreviewOptions.abstract,
    discussion: PreviewOptions.discussion)

  @OptionGroup var options: PreviewOptions

  func run() throws {
    let problem = PreviewServerExecutable.replaceProcess(arguments: options.commandLine)
    printError(problem)
    throw Sysexits.unavailable
  }
}

/// Finds and runs the `scenec-preview` executable.
enum PreviewServerExecutable {
  static let name = "scenec-preview"

  /// Replaces this process with `scenec-preview`, taken from beside this executable, or
  /// else from `PATH`; returns only when neither can run, with the message to print.
  static func replaceProcess(arguments: [String]) -> String {
    let directory = executableDirectory()
    if let directory {
      let sibling = directory + "/" + name
      if access(sibling, X_OK) == 0 {
        let failure = execute(sibling, arguments: arguments, searchingPath: false)
        return "error: cannot run \(sibling): \(failure)"
      }
    }
    let failure = execute(name, arguments: arguments, searchingPath: true)
    let place = directory.map { " (\($0))" } ?? ""
    return """
      error: scenec preview runs the \(name) executable, found neither beside scenec\(place) \
      nor on PATH (\(failure)); build it with `swift build --product \(name)` \
      (`swift build` builds both)
      """
  }

  /// The folder of the running executable, symbolic links resolved: from the kernel on
  /// Linux, elsewhere from the path it was started by (none when found on `PATH`, where
  /// `execvp` then looks for the server too).
  static func executableDirectory() -> String? {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 4_097)
    let count = readlink("/proc/self/exe", &buffer, 4_096)
    guard count > 0 else { return nil }
    let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
    guard let invoked = CommandLine.arguments.first, invoked.contains("/"),
      let real = realpath(invoked, nil)
    else { return nil }
    let path = String(cString: real)
    free(real)
    #endif
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `execv` (or `execvp` when `searchingPath`) with `name` as the new process's name;
  /// returns the reason it failed.
  static func execute(_ path: String, arguments: [String], searchingPath: Bool) -> String {
    let argv: [UnsafeMutablePointer<CChar>?] = ([name] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    _ = searchingPath ? execvp(path, argv) : execv(path, argv)
    return String(cString: strerror(errno))
  }
}
