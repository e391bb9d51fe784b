/// Writes whole files so that readers see either the old contents or the new, never a part.
public enum AtomicFile {
  /// Writes `bytes` to `path` through ``OutputFile``: a temporary file beside the real
  /// target, renamed over it; or standard output when `path` is `nil`.
  ///
  /// `replacing: false` fails with ``OutputFile/WriteError/targetExists`` rather than
  /// replace an existing file; see ``OutputFile/init(path:removeOnInterrupt:policy:)`` for
  /// `removeOnInterrupt` and `policy`.
  public static func write(
    _ bytes: some Sequence<UInt8>, to path: String?, replacing: Bool = true,
    removeOnInterrupt: Bool = true, policy: WritePolicy = WritePolicy()
  ) throws(OutputFile.WriteError) {
    var file =
      try path.map { p throws(OutputFile.WriteError) in
        try OutputFile(path: p, removeOnInterrupt: removeOnInterrupt, policy: policy)
      } ?? .standardOutput()
    try file.write(bytes)
    try file.commit(replacing: replacing)
  }
}
