import ArgumentParser
import SceneCommandLine
import SceneFiles
import SceneGeometry

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `scenec path`: measures SVG path data exactly and prints the answers as JSON.
struct PathCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "path",
    abstract: "Measure SVG path data: length, bounds, points at arc length, nearest points.",
    discussion: """
      Prints one JSON object on one line:

        {"length": L, "bounds": [minX, minY, maxX, maxY],
         "atLength": [{"s": S, "x": X, "y": Y, "angle": A}, …],
         "nearest": [{"query": [X, Y], "x": X, "y": Y, "s": S, "distance": D}, …]}

      Numbers are printed in full (the shortest text that reads back as the same
      double). Coordinates are y-down as on screen; an angle is the tangent direction
      in radians, atan2(dy, dx). Arc lengths past the ends clamp to them; on a path
      that is one closed subpath they wrap around. "s" is the arc length actually used.

      Bad path data exits with status 65 and an error that points at the offending
      character.

      Examples:
        scenec path "M0 0 C 30 80 70 -40 100 0" --at-length 50 --nearest 40,10
        scenec path "M10 10 h 80 v 80 h -80 z" --at-length 50% --at-length 330
      """
  )

  @Argument(
    help: "SVG path data, as in the d attribute of an SVG <path>; - reads it from standard input.")
  var pathData: String

  /// The most path data read from standard input, as for any scene input (DESIGN.md).
  static let maximumInputBytes = 8 << 20

  @Option(
    name: .customLong("at-length"), parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "An arc length from the start, or a percentage of the length such as 50%. Repeatable.",
      valueName: "S"))
  var atLength: [ArcLengthArgument] = []

  @Option(
    name: .customLong("nearest"), parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "A point X,Y to find the nearest point of the path to. Repeatable.", valueName: "X,Y"))
  var nearest: [PointArgument] = []

  func run() throws {
    let pathData = try self.pathData == "-" ? Self.readStandardInput() : self.pathData
    let path: Path
    do {
      path = try Path(svgPathData: pathData)
    } catch {
      printError(
        "error: bad path data at \(error.description)\n\(error.caretSnippet(in: pathData))")
      throw Sysexits.dataError
    }
    if let extreme = Self.largestCoordinate(of: path), extreme > Self.coordinateLimit {
      printError(
        "error: path coordinates must lie within ±1e15; this path reaches \(extreme.shortestDescription)"
      )
      throw Sysexits.dataError
    }
    let measured = MeasuredPath(path)
    var json = JSONWriter()
    json.object { members in
      members.member("length") { $0.number(measured.length) }
      members.member("bounds") { writer in
        let b = measured.bounds
        writer.array([b.minX, b.minY, b.maxX, b.maxY]) { $0.number($1) }
      }
      members.member("atLength") { writer in
        writer.array(atLength) { writer, query in
          let position = measured.position(atLength: query.length(of: measured.length))
          writer.object { members in
            members.member("s") { $0.number(position.length) }
            members.member("x") { $0.number(position.point.x) }
            members.member("y") { $0.number(position.point.y) }
            members.member("angle") { $0.number(position.angle) }
          }
        }
      }
      members.member("nearest") { writer in
        writer.array(nearest) { writer, query in
          let projection = measured.nearest(to: query.point)
          writer.object { members in
            members.member("query") { writer in
              writer.array([query.point.x, query.point.y]) { $0.number($1) }
            }
            members.member("x") { $0.number(projection.point.x) }
            members.member("y") { $0.number(projection.point.y) }
            members.member("s") { $0.number(projection.length) }
            members.member("distance") { $0.number(projection.distance) }
          }
        }
      }
    }
    guard !json.sawNonFinite else {
      printError(
        "error: cannot measure this path: its coordinates are so large that the results overflow")
      throw Sysexits.dataError
    }
    try StandardOutput.write(json.text)
  }
}

extension PathCommand {
  /// The largest coordinate magnitude measured.
  ///
  /// Squared distances of larger values
  /// overflow a double long before the coordinates do, and no screen needs them.
  static let coordinateLimit = 1e15

  /// The largest coordinate magnitude among all points of `path`, control points included.
  static func largestCoordinate(of path: Path) -> Double? {
    var largest: Double?
    func visit(_ p: Point) { largest = Swift.max(largest ?? 0, abs(p.x), abs(p.y)) }
    for subpath in path.subpaths {
      visit(subpath.start)
      for segment in subpath.segments {
        switch segment {
        case .line(_, let b): visit(b)
        case .quadratic(_, let c, let b):
          visit(c)
          visit(b)
        case .cubic(_, let c1, let c2, let b):
          visit(c1)
          visit(c2)
          visit(b)
        }
      }
    }
    return largest
  }

  func validate() throws {
    for query in nearest where max(abs(query.point.x), abs(query.point.y)) > Self.coordinateLimit {
      throw ValidationError("--nearest coordinates must lie within ±1e15")
    }
  }

  /// Reads path data from standard input, refusing more than ``maximumInputBytes``
  /// and text that is not UTF-8.
  static func readStandardInput() throws -> String {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(descriptor: 0, upTo: maximumInputBytes + 1)
    } catch {
      printError("error: cannot read standard input: \(error.reason)")
      throw Sysexits.noInput
    }
    if bytes.count > maximumInputBytes {
      printError("error: path data on standard input is larger than 8 MiB")
      throw Sysexits.dataError
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      printError("error: path data on standard input is not valid UTF-8")
      throw Sysexits.dataError
    }
    return text
  }
}

/// An `--at-length` value: an arc length, or a percentage of the path's length.
struct ArcLengthArgument: ExpressibleByArgument {
  var value: Double
  var isPercentage: Bool

  init?(argument: String) {
    var text = Substring(argument)
    isPercentage = text.hasSuffix("%")
    if isPercentage { text = text.dropLast() }
    guard let number = Double(text), number.isFinite else { return nil }
    value = number
  }

  func length(of total: Double) -> Double { isPercentage ? total * value / 100 : value }

  static var defaultValueDescription: String { "S" }
}

/// A `--nearest` value: a point written `X,Y`.
struct PointArgument: ExpressibleByArgument {
  var point: Point

  init?(argument: String) {
    let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2,
      let x = Double(parts[0].trimmingSpaces), let y = Double(parts[1].trimmingSpaces),
      x.isFinite, y.isFinite
    else { return nil }
    point = Point(x, y)
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return text
  }
}
