/// JSON text shared by the outputs that write JSON.
public enum JSONText {
  /// A JSON string literal: quotes, backslashes and control characters escaped, and the
  /// line and paragraph separators too, so the text is also a valid JavaScript literal.
  public static func quoted(_ value: String) -> String {
    var text = TextBytes(capacity: value.utf8.count + 2)
    text.appendQuoted(value)
    return text.string
  }
}
