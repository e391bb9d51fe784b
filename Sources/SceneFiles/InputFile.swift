#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading files and standard input with POSIX calls, bounded: what the loaders and the
/// commands need, without Foundation's `FileHandle`.
public enum InputFile {
  /// What is at a path, following symbolic links.
  public enum Kind: Sendable, Equatable {
    case regularFile
    case directory
    /// A FIFO, socket or device: reading it could block or never end.
    case other
  }

  /// What is at `path`, or `nil` when nothing is (or it cannot be looked at).
  public static func kind(atPath path: String) -> Kind? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return .regularFile
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  /// Why there is no file to read at `path`, in words: "no such file", or what stops it
  /// being looked at ("permission denied" for a folder on the way that may not be read).
  public static func missingReason(atPath path: String) -> String {
    var status = stat()
    guard stat(path, &status) != 0 else { return "no such file" }
    switch errno {
    case ENOENT, ENOTDIR: return "no such file"
    case EACCES: return "permission denied"
    default: return String(cString: strerror(errno)).lowercased()
    }
  }

  /// Why a read failed: `strerror`'s words, and whether the file could not even be opened.
  public struct ReadError: Error, Sendable {
    public var reason: String
    public var whileOpening = false
  }

  /// At most `limit` bytes of the file at `path`: a longer file gives its first `limit`.
  public static func read(path: String, upTo limit: Int) throws(ReadError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ReadError(reason: reason(), whileOpening: true) }
    defer { close(fd) }
    return try read(descriptor: fd, upTo: limit)
  }

  /// At most `limit` bytes from `descriptor`, read until its end or the limit.
  public static func read(descriptor: Int32, upTo limit: Int) throws(ReadError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < limit {
      let wanted = min(chunk.count, limit - bytes.count)
      let count = chunk.withUnsafeMutableBytes { raw in
        systemRead(descriptor, raw.baseAddress, wanted)
      }
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR { continue }
        throw ReadError(reason: reason())
      }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
  }

  static func reason() -> String { String(cString: strerror(errno)) }

  /// `read(2)`, named apart from ``read(descriptor:upTo:)``.
  static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.read(fd, buffer, count)
    #elseif canImport(Musl)
    Musl.read(fd, buffer, count)
    #else
    Glibc.read(fd, buffer, count)
    #endif
  }
}
