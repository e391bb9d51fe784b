#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names, after every symbolic link: its device and inode.
///
/// Two paths are the same file exactly when their identities are equal, whatever their
/// spelling, their links, or the case a case-insensitive file system ignores; comparing
/// names gets all three wrong.
public struct FileIdentity: Hashable, Sendable {
  public var device: UInt64
  public var inode: UInt64

  /// The file at `path`, links followed; `nil` when there is none.
  public init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self.init(status)
  }

  init(_ status: stat) {
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
  }

  /// The path with every symbolic link, `.` and `..` resolved, or `nil` when it does not
  /// exist.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}

/// What a write may do beyond what ``OutputFile`` refuses of every write.
public struct WritePolicy: Sendable {
  /// Files the output must never replace: the inputs of the run (the scene, its traces),
  /// compared by ``FileIdentity``.
  public var inputs: [String]
  /// The folder the target must lie in once every link is followed (for a file whose
  /// name came from somewhere other than the user's command line, such as a snapshot
  /// beside a cloned scene, or a page's save); `nil` for anywhere.
  public var folder: String?
  /// Refuse an existing device, FIFO or socket instead of writing into it.
  public var regularFileOnly: Bool

  public init(inputs: [String] = [], folder: String? = nil, regularFileOnly: Bool = false) {
    self.inputs = inputs
    self.folder = folder
    self.regularFileOnly = regularFileOnly
  }
}
