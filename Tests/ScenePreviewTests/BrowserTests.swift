import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import SceneDiagnostics
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneResolve
import SceneRuntime
import SceneTestSupport
import SceneTesting
import Testing

@testable import ScenePreview

/// The preview in a real headless Chromium, driven through the DevTools protocol.
///
/// Real pointer events press, drag and release the badge; the page draws the engine's
/// frames; editing the file reloads the page. Skipped, saying so, where no Chromium is
/// installed.
@Suite(.serialized) struct BrowserTests {
  static let chromium: String? = [
    "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
  ].first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(
    .enabled(
      if: chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func aRealPointerDragsTheBadgeAndAnEditReloads() async throws {
    try await PreviewServerTests.withServer { port, folder, _ in
      let browser = try Browser(executable: try #require(Self.chromium))
      defer { browser.stop() }
      let endpoint = try await browser.devToolsEndpoint()
      try await DevTools.session(endpoint) { tools in
        let page = try await tools.open("http://127.0.0.1:\(port)/")
        let ready = try await tools.waitFor(
          "scenecPreview.connected && scenecPreview.drawnFrame !== null", in: page)
        let state = try await tools.evaluate(
          "[location.href, document.getElementById('status').textContent, document.getElementById('time').textContent].join(' | ')",
          in: page)
        #expect(ready, "the page is not drawing: \(state ?? "?")")
        // The badge's centre, in page coordinates.
        let start = try await tools.point("scenecPreview.toClient(120, 150)", in: page)
        try await tools.mouse("mousePressed", start, in: page)
        for k in 1...10 {
          try await tools.mouse(
            "mouseMoved", (start.x, start.y + Double(k) * 10), in: page, buttons: 1)
        }
        // The engine holds the badge at 0.7 of the finger's 100 points (in scene points,
        // the page's pixels being whole); the page drew that frame.
        let finger = try await tools.point(
          """
          (function () {
            var a = scenecPreview.toScene(\(start.x), \(start.y));
            var b = scenecPreview.toScene(\(start.x), \(start.y + 100));
            return { x: b.x - a.x, y: b.y - a.y };
          })()
          """, in: page)
        #expect(
          try await tools.waitFor(
            """
            (function () {
              var f = scenecPreview.drawnFrame, h = f && f.h[0];
              return !!h && h[4] === "dragging" && Math.abs(h[1] - (150 + 0.7 * \(finger.y))) < 0.5;
            })()
            """, in: page))
        // And the canvas shows the badge's colour (#ff3b30) where that frame puts it (15
        // points right of its centre, clear of the pointer's trail).
        let pixel = try await tools.evaluate(
          """
          (function () {
            var c = document.getElementById("stage"), box = c.getBoundingClientRect();
            var h = scenecPreview.drawnFrame.h[0], p = scenecPreview.toClient(h[0] + 15, h[1]);
            var x = Math.round((p.x - box.left) * c.width / box.width);
            var y = Math.round((p.y - box.top) * c.height / box.height);
            return Array.from(c.getContext("2d").getImageData(x, y, 1, 1).data).join(",");
          })()
          """, in: page)
        #expect(pixel as? String == "255,59,48,255")
        if let path = ProcessInfo.processInfo.environment["SCENEC_PREVIEW_SCREENSHOT"] {
          try await tools.screenshot(of: page, to: path)
        }
        try await tools.mouse("mouseReleased", (start.x, start.y + 100), in: page)
        #expect(
          try await tools.waitFor(
            // The event log keeps every event, whichever frames the polls saw.
            "document.getElementById('log').textContent.indexOf('release badge') >= 0",
            in: page))
        // Saving the file reloads the scene in the page.
        let file = folder + "/elastic-drag.yaml"
        let version =
          try await tools.evaluate("String(scenecPreview.sceneVersion)", in: page) as? String
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "Elastic drag", with: "Elastic drag, edited")
          .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(
          try await tools.waitFor(
            "scenecPreview.sceneVersion > \(version ?? "0") && document.title.indexOf('edited') >= 0",
            in: page))
      }
    }
  }
}

/// Two real touch points on the preview of `Scenes/pinch-photo.yaml`: the engine sees both
/// fingers, and the photo it draws grows as they spread.
@Suite(.serialized) struct PreviewPinchBrowserTests {
  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func twoRealFingersZoomThePhoto() async throws {
    try await BrowserTests.withPreviewPage(scene: "pinch-photo.yaml") { tools, page in
      _ = try await tools.command(
        "Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5],
        session: page)
      let left = try await tools.point("scenecPreview.toClient(147.5, 333.5)", in: page)
      let right = try await tools.point("scenecPreview.toClient(227.5, 333.5)", in: page)
      try await tools.touch("touchStart", [left, right], in: page)
      // Spread to six times as far apart, about the same middle.
      let middle = (x: (left.x + right.x) / 2, y: left.y)
      for k in 1...25 {
        let half = (right.x - left.x) / 2 * (1 + 0.2 * Double(k))
        try await tools.touch(
          "touchMove", [(middle.x - half, middle.y), (middle.x + half, middle.y)], in: page)
      }
      // The frame the page drew: two fingers down, and the photo zoomed with them (past
      // 4× it resists, so between 4× and the fingers' 6×).
      #expect(
        try await tools.waitFor(
          """
          (function () {
            var f = scenecPreview.drawnFrame, h = f && f.h[0];
            var down = f ? f.ptr.filter(function (p) { return p[3]; }).length : 0;
            return down === 2 && !!h && h.length === 16 && h[6] > 4.5 && h[6] < 6;
          })()
          """, in: page))
      try await tools.touch("touchEnd", [], in: page)
      // Let go, it springs back into its zoom, to 4×, and stays there (as Photos keeps it).
      #expect(
        try await tools.waitFor(
          "(function () { var h = scenecPreview.drawnFrame.h[0]; return h[6] === 4; })()",
          in: page))
    }
  }
}

extension BrowserTests {
  /// Two pictures (data URLs' contents: a type such as `image/png` and the bytes) drawn by
  /// Chromium at `width` × `height` and compared pixel by pixel: the mean largest channel
  /// difference, how many pixels differ by more than 48, and how many were compared.
  static func compareImages(
    _ first: (type: String, bytes: Data), _ second: (type: String, bytes: Data), width: Int,
    height: Int
  ) async throws -> [String: Double] {
    let page = """
      <!DOCTYPE html><html><body style="margin:0"><script>
      function load(src) {
        return new Promise(function (done) { var i = new Image(); i.onload = function () { done(i); }; i.src = src; });
      }
      var w = \(width), h = \(height);
      Promise.all([load("data:\(first.type);base64,\(first.bytes.base64EncodedString())"),
                   load("data:\(second.type);base64,\(second.bytes.base64EncodedString())")])
        .then(function (images) {
          function pixels(image) {
            var c = document.createElement("canvas"); c.width = w; c.height = h;
            var x = c.getContext("2d"); x.drawImage(image, 0, 0, w, h);
            return x.getImageData(0, 0, w, h).data;
          }
          var a = pixels(images[0]), b = pixels(images[1]), sum = 0, differing = 0;
          for (var i = 0; i < a.length; i += 4) {
            var d = Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]),
              Math.abs(a[i + 2] - b[i + 2]), Math.abs(a[i + 3] - b[i + 3]));
            sum += d;
            if (d > 48) differing++;
          }
          window.result = JSON.stringify({ mean: sum / (w * h), differing: differing, pixels: w * h,
            width: images[0].naturalWidth, height: images[0].naturalHeight });
        });
      </script></body></html>
      """
    let folder = try makeScratchFolder("scenec-compare")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("compare.html")
    try page.write(to: file, atomically: true, encoding: .utf8)
    let collected = Collected()
    try await withPage(file) { tools, session in
      #expect(try await tools.waitFor("window.result !== undefined", in: session))
      let text = try #require(try await tools.evaluate("window.result", in: session) as? String)
      await collected.add(
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Double]))
    }
    return try #require(await collected.results.first)
  }

  /// Opens the page `file` in a Chromium of its own and hands `body` the tools and the page.
  static func withPage(
    _ file: URL, _ body: @escaping @Sendable (DevTools, String) async throws -> Void
  ) async throws {
    let browser = try Browser(executable: try #require(chromium))
    defer { browser.stop() }
    let endpoint = try await browser.devToolsEndpoint()
    try await DevTools.session(endpoint) { tools in
      try await body(tools, try await tools.open(file.absoluteString))
    }
  }

  /// Serves a copy of `scene` from `Scenes/`, opens the preview's page in a Chromium of its
  /// own, waits until the page draws the engine's frames, and hands `body` the tools and
  /// the page.
  static func withPreviewPage(
    scene: String, _ body: @escaping @Sendable (DevTools, String) async throws -> Void
  ) async throws {
    try await PreviewServerTests.withServer(scene: scene) { port, _, _ in
      let browser = try Browser(executable: try #require(chromium))
      defer { browser.stop() }
      let endpoint = try await browser.devToolsEndpoint()
      try await DevTools.session(endpoint) { tools in
        let page = try await tools.open("http://127.0.0.1:\(port)/")
        #expect(
          try await tools.waitFor(
            "scenecPreview.connected && scenecPreview.drawnFrame !== null", in: page))
        try await body(tools, page)
      }
    }
  }
}

/// Recording in the page, and the page under another host name, in a real Chromium.
@Suite(.serialized) struct PreviewSafetyBrowserTests {
  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func aFlingRecordedInThePageReplaysAsATestTheFirstTime() async throws {
    try await PreviewServerTests.withServer { port, folder, _ in
      let browser = try Browser(executable: try #require(BrowserTests.chromium))
      defer { browser.stop() }
      let endpoint = try await browser.devToolsEndpoint()
      try await DevTools.session(endpoint) { tools in
        let page = try await tools.open("http://127.0.0.1:\(port)/")
        #expect(
          try await tools.waitFor(
            "scenecPreview.connected && scenecPreview.drawnFrame !== null", in: page))
        func click(_ id: String) async throws {
          _ = try await tools.evaluate("document.getElementById('\(id)').click()", in: page)
        }
        try await click("record")
        #expect(
          try await tools.waitFor(
            "document.getElementById('record').textContent.indexOf('Stop') >= 0", in: page))
        // A fling: press the badge, three quick moves, and let go at once.
        let start = try await tools.point("scenecPreview.toClient(120, 150)", in: page)
        try await tools.mouse("mousePressed", start, in: page)
        for k in 1...3 {
          try await tools.mouse(
            "mouseMoved", (start.x + Double(k) * 25, start.y + Double(k) * 40), in: page,
            buttons: 1)
        }
        try await tools.mouse("mouseReleased", (start.x + 75, start.y + 120), in: page)
        #expect(
          try await tools.waitFor(
            "document.getElementById('log').textContent.indexOf('release badge') >= 0",
            in: page))
        try await click("record")
        #expect(try await tools.waitFor("!document.getElementById('savebox').hidden", in: page))
        // Names from the scene's own.
        let names = try await tools.evaluate(
          "document.getElementById('tracename').value + ' ' + document.getElementById('scenename').value",
          in: page)
        #expect(names as? String == "elastic-drag-gesture.csv elastic-drag-recorded.yaml")
        try await click("save")
        #expect(
          try await tools.waitFor(
            "document.getElementById('saved').textContent.indexOf('saved elastic-drag-gesture.csv') === 0",
            in: page))
        // With no hand edits, the copy is a passing `scenec test` case.
        let copy = folder + "/elastic-drag-recorded.yaml"
        let report = SceneTest(scene: copy).run(record: true)
        #expect(report.outcome == .recorded, "\(report.failedExpectations ?? "")")
        // Saving again asks; declining keeps the files, and is no error.
        let before = try String(contentsOfFile: copy, encoding: .utf8)
        _ = try await tools.evaluate("window.confirm = function () { return false; }", in: page)
        try await click("save")
        #expect(
          try await tools.waitFor(
            "document.getElementById('saved').textContent === 'not saved: the existing files were kept'",
            in: page))
        let status = try await tools.evaluate(
          "document.getElementById('status').textContent", in: page)
        #expect((status as? String)?.hasPrefix("error") == false)
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == before)
      }
    }
  }

  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func aPageUnderAnotherHostNameGetsNothing() async throws {
    try await PreviewServerTests.withServer { port, _, hub in
      // A name that resolves to this machine, as a rebinding attacker's does.
      let browser = try Browser(
        executable: try #require(BrowserTests.chromium),
        arguments: ["--host-resolver-rules=MAP rebind.test 127.0.0.1"])
      defer { browser.stop() }
      let endpoint = try await browser.devToolsEndpoint()
      try await DevTools.session(endpoint) { tools in
        let page = try await tools.open("http://rebind.test:\(port)/")
        #expect(
          try await tools.waitFor(
            "document.body && document.body.innerText.indexOf('scenec preview answers only to') >= 0",
            in: page))
        let preview = try await tools.evaluate("typeof window.scenecPreview", in: page)
        #expect(preview as? String == "undefined")
      }
      #expect(await hub.pageCount == 0)
    }
  }
}

/// The HTML player (`scenec run -o page.html`) in a real headless Chromium: its packed
/// handles, decoded by the page, are the numbers of the JSON text for every frame it
/// seeks to, and the readout follows.
@Suite(.serialized) struct HTMLPlayerBrowserTests {
  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func thePlayerShowsTheTextsNumbersAtEveryFrameItSeeks() async throws {
    let (_, frames, context) = try AnimatedPropertyBrowserTests.run("Scenes/car-along-path.yaml")
    let (folder, file) = try AnimatedPropertyBrowserTests.player(frames, context)
    defer { try? FileManager.default.removeItem(at: folder) }

    let browser = try Browser(executable: try #require(BrowserTests.chromium))
    defer { browser.stop() }
    let endpoint = try await browser.devToolsEndpoint()
    try await DevTools.session(endpoint) { tools in
      let page = try await tools.open(file.absoluteString)
      #expect(try await tools.waitFor("!!window.scenecPlayer", in: page))
      // Forward within a keyframe, across several, back to an earlier one, to the end.
      for k in [0, 1, 31, 32, 100, 37, frames.count - 1, 3] {
        let shown = try await tools.evaluate(
          "scenecPlayer.seek(\(k)), JSON.stringify(scenecPlayer.shown().h) + '|' + document.getElementById('frame').textContent",
          in: page)
        let parts = try #require((shown as? String)?.split(separator: "|").map(String.init))
        let expected = try AnimatedPropertyBrowserTests.handles(of: frames[k], context)
        let decoded = try #require(
          try JSONSerialization.jsonObject(with: Data(parts[0].utf8)) as? [[Any]])
        #expect(decoded.count == expected.count)
        for (a, b) in zip(decoded, expected) {
          for f in 0..<4 {
            #expect(
              (a[f] as? NSNumber)?.doubleValue == (b[f] as? NSNumber)?.doubleValue,
              "frame \(k): \(a) against \(b)")
          }
          #expect(a[4] as? String == b[4] as? String)
        }
        #expect(parts[1] == "frame \(k) / \(frames.count - 1)")
      }
    }
  }
}

/// What a scene animates (`rotation`, `scale`, `opacity`) reaches the page: the player
/// decodes it with the packed handles, and the shared renderer draws a frame as the SVG
/// output draws it.
@Suite(.serialized) struct AnimatedPropertyBrowserTests {
  static func run(_ scene: String) throws -> (SceneGraph, [Frame], OutputContext) {
    let path = repositoryPath(scene)
    let source = SourceFile(name: path, text: try String(contentsOfFile: path, encoding: .utf8))
    let spec = try #require(SceneLoader.load(source, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    let frames = try SceneRunner.frames(of: graph)
    return (graph, frames, OutputContext(graph: graph, precision: 3, fps: graph.fps))
  }

  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// The HTML player of `frames`, in a new folder the caller removes.
  static func player(_ frames: [Frame], _ context: OutputContext) throws -> (URL, URL) {
    let folder = try folder()
    let file = folder.appendingPathComponent("player.html")
    try FrameOutput.html.text(of: frames, context: context).write(
      to: file, atomically: true, encoding: .utf8)
    return (folder, file)
  }

  /// A frame's `h`, as the preview's JSON gives it.
  static func handles(of frame: Frame, _ context: OutputContext) throws -> [[Any]] {
    var entry = TextBytes()
    SceneJSON.appendFrame(frame, context: context, to: &entry)
    return try #require(
      (try JSONSerialization.jsonObject(with: Data(entry.bytes)) as? [String: Any])?["h"]
        as? [[Any]])
  }

  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func thePlayerDecodesTheAnimatedValuesOfEveryFrameItSeeks() async throws {
    let (_, frames, context) = try Self.run("Scenes/swipe-card.yaml")
    let (folder, file) = try Self.player(frames, context)
    defer { try? FileManager.default.removeItem(at: folder) }
    let browser = try Browser(executable: try #require(BrowserTests.chromium))
    defer { browser.stop() }
    let endpoint = try await browser.devToolsEndpoint()
    try await DevTools.session(endpoint) { tools in
      let page = try await tools.open(file.absoluteString)
      #expect(try await tools.waitFor("!!window.scenecPlayer", in: page))
      for k in [0, 24, 40, 33, frames.count - 1] {
        let shown = try await tools.evaluate(
          "scenecPlayer.seek(\(k)), JSON.stringify(scenecPlayer.shown().h)", in: page)
        let expected = try Self.handles(of: frames[k], context)
        let text = try #require(shown as? String)
        let decoded = try #require(
          try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[Any]])
        // x, y, angle, r, state, then rotation, scale, opacity, fill, stroke, width, height,
        // cornerRadius, strokeWidth, scaleX, scaleY.
        #expect(decoded.first?.count == 16 && expected.first?.count == 16)
        for (a, b) in zip(decoded, expected) {
          for f in [0, 1, 2, 3, 5, 6, 7] {
            #expect(
              (a[f] as? NSNumber)?.doubleValue == (b[f] as? NSNumber)?.doubleValue,
              "frame \(k): \(a) against \(b)")
          }
        }
      }
    }
  }

  /// The renderer's canvas against Chromium's drawing of the SVG of the same frame.
  ///
  /// Pixel by pixel: the card at 0.4 s, turned 4.5° and at 0.775 opacity. The SVG of
  /// another frame, or of this one without its turn and fade, is far off, so the
  /// comparison can fail.
  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func theRendererDrawsAFrameAsTheSVGDoes() async throws {
    let (graph, frames, context) = try Self.run("Scenes/swipe-card.yaml")
    let k = 24  // 0.4 s.
    #expect(frames[k].handles[0].rotation > 0.07 && frames[k].handles[0].opacity < 0.8)
    // The frame, another frame, and the frame as drawn without its rotation and opacity.
    var plain = frames[k]
    plain.handles[0].animated = 0
    plain.handles[0].rotation = 0
    // And without its "LIKE" stamp, a child of the card that fades in as it goes right.
    var unstamped = frames[k]
    for c in unstamped.children.indices where unstamped.children[c].look.name == "stamp" {
      #expect(unstamped.children[c].look.opacity == 0.9)
      unstamped.children[c].look.opacity = 0
    }
    let results = try await Self.compare(
      frames[k], with: [frames[k], frames[frames.count - 1], plain, unstamped], context: context)
    let same = results[0]
    #expect(same["enlarged"] == 1 && same["pixels"] == (graph.width - 4) * (graph.height - 4))
    // Anti-aliased edges differ a little; nothing else may.
    #expect(try #require(same["mean"]) < 1, "\(same)")
    #expect(try #require(same["differing"]) < 0.005 * (same["pixels"] ?? 0), "\(same)")
    // The card near white on a light grey: far off on average, not by much anywhere.
    #expect(try #require(results[1]["mean"]) > 5, "\(results[1])")
    // Without its turn and fade the card is plainly different too (3.1 against 0.44).
    #expect(try #require(results[2]["mean"]) > 2, "\(results[2])")
    // The canvas draws the card's children, in its turned coordinates: the stamp's
    // letters are where the SVG has them, and nowhere else differs.
    #expect(try #require(results[3]["differing"]) > 1_000, "\(results[3])")
    #expect(try #require(results[3]["mean"]) < 5, "\(results[3])")
  }

  /// Shapes stretched along their own axes, turned, in a stretched group, and paths whose
  /// style changes: the canvas draws them as the SVG does.
  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func stretchedShapesAndChangingPathsAreDrawnAsTheSVGDoes() async throws {
    let yaml = """
      scene: { size: 300x200, fps: 10, duration: 0.3s, background: "#202020" }
      paths:
        line: { d: "M10 10 C 100 180 200 -60 290 190", stroke: "mix(#ff0000, #00ffff, time * 3)", strokeWidth: 2 + time * 20, opacity: 1 - time }
        blob: { d: "M20 150 L 80 120 L 90 190 Z", fill: "mix(#00ff00, #0000ff80, time * 3)" }
      handles:
        egg: { position: [80, 80], r: 30, scaleX: 1 + time * 3, scaleY: 0.6, rotation: 30deg, fill: "#ffcc00" }
        card:
          position: [210, 100]
          shape: rect
          width: 80
          height: 60
          cornerRadius: 8
          scaleY: 1.5
          rotation: -20deg
          fill: "#3366ff"
          children:
            dot: { position: [20, 0], r: 8, scaleX: 2, fill: "#ff3366" }
            bar: { position: [-20, 10], shape: rect, width: 20, height: 6, scaleX: 1 + time * 4, fill: "#ffffff" }
      """
    let source = SourceFile(name: "stretched.yaml", text: yaml)
    let spec = try #require(SceneLoader.load(source, syntax: .yaml).spec)
    let graph = try #require(SceneResolver.resolve(spec).graph)
    let frames = try SceneRunner.frames(of: graph)
    let context = OutputContext(graph: graph, precision: 3, fps: 10)
    var unstretched = frames[2]
    unstretched.handles[0].scaleX = 1
    let results = try await Self.compare(
      frames[2], with: [frames[2], unstretched, frames[0]], context: context)
    #expect(try #require(results[0]["mean"]) < 1, "\(results[0])")
    #expect(
      try #require(results[0]["differing"]) < 0.005 * (results[0]["pixels"] ?? 0),
      "\(results[0])")
    #expect(try #require(results[1]["differing"]) > 500, "\(results[1])")
    #expect(try #require(results[2]["differing"]) > 2_000, "\(results[2])")
  }

  /// Draws `frame` with the pages' renderer in Chromium and compares it, pixel by pixel
  /// within the scene, with the SVG of each of `svgFrames`: for each, the mean largest
  /// channel difference, how many pixels differ by more than 48, the pixels compared and
  /// whether the view was enlarged.
  static func compare(_ frame: Frame, with svgFrames: [Frame], context: OutputContext)
    async throws -> [[String: Double]]
  {
    let svgs = svgFrames.map {
      Data(FrameOutput.svg.bytes(of: [$0], context: context)).base64EncodedString()
    }
    var sceneJSON = TextBytes()
    sceneJSON.append(SceneJSON.header(context: context, frameCount: 1))
    SceneJSON.appendFrame(frame, context: context, to: &sceneJSON)
    sceneJSON.append("]}")
    let page = """
      <!DOCTYPE html><html><body style="margin:0">
      <canvas id="stage"></canvas>
      <script>\(SceneRendererScript.source)</script>
      <script>
      var scene = \(sceneJSON.string);
      var renderer = SceneRenderer.create(document.getElementById("stage"), scene);
      // The view may take in more than the scene: the scene lies at (-view.x, -view.y) on
      // the canvas.
      var view = renderer.layout(scene.frames);
      renderer.draw(scene.frames, 0, { paths: true });
      window.compare = function (svg) {
        window.result = null;
        var image = new Image();
        image.onload = function () {
          var stage = document.getElementById("stage");
          var copy = document.createElement("canvas");
          copy.width = stage.width; copy.height = stage.height;
          var context = copy.getContext("2d");
          var x0 = Math.round(-view.x), y0 = Math.round(-view.y);
          context.drawImage(image, x0, y0, scene.width, scene.height);
          // Inside the scene, less the 2 points the renderer's dashed outline of it takes.
          var w = scene.width - 4, h = scene.height - 4;
          var a = stage.getContext("2d").getImageData(x0 + 2, y0 + 2, w, h).data;
          var b = context.getImageData(x0 + 2, y0 + 2, w, h).data;
          var sum = 0, differing = 0;
          for (var i = 0; i < a.length; i += 4) {
            var d = Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]),
              Math.abs(a[i + 2] - b[i + 2]), Math.abs(a[i + 3] - b[i + 3]));
            sum += d;
            if (d > 48) differing++;
          }
          window.result = JSON.stringify({ mean: sum / (a.length / 4), differing: differing,
            pixels: a.length / 4, enlarged: view.enlarged ? 1 : 0 });
        };
        image.src = "data:image/svg+xml;base64," + svg;
      };
      </script></body></html>
      """
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("compare.html")
    try page.write(to: file, atomically: true, encoding: .utf8)
    let collected = Collected()
    try await BrowserTests.withPage(file) { tools, session in
      #expect(try await tools.waitFor("typeof window.compare === 'function'", in: session))
      for svg in svgs {
        _ = try await tools.evaluate("compare('\(svg)')", in: session)
        #expect(try await tools.waitFor("window.result !== null", in: session))
        let text = try #require(try await tools.evaluate("window.result", in: session) as? String)
        let result = try #require(
          try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Double])
        await collected.add(result)
      }
    }
    return await collected.results
  }
}

/// Results gathered inside a DevTools session.
actor Collected {
  var results: [[String: Double]] = []
  func add(_ result: [String: Double]) { results.append(result) }
}

/// A headless Chromium with its DevTools endpoint on a free port.
final class Browser: @unchecked Sendable {
  let process = Process()
  let profile: URL

  init(executable: String, arguments extra: [String] = []) throws {
    profile = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scenec-chromium-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments =
      [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--no-default-browser-check", "--disable-extensions", "--remote-debugging-port=0",
        "--user-data-dir=\(profile.path)", "--window-size=800,900",
        // The DevTools client library sends this origin; only it may connect.
        "--remote-allow-origins=ws://127.0.0.1",
      ] + extra + ["about:blank"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  /// The browser's DevTools WebSocket, from the port file Chromium writes when ready.
  func devToolsEndpoint() async throws -> String {
    let file = profile.appendingPathComponent("DevToolsActivePort")
    for _ in 0..<600 {
      if let text = try? String(contentsOf: file, encoding: .utf8) {
        let lines = text.split(separator: "\n")
        if lines.count >= 2 { return "ws://127.0.0.1:\(lines[0])\(lines[1])" }
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw DevTools.Failure(message: "Chromium did not open its DevTools port")
  }

  func stop() {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: profile)
  }
}

/// Just enough of the Chrome DevTools Protocol: commands with replies, over one
/// WebSocket, with flat sessions for pages.
actor DevTools {
  struct Failure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  let send: @Sendable (String) async throws -> Void
  var nextID = 0
  var waiting: [Int: CheckedContinuation<[String: any Sendable], any Error>] = [:]

  init(send: @escaping @Sendable (String) async throws -> Void) { self.send = send }

  static func session(_ url: String, _ body: @escaping @Sendable (DevTools) async throws -> Void)
    async throws
  {
    var logger = Logger(label: "devtools")
    logger.logLevel = .error
    try await WebSocketClient.connect(
      url: url, configuration: .init(maxFrameSize: 1 << 26), logger: logger
    ) { inbound, outbound, _ in
      let tools = DevTools { text in try await outbound.write(.text(text)) }
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for try await message in inbound.messages(maxSize: 1 << 26) {
            if case .text(let text) = message { await tools.receive(text) }
          }
        }
        try await body(tools)
        group.cancelAll()
      }
    }
  }

  func receive(_ text: String) {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
      let id = object["id"] as? Int, let continuation = waiting.removeValue(forKey: id)
    else { return }
    if let error = object["error"] as? [String: Any] {
      continuation.resume(throwing: Failure(message: "\(error["message"] ?? error)"))
    } else {
      let result = (object["result"] as? [String: Any]) ?? [:]
      continuation.resume(returning: result.mapValues { Self.sendable($0) })
    }
  }

  static func sendable(_ value: Any) -> any Sendable {
    switch value {
    case let v as String: return v
    case let v as Int: return v
    case let v as Double: return v
    case let v as Bool: return v
    case let v as [String: Any]: return v.mapValues { sendable($0) }
    case let v as [Any]: return v.map { sendable($0) }
    default: return "\(value)"
    }
  }

  /// Sends a command (to a page's session when given) and returns its result.
  func command(_ method: String, _ params: [String: any Sendable] = [:], session: String? = nil)
    async throws -> [String: any Sendable]
  {
    nextID += 1
    let id = nextID
    var message: [String: Any] = ["id": id, "method": method, "params": params]
    if let session { message["sessionId"] = session }
    let text = String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self)
    return try await withCheckedThrowingContinuation { continuation in
      waiting[id] = continuation
      Task { try? await send(text) }
    }
  }

  /// Opens `url` in the browser's own first tab (a tab opened later stays in the
  /// background, where pages get no animation frames) and returns the page's session.
  func open(_ url: String) async throws -> String {
    let targets = try await command("Target.getTargets")
    let infos = (targets["targetInfos"] as? [any Sendable]) ?? []
    guard
      let page = infos.compactMap({ $0 as? [String: any Sendable] }).first(where: {
        $0["type"] as? String == "page"
      }), let id = page["targetId"] as? String
    else { throw Failure(message: "the browser has no page") }
    let attached = try await command(
      "Target.attachToTarget", ["targetId": id, "flatten": true])
    guard let session = attached["sessionId"] as? String else {
      throw Failure(message: "no session for the page")
    }
    _ = try await command("Page.enable", session: session)
    _ = try await command("Page.navigate", ["url": url], session: session)
    return session
  }

  func evaluate(_ expression: String, in session: String) async throws -> (any Sendable)? {
    let result = try await command(
      "Runtime.evaluate", ["expression": expression, "returnByValue": true], session: session)
    return (result["result"] as? [String: any Sendable])?["value"]
  }

  /// Polls `expression` until it is true (every 20 ms, at most 45 s, for a busy machine).
  func waitFor(_ expression: String, in session: String) async throws -> Bool {
    for _ in 0..<2250 {
      // As text: JSON booleans and numbers are both NSNumbers once parsed.
      if try await evaluate("(\(expression)) ? 'yes' : 'no'", in: session) as? String == "yes" {
        return true
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    return false
  }

  func point(_ expression: String, in session: String) async throws -> (x: Double, y: Double) {
    let value = try await evaluate("JSON.stringify(\(expression))", in: session) as? String
    guard let data = value?.data(using: .utf8),
      let object = try JSONSerialization.jsonObject(with: data) as? [String: Double],
      let x = object["x"], let y = object["y"]
    else { throw Failure(message: "not a point: \(value ?? "nothing")") }
    return (x, y)
  }

  /// A real mouse event at page coordinates: the page gets pointer events from it.
  func mouse(_ type: String, _ at: (x: Double, y: Double), in session: String, buttons: Int = 0)
    async throws
  {
    _ = try await command(
      "Input.dispatchMouseEvent",
      [
        "type": type, "x": at.x, "y": at.y, "button": "left", "buttons": buttons,
        "clickCount": 1, "pointerType": "mouse",
      ], session: session)
  }

  /// A touch event with the fingers at `points` (their ids are their places in the list).
  func touch(_ type: String, _ points: [(x: Double, y: Double)], in session: String)
    async throws
  {
    let touchPoints: [[String: any Sendable]] = points.enumerated().map { k, point in
      ["x": point.x, "y": point.y, "id": k]
    }
    _ = try await command(
      "Input.dispatchTouchEvent", ["type": type, "touchPoints": touchPoints], session: session)
  }

  func screenshot(of session: String, to path: String) async throws {
    let shot = try await command("Page.captureScreenshot", ["format": "png"], session: session)
    guard let base64 = shot["data"] as? String, let data = Data(base64Encoded: base64) else {
      throw Failure(message: "no screenshot")
    }
    try data.write(to: URL(fileURLWithPath: path))
  }
}

/// The preview of `Scenes/pull-to-refresh.yaml` in a real Chromium: its `loading` input is
/// a checkbox that sets the running engine's input, as the issue's user does by hand.
@Suite(.serialized) struct PreviewInputBrowserTests {
  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func tickingLoadingHoldsThePulledWaveOpenAndUntickingClosesIt() async throws {
    try await BrowserTests.withPreviewPage(scene: "pull-to-refresh.yaml") { tools, page in
      // A checkbox for the boolean input, unticked as the scene declares it.
      let box = "document.getElementById('input-loading')"
      #expect(try await tools.waitFor("\(box) !== null && !\(box).checked", in: page))
      _ = try await tools.evaluate("\(box).click()", in: page)
      #expect(try await tools.waitFor("scenecPreview.drawnFrame.in[0] === 1", in: page))
      // Pull the wave down 200 points from its top and let go (`c`, the wave's middle
      // point, is the fourth handle).
      let start = try await tools.point("scenecPreview.toClient(187, 40)", in: page)
      let end = try await tools.point("scenecPreview.toClient(187, 240)", in: page)
      try await tools.mouse("mousePressed", start, in: page, buttons: 1)
      for k in 1...20 {
        let f = Double(k) / 20
        try await tools.mouse(
          "mouseMoved", (start.x, start.y + (end.y - start.y) * f), in: page, buttons: 1)
      }
      #expect(
        try await tools.waitFor(
          "scenecPreview.drawnFrame.s[0] === 'armed' && scenecPreview.drawnFrame.h[3][1] > 200",
          in: page))
      try await tools.mouse("mouseReleased", end, in: page)
      // It holds open at the loading height, and the page says it is loading.
      let held = """
        (function () {
          var f = scenecPreview.drawnFrame;
          return f.s[0] === 'loading' && Math.abs(f.h[3][1] - 110) < 0.5
            && document.getElementById('states').textContent === 'refresh: loading';
        })()
        """
      #expect(try await tools.waitFor(held, in: page))
      // Still held a second of scene time later.
      let time = try await tools.evaluate("scenecPreview.drawnFrame.t", in: page) as? Double
      #expect(
        try await tools.waitFor(
          "scenecPreview.drawnFrame.t > \((time ?? 0) + 1)", in: page))
      #expect(try await tools.evaluate("(\(held)) ? 'yes' : 'no'", in: page) as? String == "yes")
      if let path = ProcessInfo.processInfo.environment["SCENEC_PREVIEW_INPUT_SCREENSHOT"] {
        try await tools.screenshot(of: page, to: path)
      }
      // Unticked, it closes: back to idle, and the wave springs up to its flat line.
      _ = try await tools.evaluate("\(box).click()", in: page)
      #expect(
        try await tools.waitFor(
          """
          (function () {
            var f = scenecPreview.drawnFrame;
            return f.s[0] === 'idle' && f['in'][0] === 0 && f.h[3][1] === 50;
          })()
          """, in: page))
      #expect(
        try await tools.waitFor(
          "document.getElementById('log').textContent.indexOf('refresh: loading → idle') >= 0",
          in: page))
    }
  }
}
