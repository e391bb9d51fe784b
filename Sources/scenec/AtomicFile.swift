import Foundation

/// Writes files so that readers see either the old contents or the new, never a part.
enum AtomicFile {
  /// Writes `data` to a temporary file beside `path`, then renames it over `path`.
  static func write(_ data: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).scenec-\(ProcessInfo.processInfo.processIdentifier).tmp")
    do {
      try data.write(to: temporary)
      if FileManager.default.fileExists(atPath: url.path) {
        _ = try FileManager.default.replaceItemAt(url, withItemAt: temporary)
      } else {
        try FileManager.default.moveItem(at: temporary, to: url)
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }
}
