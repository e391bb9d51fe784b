import SceneFiles

/// Writes `message` and a terminator to standard error, unbuffered; a closed or full
/// standard error loses the message but never stops the command.
public func printError(_ message: String, terminator: String = "\n") {
  var bytes = Array((message + terminator).utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return 0 }
      return systemWrite(2, base + offset, raw.count - offset)
    }
    if written <= 0 { return }
    offset += written
  }
}
