import SceneFiles

/// Writes `message` and a terminator to standard error, unbuffered; a closed or full
/// standard error loses the message but never stops the command.
public func printError(_ message: String, terminator: String = "\n") {
  _ = writeAll(2, Array((message + terminator).utf8))
}
