import ArgumentParser
import SceneFiles

// `stdout` is a C global the compiler cannot prove safe; it is read only at exit.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Standard output, every write checked: a full disk, a closed pipe or a closed standard
/// output ends the command with "cannot write standard output: reason" and status 73,
/// never status 0 with the output lost.
public enum StandardOutput {
  /// Writes `text` and `terminator` unbuffered, all of it.
  ///
  /// - Throws: ``Sysexits/cannotCreate`` after saying why on standard error.
  public static func write(_ text: String, terminator: String = "\n") throws(ExitCode) {
    if let failure = writeAll(1, Array((text + terminator).utf8)) {
      printError("error: cannot write standard output: \(String(cString: strerror(failure)))")
      throw Sysexits.cannotCreate
    }
  }

  /// Checks, as the process exits, what went through the C library's buffer (the help
  /// and version that ArgumentParser prints): a failed write turns status 0 into 73.
  public static func checkAtExit() {
    OutputFile.ignoreBrokenPipes()
    atexit {
      errno = 0
      guard fflush(stdout) != 0 || ferror(stdout) != 0 else { return }
      let reason = errno == 0 ? "an earlier write failed" : String(cString: strerror(errno))
      printError("error: cannot write standard output: \(reason)")
      _exit(73)
    }
  }
}
