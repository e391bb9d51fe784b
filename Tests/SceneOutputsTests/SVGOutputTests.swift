import Foundation
import SceneDiagnostics
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneSyntax
import Testing

@testable import SceneOutputs

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Loads, resolves and runs a YAML scene for the SVG tests.
private func svgRun(_ yaml: String) throws -> (OutputContext, [Frame]) {
  let spec = try #require(
    SceneLoader.load(SourceFile(name: "t.yaml", text: yaml), syntax: .yaml).spec)
  let graph = try #require(SceneResolver.resolve(spec).graph)
  return (OutputContext(graph: graph, fps: graph.fps), try SceneRunner.frames(of: graph))
}

/// Every element of an XML document with its attributes, in document order; `nil` when
/// the text is not well-formed.
///
/// On Linux `parse()` returns `true` for some errors found at the end of the document (an
/// unclosed element), so any reported error counts too.
private func xmlElements(_ text: String) -> [(name: String, attributes: [String: String])]? {
  final class Collector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var failed = false
    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
      elements.append((elementName, attributeDict))
    }
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { failed = true }
  }
  let parser = XMLParser(data: Data(text.utf8))
  let collector = Collector()
  parser.delegate = collector
  let parsed = parser.parse()
  return parsed && parser.parserError == nil && !collector.failed ? collector.elements : nil
}

@Suite struct SVGOutputTests {
  /// One circle, one path, a handle that draws nothing, a name that needs escaping.
  static let tiny = """
    scene: { name: "Tiny & <small>", size: 200x100, fps: 10, duration: 0.2s, background: "#102030" }
    handles:
      ball: { position: [50, 40], r: 10, fill: orange, stroke: "#000", strokeWidth: 2 }
      dot: { position: [5, 5] }
    paths:
      road: { d: "M10 80 L190 80", stroke: "#88888880", strokeWidth: 4 }
    """

  /// A bound circle, a path that follows it, and a rect turned along a curve.
  static let moving = """
    scene: { size: 200x100, fps: 10, duration: 0.5s }
    handles:
      ball: { position: "(20 + time * 100, 50)", r: 10 }
      box: { position: [0, 0], shape: rect, width: 20, height: 10, fill: blue, opacity: 0.5 }
    paths:
      road: { d: "M10 80 Q 100 0 190 80" }
      rope:
        segments:
          - move: (10, 10)
          - line: ball
    constraints:
      - animate: { handle: box, path: road, duration: 0.5s, orient: true }
    """

  /// A gooey link pulled until it breaks: the bridge and the anchor disappear.
  static func gooey(name: String?) -> String {
    """
    scene: { duration: 1.2s, fps: 10 }
    handles:
      anchor: { position: [100, 100], r: 30 }
      ball: { position: [100, 100], r: 30, draggable: true }
    constraints:
      - gooey: { anchor: anchor, ball: ball, viscosity: 10, maxDistance: 150, minRadius: 10, fill: "#ff880080"\(name.map { ", name: \($0)" } ?? "") }
    gesture:
      - press: [100, 100]
      - drag: { by: [0, 250], over: 1s }
      - release
    """
  }

  @Test func aStillIsTheLastFrameExactly() throws {
    let (context, frames) = try svgRun(Self.tiny)
    #expect(frames.count == 3)
    #expect(
      FrameOutput.svg.text(of: frames, context: context) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">
          <title>Tiny &amp; &lt;small&gt;</title>
          <rect width="200" height="100" fill="#102030"/>
          <path id="road" d="M10 80L190 80" fill="none" stroke="#888888" stroke-opacity="0.502" stroke-width="4"/>
          <circle id="ball" cx="50" cy="40" r="10" fill="#ffa500" stroke="#000000" stroke-width="2"/>
        </svg>

        """)
    #expect(FrameOutput.svg.isStill && FrameOutput.svg.fileExtensions == ["svg"])
  }

  @Test func aStillIsWellFormedXML() throws {
    for yaml in [Self.tiny, Self.moving, Self.gooey(name: nil)] {
      let (context, frames) = try svgRun(yaml)
      let elements = try #require(xmlElements(FrameOutput.svg.text(of: frames, context: context)))
      #expect(elements.first?.name == "svg")
      #expect(elements.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
    }
    let (context, frames) = try svgRun(Self.tiny)
    let elements = try #require(xmlElements(FrameOutput.svg.text(of: frames, context: context)))
    #expect(elements.map(\.name) == ["svg", "title", "rect", "path", "circle"])
  }

  @Test func aRectIsCentredAndTurnedByItsAngle() throws {
    let (context, frames) = try svgRun(Self.moving)
    let svg = FrameOutput.svg.text(of: frames, context: context)
    // At the end of the road, heading down and right along (90, 80): atan2(80, 90) = 41.634°.
    #expect(
      svg.contains(
        ##"<rect id="box" x="180" y="75" width="20" height="10" transform="rotate(41.634 190 80)" fill="#0000ff" opacity="0.5"/>"##
      ))
    #expect(
      svg.contains(
        ##"<path id="rope" d="M10 10L70 50" fill="none" stroke="#ffffff" stroke-width="2"/>"##))
    // Paths first, then handles in declaration order.
    let names = try #require(xmlElements(svg)).map(\.name)
    #expect(names == ["svg", "title", "path", "path", "circle", "rect"])
  }

  @Test func theAnimationHasAValuePerFrameAndIncreasingKeyTimes() throws {
    let (context, frames) = try svgRun(Self.moving)
    #expect(frames.count == 6)
    let svg = FrameOutput.animatedSVG.text(of: frames, context: context)
    let elements = try #require(xmlElements(svg))
    let animations = elements.filter { $0.name == "animate" || $0.name == "animateTransform" }
    // rope's d; ball's cx; box's x, y and rotation. The road never changes.
    #expect(
      animations.map { $0.attributes["attributeName"] ?? "" } == ["d", "cx", "x", "y", "transform"])
    for animation in animations {
      let values = try #require(animation.attributes["values"]).split(
        separator: ";", omittingEmptySubsequences: false)
      let keyTimes = try #require(animation.attributes["keyTimes"]).split(separator: ";").map {
        Double($0)
      }
      #expect(values.count == frames.count)
      #expect(keyTimes.count == frames.count)
      #expect(keyTimes.first == 0)
      let times = keyTimes.compactMap { $0 }
      #expect(times.count == keyTimes.count)
      #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
      #expect((times.last ?? 2) <= 1)
      #expect(animation.attributes["dur"] == "0.6s")
      #expect(animation.attributes["calcMode"] == "discrete")
      #expect(animation.attributes["repeatCount"] == "indefinite")
    }
    let rope = try #require(animations.first { $0.attributes["attributeName"] == "d" })
    let data = frames.map { frame in PathText.data(frame.paths[1].path, precision: 3) }
    #expect(rope.attributes["values"] == data.joined(separator: ";"))
    #expect(rope.attributes["keyTimes"] == "0;0.167;0.333;0.5;0.667;0.833")
    // Before any animation runs, each element shows the first frame.
    #expect(svg.contains(##"<circle id="ball" cx="20" cy="50" r="10" fill="#ffffff">"##))
    #expect(
      FrameOutput.animatedSVG.name == "animated-svg" && !FrameOutput.animatedSVG.isStill)
  }

  @Test func aGooeyBridgeHasItsConstraintsStyleAndHidesWhenTheLinkBreaks() throws {
    for name in [nil, "link"] {
      let (context, frames) = try svgRun(Self.gooey(name: name))
      let id = name ?? "gooey1"
      #expect(frames.last?.paths.map(\.name) == [id])
      // Broken at the end: no bridge and no anchor in the still.
      let still = try #require(xmlElements(FrameOutput.svg.text(of: frames, context: context)))
      #expect(still.map(\.name) == ["svg", "title", "circle"])
      #expect(still.last?.attributes["id"] == "ball")

      let animated = try #require(
        xmlElements(FrameOutput.animatedSVG.text(of: frames, context: context)))
      let bridge = try #require(animated.first { $0.name == "path" })
      #expect(bridge.attributes["id"] == id)
      #expect(bridge.attributes["fill"] == "#ff8800")
      #expect(bridge.attributes["fill-opacity"] == "0.502")
      // Coincident circles have no bridge at the start.
      #expect(bridge.attributes["visibility"] == "hidden")
      let visibility = animated.filter {
        $0.name == "animate" && $0.attributes["attributeName"] == "visibility"
      }
      #expect(visibility.count == 2)  // The bridge's and the anchor's.
      let bridgeStates = visibility[0].attributes["values"]?.split(separator: ";") ?? []
      #expect(bridgeStates.count == frames.count)
      #expect(
        bridgeStates.first == "hidden" && bridgeStates.contains("visible")
          && bridgeStates.last == "hidden")
      // The anchor shrinks as the ball is pulled away.
      #expect(animated.contains { $0.name == "animate" && $0.attributes["attributeName"] == "r" })
    }
  }

  @Test func emptyAndSingleFrameRunsStayValid() throws {
    let (context, frames) = try svgRun(Self.moving)
    for text in [
      FrameOutput.svg.text(of: [], context: context),
      FrameOutput.animatedSVG.text(of: [], context: context),
      FrameOutput.animatedSVG.text(of: [frames[2]], context: context),
    ] {
      let elements = try #require(xmlElements(text))
      #expect(!elements.contains { $0.name.hasPrefix("animate") })
    }
    // One frame animates nothing and draws what the still draws.
    let one = FrameOutput.animatedSVG.text(of: [frames[2]], context: context)
    #expect(one == FrameOutput.svg.text(of: [frames[2]], context: context))
  }

  @Test func keyTimesGetTheDecimalsTheyNeedToKeepIncreasing() {
    // 1800 frames over 30 s: three decimals would repeat keyTimes.
    let fractions = (0..<1800).map { Double($0) / 1800 }
    let times = SVGText.Timing.text(fractions, precision: 3).split(separator: ";").compactMap {
      Double($0)
    }
    #expect(times.count == 1800)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    #expect(SVGText.Timing.text([0, 0.25, 0.5], precision: 0) == "0;0.25;0.5")
  }

  @Test func textIsEscapedForXML() {
    #expect(SVGText.escaped(#"a&b<c>"d'e"#) == "a&amp;b&lt;c&gt;&quot;d&apos;e")
    #expect(SVGText.escaped("x\ny\u{1}") == "x&#10;y\u{FFFD}")
    // The check itself catches bad XML.
    #expect(xmlElements("<svg><rect></svg>") == nil)
    #expect(xmlElements("<svg a=\"1\" a=\"2\"/>") == nil)
    #expect(xmlElements("<svg><rect/></svg>")?.count == 2)
    var ids = SVGText.IDs()
    #expect(ids.attribute(for: "ball") == #" id="ball""#)
    #expect(ids.attribute(for: "ball") == "")  // Already used.
    #expect(ids.attribute(for: "a b") == "")
    #expect(ids.attribute(for: "1st") == "")
  }
}
