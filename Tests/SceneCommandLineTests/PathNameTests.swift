import SceneFiles
import Testing

/// `PathName`, the path arithmetic of the modules that link only FoundationEssentials,
/// against `NSString`'s answers (swift-corelibs-foundation 6.3.1).
///
/// The answers are a table, recorded by calling `NSString` in a separate process per call:
/// called in this process, corelibs' path methods can stop it (an illegal instruction in
/// `_startOfLastPathComponent`, on `a`, `.` and `a/` at least). A brute-force comparison
/// done the same way agreed on all 1,093 paths of up to six characters from `a`, `.` and
/// `/`, through all six calls, except the ones marked below.
@Suite struct PathNameTests {
  /// (path, lastComponent, deletingLastComponent, pathExtension, deletingPathExtension,
  /// appending "c.d" to the path, appending the path to "x/").
  static let cases: [(String, String, String, String, String, String, String)] = [
    ("", "", "", "", "", "c.d", "x/"),
    ("/", "/", "/", "", "/", "/c.d", "x//"),
    ("//", "/", "/", "", "/", "//c.d", "x///"),
    ("a", "a", "", "", "a", "a/c.d", "x/a"),
    ("a/", "a", "", "", "a", "a/c.d", "x/a/"),
    (".", ".", "", "", ".", "./c.d", "x/."),
    ("..", "..", "", "", "..", "../c.d", "x/.."),
    ("a.b", "a.b", "", "b", "a", "a.b/c.d", "x/a.b"),
    ("a.", "a.", "", "", "a", "a./c.d", "x/a."),
    (".x", ".x", "", "", ".x", ".x/c.d", "x/.x"),
    ("a.b.c", "a.b.c", "", "c", "a.b", "a.b.c/c.d", "x/a.b.c"),
    ("/a", "a", "/", "", "/a", "/a/c.d", "x//a"),
    ("//a", "a", "/", "", "/a", "//a/c.d", "x///a"),
    ("a/b", "b", "a", "", "a/b", "a/b/c.d", "x/a/b"),
    ("a//b", "b", "a", "", "a/b", "a//b/c.d", "x/a//b"),
    ("a/b/", "b", "a", "", "a/b", "a/b/c.d", "x/a/b/"),
    ("/a/b//", "b", "/a", "", "/a/b", "/a/b//c.d", "x//a/b//"),
    ("d.d/a", "a", "d.d", "", "d.d/a", "d.d/a/c.d", "x/d.d/a"),
    ("d.d/.a", ".a", "d.d", "", "d.d/.a", "d.d/.a/c.d", "x/d.d/.a"),
    ("./a", "a", ".", "", "./a", "./a/c.d", "x/./a"),
    ("../a.b/", "a.b", "..", "b", "../a", "../a.b/c.d", "x/../a.b/"),
    ("/.a", ".a", "/", "", "/.a", "/.a/c.d", "x//.a"),
    ("a/.", ".", "a", "", "a/.", "a/./c.d", "x/a/."),
    ("a/..", "..", "a", "", "a/..", "a/../c.d", "x/a/.."),
    ("x.y/", "x.y", "", "y", "x", "x.y/c.d", "x/x.y/"),
    ("a//a.b", "a.b", "a", "b", "a/a", "a//a.b/c.d", "x/a//a.b"),
    ("//a./", "a.", "/", "", "/a", "//a./c.d", "x///a./"),
    (
      "Scenes/wave.yaml", "wave.yaml", "Scenes", "yaml", "Scenes/wave", "Scenes/wave.yaml/c.d",
      "x/Scenes/wave.yaml"
    ),
    (
      "/tmp/out/frames.jsonl", "frames.jsonl", "/tmp/out", "jsonl", "/tmp/out/frames",
      "/tmp/out/frames.jsonl/c.d", "x//tmp/out/frames.jsonl"
    ),
    ("out.d/frames", "frames", "out.d", "", "out.d/frames", "out.d/frames/c.d", "x/out.d/frames"),
    (".//a.", "a.", ".", "", "./a", ".//a./c.d", "x/.//a."),
    ("a///b.c//", "b.c", "a", "c", "a/b", "a///b.c//c.d", "x/a///b.c//"),
  ]

  @Test func answersAsNSStringDoes() {
    for (path, last, folder, pathExtension, stem, appended, appendedTo) in Self.cases {
      #expect(PathName.lastComponent(path) == last, "\(path)")
      #expect(PathName.deletingLastComponent(path) == folder, "\(path)")
      #expect(PathName.pathExtension(path) == pathExtension, "\(path)")
      #expect(PathName.deletingPathExtension(path) == stem, "\(path)")
      #expect(PathName.appending("c.d", to: path) == appended, "\(path)")
      #expect(PathName.appending(path, to: "x/") == appendedTo, "\(path)")
    }
  }

  /// The rows where `NSString` differs: it stops the process for the folder of `a`, `a/`
  /// and `.` (`scenec run … -o a` crashed there), and calls the root of `//` `""`.
  @Test func answersWhereCorelibsHasNone() {
    #expect(PathName.deletingLastComponent("a") == "")
    #expect(PathName.deletingLastComponent("a/") == "")
    #expect(PathName.deletingLastComponent(".") == "")
    #expect(PathName.lastComponent("//") == "/")
    #expect(PathName.deletingLastComponent("//") == "/")
    #expect(PathName.deletingPathExtension("//") == "/")
  }
}
