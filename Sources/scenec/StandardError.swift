import Foundation

/// Writes `message` and a newline to standard error.
func printError(_ message: String, terminator: String = "\n") {
  FileHandle.standardError.write(Data((message + terminator).utf8))
}
