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
    var bytes = Array((text + terminator).utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return 0 }
        return systemWrite(1, base + offset, raw.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 {
        printError("error: cannot write standard output: \(String(cString: strerror(errno)))")
        throw Sysexits.cannotCreate
      }
      offset += written
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
