import Foundation
import Testing

@Suite struct PathCommandTests {
  @Test func measuresASquareExactly() throws {
    let result = try ScenecProcess.run([
      "path", "M10 10 h 80 v 80 h -80 z", "--at-length", "50%", "--at-length", "330",
      "--nearest", "-5,-5", "--nearest", "50,60",
    ])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        {"length": 320, "bounds": [10, 10, 90, 90], "atLength": [{"s": 160, "x": 90, "y": 90, \
        "angle": 3.141592653589793}, {"s": 10, "x": 20, "y": 10, "angle": 0}], "nearest": \
        [{"query": [-5, -5], "x": 10, "y": 10, "s": 0, "distance": 21.213203435596427}, \
        {"query": [50, 60], "x": 50, "y": 90, "s": 200, "distance": 30}]}

        """)
  }

  /// The issue's own example; the figures agree with SciPy's `quad` and a bounded
  /// minimisation to the last digit printed there (length) or to 1e-11 (s).
  @Test func measuresTheExampleCubic() throws {
    let result = try ScenecProcess.run([
      "path", "M0 0 C 30 80 70 -40 100 0", "--at-length", "50", "--nearest", "40,10",
    ])
    #expect(result.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let length = try #require(object["length"] as? Double)
    // The documented bound: 1e-9 of the length (this cubic comes within about 2e-14).
    #expect(abs(length - 129.43655969202297) <= 1e-9 * 129.43655969202297)
    let bounds = try #require(object["bounds"] as? [Double])
    #expect(bounds.count == 4)
    // The reference extremes come from 200,001 samples, so they can only fall short
    // of the exact ones, by at most about 1e-8 here.
    #expect(bounds[1] <= -8.41507079117628 && bounds[1] >= -8.41507079117628 - 1e-8)
    #expect(bounds[3] >= 28.168157211255593 && bounds[3] <= 28.168157211255593 + 1e-8)
    let at = try #require((object["atLength"] as? [[String: Double]])?.first)
    #expect(abs((at["x"] ?? 0) - 34.73393751) <= 1e-8)
    #expect(abs((at["y"] ?? 0) - 25.73986283) <= 1e-8)
    #expect(abs((at["angle"] ?? 0) - -0.4450063229122413) <= 1e-9)
    let near = try #require((object["nearest"] as? [[String: Any]])?.first)
    #expect(abs((near["distance"] as? Double ?? 0) - 10.245945052044558) <= 1e-9)
    #expect(abs((near["s"] as? Double ?? 0) - 64.07487696045183) <= 1e-8)
    #expect(near["query"] as? [Double] == [40, 10])
  }

  @Test func badPathDataPointsAtTheOffendingCharacter() throws {
    let result = try ScenecProcess.run(["path", "M0 0 L x 10"])
    #expect(result.status == 65)
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        error: bad path data at offset 7: expected a number, found 'x'
          M0 0 L x 10
                 ^

        """)
  }

  @Test func emptyPathDataIsAnError() throws {
    let result = try ScenecProcess.run(["path", ""])
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix(
        "error: bad path data at offset 0: expected a moveto command ('M' or 'm'), found end of data\n"
      ))
  }

  @Test func hugeCoordinatesAreRefusedNotMismeasured() throws {
    let result = try ScenecProcess.run(["path", "M1e308 0 L-1e308 0", "--nearest", "0,0"])
    #expect(result.status == 65)
    #expect(result.stdout == "")
    #expect(
      result.stderr == "error: path coordinates must lie within ±1e15; this path reaches 1e+308\n")
    let query = try ScenecProcess.run(["path", "M0 0 L1 0", "--nearest", "1e16,0"])
    #expect(query.status == 64)
    #expect(query.stderr.hasPrefix("Error: --nearest coordinates must lie within ±1e15\n"))
  }

  @Test func readsPathDataFromStandardInput() throws {
    let result = try ScenecProcess.run(["path", "-", "--at-length", "5"], input: "M0 0 L10 0\n")
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "{\"length\": 10, \"bounds\": [0, 0, 10, 0], \"atLength\": [{\"s\": 5, \"x\": 5, \"y\": 0, \"angle\": 0}], \"nearest\": []}\n"
    )
  }

  @Test(arguments: [
    ["path", "M0 0 L1 1", "--nearest", "1"],
    ["path", "M0 0 L1 1", "--nearest", "nan,1"],
    ["path", "M0 0 L1 1", "--at-length", "inf"],
    ["path", "M0 0 L1 1", "--at-length", "ten"],
    ["path"],
    ["no-such-command"],
  ])
  func commandLineMisuseExits64(arguments: [String]) throws {
    let result = try ScenecProcess.run(arguments)
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("Error: "))
  }

  @Test func negativeQueryCoordinatesAreValues() throws {
    let result = try ScenecProcess.run([
      "path", "M0 0 L10 0", "--nearest", "-4,-3", "--at-length", "-1",
    ])
    #expect(result.status == 0)
    #expect(
      result.stdout.contains("\"query\": [-4, -3], \"x\": 0, \"y\": 0, \"s\": 0, \"distance\": 5"))
    #expect(result.stdout.contains("{\"s\": 0, \"x\": 0, \"y\": 0, \"angle\": 0}"))
  }
}
