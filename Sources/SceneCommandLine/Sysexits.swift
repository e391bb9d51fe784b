import ArgumentParser

/// Exit codes from BSD's sysexits.h, as DESIGN.md assigns them.
public enum Sysexits {
  /// The command line was wrong (ArgumentParser uses 64 for usage errors too).
  public static let usage = ExitCode(64)
  /// The input was read but is not valid: bad path data, an invalid scene.
  public static let dataError = ExitCode(65)
  /// An input file does not exist or cannot be read.
  public static let noInput = ExitCode(66)
  /// An output file could not be written.
  public static let cannotCreate = ExitCode(73)
  /// A service is unavailable: the preview's port is taken, or its server executable is
  /// missing.
  public static let unavailable = ExitCode(69)
  /// A bug in scenec.
  public static let software = ExitCode(70)
}
