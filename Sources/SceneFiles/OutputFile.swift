import SceneDiagnostics

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `write(2)`, named apart from ``OutputFile/write(_:)``.
public func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Darwin)
  Darwin.write(fd, bytes, count)
  #else
  Glibc.write(fd, bytes, count)
  #endif
}

/// Writes all of `bytes` to `fd`, again after an interrupted call; the `errno` of the
/// call that failed, or `nil` when all were written.
public func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeBytes { raw -> Int in
      guard let base = raw.baseAddress else { return 0 }
      return systemWrite(fd, base + offset, raw.count - offset)
    }
    if written < 0 && errno == EINTR { continue }
    if written <= 0 { return written == 0 ? EIO : errno }
    offset += written
  }
  return nil
}

/// Where a command's output goes: standard output as it comes, or a file that appears
/// whole or not at all.
///
/// A file is written to a temporary file beside its real target (after following every
/// symbolic link, so a link is replaced through, never written into in place) and renamed
/// over it when complete; a device (`/dev/null`) or a FIFO with a reader is written
/// directly. Every write is checked: a full disk, a closed pipe or a closed standard
/// output is reported as "cannot write …: reason" (exit 73), the temporary file is
/// removed and an existing file keeps its old contents. The temporary file is named
/// `.NAME.scenec-PID.tmp`, so it is removed on SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2
/// or SIGALRM, and a later run clears one whose process is gone.
///
/// What is refused before anything is written, always: a link to nowhere (it would create
/// its target, wherever that is), a folder, a FIFO no process reads (opening it would wait
/// for ever), and a target that is one of ``WritePolicy/inputs`` (the same file, by
/// device and inode, whatever its name or links); and, as the policy asks, anything but a
/// regular file and a target outside ``WritePolicy/folder``.
public struct OutputFile {
  public struct WriteError: Error, CustomStringConvertible {
    /// The target exists and the write was told not to replace it.
    public var targetExists = false
    public var description: String
  }

  /// The name shown in messages.
  public let displayName: String
  private let descriptor: Int32
  /// The temporary file and the path it is renamed to, for a regular file.
  private let temporary: String?
  private let target: String?
  private var buffer: [UInt8] = []
  /// Whether the output is a regular file (written to a temporary file and renamed).
  public var isRegularFile: Bool { temporary != nil }
  /// Bytes written in all.
  private(set) var byteCount = 0

  /// Standard output.
  public static func standardOutput() -> OutputFile {
    OutputFile(displayName: "standard output", descriptor: 1, temporary: nil, target: nil)
  }

  private init(displayName: String, descriptor: Int32, temporary: String?, target: String?) {
    self.displayName = displayName
    self.descriptor = descriptor
    self.temporary = temporary
    self.target = target
    Self.ignoreBrokenPipes()
  }

  /// Opens `path` for writing as described above.
  ///
  /// `removeOnInterrupt` registers the temporary file to be removed if SIGINT or SIGTERM
  /// stops the process (the command-line tool's case); a server that handles those
  /// signals itself passes `false`.
  public init(path: String, removeOnInterrupt: Bool = true, policy: WritePolicy = WritePolicy())
    throws(WriteError)
  {
    Self.ignoreBrokenPipes()
    let shown = "'" + TerminalText.escaped(path) + "'"
    let resolved = try Self.resolve(path)
    if let folder = policy.folder, !Self.isInside(resolved, folder: folder) {
      throw WriteError(
        description:
          "cannot write \(shown): it \(resolved == path ? "is" : "leads through a symbolic link to '\(TerminalText.escaped(resolved))', which is") outside the folder '\(TerminalText.escaped(folder))'"
      )
    }
    var status = stat()
    if stat(resolved, &status) == 0 {
      let type = status.st_mode & S_IFMT
      if type == S_IFDIR {
        throw WriteError(description: "cannot write \(shown): it is a directory")
      }
      let target = FileIdentity(status)
      if let input = policy.inputs.first(where: { FileIdentity(path: $0) == target }) {
        throw WriteError(
          description: input == path
            ? "cannot write \(shown): it is an input of this run; write the output to another file"
            : "cannot write \(shown): it is '\(TerminalText.escaped(input))', an input of this run; write the output to another file"
        )
      }
      if type != S_IFREG {
        if policy.regularFileOnly {
          throw WriteError(
            description: "cannot write \(shown): not a regular file (a FIFO, socket or device)")
        }
        // A device or FIFO: nothing to replace, and no temporary file could be renamed onto
        // it. A FIFO is opened without waiting: with no reader it fails (ENXIO) instead of
        // blocking for ever; the descriptor then blocks again, so writes wait for the reader.
        let fd = open(resolved, O_WRONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
          throw WriteError(
            description: errno == ENXIO
              ? "cannot write \(shown): it is a FIFO that no process is reading"
              : "cannot write \(shown): \(Self.reason())")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        self.init(displayName: path, descriptor: fd, temporary: nil, target: nil)
        return
      }
    }
    let directory = PathName.deletingLastComponent(resolved)
    let name = PathName.lastComponent(resolved)
    Self.removeStaleTemporaries(of: name, in: directory.isEmpty ? "." : directory)
    var temporary = ""
    var fd: Int32 = -1
    // Another thread of this process may be writing the same file (a scene and its twin
    // recording one snapshot): each takes a name of its own.
    for copy in 0..<64 {
      temporary =
        (directory.isEmpty ? "" : directory + "/")
        + Self.temporaryName(for: name, pid: getpid(), copy: copy)
      // Registered before it exists, so a signal between its creation and its
      // registration cannot leave it behind (removing a name not yet made is harmless).
      if removeOnInterrupt { TemporaryFiles.register(temporary) }
      fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if fd >= 0 { break }
      let failure = WriteError(description: "cannot write \(shown): \(Self.reason())")
      let taken = errno == EEXIST
      if removeOnInterrupt { TemporaryFiles.unregister(temporary) }
      if !taken || copy == 63 { throw failure }
    }
    self.init(displayName: path, descriptor: fd, temporary: temporary, target: resolved)
  }

  /// Appends `bytes`, writing them out in large pieces.
  public mutating func write(_ bytes: some Sequence<UInt8>) throws(WriteError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { try flush() }
  }

  public mutating func write(_ text: String) throws(WriteError) { try write(text.utf8) }

  public mutating func flush() throws(WriteError) {
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return 0 }
        return systemWrite(descriptor, base + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        let failure = WriteError(description: "cannot write \(describe()): \(Self.reason())")
        abandon()
        throw failure
      }
      offset += written
    }
    byteCount += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }

  /// Finishes the output: the file appears whole under its name, or not at all.
  ///
  /// With `replacing: false` an existing file is left alone and the write fails with
  /// ``WriteError/targetExists`` (the temporary file is linked to the name, which fails
  /// if the name is taken, so no check-then-write race).
  public mutating func commit(replacing: Bool = true) throws(WriteError) {
    try flush()
    guard let temporary, let target else {
      if descriptor != 1 { close(descriptor) }
      return
    }
    if close(descriptor) != 0 {
      let failure = WriteError(description: "cannot write \(describe()): \(Self.reason())")
      unlink(temporary)
      TemporaryFiles.unregister(temporary)
      throw failure
    }
    let moved = replacing ? rename(temporary, target) == 0 : link(temporary, target) == 0
    if !moved {
      var failure = WriteError(description: "cannot write \(describe()): \(Self.reason())")
      failure.targetExists = !replacing && errno == EEXIST
      if failure.targetExists { failure.description = "\(describe()) exists" }
      unlink(temporary)
      TemporaryFiles.unregister(temporary)
      throw failure
    }
    if !replacing { unlink(temporary) }
    TemporaryFiles.unregister(temporary)
  }

  /// Drops a failed output: the temporary file goes, the target is untouched.
  public func abandon() {
    guard let temporary else { return }
    close(descriptor)
    unlink(temporary)
    TemporaryFiles.unregister(temporary)
  }

  private func describe() -> String {
    descriptor == 1 ? "standard output" : "'\(TerminalText.escaped(displayName))'"
  }

  // MARK: - Paths

  /// The temporary name beside `name` for process `pid`.
  ///
  /// `.NAME.scenec-PID.tmp`, or `.NAME.scenec-PID-K.tmp` for the K-th another thread of
  /// the process writes at the same time.
  static func temporaryName(for name: String, pid: pid_t, copy: Int = 0) -> String {
    ".\(name).scenec-\(pid)\(copy == 0 ? "" : "-\(copy)").tmp"
  }

  /// `path` with every symbolic link followed, so the rename replaces the real file (and
  /// the link keeps pointing at it).
  ///
  /// A link to nowhere is refused: writing through it would create its target, wherever
  /// the link points.
  static func resolve(_ path: String) throws(WriteError) -> String {
    let shown = "'" + TerminalText.escaped(path) + "'"
    switch LinkEnd(of: path) {
    case .found(let end, let viaLink, let exists):
      if viaLink && !exists {
        throw WriteError(
          description:
            "cannot write \(shown): it is a symbolic link to '\(TerminalText.escaped(end))', which does not exist"
        )
      }
      return end
    case .unreadable(let reason):
      throw WriteError(description: "cannot write \(shown): \(reason)")
    case .tooDeep:
      throw WriteError(description: "cannot write \(shown): too many levels of symbolic links")
    }
  }

  /// Whether `target` (a path whose last part is not a link) lies inside `folder`, both
  /// with every link and `..` resolved: its real folder is `folder`'s real path or below.
  public static func isInside(_ target: String, folder: String) -> Bool {
    let parent = PathName.deletingLastComponent(target)
    guard let realFolder = FileIdentity.realPath(folder),
      let realParent = FileIdentity.realPath(parent.isEmpty ? "." : parent)
    else { return false }
    let name = PathName.lastComponent(target)
    guard name != "..", name != "." else { return false }
    return realParent == realFolder
      || realParent.hasPrefix(realFolder == "/" ? "/" : realFolder + "/")
  }

  /// Removes `.NAME.scenec-PID.tmp` files beside `name` left by processes that are gone.
  static func removeStaleTemporaries(of name: String, in directory: String) {
    let prefix = ".\(name).scenec-"
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return
    }
    for entry in entries where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
      let owner = entry.dropFirst(prefix.count).dropLast(4)
      let digits = owner.split(separator: "-", maxSplits: 1).first ?? owner
      guard let pid = pid_t(digits), pid > 0, pid != getpid() else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + entry) }
    }
  }

  static func reason() -> String { String(cString: strerror(errno)) }

  /// Makes the folder `path` and any missing folders above it (`mkdir -p`).
  public static func createFolders(atPath path: String) throws(WriteError) {
    guard !path.isEmpty, InputFile.kind(atPath: path) != .directory else { return }
    let parent = PathName.deletingLastComponent(path)
    if parent != path { try createFolders(atPath: parent) }
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      throw WriteError(
        description: "cannot create the folder '\(TerminalText.escaped(path))': \(reason())")
    }
  }

  /// A closed pipe is then an error to report (EPIPE), not a silent death by SIGPIPE.
  public static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
}

/// The temporary files being written, removed if the process is interrupted.
///
/// Signal handlers may only call async-signal-safe functions, so the names are kept as C
/// strings in a fixed table the handler reads without allocating. Threads that write
/// files at once (`scenec test` records scenes in parallel) take turns through a lock; the
/// handler takes none, and at worst misses a file being added at that instant.
public enum TemporaryFiles {
  private static let capacity = 64
  nonisolated(unsafe) private static let paths = UnsafeMutablePointer<
    UnsafeMutablePointer<CChar>?
  >.allocate(capacity: capacity)
  nonisolated(unsafe) private static var installed = false
  nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(lock, nil)
    paths.initialize(repeating: nil, count: capacity)
    return lock
  }()

  static func register(_ path: String) {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    if !installed {
      installed = true
      // Every signal whose default is to end the process quietly: a closed terminal
      // (SIGHUP), `kill -USR1`, an alarm. Ending is what the process still does.
      var set = sigset_t()
      sigemptyset(&set)
      for number in stoppingSignals {
        signal(number, onSignal)
        sigaddset(&set, number)
      }
      // A launcher may hand the process these signals blocked; then they would wait for
      // ever and the run would finish instead of stopping.
      sigprocmask(SIG_UNBLOCK, &set, nil)
    }
    guard let free = (0..<capacity).first(where: { paths[$0] == nil }) else { return }
    paths[free] = strdup(path)
  }

  /// The signals that remove the temporary files and end the process with 128 + the
  /// signal's number, as the shell reports a process the signal ended.
  public static let stoppingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM]

  static func unregister(_ path: String) {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    for i in 0..<capacity {
      guard let p = paths[i], String(cString: p) == path else { continue }
      paths[i] = nil
      free(p)
    }
  }

  private static let onSignal: @convention(c) (Int32) -> Void = { signal in
    for i in 0..<TemporaryFiles.capacity {
      if let p = TemporaryFiles.paths[i] { unlink(p) }
    }
    _exit(128 + signal)
  }
}
