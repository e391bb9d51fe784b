extension String {
  /// Whether `part` occurs in this text, byte for byte in UTF-8.
  ///
  /// The standard library's `contains(_:)` for a substring comes with string processing,
  /// which Embedded Swift (the WebAssembly build of the engine) does not have.
  package func containsText(_ part: String) -> Bool {
    let whole = Array(utf8)
    let sought = Array(part.utf8)
    guard !sought.isEmpty else { return true }
    guard sought.count <= whole.count else { return false }
    for start in 0...(whole.count - sought.count)
    where whole[start..<start + sought.count].elementsEqual(sought) {
      return true
    }
    return false
  }
}
