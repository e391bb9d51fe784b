import Foundation
import SceneDiagnostics
import SceneFiles
import SceneGeometry
import SceneGraph
import SceneOutputs
import ScenePipeline
import SceneSyntax

/// The scene every page previews: loaded from its file, reloaded when the file or a trace
/// it replays changes, and handed to each connected page; and the one place files are
/// written (recordings), so two pages never write at once.
public actor PreviewHub {
  /// What a page is told when the scene changes.
  public enum Update: Sendable {
    /// A scene that loaded without errors (the diagnostics hold its warnings, if any).
    case scene(SceneGraph, warnings: String)
    /// The file has errors: the last good scene keeps running; these are the errors.
    case problems(String)
    /// A number was tuned: the same scene with new values, which each page's take is run
    /// again with.
    case tuned(SceneGraph)
  }

  public let sceneFile: String
  let options: ScenePipeline.Options
  /// The latest scene that loaded without errors, with its syntax tree and text (for
  /// writing a copy that replays a recording).
  private(set) var graph: SceneGraph?
  private var spec: SceneSpec?
  private var sourceText = ""
  /// The file's text as last read from disk: a save writes only over that, and `sourceText`
  /// differs from it by the values tuned since.
  private var diskText = ""
  /// The numbers the pages may tune, in `sourceText`, and as they were on disk.
  private(set) var tunables: [TunableNumber] = []
  private var diskTunables: [TunableNumber] = []
  /// Whether the file began with a byte-order mark (kept when a tuning is saved).
  private var byteOrderMark = false
  /// The scene file and the traces it reads: what a save may never replace.
  private var inputs: [String] = []
  /// The rendered errors of the latest load, empty when it was clean.
  private(set) var problems = ""
  private var warnings = ""
  /// How many times a changed file was loaded again.
  public private(set) var reloads = 0
  private var watched: [String: FileStamp] = [:]
  private var subscribers: [UUID: AsyncStream<Update>.Continuation] = [:]

  public init(sceneFile: String, options: ScenePipeline.Options = ScenePipeline.Options()) {
    self.sceneFile = sceneFile
    self.options = options
  }

  // MARK: - Loading

  /// Loads the scene, and returns its rendered diagnostics (empty when clean).
  ///
  /// The result is also what ``subscribe()`` starts with.
  @discardableResult
  public func load() -> String {
    let loaded: ScenePipeline.Loaded
    do {
      loaded = try ScenePipeline.load(path: sceneFile, options: options)
    } catch {
      problems = "error: \(error.description)\n"
      watch([sceneFile])
      broadcast(.problems(problems))
      return problems
    }
    watch([sceneFile] + loaded.files.map(\.name))
    if let graph = loaded.graph {
      self.graph = graph
      spec = loaded.spec
      sourceText = loaded.files.first?.text ?? ""
      diskText = sourceText
      byteOrderMark = (try? InputFile.read(path: sceneFile, upTo: 3)) == [0xEF, 0xBB, 0xBF]
      tunables =
        loaded.document.flatMap { document in
          loaded.files.first.map { TunableNumbers.find(in: document, file: $0) }
        } ?? []
      diskTunables = tunables
      inputs = loaded.inputs
      problems = ""
      warnings = loaded.diagnostics.isEmpty ? "" : loaded.rendered()
      broadcast(.scene(graph, warnings: warnings))
      return warnings
    }
    problems = loaded.rendered()
    broadcast(.problems(problems))
    return problems
  }

  /// What a page starts with, and every change after, until it goes; `nil` when
  /// `maximumPages` pages are already subscribed.
  public func subscribe(maximumPages: Int = .max) -> (id: UUID, updates: AsyncStream<Update>)? {
    guard subscribers.count < maximumPages else { return nil }
    let id = UUID()
    let (stream, continuation) = AsyncStream.makeStream(
      of: Update.self, bufferingPolicy: .bufferingNewest(4))
    if let graph { continuation.yield(.scene(graph, warnings: warnings)) }
    if !problems.isEmpty { continuation.yield(.problems(problems)) }
    subscribers[id] = continuation
    return (id, stream)
  }

  public func unsubscribe(_ id: UUID) {
    subscribers.removeValue(forKey: id)?.finish()
  }

  public var pageCount: Int { subscribers.count }

  private func broadcast(_ update: Update) {
    for continuation in subscribers.values { continuation.yield(update) }
  }

  // MARK: - Watching

  /// When and how a file last changed: a changed time, size or inode (an editor's save
  /// by rename) means a new version.
  struct FileStamp: Equatable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int64
    var inode: UInt64

    init?(_ path: String) {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      #if canImport(Darwin)
      seconds = Int(status.st_mtimespec.tv_sec)
      nanoseconds = Int(status.st_mtimespec.tv_nsec)
      #else
      seconds = Int(status.st_mtim.tv_sec)
      nanoseconds = Int(status.st_mtim.tv_nsec)
      #endif
      size = Int64(status.st_size)
      inode = UInt64(status.st_ino)
    }
  }

  private func watch(_ paths: [String]) {
    var stamps: [String: FileStamp] = [:]
    for path in Set(paths) { stamps[path] = FileStamp(path) }
    watched = stamps
    // A missing file is watched too, so its appearing counts as a change.
    missing = Set(paths.filter { stamps[$0] == nil })
  }

  private var missing: Set<String> = []

  /// Whether any watched file changed since it was last loaded; loads again if so.
  @discardableResult
  public func reloadIfChanged() -> Bool {
    var changed = false
    for (path, stamp) in watched where FileStamp(path) != stamp { changed = true }
    for path in missing where FileStamp(path) != nil { changed = true }
    guard changed else { return false }
    reloads += 1
    load()
    return true
  }

  /// Polls the files every `interval` until cancelled, reporting each reload's outcome.
  ///
  /// A poll is a few `stat` calls: cheap, and portable.
  public func watch(every interval: Duration, report: @Sendable (String) -> Void) async {
    while !Task.isCancelled {
      try? await Task.sleep(for: interval)
      if reloadIfChanged() {
        report(
          problems.isEmpty
            ? "reloaded \(sceneFile)\(warnings.isEmpty ? "" : "\n" + warnings)"
            : problems + "(the last good scene keeps running)")
      }
    }
  }

  // MARK: - Tuning

  /// Whether values were tuned that the file does not hold yet.
  var hasUnsavedTuning: Bool { sourceText != diskText }

  /// Sets tunable number `index` to `value` in the scene's text, not yet in its file.
  ///
  /// Every page's take runs again with the result. Returns why not, changing nothing,
  /// when the value is out of its range or makes the scene invalid.
  func tune(_ index: Int, to value: Double) -> String? {
    guard tunables.indices.contains(index), let syntax = SceneLoader.Syntax(fileName: sceneFile)
    else { return "there is no tunable number \(index)" }
    let number = tunables[index]
    guard value.isFinite, value >= number.minimum, value <= number.maximum else {
      return
        "\(number.path) must be between \(number.minimum.shortestDescription) and \(number.maximum.shortestDescription)"
    }
    guard let (text, _) = TunableNumbers.edit(sourceText, setting: number, to: value) else {
      return "\(number.path) is no longer where it was read: reload the page"
    }
    let read = SceneLoader.load(SourceFile(name: sceneFile, text: text), syntax: syntax)
    let loaded = ScenePipeline.resolve(read, sceneFile: sceneFile, options: options)
    guard let graph = loaded.graph, let document = loaded.document, let file = loaded.files.first,
      let old = self.graph, Self.sameStructure(old, graph)
    else {
      let first =
        loaded.diagnostics.first { $0.severity == .error }?.message
        ?? "it changes the scene's parts"
      return
        "\(number.path) cannot be \(TunableNumbers.text(of: value, step: number.step)): \(first)"
    }
    let found = TunableNumbers.find(in: document, file: file)
    guard found.count == tunables.count else {
      return
        "\(number.path) cannot be \(TunableNumbers.text(of: value, step: number.step)): the scene's numbers would change"
    }
    self.graph = graph
    spec = loaded.spec
    sourceText = text
    tunables = found
    broadcast(.tuned(graph))
    return nil
  }

  /// Whether a take of `old` can be run again with `new`: the same handles, inputs, machines
  /// and gesture tracks, so every index the take holds means the same thing.
  static func sameStructure(_ old: SceneGraph, _ new: SceneGraph) -> Bool {
    old.handles.map(\.name) == new.handles.map(\.name) && old.inputs.count == new.inputs.count
      && old.machines.count == new.machines.count && old.gesture.count == new.gesture.count
      && old.fps == new.fps
  }

  /// Each number tuned since the file was read, as `path old → new`.
  var tunedChanges: [String] {
    zip(diskTunables, tunables).compactMap { old, new in
      old.text == new.text ? nil : "\(new.path) \(old.text) → \(new.text)"
    }
  }

  /// Writes the tuned values into the scene file, each as an edit of its own number's text.
  ///
  /// Only over the text last read: a file changed on disk since is never overwritten (the
  /// watcher reloads it instead). The hub then takes the written text as read, so the
  /// watcher sees nothing new.
  func saveTuning() throws(SaveError) -> String {
    guard hasUnsavedTuning else {
      throw SaveError(message: "nothing to save: the file already holds these values")
    }
    let expected = (byteOrderMark ? [0xEF, 0xBB, 0xBF] : []) + Array(diskText.utf8)
    let onDisk = try? InputFile.read(path: sceneFile, upTo: expected.count + 1)
    guard onDisk == expected else {
      throw SaveError(
        message:
          "\(PathName.lastComponent(sceneFile)) changed on disk since it was read: it was not overwritten; it will be read again"
      )
    }
    let changes = tunedChanges
    let folder = PathName.deletingLastComponent(sceneFile)
    do {
      try AtomicFile.write(
        (byteOrderMark ? [0xEF, 0xBB, 0xBF] : []) + Array(sourceText.utf8), to: sceneFile,
        removeOnInterrupt: true,
        policy: WritePolicy(
          inputs: inputs.filter { $0 != sceneFile }, folder: folder.isEmpty ? "." : folder,
          regularFileOnly: true))
    } catch {
      throw SaveError(
        message: "cannot save \(PathName.lastComponent(sceneFile)): \(error.description)")
    }
    diskText = sourceText
    diskTunables = tunables
    watch(Array(watched.keys) + Array(missing))
    return "saved \(changes.joined(separator: ", ")) to \(PathName.lastComponent(sceneFile))"
  }

  // MARK: - Saving recordings

  /// Why a save was refused, said to the page.
  public struct SaveError: Error, Sendable, Equatable {
    public var message: String
    /// The file exists: the page may ask whether to replace it.
    public var exists = false
  }

  /// Saves `trace` beside the scene, and a copy of the scene that replays it when
  /// `sceneName` is given (see ``RecordingSaver``): checked, staged and run before anything
  /// is written, and no file replaced unless `confirmed`.
  ///
  /// Only the scene's state is read on the hub's actor; the checks and the writing run off
  /// it, so the pages keep their frames whatever the disk does.
  func save(
    _ trace: TraceFile, traceName: String, sceneName: String?, confirmed: Bool
  ) async throws(SaveError) -> RecordingSaver.Outcome {
    guard let spec else { throw SaveError(message: "the scene has errors: fix them first") }
    let saver = RecordingSaver(
      scene: RecordingSaver.Scene(file: sceneFile, spec: spec, text: sourceText, inputs: inputs),
      trace: trace, traceName: traceName, sceneName: sceneName)
    let result = await Task.detached { () -> Result<RecordingSaver.Outcome, SaveError> in
      do throws(SaveError) {
        return .success(try saver.save(confirmed: confirmed))
      } catch {
        return .failure(error)
      }
    }.value
    return try result.get()
  }

  /// The names the page offers for a save, from the scene's own: `wave.yaml` gives
  /// `wave-gesture.csv` and `wave-recorded.yaml` (`.scene` for a DSL scene).
  static func saveNames(sceneFile: String) -> (trace: String, scene: String) {
    let name = PathName.lastComponent(sceneFile)
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    var stem = String(PathName.deletingPathExtension(name).filter(allowed.contains).prefix(60))
    while stem.hasPrefix(".") || stem.hasPrefix("-") { stem.removeFirst() }
    if stem.isEmpty { stem = "scene" }
    let ext = PathName.pathExtension(name) == "scene" ? "scene" : "yaml"
    return (stem + "-gesture.csv", stem + "-recorded." + ext)
  }

  /// A file name the page may choose: letters, digits, `.`, `_` and `-` (no folders, no
  /// hidden files), with one of `extensions`.
  static func check(name: String, extensions: [String], what: String) throws(SaveError) {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    guard !name.isEmpty, name.count <= 100, name.allSatisfy(allowed.contains),
      !name.hasPrefix("."), !name.hasPrefix("-"),
      extensions.contains(where: { name.hasSuffix("." + $0) })
    else {
      throw SaveError(
        message:
          "'\(name.prefix(100))' is not a file name for \(what): use letters, digits, '.', '_' and '-', ending in .\(extensions.joined(separator: ", ."))"
      )
    }
  }
}
