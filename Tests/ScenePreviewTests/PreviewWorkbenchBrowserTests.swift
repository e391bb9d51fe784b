import Foundation
import SceneDiagnostics
import ScenePipeline
import SceneRuntime
import Testing

@testable import ScenePreview

/// The preview as a workbench, in a real Chromium: a spring's slider changes the motion at
/// once, Save writes only that number into the file (YAML and DSL), the graph draws the
/// frames' values, and the timeline shows the frame `scenec run --at` gives.
@Suite(.serialized) struct PreviewWorkbenchBrowserTests {
  /// The frames `scenec run` makes of `text`, a wave scene in the syntax of `name`.
  static func frames(of text: String, name: String) throws -> [Frame] {
    let syntax = try #require(SceneLoader.Syntax(fileName: name))
    let read = SceneLoader.load(
      SourceFile(name: name, text: text), syntax: syntax)
    let loaded = ScenePipeline.resolve(read, sceneFile: name)
    return try SceneRunner.frames(of: try #require(loaded.graph))
  }

  /// Whether the page's graph of `c.y` begins with `frames`' `c.y`, to the frames'
  /// precision (the page goes on making frames at rest after them).
  static func graphCheck(_ frames: [Frame]) -> String {
    let c = frames[0].handles.firstIndex { $0.name == "c" } ?? -1
    let ys = frames.map { String($0.handles[c].y) }.joined(separator: ",")
    return """
      (function () {
        var want = [\(ys)];
        var got = scenecPreview.graphSeries('c', 'y');
        // Every frame of the run: a busy page misses live frames and asks for them
        // again; the take made again after tuning is sent whole.
        var seen = 0;
        for (var k = 0; k < got.length; k++) {
          var i = got[k][2];
          if (i >= want.length) continue;
          if (Math.abs(got[k][1] - want[i]) > 0.0011) return false;
          seen += 1;
        }
        return seen === want.length;
      })()
      """
  }

  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ),
    arguments: ["wave.yaml", "wave.scene"])
  func aSpringSliderRetunesTheWaveAndSaveWritesOnlyThatNumber(scene: String) async throws {
    try await PreviewServerTests.withServer(scene: scene) { port, folder, _ in
      let file = folder + "/" + scene
      let original = try String(contentsOfFile: file, encoding: .utf8)
      let browser = try Browser(executable: try #require(BrowserTests.chromium))
      defer { browser.stop() }
      let endpoint = try await browser.devToolsEndpoint()
      try await DevTools.session(endpoint) { tools in
        let page = try await tools.open("http://127.0.0.1:\(port)/")
        #expect(
          try await tools.waitFor(
            "scenecPreview.connected && scenecPreview.tunables.length > 0", in: page))
        let index =
          try await tools.evaluate(
            "scenecPreview.tunables.findIndex(function (n) { return n.path === 'springs.wave.dampingRatio'; })",
            in: page) as? Int
        let slider = "document.getElementById('tune-\(try #require(index))')"
        #expect(try await tools.evaluate("\(slider).value", in: page) as? String == "0.57")

        // The scene's gesture, to rest: the graph is the run's c.y, frame for frame.
        _ = try await tools.evaluate("document.getElementById('script').click()", in: page)
        let frames = try Self.frames(of: original, name: scene)
        #expect(
          try await tools.waitFor(
            "document.getElementById('rest').textContent === 'at rest' && scenecPreview.historyLength >= \(frames.count)",
            in: page))
        #expect(try await tools.waitFor(Self.graphCheck(frames), in: page))
        // A typed expression is plotted from the same frames; a typo is said, not run.
        let expression = try await tools.evaluate(
          """
          (function () {
            var a = scenecPreview.expressionSeries('c.y - 50'), b = scenecPreview.graphSeries('c', 'y');
            var same = a.length > 0 && a.length === b.length && a.every(function (p, i) {
              return p[2] === b[i][2] && Math.abs(p[1] - (b[i][1] - 50)) < 1e-9;
            });
            return same ? 'same' : 'different';
          })()
          """, in: page)
        #expect(expression as? String == "same")
        let field = "document.getElementById('graphexpr')"
        _ = try await tools.evaluate(
          "\(field).value = 'cc.y + 1'; \(field).dispatchEvent(new Event('input'))", in: page)
        #expect(
          try await tools.waitFor(
            "document.getElementById('graphproblem').textContent === \"cc.y + 1: unknown handle 'cc'\"",
            in: page))
        _ = try await tools.evaluate(
          "\(field).value = ''; \(field).dispatchEvent(new Event('input'))", in: page)

        // The slider to 0.2: the take is made again at once, with the new bounce.
        _ = try await tools.evaluate(
          "\(slider).value = '0.2'; \(slider).dispatchEvent(new Event('input'))", in: page)
        let tunedText = original.replacingOccurrences(
          of: scene.hasSuffix(".yaml") ? "dampingRatio: 0.57" : "dampingRatio=0.57",
          with: scene.hasSuffix(".yaml") ? "dampingRatio: 0.2" : "dampingRatio=0.2")
        #expect(tunedText != original)
        let tuned = try Self.frames(of: tunedText, name: scene)
        #expect(try await tools.waitFor(Self.graphCheck(tuned), in: page))
        #expect(
          try await tools.waitFor(
            "document.getElementById('tunestatus').textContent === 'not saved: springs.wave.dampingRatio 0.57 → 0.2'",
            in: page))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == original)

        // Scrubbing to frame 40 shows the frame `scenec run --frame 40` gives.
        _ = try await tools.evaluate(
          "var t = document.getElementById('timeline'); t.value = '40'; t.dispatchEvent(new Event('input'))",
          in: page)
        #expect(try await tools.waitFor("scenecPreview.drawnFrame.i === 40", in: page))
        let c = try #require(tuned[40].handles.firstIndex { $0.name == "c" })
        let shown = try await tools.evaluate("scenecPreview.drawnFrame.h[\(c)][1]", in: page)
        #expect(abs(((shown as? NSNumber)?.doubleValue ?? .nan) - tuned[40].handles[c].y) <= 0.0011)
        // Guides: each of the wave's seven points has a rest, drawn as a cross.
        _ = try await tools.evaluate("document.getElementById('guides').click()", in: page)
        _ = try await tools.evaluate(
          "var t = document.getElementById('timeline'); t.value = '41'; t.dispatchEvent(new Event('input'))",
          in: page)
        #expect(
          try await tools.waitFor(
            "scenecPreview.drawnFrame.i === 41 && scenecPreview.drawnFrame.guides.length === 7 && scenecPreview.drawnFrame.guides.every(function (g) { return g.rest; })",
            in: page))
        if let path = ProcessInfo.processInfo.environment["SCENEC_PREVIEW_WORKBENCH_SCREENSHOT"],
          scene.hasSuffix(".yaml")
        {
          try await tools.screenshot(of: page, to: path)
        }

        // Save: the file is the original with only that number's text changed.
        _ = try await tools.evaluate("document.getElementById('savetuning').click()", in: page)
        #expect(
          try await tools.waitFor(
            "document.getElementById('tunestatus').textContent === 'saved springs.wave.dampingRatio 0.57 → 0.2 to \(scene)'",
            in: page))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == tunedText)
        #expect(try await tools.waitFor("document.getElementById('savetuning').disabled", in: page))
      }
    }
  }
}

/// The guides in a real Chromium: a flung sheet's destination drawn as it goes, where it
/// then stops.
@Suite(.serialized) struct PreviewGuidesBrowserTests {
  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func aFlungSheetShowsWhereItWillStop() async throws {
    try await BrowserTests.withPreviewPage(scene: "bottom-sheet.yaml") { tools, page in
      _ = try await tools.evaluate("document.getElementById('guides').click()", in: page)
      _ = try await tools.evaluate("document.getElementById('script').click()", in: page)
      // The fling up: a frame whose guides say where the grabber is going.
      #expect(
        try await tools.waitFor(
          "scenecPreview.drawnFrame.guides && scenecPreview.drawnFrame.guides[0].to !== undefined",
          in: page))
      _ = try await tools.evaluate("document.getElementById('pause').click()", in: page)
      #expect(
        try await tools.waitFor(
          "document.getElementById('pause').textContent.indexOf('Resume') >= 0", in: page))
      let guide =
        try await tools.evaluate(
          "JSON.stringify(scenecPreview.drawnFrame.guides[0])", in: page) as? String
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data((guide ?? "").utf8)) as? [String: Any])
      #expect(object["hit"] as? Double == 44)
      #expect((object["bounds"] as? [Any])?.count == 4)
      #expect((object["snap"] as? [[Any]])?.map { $0[0] as? String } == ["large", "medium"])
      let to = try #require(object["to"] as? [Double])
      #expect(to == [187.5, 90])  // `large`, where the fling stops.
      if let path = ProcessInfo.processInfo.environment["SCENEC_PREVIEW_GUIDES_SCREENSHOT"] {
        try await tools.screenshot(of: page, to: path)
      }
    }
  }
}

/// The page on a phone's screen: the canvas fits its width, and a finger lands where it
/// touches, in the scene's coordinates.
@Suite(.serialized) struct PreviewPhoneBrowserTests {
  @Test(
    .enabled(
      if: BrowserTests.chromium != nil,
      "chromium is not installed: the browser test cannot run here (Debian: apt-get install chromium)"
    ))
  func onAPhoneTheCanvasFitsAndAFingerDragsTheBadge() async throws {
    try await BrowserTests.withPreviewPage(scene: "elastic-drag.yaml") { tools, page in
      _ = try await tools.command(
        "Emulation.setDeviceMetricsOverride",
        ["width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": true], session: page)
      _ = try await tools.command(
        "Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5],
        session: page)
      _ = try await tools.evaluate("window.dispatchEvent(new Event('resize'))", in: page)
      // The scene is 375 wide: on a 390-point screen, less the page's margins, it shrinks.
      #expect(
        try await tools.waitFor(
          "(function () { var b = document.getElementById('stage').getBoundingClientRect(); return b.width > 300 && b.right <= 390; })()",
          in: page))
      let start = try await tools.point("scenecPreview.toClient(120, 150)", in: page)
      try await tools.touch("touchStart", [start], in: page)
      #expect(
        try await tools.waitFor(
          "scenecPreview.drawnFrame.ptr.length === 1 && Math.abs(scenecPreview.drawnFrame.ptr[0][1] - 120) < 1 && Math.abs(scenecPreview.drawnFrame.ptr[0][2] - 150) < 1",
          in: page))
      let end = try await tools.point("scenecPreview.toClient(120, 250)", in: page)
      for k in 1...10 {
        let f = Double(k) / 10
        try await tools.touch("touchMove", [(start.x, start.y + (end.y - start.y) * f)], in: page)
      }
      // The badge follows at 0.7 of the finger's 100 points, as the scene says.
      #expect(
        try await tools.waitFor(
          "Math.abs(scenecPreview.drawnFrame.h[0][1] - 220) < 1.5", in: page))
      try await tools.touch("touchEnd", [], in: page)
      #expect(
        try await tools.waitFor(
          "document.getElementById('log').textContent.indexOf('release badge') >= 0", in: page))
    }
  }
}
