import SceneDiagnostics
import SceneVocabulary

// MARK: - Gesture and expectations

extension SceneDecoder {
  static let stepKinds = GestureStepKeyword.words
  static let pointKeys = ["at"]
  static let motionKeys = ["to", "by", "over", "ease"]
  static let flingKeys = ["to", "by", "over", "velocity"]
  static let releaseKeys = ["velocity"]
  static let pinchKeys = ["scale", "rotation", "center", "distance", "over", "ease"]
  static let rotateKeys = ["by", "center", "distance", "over", "ease"]

  mutating func decodeGesture(_ node: DocumentNode) -> [GestureTrack] {
    switch node.value {
    case .sequence:
      return [GestureTrack(pointer: Located(0, at: node.source), steps: decodeSteps(node))]
    case .mapping(let entries):
      var tracks: [GestureTrack] = []
      for entry in unique(entries, what: "pointer") {
        guard let pointer = Int(entry.key), pointer >= 0 else {
          error(
            "expected a pointer id (0, 1, …) as a key of 'gesture', found '\(entry.key)'",
            at: entry.keySource)
          continue
        }
        tracks.append(
          GestureTrack(
            pointer: Located(pointer, at: entry.keySource), steps: decodeSteps(entry.value)))
      }
      return tracks
    case .scalar:
      error(
        "expected a list of steps, or pointer ids with lists of steps, for 'gesture', found \(node.kindDescription)",
        at: node.source)
      return []
    }
  }

  mutating func decodeSteps(_ node: DocumentNode) -> [GestureStep] {
    guard let items = sequence(node, what: "the gesture's steps") else { return [] }
    var steps: [GestureStep] = []
    for item in items {
      if case .scalar(let s) = item.value, s.text == "release" {
        steps.append(GestureStep(.release(velocity: nil), at: item.source))
        continue
      }
      // A bare word that is not `release`: a misspelt step, or one that needs its value.
      if case .scalar(let s) = item.value, !s.isQuoted {
        error(
          Self.stepKinds.contains(s.text)
            ? "the gesture step '\(s.text)' needs a value, such as '\(s.text): …'"
            : "unknown gesture step '\(s.text)'"
              + Self.suggestionOrList(
                s.text, among: Self.stepKinds,
                list: GestureStepKeyword.listed),
          at: item.source)
        continue
      }
      guard let (kind, keySource, value) = singleEntry(item, what: "a gesture step") else {
        continue
      }
      guard let keyword = GestureStepKeyword(keyword: kind) else {
        error(
          "unknown gesture step '\(kind)'"
            + Self.suggestionOrList(kind, among: Self.stepKinds, list: GestureStepKeyword.listed),
          at: keySource)
        continue
      }
      if let step = decodeStep(keyword, keySource, value) { steps.append(step) }
    }
    return steps
  }

  mutating func decodeStep(
    _ keyword: GestureStepKeyword, _ keySource: SourceRef, _ value: DocumentNode
  )
    -> GestureStep?
  {
    let kind = keyword.rawValue
    func at(_ what: String) -> Expression? {
      if case .mapping = value.value {
        guard let f = fields(of: value, what: "'\(kind)'", allowed: Self.pointKeys) else {
          return nil
        }
        return required(f, "at", of: "'\(kind)'", at: keySource) { $0.expression($1, what: "'at'") }
      }
      return expression(value, what: what)
    }
    func motion(_ f: Fields) -> GestureStep.Motion? {
      switch (f["to"], f["by"]) {
      case (let to?, nil): return expression(to, what: "'to'").map { .to($0) }
      case (nil, let by?): return expression(by, what: "'by'").map { .by($0) }
      case (.some, .some):
        error("'\(kind)' gives both 'to' and 'by'; use one", at: f.keySource("by") ?? keySource)
      case (nil, nil):
        error("'\(kind)' needs 'to' (a point) or 'by' (an offset)", at: keySource)
      }
      return nil
    }
    switch keyword {
    case .press:
      return at("the point to press").map { GestureStep(.press($0), at: keySource) }
    case .tap:
      return at("the point to tap").map { GestureStep(.tap($0), at: keySource) }
    case .drag, .move:
      guard let f = fields(of: value, what: "'\(kind)'", allowed: Self.motionKeys),
        let motion = motion(f)
      else { return nil }
      let over = f["over"].flatMap { shortTime($0, what: "'over'", plausible: 30) }
      let ease = f["ease"].flatMap { easing($0, what: "'ease'") }
      return GestureStep(
        keyword == .drag
          ? .drag(motion, duration: over, easing: ease)
          : .move(motion, duration: over, easing: ease),
        at: keySource)
    case .fling:
      guard let f = fields(of: value, what: "'fling'", allowed: Self.flingKeys),
        let motion = motion(f)
      else { return nil }
      return GestureStep(
        .fling(
          motion, duration: f["over"].flatMap { shortTime($0, what: "'over'", plausible: 30) },
          velocity: f["velocity"].flatMap { expression($0, what: "'velocity'") }),
        at: keySource)
    case .wait, .hold:
      return shortTime(value, what: "'\(kind)'", plausible: 60).map {
        var step = GestureStep(.wait($0), at: keySource)
        if keyword == .hold { step.writtenKeyword = WrittenText("hold") }
        return step
      }
    case .release:
      if case .scalar(let s) = value.value, s.isNull {
        return GestureStep(.release(velocity: nil), at: keySource)
      }
      guard let f = fields(of: value, what: "'release'", allowed: Self.releaseKeys) else {
        return nil
      }
      return GestureStep(
        .release(velocity: f["velocity"].flatMap { expression($0, what: "'velocity'") }),
        at: keySource)
    case .replay:
      return string(value, what: "'replay' (a trace file)").map {
        GestureStep(.replay($0), at: keySource)
      }
    case .pinch, .rotate:
      let turning = keyword == .rotate
      let keys = turning ? Self.rotateKeys : Self.pinchKeys
      guard let f = fields(of: value, what: "'\(kind)'", allowed: keys) else { return nil }
      let center = required(f, "center", of: "'\(kind)'", at: keySource) {
        $0.expression($1, what: "'center'")
      }
      let amount = turning ? "by" : "scale"
      if f[amount] == nil && !f.misspelt.contains(amount) {
        error(
          turning
            ? "'rotate' needs 'by', the angle the fingers turn (such as 90deg)"
            : "'pinch' needs 'scale', what the distance between the fingers is multiplied by",
          at: keySource)
      }
      let pinch = GestureStep.Pinch(
        center: center ?? Expression(.number(0, nil)),
        scale: turning ? nil : f["scale"].flatMap { expression($0, what: "'scale'") },
        rotation: f[turning ? "by" : "rotation"].flatMap {
          expression($0, what: turning ? "'by'" : "'rotation'")
        },
        distance: f["distance"].flatMap { expression($0, what: "'distance'") },
        duration: f["over"].flatMap { shortTime($0, what: "'over'", plausible: 30) },
        easing: f["ease"].flatMap { easing($0, what: "'ease'") })
      guard center != nil, turning ? pinch.rotation != nil : pinch.scale != nil else { return nil }
      return GestureStep(turning ? .rotate(pinch) : .pinch(pinch), at: keySource)
    case .set:
      return decodeInputAssignments(value, at: keySource)
    case .fire:
      return reference(value, what: "'fire' (a trigger input)").map {
        GestureStep(.fire($0), at: keySource)
      }
    }
  }

  mutating func decodeExpectations(_ node: DocumentNode) -> [ExpectationSpec] {
    guard let items = sequence(node, what: "'expect'") else { return [] }
    var result: [ExpectationSpec] = []
    for item in items {
      guard let (text, span, verbatim) = expectationText(item) else { continue }
      do {
        result.append(try ExpectationParser.parse(text, at: span, verbatim: verbatim))
      } catch {
        diagnostics.append(error.diagnostic)
      }
    }
    return result
  }

  /// The text of one expectation.
  ///
  /// Unquoted in YAML, `- at 1s: ball.y < 300` is a mapping
  /// from `at 1s` to `ball.y < 300`; it is read back as the line it was written as.
  mutating func expectationText(_ item: DocumentNode) -> (String, SourceSpan, Bool)? {
    if case .mapping(let entries) = item.value, entries.count == 1,
      case .scalar(let value) = entries[0].value.value, !value.isQuoted
    {
      let key = entries[0]
      let text = key.key + ": " + value.text
      let keyStart = key.keySource.span.start
      let valueStart = key.value.source.span.start
      // Columns still line up when the value follows `key: ` on the same line.
      let verbatim =
        value.isVerbatim && valueStart.line == keyStart.line
        && valueStart.column == keyStart.column + key.key.unicodeScalars.count + 2
      return (text, SourceSpan(keyStart, length: text.unicodeScalars.count), verbatim)
    }
    guard let s = scalar(item, what: "an expectation such as 'at 1s: ball.y < 300'") else {
      return nil
    }
    return (s.text, item.source.span, s.isVerbatim)
  }
}
