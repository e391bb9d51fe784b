import SceneDiagnostics
import SceneGeometry

/// Turns a ``DocumentNode`` tree, from either front end, into a ``SceneSpec``.
///
/// It knows the schema: which keys each part takes, what type each value has, which
/// names may be written. It reports every independent problem it finds (unknown keys
/// with suggestions, wrong types with what was expected and found, duplicate names with
/// where the first one was, bad expressions at their exact column) and keeps going, so a
/// single `scenec check` shows them all. Whatever could be decoded is returned even
/// when there were errors; callers must not use it when ``Result/diagnostics`` has errors.
public struct SceneDecoder {
  public struct Result: Sendable {
    public var spec: SceneSpec
    public var diagnostics: [Diagnostic]
    /// The names of lets, springs, handles and paths that were written but did not decode:
    /// a reference to one of them is a consequence of its error, not an error of its own.
    public var failedNames: Set<String> = []
    /// Whether a whole section failed (not a mapping or list at all): then too little is
    /// known to resolve the rest.
    public var lostSection = false
  }

  /// The top-level keys of a scene, in canonical order.
  public static let topLevelKeys = [
    "scene", "inputs", "let", "springs", "handles", "paths", "constraints", "states", "gesture",
    "expect",
  ]

  /// The keys of the `scene:` header.
  static let headerKeys = ["name", "size", "fps", "duration", "maxDuration", "background"]

  var diagnostics: [Diagnostic] = []
  /// See ``Result/failedNames`` and ``Result/lostSection``.
  var failedNames: Set<String> = []
  var lostSection = false
  /// Whether every mapping in the tree is known to hold each key once, as the YAML
  /// reader guarantees (a repeated key is an error there), so ``unique(_:what:)`` need
  /// not look again.
  ///
  /// The DSL's tree may repeat keys.
  var keysAreUnique = false
  /// Runs the pieces of a long list of handles with written positions, each decoded on
  /// its own.
  var parallel = ParallelWork.serial

  /// Decodes a document tree; `keysAreUnique` says its reader has already refused repeated
  /// keys (the YAML reader does; the DSL's tree may repeat them).
  ///
  /// A long list of handles whose positions are expressions is cut into pieces that `parallel`
  /// may decode side by side; the result and its messages are the same either way.
  public static func decode(
    _ root: DocumentNode, keysAreUnique: Bool = false, parallel: ParallelWork = .serial
  ) -> Result {
    var decoder = SceneDecoder()
    decoder.keysAreUnique = keysAreUnique
    decoder.parallel = parallel
    let spec = decoder.decodeScene(root)
    return Result(
      spec: spec, diagnostics: decoder.diagnostics, failedNames: decoder.failedNames,
      lostSection: decoder.lostSection)
  }

  mutating func error(_ message: String, at source: SourceRef, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.error(message, at: source.span, notes: notes))
  }

  // MARK: - The scene

  mutating func decodeScene(_ root: DocumentNode) -> SceneSpec {
    var spec = SceneSpec()
    guard let entries = mapping(root, what: "a scene") else { return spec }
    for entry in unique(entries, what: "key") {
      switch entry.key {
      case "scene": spec.header = decodeHeader(entry.value)
      case "let":
        spec.lets = decodeLets(entry.value)
        noteFailures(entry.value, decoded: spec.lets.map { $0.name.value })
      case "springs":
        spec.springs = decodeNamed(entry.value, what: "spring") { $0.decodeSpring($1, $2) }
        noteFailures(entry.value, decoded: spec.springs.map { $0.name.value })
      case "handles":
        spec.handles = decodeNamed(
          entry.value, what: "handle", splitting: hasManyWrittenPositions(entry.value)
        ) { $0.decodeHandle($1, $2) }
        noteFailures(entry.value, decoded: spec.handles.map { $0.name.value })
      case "paths":
        spec.paths = decodeNamed(entry.value, what: "path", splitting: false) {
          $0.decodePath($1, $2)
        }
        noteFailures(entry.value, decoded: spec.paths.map { $0.name.value })
      case "constraints": spec.constraints = decodeConstraints(entry.value)
      case "inputs":
        spec.inputs = decodeInputs(entry.value)
        noteFailures(entry.value, decoded: spec.inputs.map { $0.name.value })
      case "states":
        spec.machines = decodeMachines(entry.value)
        noteFailures(entry.value, decoded: spec.machines.map { $0.name.value })
      case "gesture": spec.gesture = decodeGesture(entry.value)
      case "expect": spec.expectations = decodeExpectations(entry.value)
      case let key where key.hasPrefix("x-"):
        break  // A place for YAML anchors, as in Compose files: not part of the scene.
      default:
        error(
          "unknown top-level key '\(entry.key)'\(Suggestion.didYouMean(entry.key, among: Self.topLevelKeys))",
          at: entry.keySource)
      }
    }
    return spec
  }

  mutating func decodeHeader(_ node: DocumentNode) -> SceneSpec.Header {
    var header = SceneSpec.Header(source: node.source)
    guard
      let fields = fields(
        of: node, what: "the scene header",
        allowed: Self.headerKeys)
    else { return header }
    if let node = fields["name"] { header.name = string(node, what: "'name'") }
    if let node = fields["size"] { header.size = size(node) }
    if let node = fields["fps"] { header.fps = number(node, what: "'fps'") }
    if let node = fields["duration"] {
      if case .scalar(let s) = node.value, s.text == "until-rest" {
        header.duration = Located(.untilRest, at: node.source)
      } else if case .scalar(let s) = node.value, Self.seconds(s.text) == nil || s.isQuoted {
        error(
          "expected a time for 'duration' (such as 3s or 900ms) or until-rest, found '\(s.text)'",
          at: node.source)
      } else if let seconds = time(node, what: "'duration'") {
        header.duration = Located(.seconds(seconds.value), at: node.source)
      }
    }
    if let node = fields["maxDuration"] { header.maxDuration = time(node, what: "'maxDuration'") }
    if let node = fields["background"] { header.background = color(node, what: "'background'") }
    return header
  }

  /// Records the names written in the section `node` that did not decode, or that the
  /// whole section was lost.
  mutating func noteFailures(_ node: DocumentNode, decoded: [String]) {
    guard case .mapping(let entries) = node.value else {
      lostSection = true
      return
    }
    let made = Set(decoded)
    for entry in entries where !made.contains(entry.key) { failedNames.insert(entry.key) }
  }

  mutating func decodeLets(_ node: DocumentNode) -> [LetSpec] {
    guard let entries = mapping(node, what: "'let' (names and expressions)") else { return [] }
    var lets: [LetSpec] = []
    for entry in unique(entries, what: "let") {
      guard identifier(entry.key, at: entry.keySource, what: "let") else { continue }
      if let value = expression(entry.value, what: "let '\(entry.key)'") {
        lets.append(LetSpec(name: Located(entry.key, at: entry.keySource), value: value))
      }
    }
    return lets
  }

  /// A mapping from names to definitions, each decoded by `decode`.
  mutating func decodeNamed<T: Sendable>(
    _ node: DocumentNode, what: String, splitting: Bool = true,
    _ decode: @Sendable (inout SceneDecoder, Located<String>, DocumentNode) -> T?
  ) -> [T] {
    guard let entries = mapping(node, what: "'\(what)s' (names and definitions)") else { return [] }
    return decodeEach(unique(entries, what: what), splitting: splitting) { decoder, entry in
      guard decoder.identifier(entry.key, at: entry.keySource, what: what) else { return nil }
      return decode(&decoder, Located(entry.key, at: entry.keySource), entry.value)
    }
  }

  /// Whether enough handles in `handles` have a position written as an expression to
  /// parse (`"(x + 10, y)"`) for decoding them to pay on other threads.
  ///
  /// A handle with a list of numbers decodes in a few microseconds. Handing such handles
  /// (or paths, or constraints) to another thread gained nothing and left their specs in
  /// that thread's memory, which made grabbing and releasing every handle of the
  /// 10,000-handle follow scene 5% slower; so only these handles are split.
  func hasManyWrittenPositions(_ handles: DocumentNode) -> Bool {
    guard case .mapping(let entries) = handles.value else { return false }
    var written = 0
    for entry in entries {
      guard case .mapping(let fields) = entry.value.value,
        let position = fields.first(where: { $0.key == "position" }),
        case .scalar = position.value.value
      else { continue }
      written += 1
    }
    return parallel.pieces(of: written).count > 1
  }

  /// `decode` of every item that decodes, in order.
  ///
  /// A long list is cut into pieces that ``parallel`` may run side by side, each with a
  /// decoder of its own; their messages join this decoder's in the order of the pieces, so
  /// they come out as if the items had been decoded one by one.
  mutating func decodeEach<Item: Sendable, T: Sendable>(
    _ items: [Item], splitting: Bool = true, _ decode: @Sendable (inout SceneDecoder, Item) -> T?
  ) -> [T] {
    let pieces = (splitting ? parallel : .serial).pieces(of: items.count)
    var result: [T] = []
    result.reserveCapacity(items.count)
    guard pieces.count > 1 else {
      for item in items {
        if let value = decode(&self, item) { result.append(value) }
      }
      return result
    }
    let keysAreUnique = keysAreUnique
    let decoded = parallel.map(pieces.count) { piece in
      var decoder = SceneDecoder()
      decoder.keysAreUnique = keysAreUnique
      var values: [T] = []
      values.reserveCapacity(pieces[piece].count)
      for item in items[pieces[piece]] {
        if let value = decode(&decoder, item) { values.append(value) }
      }
      return (values, decoder.diagnostics)
    }
    for (values, diagnostics) in decoded {
      result += values
      self.diagnostics += diagnostics
    }
    return result
  }
}
