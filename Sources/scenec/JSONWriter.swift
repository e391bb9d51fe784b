import SceneGeometry
import SceneOutputs

/// Writes JSON text by hand so that key order and number text are exactly as chosen:
/// numbers use their shortest round-trip form, and a non-finite number is refused
/// rather than written as invalid JSON.
struct JSONWriter {
  private(set) var text = ""
  /// Set when a non-finite number was offered; the text is then not to be used.
  private(set) var sawNonFinite = false

  mutating func raw(_ fragment: String) { text += fragment }

  mutating func number(_ value: Double) {
    guard value.isFinite else {
      sawNonFinite = true
      text += "null"
      return
    }
    text += value.shortestDescription
  }

  mutating func string(_ value: String) { text += JSONText.quoted(value) }

  /// An object whose members are written by `body` with `member(_:_:)`, in order.
  mutating func object(_ body: (inout ObjectWriter) -> Void) {
    raw("{")
    var members = ObjectWriter(writer: self)
    body(&members)
    self = members.writer
    raw("}")
  }

  /// An array whose elements are written by `element` once per item.
  mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
    raw("[")
    var first = true
    for item in items {
      if !first { raw(", ") }
      first = false
      element(&self, item)
    }
    raw("]")
  }

  struct ObjectWriter {
    var writer: JSONWriter
    var first = true

    mutating func member(_ key: String, _ value: (inout JSONWriter) -> Void) {
      if !first { writer.raw(", ") }
      first = false
      writer.string(key)
      writer.raw(": ")
      value(&writer)
    }
  }
}
