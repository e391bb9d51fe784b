import Testing

@testable import SceneDiagnostics

@Suite struct SourceLocationTests {
  @Test func aFileNameIsStoredOnceAndReadBackAsGiven() {
    let names = ["Scenes/wave.yaml", "<stdin>", "", "a/very/long/path/to/some/scene/file.scene"]
    for name in names {
      let first = SourceFileName(name)
      #expect(first.description == name)
      #expect(SourceFileName(name) == first)
      #expect(SourceLocation(file: name, line: 3, column: 4).file == name)
    }
    #expect(SourceFileName("a.yaml") != SourceFileName("b.yaml"))
  }

  @Test func namesStoredFromManyTasksAtOnceAgree() async {
    let names = (0..<500).map { "concurrent-\($0 % 250).yaml" }
    let numbers = await withTaskGroup(of: [UInt32].self) { group in
      for task in 0..<8 {
        // Each task in its own order, so they race to store the same names.
        let order = task.isMultiple(of: 2) ? names : names.reversed()
        group.addTask { order.map { SourceFileName($0).number } }
      }
      var all: [[UInt32]] = []
      for await numbers in group { all.append(numbers) }
      return all
    }
    let expected = names.map { SourceFileName($0).number }
    for list in numbers {
      #expect(list == expected || list == expected.reversed())
    }
    #expect(Set(expected).count == 250)
    #expect(names.allSatisfy { SourceFileName($0).description == $0 })
  }

  @Test func locationsOrderByFileNameThenLineThenColumn() {
    // Stored in the opposite order to their names, so ordering by number would fail.
    let later = SourceLocation(file: "order-test-z.yaml", line: 1, column: 1)
    let earlier = SourceLocation(file: "order-test-a.yaml", line: 9, column: 9)
    #expect(earlier < later)
    #expect(!(later < earlier))
    let here = SourceLocation(file: "order-test-a.yaml", line: 2, column: 5)
    #expect(here < SourceLocation(file: "order-test-a.yaml", line: 2, column: 6))
    #expect(here < SourceLocation(file: "order-test-a.yaml", line: 3, column: 1))
    #expect(!(here < here))
  }

  @Test func locationsAreEqualByFileLineAndColumn() {
    let a = SourceLocation(file: "equal.yaml", line: 7, column: 2)
    #expect(a == SourceLocation(file: SourceFileName("equal.yaml"), line: 7, column: 2))
    #expect(a != SourceLocation(file: "other.yaml", line: 7, column: 2))
    #expect(a != SourceLocation(file: "equal.yaml", line: 7, column: 3))
    #expect(Set([a, SourceLocation(file: "equal.yaml", line: 7, column: 2)]).count == 1)
    #expect(a.description == "equal.yaml:7:2")
  }

  @Test func numbersBeyondThirtyTwoBitsAreKeptAsTheLargest() {
    var location = SourceLocation(file: "big.yaml", line: Int(UInt32.max) + 10, column: -3)
    #expect(location.line == Int(UInt32.max))
    #expect(location.column == 0)
    location.column = 12
    location.file = "renamed.yaml"
    #expect(location.description == "renamed.yaml:\(UInt32.max):12")
    #expect(SourceSpan(location, length: Int.max).length == Int(UInt32.max))
  }

  @Test func aLocationIsPlainData() {
    let locationIsPOD = _isPOD(SceneDiagnostics.SourceLocation.self)
    let spanIsPOD = _isPOD(SourceSpan.self)
    #expect(locationIsPOD)
    #expect(spanIsPOD)
    #expect(MemoryLayout<SourceSpan>.size == 16)
  }
}
