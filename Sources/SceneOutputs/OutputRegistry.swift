#if !hasFeature(Embedded)
/// Every output format by name: built-ins register here through the same value type a
/// third party would use.
public enum OutputRegistry {
  /// The built-in formats, in the order `--help` lists them.
  public static let builtIn: [FrameOutput] = [
    .jsonl, .svg, .animatedSVG, .html, .csv, .lottie, .graph,
  ]

  /// The format called `name`, if any.
  public static func named(_ name: String, in outputs: [FrameOutput] = builtIn) -> FrameOutput? {
    outputs.first { $0.name == name }
  }

  /// The format a file name's extension implies, if any.
  public static func forFile(_ path: String, in outputs: [FrameOutput] = builtIn) -> FrameOutput? {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    let ext = path[path.index(after: dot)...].lowercased()
    return outputs.first { $0.fileExtensions.contains(ext) }
  }
}
#endif
