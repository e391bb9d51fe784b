import ArgumentParser
import Foundation
import SceneCommandLine
import Testing

@Suite struct FixedDecimalsTests {
  /// The same text as C's `%.Nf` for times a run reports: every hundredth and every frame
  /// time at 60 and 120 fps up to a minute, which includes exact binary ties (0.125).
  @Test func writesWhatPrintfWrites() {
    var values = (0...6_000).map { Double($0) / 100 }
    values += (0...7_200).map { Double($0) / 120 } + (0...3_600).map { Double($0) / 60 }
    values += [0.125, 0.375, 2.5, 1e-9, 12_345.678_9, 0.005, 0.015, 1.005]
    for value in values {
      #expect(FixedDecimals.text(value, decimals: 2) == String(format: "%.2f", value), "\(value)")
      #expect(FixedDecimals.text(value, decimals: 1) == String(format: "%.1f", value), "\(value)")
      #expect(FixedDecimals.text(value, decimals: 0) == String(format: "%.0f", value), "\(value)")
    }
  }
}

@Suite struct PreviewOptionsTests {
  /// What `scenec preview` hands to `scenec-preview` parses back to the same options,
  /// a file named like an option included.
  @Test func theForwardedCommandLineParsesBack() throws {
    // Trace folders must exist: two real ones, one with a space in its name.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-options-\(UUID().uuidString)")
    let spaced = scratch.appendingPathComponent("a b").path
    let plain = scratch.appendingPathComponent("c").path
    for folder in [spaced, plain] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    defer { try? FileManager.default.removeItem(at: scratch) }
    for arguments in [
      ["Scenes/wave.yaml"],
      [
        "--port", "0", "--open", "--trace-folder", spaced, "--trace-folder", plain, "--", "-x.yaml",
      ],
      ["--host", "0.0.0.0", "--", "--port"],
    ] {
      let options = try PreviewOptions.parse(arguments)
      let again = try PreviewOptions.parse(options.commandLine)
      #expect(again.file == options.file)
      #expect(again.port == options.port && again.host == options.host)
      #expect(again.open == options.open && again.traceFolders == options.traceFolders)
    }
    #expect(throws: (any Error).self) {
      try PreviewOptions.parse([
        "x.yaml", "--trace-folder", scratch.appendingPathComponent("no").path,
      ])
    }
  }
}
