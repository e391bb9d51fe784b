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

/// Where a path leads once its symbolic links are followed, hop by hop, without asking
/// that the end exist (as `realpath` does): what a write lands on.
public enum LinkEnd: Equatable, Sendable {
  /// The path the links end at, whether any link was followed, and whether it exists.
  case found(String, viaLink: Bool, exists: Bool)
  /// A link could not be read: `strerror`'s words.
  case unreadable(String)
  /// More than 40 links in a row (or a loop).
  case tooDeep

  /// Follows the links from `path`.
  public init(of path: String) {
    var current = path
    for hop in 0..<40 {
      var status = stat()
      guard lstat(current, &status) == 0 else {
        self = .found(current, viaLink: hop > 0, exists: false)
        return
      }
      guard status.st_mode & S_IFMT == S_IFLNK else {
        self = .found(current, viaLink: hop > 0, exists: true)
        return
      }
      var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &target, Int(PATH_MAX))
      guard count > 0 else {
        self = .unreadable(String(cString: strerror(errno)))
        return
      }
      let destination = String(
        decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current =
        destination.hasPrefix("/")
        ? destination : PathName.appending(destination, to: PathName.deletingLastComponent(current))
    }
    self = .tooDeep
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
