import Foundation
@_exported import PropertyBased

/// The one seeded random generator of the test suites: PropertyBased's xoshiro256**, so
/// property tests and hand-written random loops draw from the same kind of stream, and
/// every run sees the same values on every platform.
public typealias SeededGenerator = Xoshiro

extension Xoshiro {
  /// A generator seeded from one number (spread over the four words of state by
  /// SplitMix64, as xoshiro's authors recommend).
  public init(seed: UInt64) {
    var state = seed
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    self.init(seed: (next(), next(), next(), next()))
  }
}

/// Whether `a` and `b` agree within `relativeTolerance` of the larger magnitude, or within
/// `absoluteTolerance` (for values near zero); NaN agrees with nothing.
///
/// The one tolerance check of the test suites (after swift-numerics'
/// `isApproximatelyEqual`): every tolerance a test uses should say why it is that size.
public func isApproximatelyEqual(
  _ a: Double, _ b: Double, relativeTolerance: Double, absoluteTolerance: Double = 0
) -> Bool {
  guard a.isFinite && b.isFinite else { return a == b }
  let difference = abs(a - b)
  return difference <= absoluteTolerance || difference <= relativeTolerance * max(abs(a), abs(b))
}

/// The path of `relative` (such as `Scenes/wave.yaml`) in the repository, for tests that
/// read the repository's own files.
public func repositoryPath(_ relative: String) -> String {
  // This file is Tests/SceneTestSupport/SceneTestSupport.swift.
  var root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
  root.removeLast(3)
  return (root + [Substring(relative)]).joined(separator: "/")
}

/// A new empty folder under the temporary directory, named from `prefix`, for a test's
/// files; the test removes it.
public func makeScratchFolder(_ prefix: String) throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
