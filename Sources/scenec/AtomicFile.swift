import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files so that readers see either the old contents or the new, never a part.
enum AtomicFile {
  struct WriteError: Error, CustomStringConvertible {
    var description: String
  }

  /// Writes `data` to a temporary file beside `path`, then renames it over `path`.
  ///
  /// `rename(2)` replaces the destination atomically within one file system; Foundation's
  /// `replaceItemAt` is not used because on Linux it can remove the original first.
  static func write(_ data: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).scenec-\(ProcessInfo.processInfo.processIdentifier).tmp")
    do {
      try data.write(to: temporary)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw WriteError(description: "cannot write a temporary file beside it")
    }
    if rename(temporary.path, url.path) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw WriteError(description: reason)
    }
  }
}
