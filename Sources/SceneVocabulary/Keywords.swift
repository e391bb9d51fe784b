/// A closed set of words of the scene language, each a case named by its raw value.
///
/// Its look-up by spelling (``init(keyword:)``) is made from `allCases`, so a case added is
/// found everywhere it is read, with no hand-written switch to forget.
public protocol Keyword: RawRepresentable, CaseIterable, Hashable, Sendable
where RawValue == String, AllCases: Sendable {
  /// Every case's spelling, for ``init(keyword:)``: `KeywordTable<Self>()`.
  static var spellings: KeywordTable<Self> { get }
}

extension Keyword {
  /// The case spelt `text`, if any: as `init(rawValue:)`, found faster.
  ///
  /// Inlinable, so each caller's module specializes it: generic, every call looked up its
  /// table's type at run time, and reading a large DSL file took a sixth longer.
  @inlinable
  public init?(keyword text: String) {
    guard let found = Self.spellings.lookUp(text) else { return nil }
    self = found
  }

  /// Every spelling, in the order of the cases (for messages and suggestions).
  public static var words: [String] { allCases.map { $0.rawValue } }
}

/// The spellings of a keyword set's cases, compared byte by byte.
///
/// The synthesized `init(rawValue:)` turns each case's spelling into a string to compare:
/// about 400 instructions a call, on every line of a large DSL file. A handful of short
/// byte strings, compared by length first, cost a few.
public struct KeywordTable<Word: RawRepresentable & CaseIterable & Sendable>: Sendable
where Word.RawValue == String {
  @usableFromInline let entries: [(bytes: [UInt8], word: Word)]

  public init() {
    entries = Word.allCases.map { (Array($0.rawValue.utf8), $0) }
  }

  /// The case spelt `text`, if any.
  @inlinable
  public func lookUp(_ text: String) -> Word? {
    var text = text
    return text.withUTF8 { bytes in
      for entry in entries where entry.bytes.count == bytes.count {
        if entry.bytes.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) { return entry.word }
      }
      return nil
    }
  }
}

/// The steps of a gesture script, by the keyword that names each in both syntaxes.
public enum GestureStepKeyword: String, Keyword {
  case press
  case drag
  case move
  case wait
  /// `wait`, said of a finger that is down.
  case hold
  case release
  case tap
  case fling
  case replay
  case pinch
  case rotate
  /// Sets inputs, in no time.
  case set
  /// Fires a trigger, in no time.
  case fire

  public static let spellings = KeywordTable<Self>()

  /// Every keyword, as a message lists them.
  public static let listed: String = {
    let words = Self.words
    return words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
  }()
}

/// The kinds of constraint, by the keyword that names each in both syntaxes.
///
/// One list for the YAML decoder, the DSL parser and emitter, the resolver and the
/// runtime: adding a case here makes the compiler name every `switch` that must learn it.
public enum ConstraintKeyword: String, Keyword {
  case follow
  case elastic
  case gooey
  case animate
  case drag

  public static let spellings = KeywordTable<Self>()

  /// The keys a DSL statement may give as bare values after its keyword, in order:
  /// `follow knob …` is `follow: { handle: knob, … }`.
  public var positionalKeys: [String] {
    switch self {
    case .follow, .elastic, .animate, .drag: return ["handle"]
    case .gooey: return ["anchor", "ball"]
    }
  }

  /// Every keyword, as a message lists them: `follow, elastic, gooey, animate or drag`.
  public static let listed: String = {
    let words = allCases.map { $0.rawValue }
    return words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
  }()
}

/// How a handle is drawn.
public enum HandleShape: String, Hashable, Sendable, CaseIterable {
  /// An invisible control point (the wave's points).
  case none
  case circle
  case rect
  /// A line of text (a handle's child only): `text`, `fontSize`, `fontWeight`, `align`.
  case text
}

/// How heavy a text's letters are drawn: the CSS weights 400, 500, 600 and 700.
public enum FontWeight: String, Hashable, Sendable, CaseIterable {
  case regular
  case medium
  case semibold
  case bold

  /// The CSS (and SVG) `font-weight` number.
  public var cssWeight: Int {
    switch self {
    case .regular: 400
    case .medium: 500
    case .semibold: 600
    case .bold: 700
    }
  }
}

/// Where a text stands against its position: its left end, its middle or its right end.
public enum TextAlign: String, Hashable, Sendable, CaseIterable {
  case left
  case center
  case right

  /// The SVG `text-anchor` value.
  public var anchor: String {
    switch self {
    case .left: "start"
    case .center: "middle"
    case .right: "end"
    }
  }
}

/// What a `follow`ed handle does past a path's ends: stop there, or go round (closed paths).
public enum PathEnds: String, Hashable, Sendable, CaseIterable {
  case clamp
  case wrap
}

/// How an `animate` constraint repeats its pass along the path.
public enum RepeatMode: String, Hashable, Sendable, CaseIterable {
  case once
  case loop
  case pingPong = "ping-pong"
}

/// How a `gooey` link's bridge is shaped.
public enum GooeyStyle: String, Hashable, Sendable, CaseIterable {
  /// Tangent points and two quadratic curves, as in the sticky-ball seed.
  case sticky
  /// paper.js's metaball bridge (v = 0.5, handle rate 2.4).
  case metaball
}

/// What two fingers do to a handle a `drag` holds (`transform:`).
public enum DragTransform: String, Hashable, Sendable, CaseIterable {
  /// Move, zoom and turn it as the two fingers do (about the point between them).
  case pinch
}

/// The one axis a `drag` constraint lets its handle move along.
public enum DragAxis: String, Hashable, Sendable, CaseIterable {
  case x
  case y
}

/// iOS's named deceleration rates (`UIScrollView.DecelerationRate`): the fraction of its
/// speed a gliding handle keeps per millisecond.
public enum DecelerationPreset: String, Hashable, Sendable, CaseIterable {
  /// 0.998 per millisecond: a time constant of 0.4995 s.
  case normal
  /// 0.99 per millisecond: a time constant of 0.0995 s.
  case fast

  /// The rate per millisecond.
  public var rate: Double {
    switch self {
    case .normal: return 0.998
    case .fast: return 0.99
    }
  }
}
