import Foundation
import SceneDiagnostics
import SceneGraph
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneSyntax
import Testing

@testable import SceneOutputs

func runFrames(_ yaml: String) throws -> (SceneGraph, [Frame]) {
  let spec = try #require(
    SceneLoader.load(SourceFile(name: "t.yaml", text: yaml), syntax: .yaml).spec)
  let graph = try #require(SceneResolver.resolve(spec).graph)
  return (graph, try SceneRunner.frames(of: graph))
}

@Suite struct TextOutputTests {
  let scene = """
    scene: { duration: 0.05s, fps: 60 }
    handles:
      ball: { position: [120.5, 80], r: 20, draggable: true }
    paths:
      curve: { d: "M30 100 Q 200 0 300 100" }
    gesture:
      - press: ball
    """

  @Test func jsonlFollowsTheFrameContract() throws {
    let (graph, frames) = try runFrames(scene)
    let context = OutputContext(graph: graph, fps: 60)
    let first = FrameOutput.jsonl.text(of: [frames[0]], context: context)
    #expect(
      first == """
        {"events":[{"handle":"ball","type":"grab"}],"frame":0,"handles":{"ball":{"angle":0,"r":20,"state":"dragging","x":120.5,"y":80}},"paths":{"curve":"M30 100Q200 0 300 100"},"pointers":[{"down":true,"id":0,"x":120.5,"y":80}],"time":0}

        """)
    for frame in frames {
      let line = FrameOutput.jsonl.text(of: [frame], context: context)
      #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
    }
    #expect(frames.count == 4)
  }

  /// A handle's animated properties in every output: JSON lines and CSV carry them (keys
  /// in order), the SVG draws them, and a handle that animates nothing stays as it was.
  @Test func animatedPropertiesReachEveryOutput() throws {
    let (graph, frames) = try runFrames(
      """
      scene: { duration: 0.05s, fps: 60 }
      handles:
        card: { position: [100, 80], shape: rect, width: 40, height: 20, rotation: 90deg, scale: 1.5, opacity: 0.5 - time, stroke: "mix(#ff0000, #0000ff, 0.5)" }
        dot: { position: [10, 10], r: 4 }
      """)
    let context = OutputContext(graph: graph, fps: 60)
    #expect(
      FrameOutput.jsonl.text(of: [frames[0]], context: context) == """
        {"events":[],"frame":0,"handles":{"card":{"angle":0,"opacity":0.5,"r":0,"rotation":1.571,"scale":1.5,"state":"idle","stroke":"#8c53a2ff","x":100,"y":80},"dot":{"angle":0,"r":4,"state":"idle","x":10,"y":10}},"paths":{},"pointers":[],"time":0}

        """)
    #expect(
      FrameOutput.csv.text(of: [frames[3]], context: context) == """
        frame,time,handle,x,y,angle,state,rotation,scale,opacity,width,height,cornerRadius,strokeWidth
        3,0.05,card,100,80,0,idle,1.571,1.5,0.45,40,20,0,1
        3,0.05,dot,10,10,0,idle,0,1,1,0,0,0,1

        """)
    let svg = FrameOutput.svg.text(of: [frames[0]], context: context)
    #expect(
      svg.contains(
        ##"<rect id="card" x="70" y="65" width="60" height="30" transform="rotate(90 100 80)" fill="none" stroke="#8c53a2" stroke-width="1" opacity="0.5"/>"##
      ), "\(svg)")
    #expect(svg.contains(##"<circle id="dot" cx="10" cy="10" r="4" fill="#ffffff"/>"##), "\(svg)")
    // Streamed, a line whose only change is an animated value is still written anew.
    let streamed = FrameOutput.jsonl.text(of: frames, context: context)
    #expect(
      streamed == frames.map { FrameOutput.jsonl.text(of: [$0], context: context) }.joined())
    let animated = FrameOutput.animatedSVG.text(of: frames, context: context)
    #expect(animated.contains(#"<animate attributeName="opacity" values="0.5;0.483;0.467;0.45""#))
  }

  /// Sizes that change: keys in order in JSON lines, and the SVG draws the rounded rect
  /// at its size of the moment; a constant corner radius is drawn and not reported.
  @Test func animatedSizesReachTheOutputs() throws {
    let (graph, frames) = try runFrames(
      """
      scene: { duration: 0.05s, fps: 60 }
      handles:
        card: { position: [100, 80], shape: rect, width: 40 + time * 60, height: 20, cornerRadius: "4 + time * 60", strokeWidth: 2 + time * 60, stroke: "#000000" }
        tile: { position: [10, 10], shape: rect, width: 10, height: 10, cornerRadius: 2 }
        dot: { position: [50, 50], r: "5 + time * 60" }
      """)
    let context = OutputContext(graph: graph, fps: 60)
    #expect(
      FrameOutput.jsonl.text(of: [frames[1]], context: context) == """
        {"events":[],"frame":1,"handles":{"card":{"angle":0,"cornerRadius":5,"r":0,"state":"idle","strokeWidth":3,"width":41,"x":100,"y":80},"dot":{"angle":0,"r":6,"state":"idle","x":50,"y":50},"tile":{"angle":0,"r":0,"state":"idle","x":10,"y":10}},"paths":{},"pointers":[],"time":0.017}

        """)
    let svg = FrameOutput.svg.text(of: [frames[1]], context: context)
    #expect(
      svg.contains(
        ##"<rect id="card" x="79.5" y="70" width="41" height="20" rx="5" fill="none" stroke="#000000" stroke-width="3"/>"##
      ), "\(svg)")
    #expect(
      svg.contains(##"<rect id="tile" x="5" y="5" width="10" height="10" rx="2" fill="#ffffff"/>"##)
    )
    #expect(svg.contains(##"<circle id="dot" cx="50" cy="50" r="6" fill="#ffffff"/>"##))
  }

  @Test func numbersHaveFixedPrecisionWithoutTrailingZeros() {
    #expect(NumberText.format(120.5, precision: 3) == "120.5")
    #expect(NumberText.format(80, precision: 3) == "80")
    #expect(NumberText.format(-0.0001, precision: 3) == "0")
    #expect(NumberText.format(-0.0005, precision: 3) == "-0.001")
    #expect(NumberText.format(1.23456, precision: 2) == "1.23")
    #expect(NumberText.format(0.1 + 0.2, precision: 6) == "0.3")
    #expect(NumberText.format(2, precision: 0) == "2")
    #expect(NumberText.format(.nan, precision: 3) == "0")
  }

  @Test func csvListsEveryHandleOfEveryFrame() throws {
    let (graph, frames) = try runFrames(scene)
    let context = OutputContext(graph: graph, fps: 60)
    let text =
      FrameOutput.csv.text(of: frames, context: context)
    let lines = text.split(separator: "\n")
    #expect(lines.first == "frame,time,handle,x,y,angle,state")
    #expect(lines.count == 1 + frames.count)
    #expect(lines[1] == "0,0,ball,120.5,80,0,dragging")
  }

  @Test func theRegistryPicksFormatsByNameAndExtension() {
    #expect(OutputRegistry.named("jsonl")?.name == "jsonl")
    #expect(OutputRegistry.forFile("out/frames.csv")?.name == "csv")
    #expect(OutputRegistry.forFile("x.ndjson")?.name == "jsonl")
    #expect(OutputRegistry.forFile("noext") == nil)
    #expect(OutputRegistry.forFile("dir.v2/noext") == nil)
  }
}

/// A handle's children in the outputs: JSON lines write those that change under a
/// top-level `children` key, the SVG draws them all in the handle's coordinates, and the
/// page's frames carry what changes.
@Suite struct ChildrenOutputTests {
  let scene = """
    scene: { duration: 0.05s, fps: 60 }
    handles:
      card:
        position: (100 + time * 600, 80)
        shape: rect
        width: 40
        height: 20
        rotation: 90deg
        children:
          dot: { position: [0, -20], r: 4, opacity: 1 - time * 10 }
          label: { position: [0, 20], text: "<{time * 60}> & more", fontSize: 10, fontWeight: bold, align: right }
          still: { position: [5, 5], shape: rect, width: 2, height: 2, scale: 2 }
    """

  @Test func jsonLinesWriteTheChildrenThatChangeFirst() throws {
    let (graph, frames) = try runFrames(scene)
    let context = OutputContext(graph: graph, fps: 60)
    #expect(
      FrameOutput.jsonl.text(of: [frames[2]], context: context) == """
        {"children":{"card":{"dot":{"opacity":0.667},"label":{"text":"<2> & more"}}},"events":[],"frame":2,"handles":{"card":{"angle":0,"r":0,"rotation":1.571,"state":"animating","x":120,"y":80}},"paths":{},"pointers":[],"time":0.033}

        """)
  }

  /// Streamed, the children's sorted order is worked out once and kept: each line is the
  /// line of its frame alone, even where a frame lists other children than the one before.
  @Test func streamedChildrenEncodeAsEachFrameAlone() throws {
    let (graph, frames) = try runFrames(scene)
    let context = OutputContext(graph: graph, fps: 60)
    var reshaped = frames
    reshaped[1].children.removeFirst()
    reshaped[2].children.reverse()
    #expect(reshaped[1].children.count == 1)
    let streamed = FrameOutput.jsonl.text(of: reshaped, context: context)
    #expect(
      streamed == reshaped.map { FrameOutput.jsonl.text(of: [$0], context: context) }.joined())
    #expect(streamed.contains(#"{"children":{"card":{"label":{"text":"<1> & more"}}},"#))
  }

  @Test func theSVGDrawsEveryChildInItsHandlesCoordinates() throws {
    let (graph, frames) = try runFrames(scene)
    let context = OutputContext(graph: graph, fps: 60)
    #expect(
      FrameOutput.svg.text(of: [frames[2]], context: context) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">
          <title>scene</title>
          <rect id="card" x="100" y="70" width="40" height="20" transform="rotate(90 120 80)" fill="#ffffff"/>
          <g transform="translate(120 80) rotate(90) scale(1)">
            <circle r="4" transform="translate(0 -20)" fill="#ffffff" opacity="0.667"/>
            <text font-family="system-ui, -apple-system, Helvetica, Arial, sans-serif" font-size="10" font-weight="700" text-anchor="end" y="3.5" transform="translate(0 20)" fill="#ffffff">&lt;2&gt; &amp; more</text>
            <rect x="-1" y="-1" width="2" height="2" transform="translate(5 5) scale(2)" fill="#ffffff"/>
          </g>
        </svg>

        """)
  }

  @Test func thePagesFramesCarryWhatChanges() throws {
    let (graph, frames) = try runFrames(scene)
    let context = OutputContext(graph: graph, fps: 60)
    var entry = TextBytes()
    SceneJSON.appendFrame(frames[2], context: context, to: &entry)
    #expect(
      entry.string.contains(
        #","c":[[0,0,0,-20,0,1,0.667,null,null,null,null,null,null,null,null,1,1],[0,1,0,20,0,1,1,null,null,null,null,null,null,null,"<2> & more",1,1]]"#
      ), "\(entry.string)")
    let header = SceneJSON.header(context: context, frameCount: 1)
    #expect(
      header.contains(
        ##""children":[{"name":"dot","shape":"circle","x":0,"y":-20,"rotation":0,"scale":1,"scaleX":1,"scaleY":1,"r":4,"w":0,"h":0,"fill":"#ffffff","stroke":null,"strokeWidth":1,"opacity":1},"##
      ), "\(header)")
  }
}

/// A path's changing style in the outputs: JSON lines under a `pathStyles` key, the SVG's
/// paint, and the page's `ps`.
@Suite struct PathStyleOutputTests {
  let scene = """
    scene: { size: 300x200, fps: 10, duration: 0.3s }
    paths:
      line:
        d: "M10 10 L 200 100"
        stroke: "mix(#ff0000, #0000ff, time * 3)"
        strokeWidth: 2 + time * 10
        opacity: 1 - time
      blob: { d: "M10 10 L 100 10 L 100 100 Z", fill: "mix(#00ff00, #00000000, time * 3)" }
      fixed: { d: "M0 0 L 5 5" }
    """

  @Test func everyOutputCarriesWhatChanges() throws {
    let (graph, frames) = try runFrames(scene)
    let context = OutputContext(graph: graph, fps: 10)
    #expect(
      FrameOutput.jsonl.text(of: [frames[1]], context: context) == """
        {"events":[],"frame":1,"handles":{},"pathStyles":{"blob":{"fill":"#009e00b3"},"line":{"opacity":0.9,"stroke":"#ba4d79ff","strokeWidth":3}},"paths":{"blob":"M10 10L100 10L100 100Z","fixed":"M0 0L5 5","line":"M10 10L200 100"},"pointers":[],"time":0.1}

        """)
    #expect(
      FrameOutput.svg.text(of: [frames[1]], context: context) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="300" height="200" viewBox="0 0 300 200">
          <title>scene</title>
          <path id="line" d="M10 10L200 100" fill="none" stroke="#ba4d79" stroke-width="3" opacity="0.9"/>
          <path id="blob" d="M10 10L100 10L100 100Z" fill="#009e00" fill-opacity="0.702"/>
          <path id="fixed" d="M0 0L5 5" fill="none" stroke="#ffffff" stroke-width="2"/>
        </svg>

        """)
    var entry = TextBytes()
    SceneJSON.appendFrame(frames[1], context: context, to: &entry)
    #expect(
      entry.string.contains(
        ##","ps":[[0,0.9,null,"#ba4d79ff",3],[1,null,"#009e00b3",null,null]]"##),
      "\(entry.string)")
    let animated = FrameOutput.animatedSVG.text(of: frames, context: context)
    #expect(
      animated.contains(
        #"<animate attributeName="stroke-width" values="2;3;4;5" keyTimes="0;0.25;0.5;0.75" dur="0.4s" repeatCount="indefinite" calcMode="discrete"/>"#
      ))
  }
}

/// A handle stretched along its own axes: `scaleX` and `scaleY` in JSON lines (keys in
/// order), CSV columns only for a scene that stretches, an ellipse in the SVG.
@Suite struct StretchOutputTests {
  let scene = """
    scene: { size: 300x200, fps: 10, duration: 0.2s }
    handles:
      blob: { position: [100, 100], r: 20, scaleX: 1 + time * 5, scaleY: 1 - time, rotation: 30deg }
      bar:
        position: [200, 100]
        shape: rect
        width: 40
        height: 20
        scaleX: 2
        children:
          dot: { position: [10, 0], r: 3, scaleY: 1 + time * 10 }
    """

  @Test func everyOutputStretchesIt() throws {
    let (graph, frames) = try runFrames(scene)
    let context = OutputContext(graph: graph, fps: 10)
    #expect(
      FrameOutput.jsonl.text(of: [frames[1]], context: context) == """
        {"children":{"bar":{"dot":{"scaleY":2}}},"events":[],"frame":1,"handles":{"bar":{"angle":0,"r":0,"scaleX":2,"state":"idle","x":200,"y":100},"blob":{"angle":0,"r":20,"rotation":0.524,"scaleX":1.5,"scaleY":0.9,"state":"idle","x":100,"y":100}},"paths":{},"pointers":[],"time":0.1}

        """)
    #expect(
      FrameOutput.svg.text(of: [frames[1]], context: context) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="300" height="200" viewBox="0 0 300 200">
          <title>scene</title>
          <ellipse id="blob" cx="100" cy="100" rx="30" ry="18" transform="rotate(30 100 100)" fill="#ffffff"/>
          <rect id="bar" x="160" y="90" width="80" height="20" fill="#ffffff"/>
          <g transform="translate(200 100) rotate(0) scale(2 1)">
            <circle r="3" transform="translate(10 0) scale(1 2)" fill="#ffffff"/>
          </g>
        </svg>

        """)
    #expect(
      FrameOutput.csv.text(of: [frames[1]], context: context) == """
        frame,time,handle,x,y,angle,state,rotation,scale,opacity,width,height,cornerRadius,strokeWidth,scaleX,scaleY
        1,0.1,blob,100,100,0,idle,0.524,1,1,0,0,0,1,1.5,0.9
        1,0.1,bar,200,100,0,idle,0,1,1,40,20,0,1,2,1

        """)
  }
}
