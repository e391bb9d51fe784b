/// Path arithmetic on strings, as Foundation's `NSString` path methods do it, for the
/// modules that link no more of Foundation than FoundationEssentials (whose `String`
/// offers none of these): linking all of Foundation into `scenec` cost its start-up about
/// a millisecond.
///
/// Only `/` separates; nothing is resolved against the file system. The answers are
/// swift-corelibs-foundation's, except where it has none: its `deletingLastPathComponent`
/// stops the process on a one-character name (`a`, `.`, `a/`), which made
/// `scenec run … -o a` crash; here those give `""`. `PathNameTests` lists every case.
public enum PathName {
  /// The path without its trailing slashes; `/` for a path of slashes only.
  static func trimmed(_ path: Substring) -> Substring {
    var end = path.endIndex
    while end > path.startIndex && path[path.index(before: end)] == "/" {
      end = path.index(before: end)
    }
    if end == path.startIndex { return path.isEmpty ? path : path.prefix(1) }
    return path[..<end]
  }

  /// `NSString.lastPathComponent`: the part after the last slash, trailing slashes aside.
  public static func lastComponent(_ path: String) -> String {
    let body = trimmed(path[...])
    if body == "/" { return "/" }
    guard let slash = body.lastIndex(of: "/") else { return String(body) }
    return String(body[body.index(after: slash)...])
  }

  /// `NSString.deletingLastPathComponent`: the folder part, `""` for a bare name, `/` at
  /// the root.
  public static func deletingLastComponent(_ path: String) -> String {
    let body = trimmed(path[...])
    if body == "/" { return "/" }
    guard let slash = body.lastIndex(of: "/") else { return "" }
    let folder = trimmed(body[..<slash])
    return folder.isEmpty ? "/" : collapsingSlashes(folder)
  }

  /// `NSString.appendingPathComponent` as swift-corelibs-foundation does it: joined by a
  /// slash unless `path` ends in one; either alone if the other is empty.
  public static func appending(_ component: String, to path: String) -> String {
    if component.isEmpty { return path }
    if path.isEmpty { return component }
    return path.hasSuffix("/") ? path + component : path + "/" + component
  }

  /// `NSString.pathExtension`: what follows the last dot of the last component, unless
  /// that dot starts it (`.profile` has none).
  public static func pathExtension(_ path: String) -> String {
    let name = lastComponent(path)
    guard name != "..", let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return ""
    }
    return String(name[name.index(after: dot)...])
  }

  /// `NSString.deletingPathExtension`: the path without `.` and its ``pathExtension(_:)``
  /// (and without trailing slashes).
  public static func deletingPathExtension(_ path: String) -> String {
    let body = trimmed(path[...])
    let nameStart = body.lastIndex(of: "/").map { body.index(after: $0) } ?? body.startIndex
    guard body[nameStart...] != "..", let dot = body[nameStart...].lastIndex(of: "."),
      dot != nameStart
    else { return collapsingSlashes(body) }
    return collapsingSlashes(body[..<dot])
  }

  /// Each run of slashes as one.
  static func collapsingSlashes(_ path: Substring) -> String {
    var result = ""
    result.reserveCapacity(path.utf8.count)
    var previousWasSlash = false
    for character in path {
      if character == "/" && previousWasSlash { continue }
      previousWasSlash = character == "/"
      result.append(character)
    }
    return result
  }
}
