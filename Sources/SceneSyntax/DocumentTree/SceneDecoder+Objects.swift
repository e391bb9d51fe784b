import SceneDiagnostics
import SceneGeometry
import SceneVocabulary

// MARK: - Springs, handles, paths

extension SceneDecoder {
  static let springKeys = [
    "dampingRatio", "duration", "bounce", "stiffness", "damping", "mass", "restThreshold",
  ]

  mutating func decodeSpring(_ name: Located<String>, _ node: DocumentNode) -> SpringSpec? {
    let errorsBefore = diagnostics.count
    guard let f = fields(of: node, what: "spring '\(name.value)'", allowed: Self.springKeys) else {
      return nil
    }
    let ratio = f["dampingRatio"].flatMap { number($0, what: "'dampingRatio'") }
    let duration = f["duration"].flatMap { shortTime($0, what: "'duration'", plausible: 10) }
    let bounce = f["bounce"].flatMap { number($0, what: "'bounce'") }
    let stiffness = f["stiffness"].flatMap { number($0, what: "'stiffness'") }
    let damping = f["damping"].flatMap { number($0, what: "'damping'") }
    let mass = f["mass"].flatMap { number($0, what: "'mass'") }
    let threshold = f["restThreshold"].flatMap { number($0, what: "'restThreshold'") }
    let forms = "dampingRatio and duration, duration and bounce, or stiffness and damping"
    let physical = f["stiffness"] != nil || f["damping"] != nil
    let timed = f["dampingRatio"] != nil || f["duration"] != nil || f["bounce"] != nil
    if physical && timed {
      error("spring '\(name.value)' mixes forms; give \(forms)", at: name.source)
      return nil
    }
    if f["dampingRatio"] != nil && f["bounce"] != nil {
      error(
        "spring '\(name.value)' gives both 'dampingRatio' and 'bounce'; use one", at: name.source)
      return nil
    }
    let parameters: SpringSpec.Parameters
    if let stiffness, let damping {
      parameters = .physical(stiffness: stiffness, damping: damping)
    } else if let ratio, let duration {
      parameters = .dampingRatio(ratio, duration: duration)
    } else if let duration, f["dampingRatio"] == nil {
      // SwiftUI's spring(duration:) has no bounce.
      parameters = .bounce(bounce ?? Located(0, at: duration.source), duration: duration)
    } else {
      // Only report a missing part when the parts given were themselves valid.
      if diagnostics.count == errorsBefore {
        error("spring '\(name.value)' needs \(forms)", at: name.source)
      }
      return nil
    }
    return SpringSpec(name: name, parameters: parameters, mass: mass, restThreshold: threshold)
  }

  static let styleKeys = ["fill", "stroke", "strokeWidth", "opacity"]

  mutating func style(_ f: Fields) -> Style {
    Style(
      fill: f["fill"].flatMap { color($0, what: "'fill'") },
      stroke: f["stroke"].flatMap { color($0, what: "'stroke'") },
      strokeWidth: f["strokeWidth"].flatMap { number($0, what: "'strokeWidth'") },
      opacity: f["opacity"].flatMap { number($0, what: "'opacity'") })
  }

  static let handleKeys =
    [
      "position", "shape", "r", "width", "height", "draggable", "hitRadius", "rest", "spring",
      "rotation", "scale", "scaleX", "scaleY", "cornerRadius", "children",
    ]
    + styleKeys

  /// The sizes a handle may animate, in the order `fmt` writes them.
  static let animatedSizeKeys = ["r", "width", "height", "cornerRadius", "strokeWidth"]

  static let animatedValueKeys = ["to", "spring", "held", "duration", "ease"]

  /// A property that may change while the scene runs: an expression, or
  /// `{ to: EXPR, spring: NAME }` for a spring that follows it (`held: EXPR` optional).
  mutating func animatedValue(_ node: DocumentNode, what: String) -> AnimatedValue? {
    guard case .mapping = node.value else {
      return expression(node, what: what).map { AnimatedValue(value: $0, source: node.source) }
    }
    guard let f = fields(of: node, what: what, allowed: Self.animatedValueKeys) else {
      return nil
    }
    let target = f["to"].flatMap { expression($0, what: "'to' of \(what)") }
    let spring = f["spring"].flatMap { reference($0, what: "'spring' of \(what)") }
    if f["to"] == nil && !f.misspelt.contains("to") {
      error("\(what) needs 'to', the value the spring or tween follows", at: node.source)
    }
    guard let (duration, easing) = follower(f, node, what: what) else { return nil }
    let held = f["held"].flatMap { expression($0, what: "'held' of \(what)") }
    guard let target, spring != nil || duration != nil else { return nil }
    if f["held"] != nil && held == nil { return nil }
    var value = AnimatedValue(value: target, spring: spring, held: held, source: node.source)
    value.duration = duration
    value.easing = easing
    return value
  }

  /// What carries an animated value towards `to`: a spring, or a tween.
  ///
  /// `spring: NAME`, or `duration: T` with `ease: E` optional; exactly one of them. `nil`
  /// after an error, else the tween's duration and easing (both `nil` for a spring).
  mutating func follower(_ f: Fields, _ node: DocumentNode, what: String)
    -> (Located<Double>?, Located<Easing>?)?
  {
    let duration = f["duration"].flatMap { time($0, what: "'duration' of \(what)") }
    let ease = f["ease"].flatMap { easing($0, what: "'ease' of \(what)") }
    if f["spring"] != nil && f["duration"] != nil {
      error(
        "\(what) gives both 'spring' and 'duration'; follow 'to' with a spring or a tween, not both",
        at: f.keySource("duration") ?? node.source)
      return nil
    }
    if f["spring"] == nil && f["duration"] == nil && !f.misspelt.contains("spring")
      && !f.misspelt.contains("duration")
    {
      error(
        "\(what) needs 'spring' (the name of a spring) or 'duration' (a tween) to follow 'to'",
        at: node.source)
      return nil
    }
    if let ease = f["ease"], f["duration"] == nil {
      error("'ease' is for a tween; \(what) has no 'duration'", at: ease.source)
      return nil
    }
    if (f["duration"] != nil && duration == nil) || (f["ease"] != nil && ease == nil) {
      return nil
    }
    return (duration, ease)
  }

  /// A colour that changes: `mix(FROM, TO, FRACTION)`, or
  /// `{ to: "mix(FROM, TO, FRACTION)", spring: NAME, held: EXPR }` for a spring on the
  /// fraction.
  mutating func colorMix(_ node: DocumentNode, what: String) -> ColorMix? {
    let written: DocumentNode
    var spring: Reference?
    var held: Expression?
    var duration: Located<Double>?
    var easing: Located<Easing>?
    if case .mapping = node.value {
      guard let f = fields(of: node, what: what, allowed: Self.animatedValueKeys) else {
        return nil
      }
      guard let to = f["to"] else {
        error("\(what) needs 'to', the mix the spring or tween follows", at: node.source)
        return nil
      }
      guard let (d, e) = follower(f, node, what: what) else { return nil }
      duration = d
      easing = e
      spring = f["spring"].flatMap { reference($0, what: "'spring' of \(what)") }
      if f["spring"] != nil && spring == nil { return nil }
      held = f["held"].flatMap { expression($0, what: "'held' of \(what)") }
      written = to
    } else {
      written = node
    }
    guard let s = scalar(written, what: what) else { return nil }
    let usage = "expected mix(FROM, TO, FRACTION) for \(what), as mix(#0a84ff, #0060df, pressed)"
    let text = s.text
    guard text.hasPrefix("mix("), text.hasSuffix(")") else {
      error(usage + ", found '\(text)'", at: written.source)
      return nil
    }
    // The two colours are the first two arguments; the fraction is the rest.
    let inner = text.dropFirst(4).dropLast()
    let parts = inner.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      error(usage + ", found '\(text)'", at: written.source)
      return nil
    }
    func trimmed(_ part: Substring) -> String {
      String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
    let colours = parts.prefix(2).map { Color(parsing: trimmed($0)) }
    guard let from = colours[0], let to = colours[1] else {
      let bad = colours[0] == nil ? parts[0] : parts[1]
      error(
        "expected a color (#rgb, #rrggbb, #rrggbbaa or a name such as white) in \(what), found '\(trimmed(bad))'",
        at: written.source)
      return nil
    }
    // Where the fraction starts in the file, when the text stands there as it is.
    let fractionText = String(parts[2])
    let offset = text.count - 1 - fractionText.count
    let span =
      s.isVerbatim
      ? SourceSpan(written.source.span.start.advanced(by: offset), length: fractionText.count)
      : written.source.span
    let fraction: Expression
    do {
      fraction = try ExpressionParser.parse(fractionText, at: span, verbatim: s.isVerbatim)
    } catch {
      diagnostics.append(error.diagnostic)
      return nil
    }
    var value = AnimatedValue(value: fraction, spring: spring, held: held, source: node.source)
    value.duration = duration
    value.easing = easing
    return ColorMix(from: from, to: to, fraction: value)
  }

  /// Whether `node` is a `mix(…)` or a mapping (an animated colour, not a constant one).
  static func isColorMix(_ node: DocumentNode) -> Bool {
    if case .mapping = node.value { return true }
    guard case .scalar(let s) = node.value, !s.isNull else { return false }
    return s.text.hasPrefix("mix(")
  }

  /// Whether `node` is a plain number (a constant opacity, as before animated ones).
  static func isNumber(_ node: DocumentNode) -> Bool {
    guard case .scalar(let s) = node.value, !s.isNull else { return false }
    return Double(s.text) != nil
  }

  mutating func decodeHandle(_ name: Located<String>, _ node: DocumentNode) -> HandleSpec? {
    decodeLook(name, node, parent: nil)
  }

  /// Keys that belong elsewhere, with where: made once (a table a handle was a tenth of
  /// decoding a large scene).
  static let misplacedInHandles = Dictionary(
    uniqueKeysWithValues: ["text", "fontSize", "fontWeight", "align"].map {
      ($0, "text is drawn by a handle's child (children: { label: { text: \"…\" } })")
    })
  static let misplacedInChildren = Dictionary(
    uniqueKeysWithValues: ["draggable", "hitRadius", "rest", "spring", "children"].map {
      ($0, "a child moves with its handle and has no '\($0)' of its own")
    })

  static let textKeys = ["fontSize", "fontWeight", "align"]

  /// The keys a handle's child takes: a handle's look, and text.
  static let childKeys =
    [
      "position", "shape", "r", "width", "height", "rotation", "scale", "scaleX", "scaleY",
      "cornerRadius", "text",
      "fontSize", "fontWeight", "align",
    ] + styleKeys

  /// A handle, or with `parent` one of its children (whose position is optional, `(0, 0)`
  /// by default, and which takes text but neither drags nor springs).
  mutating func decodeLook(_ name: Located<String>, _ node: DocumentNode, parent: String?)
    -> HandleSpec?
  {
    // The subject of its messages, made only if one is written (made for every handle, it
    // was a tenth of decoding a large scene).
    func what() -> String {
      parent.map { "child '\($0).\(name.value)'" } ?? "handle '\(name.value)'"
    }
    let allowed = parent == nil ? Self.handleKeys : Self.childKeys
    let misplaced = parent == nil ? Self.misplacedInHandles : Self.misplacedInChildren
    guard let f = fields(of: node, what: what(), allowed: allowed, misplaced: misplaced) else {
      return nil
    }
    let position = f["position"].flatMap { expression($0, what: "'position'") }
    if parent == nil && f["position"] == nil && !f.misspelt.contains("position") {
      error("\(what()) needs a 'position'", at: name.source)
    }
    // Decode every field, even without a position, so all their errors are reported.
    let handle = HandleSpec(
      name: name,
      position: position
        ?? Expression(.point(Expression(.number(0, nil)), Expression(.number(0, nil)))),
      shape: f["shape"].flatMap { choice($0, what: "'shape'", as: HandleSpec.Shape.self) },
      radius: f["r"].flatMap { Self.isNumber($0) ? number($0, what: "'r'") : nil },
      width: f["width"].flatMap { Self.isNumber($0) ? number($0, what: "'width'") : nil },
      height: f["height"].flatMap { Self.isNumber($0) ? number($0, what: "'height'") : nil },
      draggable: f["draggable"].flatMap { bool($0, what: "'draggable'") },
      hitRadius: f["hitRadius"].flatMap { number($0, what: "'hitRadius'") },
      rest: f["rest"].flatMap { expression($0, what: "'rest'") },
      spring: f["spring"].flatMap { reference($0, what: "'spring'") },
      style: handleStyle(f),
      rotation: f["rotation"].flatMap { animatedValue($0, what: "'rotation'") },
      scale: f["scale"].flatMap { animatedValue($0, what: "'scale'") },
      animatedOpacity: f["opacity"].flatMap {
        Self.isNumber($0) ? nil : animatedValue($0, what: "'opacity'")
      },
      animatedFill: f["fill"].flatMap {
        Self.isColorMix($0) ? colorMix($0, what: "'fill'") : nil
      },
      animatedStroke: f["stroke"].flatMap {
        Self.isColorMix($0) ? colorMix($0, what: "'stroke'") : nil
      })
    var sized = handle
    // Set only when given: each setting boxes the look anew.
    if let node = f["scaleX"], let value = animatedValue(node, what: "'scaleX'") {
      sized.scaleX = value
    }
    if let node = f["scaleY"], let value = animatedValue(node, what: "'scaleY'") {
      sized.scaleY = value
    }
    sized.cornerRadius = f["cornerRadius"].flatMap {
      Self.isNumber($0) ? number($0, what: "'cornerRadius'") : nil
    }
    for key in Self.animatedSizeKeys {
      guard let node = f[key], !Self.isNumber(node) else { continue }
      if let value = animatedValue(node, what: "'\(key)'") { sized.animatedSizes[key] = value }
    }
    if let children = f["children"] {
      let parentName = name.value
      sized.children = decodeNamed(children, what: "child", splitting: false) {
        $0.decodeLook($1, $2, parent: parentName)
      }
      noteFailures(children, decoded: sized.children.map { $0.name.value })
    }
    if let text = f["text"] {
      sized.text = textSpec(text)
      sized.text?.fontSize = f["fontSize"].flatMap { number($0, what: "'fontSize'") }
      sized.text?.fontWeight = f["fontWeight"].flatMap {
        choice($0, what: "'fontWeight'", as: FontWeight.self)
      }
      sized.text?.align = f["align"].flatMap { choice($0, what: "'align'", as: TextAlign.self) }
    } else if parent != nil {
      // (A handle's are unknown keys, said where they belong, above.)
      for key in Self.textKeys {
        guard let source = f.keySource(key) else { continue }
        error("'\(key)' is for text; \(what()) has no 'text'", at: source)
      }
    }
    return position == nil && parent == nil ? nil : sized
  }

  /// A child's `text`: words, with `{EXPR}` or `{EXPR:.Nf}` where a number goes, and
  /// `{{` and `}}` for the braces themselves.
  mutating func textSpec(_ node: DocumentNode) -> TextSpec? {
    guard let s = scalar(node, what: "'text'") else { return nil }
    let scalars = Array(s.text.unicodeScalars)
    func span(_ start: Int, _ length: Int) -> SourceSpan {
      s.isVerbatim
        ? SourceSpan(node.source.span.start.advanced(by: start), length: max(length, 1))
        : node.source.span
    }
    var pieces: [TextSpec.Piece] = []
    var literal = ""
    var i = 0
    while i < scalars.count {
      let c = scalars[i]
      if c == "}" {
        guard i + 1 < scalars.count, scalars[i + 1] == "}" else {
          error(
            "a '}' in 'text' must be doubled ('}}') unless it closes a '{'",
            at: SourceRef(span(i, 1)))
          return nil
        }
        literal.unicodeScalars.append(c)
        i += 2
        continue
      }
      guard c == "{" else {
        literal.unicodeScalars.append(c)
        i += 1
        continue
      }
      if i + 1 < scalars.count && scalars[i + 1] == "{" {
        literal.unicodeScalars.append(c)
        i += 2
        continue
      }
      // A number: the expression up to the matching brace.
      var depth = 0
      var end = i + 1
      while end < scalars.count && !(scalars[end] == "}" && depth == 0) {
        if scalars[end] == "{" { depth += 1 } else if scalars[end] == "}" { depth -= 1 }
        end += 1
      }
      guard end < scalars.count else {
        error("unclosed '{' in 'text'; write '{{' for a brace itself", at: SourceRef(span(i, 1)))
        return nil
      }
      var inner = String(String.UnicodeScalarView(scalars[(i + 1)..<end]))
      var decimals: Int?
      // `:.Nf`, as in printf: exactly N decimals.
      let tail = Array(inner.unicodeScalars.suffix(4))
      if tail.count == 4, tail[0] == ":", tail[1] == ".", tail[3] == "f",
        let digit = Int(String(tail[2])), digit <= 6
      {
        decimals = digit
        inner = String(String.UnicodeScalarView(inner.unicodeScalars.dropLast(4)))
      }
      guard !inner.allSatisfy({ $0 == " " }) else {
        error(
          "empty '{}' in 'text'; write '{{}}' for the braces themselves", at: SourceRef(span(i, 2)))
        return nil
      }
      do {
        let expression = try ExpressionParser.parse(
          inner, at: span(i + 1, inner.unicodeScalars.count), verbatim: s.isVerbatim)
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        literal = ""
        pieces.append(.value(expression, decimals: decimals))
      } catch {
        diagnostics.append(error.diagnostic)
        return nil
      }
      i = end + 1
    }
    if !literal.isEmpty { pieces.append(.literal(literal)) }
    return TextSpec(pieces: pieces, written: s.text, source: node.source)
  }

  /// The constant part of a handle's or a path's style: an `opacity` or `strokeWidth` that
  /// is not a plain number, or a colour that is a `mix(…)`, animates instead
  /// (``HandleSpec/animatedOpacity``, ``PathSpec/animatedOpacity``).
  mutating func handleStyle(_ f: Fields) -> Style {
    var plain = f
    for key in ["opacity", "strokeWidth"] {
      if let value = f[key], !Self.isNumber(value) { plain.remove(key) }
    }
    for key in ["fill", "stroke"] {
      if let paint = f[key], Self.isColorMix(paint) { plain.remove(key) }
    }
    return style(plain)
  }

  static let pathKeys = ["d", "segments", "trim"] + styleKeys
  static let trimKeys = ["start", "end"]

  mutating func decodePath(_ name: Located<String>, _ node: DocumentNode) -> PathSpec? {
    guard let f = fields(of: node, what: "path '\(name.value)'", allowed: Self.pathKeys) else {
      return nil
    }
    guard var path = decodePathGeometry(name, f) else { return nil }
    path.animatedOpacity = f["opacity"].flatMap {
      Self.isNumber($0) ? nil : animatedValue($0, what: "'opacity'")
    }
    path.animatedStrokeWidth = f["strokeWidth"].flatMap {
      Self.isNumber($0) ? nil : animatedValue($0, what: "'strokeWidth'")
    }
    path.animatedFill = f["fill"].flatMap {
      Self.isColorMix($0) ? colorMix($0, what: "'fill'") : nil
    }
    path.animatedStroke = f["stroke"].flatMap {
      Self.isColorMix($0) ? colorMix($0, what: "'stroke'") : nil
    }
    if let trim = f["trim"] {
      guard let t = fields(of: trim, what: "'trim'", allowed: Self.trimKeys) else {
        return nil
      }
      if t["start"] == nil && t["end"] == nil && t.misspelt.isEmpty {
        error(
          "'trim' needs 'start', 'end' or both (fractions of the path's length)", at: trim.source)
        return nil
      }
      path.trimStart = t["start"].flatMap { animatedValue($0, what: "'start' of 'trim'") }
      path.trimEnd = t["end"].flatMap { animatedValue($0, what: "'end' of 'trim'") }
    }
    return path
  }

  /// A path's `d` or `segments`, with its style.
  mutating func decodePathGeometry(_ name: Located<String>, _ f: Fields) -> PathSpec? {
    let style = handleStyle(f)
    switch (f["d"], f["segments"]) {
    case (let d?, nil):
      guard let s = scalar(d, what: "SVG path data for 'd'") else { return nil }
      do {
        let path = try Path(svgPathData: s.text)
        return PathSpec(
          name: name, geometry: .data(path), geometrySource: d.source, style: style,
          writtenData: s.text)
      } catch {
        let span =
          s.isVerbatim
          ? SourceSpan(d.source.span.start.advanced(by: error.offset), length: 1) : d.source.span
        diagnostics.append(.error("bad path data: \(error.message)", at: span))
        return nil
      }
    case (nil, let segments?):
      guard let items = sequence(segments, what: "'segments'") else { return nil }
      var result: [PathSegmentSpec] = []
      for item in items {
        if let segment = decodeSegment(item) { result.append(segment) }
      }
      if let first = result.first, case .move = first.kind {
      } else if let first = items.first {
        error("a segment path must start with 'move'", at: first.source)
        return nil
      } else {
        error("path '\(name.value)' has no segments", at: segments.source)
        return nil
      }
      guard result.count == items.count else { return nil }
      return PathSpec(
        name: name, geometry: .segments(result), geometrySource: segments.source, style: style)
    case (.some, .some):
      error(
        "path '\(name.value)' gives both 'd' and 'segments'; use one",
        at: f.keySource("segments") ?? name.source)
      return nil
    case (nil, nil):
      error("path '\(name.value)' needs 'd' (SVG path data) or 'segments'", at: name.source)
      return nil
    }
  }

  static let segmentKinds = ["move", "line", "quad", "cubic", "close"]

  mutating func decodeSegment(_ node: DocumentNode) -> PathSegmentSpec? {
    if case .scalar(let s) = node.value, s.text == "close" {
      return PathSegmentSpec(.close, at: node.source)
    }
    guard
      let (key, keySource, value) = singleEntry(
        node, what: "a segment (move, line, quad, cubic or close)")
    else { return nil }
    func points(_ count: Int) -> [Expression]? {
      if count == 1 { return expression(value, what: "'\(key)'").map { [$0] } }
      guard case .sequence(let items) = value.value, items.count == count else {
        var found = value.kindDescription
        if case .sequence(let items) = value.value { found = "\(items.count)" }
        error("'\(key)' takes a list of \(count) points, found \(found)", at: value.source)
        return nil
      }
      let parsed = items.compactMap { expression($0, what: "'\(key)'") }
      return parsed.count == count ? parsed : nil
    }
    switch key {
    case "move": return points(1).map { PathSegmentSpec(.move($0[0]), at: keySource) }
    case "line": return points(1).map { PathSegmentSpec(.line($0[0]), at: keySource) }
    case "quad":
      return points(2).map { PathSegmentSpec(.quadratic(control: $0[0], $0[1]), at: keySource) }
    case "cubic":
      return points(3).map {
        PathSegmentSpec(.cubic(control1: $0[0], control2: $0[1], $0[2]), at: keySource)
      }
    default:
      error(
        "unknown segment '\(key)'"
          + Self.suggestionOrList(
            key, among: Self.segmentKinds, list: "move, line, quad, cubic or close"),
        at: keySource)
      return nil
    }
  }

  /// The one `key: value` of a single-key mapping (a list item such as `- follow: {…}`).
  mutating func singleEntry(_ node: DocumentNode, what: @autoclosure () -> String) -> (
    String, SourceRef, DocumentNode
  )? {
    guard case .mapping(let entries) = node.value, entries.count == 1 else {
      if case .mapping(let entries) = node.value, entries.count > 1 {
        error(
          "expected \(what()) with one key, found \(entries.count) keys; start a new list item for each",
          at: entries[1].keySource)
      } else {
        error("expected \(what()), found \(node.kindDescription)", at: node.source)
      }
      return nil
    }
    return (entries[0].key, entries[0].keySource, entries[0].value)
  }
}
