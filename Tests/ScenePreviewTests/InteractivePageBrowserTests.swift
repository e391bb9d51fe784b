import Foundation
import SceneDiagnostics
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneSyntax
import SceneTestSupport
import Testing

/// The interactive page (`scenec run FILE -o x.html --interactive`), opened from disk in
/// headless Chromium: the scene runs in the WebAssembly engine in the page, and a real
/// drag stretches the sticky ball's bridge until it breaks.
@Suite(.serialized) struct InteractivePageBrowserTests {
  static let engine = repositoryPath(".build-wasm/scenec-engine.wasm")
  static let canRun =
    BrowserTests.chromium != nil && FileManager.default.fileExists(atPath: engine)

  /// The page `scenec run SCENE -o x.html --interactive` writes, in a scratch folder.
  static func page(_ scene: String) throws -> (folder: URL, file: URL) {
    try page(path: repositoryPath("Scenes/\(scene)"))
  }

  /// The page for the scene at `path`, with the traces its gesture replays.
  static func page(path: String) throws -> (folder: URL, file: URL) {
    let loaded = try ScenePipeline.load(path: path)
    let graph = try #require(loaded.graph)
    let spec = try #require(loaded.spec)
    let text = DSLEmitter.emit(
      SceneEncoder.encode(spec, comments: SceneComments(text: loaded.files[0].text)),
      header: nil)
    let html = InteractivePage.html(
      context: OutputContext(graph: graph, fps: graph.fps), sceneText: text,
      traces: loaded.traces.mapValues(\.csvText),
      engine: Array(try Data(contentsOf: URL(fileURLWithPath: engine))))
    let folder = try makeScratchFolder("scenec-interactive")
    let file = folder.appendingPathComponent("sticky.html")
    try html.write(to: file, atomically: true, encoding: .utf8)
    return (folder, file)
  }

  static let why =
    "the interactive page cannot be tried here: it needs chromium and .build-wasm/scenec-engine.wasm (Scripts/build-wasm)"

  /// How the page is shown: a desktop browser with a mouse, with touch, or a phone.
  enum Screen { case desktop, touch, phone }

  /// Opens `file` from disk in headless Chromium on `screen`, waits for the engine to
  /// start, runs `body` with the page, and then demands that the page reported no problem
  /// and no script error.
  static func withPage(
    _ file: URL, on screen: Screen = .desktop,
    _ body: @escaping @Sendable (DevTools, String) async throws -> Void
  ) async throws {
    let browser = try Browser(executable: try #require(BrowserTests.chromium))
    defer { browser.stop() }
    let endpoint = try await browser.devToolsEndpoint()
    try await DevTools.session(endpoint) { tools in
      let page = try await tools.open(file.absoluteString)
      if screen == .phone {
        _ = try await tools.command(
          "Emulation.setDeviceMetricsOverride",
          ["width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": true], session: page)
      }
      if screen != .desktop {
        _ = try await tools.command(
          "Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5],
          session: page)
      }
      #expect(
        try await tools.waitFor("window.scenecInteractive && scenecInteractive.ready", in: page))
      try await body(tools, page)
      let problems = try await tools.evaluate(
        "JSON.stringify([scenecInteractive.problem, scenecInteractive.errors])", in: page)
      #expect(problems as? String == "[null,[]]")
    }
  }

  @Test(.enabled(if: canRun, "\(why)"))
  func aRealDragStretchesTheBridgeAndBreaksIt() async throws {
    let (folder, file) = try Self.page("sticky-ball.yaml")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.withPage(file) { tools, page in
      #expect(try await tools.waitFor("scenecInteractive.frames > 3", in: page))
      // Press the left ball and pull it down, 15 points a move, 300 in all.
      let start = try await tools.point("scenecInteractive.toClient(120, 200)", in: page)
      let end = try await tools.point("scenecInteractive.toClient(120, 500)", in: page)
      try await tools.mouse("mousePressed", start, in: page)
      for k in 1...20 {
        try await tools.mouse(
          "mouseMoved", (start.x, start.y + (end.y - start.y) * Double(k) / 20), in: page,
          buttons: 1)
        // Stretched but still joined part of the way: the bridge is drawn.
        if k == 6 {
          #expect(
            try await tools.waitFor(
              "(function () { var f = scenecInteractive.shown; return f && f.h[1][1] > 230 && f.p.some(function (d) { return d !== null; }); })()",
              in: page))
        }
      }
      // Past 200 points from its anchor, the link breaks.
      #expect(
        try await tools.waitFor(
          "document.getElementById('log').textContent.indexOf('link.broke link') >= 0", in: page))
      try await tools.mouse("mouseReleased", end, in: page)
      #expect(
        try await tools.waitFor(
          "document.getElementById('rest').textContent === 'at rest'", in: page))
      // Back on the slider to a frame before the break: the engine makes it again, and it
      // is the frame made live, the bridge drawn.
      let scrubbed = try await tools.evaluate(
        """
        (function () {
          var broke = -1;
          for (var i = 0; i < scenecInteractive.take && broke < 0; i++) {
            var f = scenecInteractive.at(i);
            if (f && f.e.some(function (e) { return e[0] === 'link.broke'; })) broke = i;
          }
          var k = broke - 5, before = JSON.stringify(scenecInteractive.at(k));
          var s = document.getElementById('scrub');
          s.value = String(k);
          s.dispatchEvent(new Event('input'));
          var shown = scenecInteractive.shown;
          return broke > 5 && shown.i === k && JSON.stringify(shown) === before
            && shown.p[0] !== null ? 'same' : 'different ' + broke;
        })()
        """, in: page)
      #expect(scrubbed as? String == "same")
      if let path = ProcessInfo.processInfo.environment["SCENEC_INTERACTIVE_SCREENSHOT"] {
        try await tools.screenshot(of: page, to: path)
      }
    }
  }

  @Test(.enabled(if: canRun, "\(why)"))
  func twoFingersDragBothBallsAtOnce() async throws {
    let (folder, file) = try Self.page("sticky-ball.yaml")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.withPage(file, on: .touch) { tools, page in
      let left = try await tools.point("scenecInteractive.toClient(120, 200)", in: page)
      let right = try await tools.point("scenecInteractive.toClient(260, 200)", in: page)
      try await tools.touch("touchStart", [left, right], in: page)
      for k in 1...10 {
        let dy = Double(k) * 8
        try await tools.touch(
          "touchMove", [(left.x, left.y + dy), (right.x, right.y + dy)], in: page)
      }
      // Both balls follow their own finger, both pointers down, the bridges still joined.
      #expect(
        try await tools.waitFor(
          """
          (function () {
            var f = scenecInteractive.shown;
            var down = f ? f.ptr.filter(function (p) { return p[3]; }).length : 0;
            return down === 2 && f.h[1][1] > 240 && f.h[3][1] > 240 && f.h[1][4] === 'dragging'
              && f.h[3][4] === 'dragging' && f.p[0] !== null && f.p[1] !== null;
          })()
          """, in: page))
      try await tools.touch("touchEnd", [], in: page)
      // Let go, both spring home and rest.
      #expect(
        try await tools.waitFor(
          "(function () { var f = scenecInteractive.shown; return document.getElementById('rest').textContent === 'at rest' && f.h[1][1] === 200 && f.h[3][1] === 200; })()",
          in: page))
    }
  }

  /// The scene's inputs get the live preview's controls.
  ///
  /// Ticking `loading` while the wave
  /// is pulled past its threshold, then letting go, holds it loading; unticking lets it
  /// close. Playing the gesture ticks and unticks the box as the script sets the input.
  @Test(.enabled(if: canRun, "\(why)"))
  func theInputsPanelSetsAndShowsTheScenesInputs() async throws {
    let (folder, file) = try Self.page("pull-to-refresh.yaml")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.withPage(file) { tools, page in
      let box = "document.getElementById('input-loading')"
      #expect(
        try await tools.evaluate(
          "\(box).type + ' ' + \(box).checked + ' ' + document.getElementById('inputs').hidden",
          in: page) as? String == "checkbox false false")
      let logged = { (text: String) in
        "document.getElementById('log').textContent.indexOf('\(text)') >= 0"
      }
      // Pull the wave 200 points down: past the threshold, the machine arms.
      let start = try await tools.point("scenecInteractive.toClient(187, 40)", in: page)
      let end = try await tools.point("scenecInteractive.toClient(187, 240)", in: page)
      try await tools.mouse("mousePressed", start, in: page)
      for k in 1...20 {
        try await tools.mouse(
          "mouseMoved", (start.x, start.y + (end.y - start.y) * Double(k) / 20), in: page,
          buttons: 1)
      }
      #expect(try await tools.waitFor(logged("refresh: idle → armed"), in: page))
      // The app starts loading as the finger lifts: the wave holds at the loading height.
      _ = try await tools.evaluate("\(box).click()", in: page)
      try await tools.mouse("mouseReleased", end, in: page)
      #expect(try await tools.waitFor(logged("refresh: armed → loading"), in: page))
      #expect(
        try await tools.waitFor(
          "scenecInteractive.shown['in'][0] === 1 && \(box).checked", in: page))
      // Loaded: the wave closes.
      _ = try await tools.evaluate("\(box).click()", in: page)
      #expect(try await tools.waitFor(logged("refresh: loading → idle"), in: page))
      // The scene's own gesture sets the input: the box follows it.
      _ = try await tools.evaluate("document.getElementById('gesture').click()", in: page)
      #expect(try await tools.waitFor("\(box).checked", in: page))
      #expect(
        try await tools.waitFor(
          "!\(box).checked && \(logged("refresh: loading → idle"))", in: page))
    }
  }

  /// A scene whose gesture replays a trace: the page hands the trace to the engine, and
  /// playing the gesture moves the handle along it.
  @Test(.enabled(if: canRun, "\(why)"))
  func aGestureThatReplaysATracePlaysIt() async throws {
    let scratch = try makeScratchFolder("scenec-interactive-trace")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let scene = scratch.appendingPathComponent("replay.scene")
    try """
    scene "replay" size=300x200 fps=60
    handle h position=(50, 100) r=20 draggable
    gesture
      wait 0.2s
      replay "take.csv"

    """.write(to: scene, atomically: true, encoding: .utf8)
    try "t,x,y,phase\n0,50,100,down\n0.1,90.25,110,move\n0.2,150,120,move\n0.25,150,120,up\n".write(
      to: scratch.appendingPathComponent("take.csv"), atomically: true, encoding: .utf8)
    let (folder, file) = try Self.page(path: scene.path)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.withPage(file) { tools, page in
      _ = try await tools.evaluate("document.getElementById('gesture').click()", in: page)
      #expect(
        try await tools.waitFor(
          "(function () { var f = scenecInteractive.shown; return f && f.h[0][0] === 150 && f.h[0][1] === 120; })()",
          in: page))
    }
  }

  /// On a phone the canvas shrinks to leave the controls in view, and a finger still
  /// lands where it touches: the ball under it follows.
  @Test(.enabled(if: canRun, "\(why)"))
  func onAPhoneTheCanvasAndItsControlsFitAndAFingerDrags() async throws {
    let (folder, file) = try Self.page("sticky-ball.yaml")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await Self.withPage(file, on: .phone) { tools, page in
      _ = try await tools.evaluate("window.dispatchEvent(new Event('resize'))", in: page)
      // The scene is 375 × 667: on a 390 × 844 screen it shrinks, the buttons below it in view.
      #expect(
        try await tools.waitFor(
          """
          (function () {
            var b = document.getElementById('stage').getBoundingClientRect();
            var g = document.getElementById('gesture').getBoundingClientRect();
            return b.width < 375 && b.right <= 390 && g.bottom <= window.innerHeight;
          })()
          """, in: page))
      let start = try await tools.point("scenecInteractive.toClient(120, 200)", in: page)
      try await tools.touch("touchStart", [start], in: page)
      for k in 1...10 {
        try await tools.touch("touchMove", [(start.x, start.y + Double(k) * 6)], in: page)
      }
      // The finger landed on the ball through the smaller canvas: it is dragged down.
      #expect(
        try await tools.waitFor(
          "(function () { var f = scenecInteractive.shown; return f && f.h[1][4] === 'dragging' && f.h[1][1] > 230; })()",
          in: page))
      try await tools.touch("touchEnd", [], in: page)
    }
  }
}
