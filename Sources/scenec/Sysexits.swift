import ArgumentParser

/// Exit codes from BSD's sysexits.h, as DESIGN.md assigns them.
enum Sysexits {
  /// The command line was wrong (ArgumentParser uses 64 for usage errors too).
  static let usage = ExitCode(64)
  /// The input was read but is not valid: bad path data, an invalid scene.
  static let dataError = ExitCode(65)
  /// An input file does not exist or cannot be read.
  static let noInput = ExitCode(66)
  /// An output file could not be written.
  static let cannotCreate = ExitCode(73)
  /// A bug in scenec.
  static let software = ExitCode(70)
}
