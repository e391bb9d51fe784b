import Foundation
import SceneTestSupport
import Testing

/// `scenec export swift`: prints or writes the Swift, and never writes over its scene.
@Suite struct ExportCommandTests {
  @Test func printsTheSwiftAndWritesItWhereAsked() throws {
    let folder = try makeScratchFolder("scenec-export")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = RunCommandTests.root.appendingPathComponent("Scenes/bottom-sheet.yaml").path
    let printed = try ScenecProcess.run(["export", "swift", scene])
    #expect(printed.status == 0, "\(printed.stderr)")
    #expect(printed.stdout.hasPrefix("// The springs, easings and momentum of \"Bottom sheet\""))
    #expect(printed.stdout.contains("enum SettleSpring {"))
    let file = folder.appendingPathComponent("Motion.swift").path
    let written = try ScenecProcess.run(["export", "swift", scene, "-o", file])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.stdout)
  }

  @Test func neverWritesOverItsScene() throws {
    let folder = try makeScratchFolder("scenec-export")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("wave.yaml")
    try FileManager.default.copyItem(
      at: RunCommandTests.root.appendingPathComponent("Scenes/wave.yaml"), to: scene)
    let before = try Data(contentsOf: scene)
    let run = try ScenecProcess.run(["export", "swift", scene.path, "-o", scene.path])
    #expect(run.status == 73)
    #expect(run.stderr.contains("error:"))
    #expect(try Data(contentsOf: scene) == before)
  }

  @Test func aSceneWithErrorsIsReportedAndNothingIsPrinted() throws {
    let folder = try makeScratchFolder("scenec-export")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = folder.appendingPathComponent("bad.yaml").path
    try "springs:\n  s: { dampingRatio: 0.5 }\n".write(
      toFile: scene, atomically: true, encoding: .utf8)
    let run = try ScenecProcess.run(["export", "swift", scene])
    #expect(run.status == 65)
    #expect(run.stdout == "")
    #expect(run.stderr.contains("bad.yaml:2:3: error: spring 's' needs dampingRatio and duration"))
  }
}

/// `scenec schema`: the JSON Schema, printed or written.
@Suite struct SchemaCommandTests {
  @Test func printsAndWritesTheSchema() throws {
    let printed = try ScenecProcess.run(["schema"])
    #expect(printed.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8))
    #expect((object as? [String: Any])?["title"] as? String == "A scenec scene (YAML)")
    let folder = try makeScratchFolder("scenec-schema")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("scene.schema.json").path
    #expect(try ScenecProcess.run(["schema", "-o", file]).status == 0)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.stdout)
  }
}

/// `scenec run -o x.png` and `-o x.gif`: the raster formats from the command line.
@Suite struct RasterCommandTests {
  @Test func writesAPNGAtItsScaleAndAGIF() throws {
    let folder = try makeScratchFolder("scenec-raster")
    defer { try? FileManager.default.removeItem(at: folder) }
    let scene = RunCommandTests.root.appendingPathComponent("Scenes/toggle.yaml").path
    let png = folder.appendingPathComponent("toggle.png").path
    let run = try ScenecProcess.run(["run", scene, "--at", "0.5s", "--scale", "2", "-o", png, "-q"])
    #expect(run.status == 0, "\(run.stderr)")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
    func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && word(16) == 400 && word(20) == 240)
    let gif = folder.appendingPathComponent("toggle.gif").path
    #expect(try ScenecProcess.run(["run", scene, "-o", gif, "-q"]).status == 0)
    let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gif)).prefix(6))
    #expect(head == Array("GIF89a".utf8))
  }

  @Test func aScaleOutOfRangeIsAUsageError() throws {
    let scene = RunCommandTests.root.appendingPathComponent("Scenes/toggle.yaml").path
    let run = try ScenecProcess.run(["run", scene, "--scale", "9", "-o", "/tmp/never.png"])
    #expect(run.status == 64)
    #expect(run.stderr.contains("--scale must be between 0.1 and 8"))
  }
}

/// PNG frame sequences and videos through ffmpeg.
@Suite struct SequenceAndVideoTests {
  static let toggle = RunCommandTests.root.appendingPathComponent("Scenes/toggle.yaml").path

  @Test func aNumberedNameWritesEveryFrameAsItsOwnPNG() throws {
    let folder = try makeScratchFolder("scenec-sequence")
    defer { try? FileManager.default.removeItem(at: folder) }
    let pattern = folder.appendingPathComponent("frames/f%04d.png").path
    let run = try ScenecProcess.run(["run", Self.toggle, "-o", pattern])
    #expect(run.status == 0, "\(run.stderr)")
    let frames = try ScenecProcess.run(["run", Self.toggle]).stdout.split(separator: "\n").count
    let names = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("frames").path
    ).sorted()
    #expect(names.count == frames)
    #expect(
      names.first == "f0000.png" && names.last == "f\(String(format: "%04d", frames - 1)).png")
    let first = try Data(contentsOf: folder.appendingPathComponent("frames/f0000.png"))
    #expect(first.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(run.stderr == "wrote \(frames) PNG frames to \(folder.path)/frames/f…\n")
    // One frame, by time: its own number.
    let one = try ScenecProcess.run(["run", Self.toggle, "-o", pattern, "--at", "0.5s", "-q"])
    #expect(one.status == 0)
    let bad = try ScenecProcess.run([
      "run", Self.toggle, "-o", folder.appendingPathComponent("f%d.gif").path,
    ])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("is for PNG frames: end it in .png"))
  }

  static let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  @Test(
    .enabled(
      if: ffmpeg != nil,
      "ffmpeg is not installed: the video test cannot run here (Debian: apt-get install ffmpeg)"),
    arguments: [("mp4", "h264"), ("webm", "vp9")])
  func aVideoHasEveryFrame(format: String, codec: String) throws {
    let folder = try makeScratchFolder("scenec-video")
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = folder.appendingPathComponent("toggle.\(format)").path
    let run = try ScenecProcess.run(["run", Self.toggle, "-o", video, "-q"])
    #expect(run.status == 0, "\(run.stderr)")
    let frames = try ScenecProcess.run(["run", Self.toggle]).stdout.split(separator: "\n").count
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = [
      "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
      "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", video,
    ]
    let out = Pipe()
    probe.standardOutput = out
    try probe.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    probe.waitUntilExit()
    #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "\(codec),200,120,\(frames)")
  }

  @Test func withoutFFmpegAVideoIsRefusedAndSaysWhatToDo() throws {
    let run = try ScenecProcess.run(
      ["run", Self.toggle, "-o", "/tmp/never.mp4"], environment: ["PATH": "/nonexistent"])
    #expect(run.status == 69)
    #expect(
      run.stderr
        == "error: writing mp4 needs ffmpeg on the PATH, and there is none; install it (Debian: apt-get install ffmpeg, Homebrew: brew install ffmpeg), or write a GIF (-o x.gif) or PNG frames (-o 'frames/%04d.png')\n"
    )
    #expect(!FileManager.default.fileExists(atPath: "/tmp/never.mp4"))
  }
}

/// Animated PNG and WebP through ffmpeg: looping, transparent where the scene is.
@Suite struct AnimatedImageTests {
  static let toggle = RunCommandTests.root.appendingPathComponent("Scenes/toggle.yaml").path

  @Test(
    .enabled(
      if: SequenceAndVideoTests.ffmpeg != nil,
      "ffmpeg is not installed: the animated image test cannot run here (Debian: apt-get install ffmpeg)"
    ))
  func anAPNGHasEveryFrameAndAWebPTheRunsLength() throws {
    let folder = try makeScratchFolder("scenec-animated")
    defer { try? FileManager.default.removeItem(at: folder) }
    let frames = try ScenecProcess.run(["run", Self.toggle]).stdout.split(separator: "\n").count
    let apng = folder.appendingPathComponent("toggle.apng").path
    #expect(try ScenecProcess.run(["run", Self.toggle, "-o", apng, "-q"]).status == 0)
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = [
      "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
      "stream=codec_name,pix_fmt,nb_read_frames", "-of", "csv=p=0", apng,
    ]
    let out = Pipe()
    probe.standardOutput = out
    try probe.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    probe.waitUntilExit()
    #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "apng,rgba,\(frames)")
    // WebP: its frames (ANMF chunks, identical neighbours merged) last as long as the run.
    let webp = folder.appendingPathComponent("toggle.webp").path
    #expect(try ScenecProcess.run(["run", Self.toggle, "-o", webp, "-q"]).status == 0)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: webp)))
    #expect(Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8))
    func little(_ at: Int, _ count: Int) -> Int {
      (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
    var at = 12
    var milliseconds = 0
    var chunks = 0
    while at + 8 <= bytes.count {
      let tag = String(decoding: bytes[at..<at + 4], as: UTF8.self)
      let size = little(at + 4, 4)
      if tag == "ANMF" {
        chunks += 1
        milliseconds += little(at + 8 + 12, 3)
      }
      at += 8 + size + (size & 1)
    }
    #expect(chunks > 1)
    let length = Double(frames) / 60 * 1000
    #expect(
      abs(Double(milliseconds) - length) <= 1000.0 / 60 + 1, "\(milliseconds) ms of \(length)")
  }
}
