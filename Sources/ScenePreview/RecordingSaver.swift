import Foundation
import SceneDiagnostics
import SceneFiles
import SceneGeometry
import SceneGraph
import ScenePipeline
import SceneRuntime
import SceneSyntax
import SceneTesting
import SceneVocabulary

/// Saves a recording beside its scene as a trace and, if asked, a copy of the scene that
/// replays it: a `scenec test` case that passes the first time.
///
/// The folder may have been cloned from someone else, so every target is checked before
/// anything is written: it must be a regular file (or none yet) inside the scene's folder
/// once every symbolic link is followed, never a link to nowhere, and never the scene
/// being previewed or a trace it reads (compared by device and inode, so no spelling,
/// link or case-insensitive name gets round it). Nothing is replaced without the page's
/// confirmation of exactly those files.
///
/// Before anything is written the pair is staged in a private temporary folder and run
/// as `scenec test` would run it: the trace must read back, the copy must load and
/// replay, and its expectations (the events of the recording, and coming to rest) must
/// hold. Only then are the files written, each whole or not at all.
///
/// It does its file work off the hub's actor, so a slow disk never stalls the pages.
struct RecordingSaver: Sendable {
  /// What the hub knows of the scene being previewed.
  struct Scene: Sendable {
    var file: String
    var spec: SceneSpec
    var text: String
    /// The scene file and the traces it reads: never replaced.
    var inputs: [String]
  }

  let scene: Scene
  let trace: TraceFile
  let traceName: String
  let sceneName: String?

  /// One file to write: the name the page chose, where it really goes, and its text.
  struct Target: Sendable, Equatable {
    var name: String
    /// The path in the scene's folder.
    var path: String
    /// Where writing it lands, once every link is followed.
    var real: String
    var exists: Bool
    var text = ""
  }

  /// What a save did, or what it needs first.
  enum Outcome: Sendable, Equatable {
    /// Written: the targets, and a sentence for the page.
    case saved([Target], summary: String)
    /// These exist: the page must confirm replacing them (named by where they really are).
    case needsConfirmation([Target])
  }

  var folder: String {
    let folder = PathName.deletingLastComponent(scene.file)
    return folder.isEmpty ? "." : folder
  }

  /// Checks, stages, and writes unless a file exists and `confirmed` is false.
  func save(confirmed: Bool) throws(PreviewHub.SaveError) -> Outcome {
    try PreviewHub.check(name: traceName, extensions: ["csv", "jsonl"], what: "a trace")
    if let sceneName {
      try PreviewHub.check(name: sceneName, extensions: ["yaml", "yml", "scene"], what: "a scene")
    }
    var targets = [try target(traceName, isCopy: false)]
    if let sceneName { targets.append(try target(sceneName, isCopy: true)) }
    if targets.count == 2 && targets[0].real == targets[1].real {
      throw PreviewHub.SaveError(message: "the trace and the copy must be different files")
    }
    targets[0].text = traceName.hasSuffix(".jsonl") ? trace.jsonLinesText : trace.csvText
    // The trace must read back to the very samples recorded.
    let readBack: TraceFile
    do {
      readBack = try TraceFile.parse(targets[0].text, name: traceName)
    } catch {
      throw PreviewHub.SaveError(
        message: "the recording does not read back as a trace: \(error.diagnostic.message)")
    }
    guard readBack == trace else {
      throw PreviewHub.SaveError(message: "the recording does not read back as it was made")
    }
    var expectations: [String] = []
    if targets.count == 2 {
      (targets[1].text, expectations) = try testedCopy(traceText: targets[0].text)
    }
    let existing = targets.filter(\.exists)
    if !existing.isEmpty && !confirmed { return .needsConfirmation(existing) }
    let policy = WritePolicy(inputs: scene.inputs, folder: folder, regularFileOnly: true)
    for target in targets {
      do {
        try AtomicFile.write(
          target.text.utf8, to: target.real, replacing: confirmed, removeOnInterrupt: false,
          policy: policy)
      } catch {
        throw PreviewHub.SaveError(message: error.description, exists: error.targetExists)
      }
    }
    return .saved(targets, summary: summary(targets, expectations: expectations))
  }

  /// The sentence the page shows after a save.
  func summary(_ targets: [Target], expectations: [String]) -> String {
    let samples = trace.samples.count
    var text =
      "saved \(targets[0].name) (\(samples) sample\(samples == 1 ? "" : "s"), \(((trace.duration * 100).rounded() / 100).shortestDescription) s)"
    if targets.count == 2 {
      text +=
        " and \(targets[1].name), which replays it; its expectations: "
        + (expectations.isEmpty ? "none" : expectations.joined(separator: "; "))
        + ". Record its snapshot with: scenec test \(targets[1].name) --record"
    }
    return text
  }

  // MARK: - Targets

  /// Where `name` in the scene's folder would be written, refused if that is anywhere but
  /// a regular file inside the folder that the scene does not read.
  func target(_ name: String, isCopy: Bool) throws(PreviewHub.SaveError) -> Target {
    let path = folder == "." ? name : folder + "/" + name
    let shown = "'" + TerminalText.escaped(name) + "'"
    // Follow every link, as the write will.
    let current: String
    let hops: Bool
    switch LinkEnd(of: path) {
    case .found(let end, let viaLink, let exists):
      if viaLink && !exists {
        throw PreviewHub.SaveError(
          message:
            "\(shown) is a symbolic link to '\(TerminalText.escaped(end))', which does not exist: not written"
        )
      }
      (current, hops) = (end, viaLink)
    case .unreadable, .tooDeep:
      throw PreviewHub.SaveError(message: "\(shown) is a symbolic link that cannot be followed")
    }
    guard OutputFile.isInside(current, folder: folder) else {
      throw PreviewHub.SaveError(
        message:
          "\(shown) is a symbolic link to '\(TerminalText.escaped(current))', outside the scene's folder: not written"
      )
    }
    let real = hops ? current : path
    guard let kind = InputFile.kind(atPath: real) else {
      return Target(name: name, path: path, real: real, exists: false)
    }
    guard kind == .regularFile else {
      throw PreviewHub.SaveError(
        message: "\(shown) is not a regular file (a folder, FIFO, socket or device): not written")
    }
    let identity = FileIdentity(path: real)
    if identity == FileIdentity(path: scene.file) {
      throw PreviewHub.SaveError(
        message: isCopy
          ? "the copy cannot replace the scene being previewed"
          : "\(shown) is the scene being previewed: not written")
    }
    if scene.inputs.contains(where: { FileIdentity(path: $0) == identity }) {
      throw PreviewHub.SaveError(
        message: "\(shown) is a trace the previewed scene replays: not written")
    }
    return Target(name: name, path: path, real: real, exists: true)
  }

  // MARK: - The copy, tested

  /// The copy's text, and the expectations it was given, once it passed as `scenec test`
  /// would run it.
  func testedCopy(traceText: String) throws(PreviewHub.SaveError) -> (String, [String]) {
    guard let sceneName else { return ("", []) }
    let stage = try Stage()
    defer { stage.remove() }
    do {
      try stage.write(traceText, as: traceName)
      // First without expectations, to see what the recording does.
      var copy = Self.replayingCopy(of: scene.spec, trace: trace, traceName: traceName)
      let path = try stage.write(copy.text(scene.text, syntax: syntax), as: sceneName)
      let loaded = try ScenePipeline.load(path: path)
      guard let graph = loaded.graph else {
        throw PreviewHub.SaveError(
          message: "the copy does not load: " + firstLine(of: loaded.rendered()))
      }
      let observed = try Self.observe(graph)
      copy.expectations = observed.expectations
      let finalText = copy.text(scene.text, syntax: syntax)
      try stage.write(finalText, as: sceneName)
      // Then exactly as `scenec test` runs it.
      switch SceneTest(scene: path).frames() {
      case .failure(let error):
        throw PreviewHub.SaveError(message: "the copy does not run: " + firstLine(of: error.text))
      case .success(let run):
        if let failed = run.failedExpectations {
          throw PreviewHub.SaveError(
            message: "the copy does not pass its own expectations: " + firstLine(of: failed))
        }
      }
      return (finalText, observed.lines)
    } catch let error as PreviewHub.SaveError {
      throw error
    } catch {
      throw PreviewHub.SaveError(message: "the copy could not be checked: \(error)")
    }
  }

  var syntax: SceneLoader.Syntax { sceneName.flatMap(SceneLoader.Syntax.init(fileName:)) ?? .yaml }

  func firstLine(of text: String) -> String {
    String(text.split(separator: "\n", omittingEmptySubsequences: true).first ?? "")
  }

  /// What a replay of the recording does: the events it makes, and whether it comes to
  /// rest, as expectations.
  static func observe(_ graph: SceneGraph) throws -> (
    expectations: [ExpectationSpec], lines: [String]
  ) {
    var runner = try SceneRunner(graph: graph)
    var seen: [NamedEvent] = []
    var known: Set<NamedEvent> = []
    while let frame = try runner.nextFrame() {
      for event in frame.namedEvents where known.insert(event).inserted { seen.append(event) }
    }
    var expectations: [ExpectationSpec] = []
    var lines: [String] = []
    for event in seen.prefix(maximumEventExpectations) {
      guard SceneEventName(rawValue: event.type) != nil else { continue }
      expectations.append(
        ExpectationSpec(
          .event(EventPattern(name: event.type, subject: event.subject, target: event.target), nil))
      )
      lines.append(
        "event \(event.type) of \(event.subject)" + (event.target.map { " to \($0)" } ?? ""))
    }
    if !runner.stoppedAtLimit {
      expectations.append(ExpectationSpec(.allAtRest(at: .end)))
      lines.append("at end: all at rest")
    }
    return (expectations, lines)
  }

  /// The most event expectations a copy gets (one per kind and subject, first seen first).
  static let maximumEventExpectations = 50

  /// The scene with its gesture replaced by the recording (a `wait` until the first sample,
  /// as a replay starts at its first sample, then the `replay`), its own expectations
  /// dropped (they describe the scripted gesture, not this one), and long enough to play
  /// the whole recording and settle.
  static func replayingCopy(of spec: SceneSpec, trace: TraceFile, traceName: String) -> SceneSpec {
    var copy = spec
    var steps: [GestureStep] = []
    let first = trace.samples.first?.time ?? 0
    if first > 0 { steps.append(GestureStep(.wait(Located(first)))) }
    steps.append(GestureStep(.replay(Located(traceName))))
    copy.gesture = [GestureTrack(pointer: Located(0), steps: steps)]
    copy.expectations = []
    let end = first + trace.duration
    switch spec.header.duration?.value {
    case .seconds(let length) where length < end + 1:
      copy.header.duration = Located(.seconds((end + 1).rounded(.up)))
    case .seconds: break
    case .untilRest, nil:
      let cap = spec.header.maxDuration?.value ?? 30
      if cap < end + 30 { copy.header.maxDuration = Located(min((end + 30).rounded(.up), 3600)) }
    }
    return copy
  }

  /// A private temporary folder, removed when done.
  struct Stage {
    let path: String

    init() throws(PreviewHub.SaveError) {
      var template = Array(
        (FileManager.default.temporaryDirectory.path + "/scenec-save-XXXXXX").utf8CString)
      guard let made = mkdtemp(&template) else {
        throw PreviewHub.SaveError(message: "cannot make a temporary folder to check the copy")
      }
      path = String(cString: made)
    }

    @discardableResult
    func write(_ text: String, as name: String) throws -> String {
      let file = path + "/" + name
      try AtomicFile.write(text.utf8, to: file, removeOnInterrupt: false)
      return file
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
  }
}

extension SceneSpec {
  /// The scene written in `syntax`, keeping the comments of `original`.
  func text(_ original: String, syntax: SceneLoader.Syntax) -> String {
    let header =
      "# Replays a recording made with scenec preview; its expectations are what that\n"
      + "# recording did. Record its snapshot with: scenec test <this file> --record"
    let tree = SceneEncoder.encode(self, comments: SceneComments(text: original))
    return syntax == .yaml
      ? YAMLEmitter.emit(tree, header: header) : DSLEmitter.emit(tree, header: header)
  }
}
