// Text as arrays of Unicode scalars, which the DSL, expression and expectation parsers
// index (a column is a scalar), with fast paths for ASCII, nearly all scene text.

extension String {
  /// The string of `scalars`.
  ///
  /// ASCII is written straight into the string's storage: appending to a
  /// `UnicodeScalarView` cost thousands of instructions for a short name, most of loading
  /// a DSL scene.
  init(scalars: ArraySlice<Unicode.Scalar>) {
    if scalars.allSatisfy({ $0.isASCII }) {
      self.init(unsafeUninitializedCapacity: scalars.count) { buffer in
        for (i, scalar) in zip(buffer.indices, scalars) {
          buffer[i] = UInt8(truncatingIfNeeded: scalar.value)
        }
        return scalars.count
      }
    } else {
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars)
      self = String(view)
    }
  }
}

extension Array where Element == Unicode.Scalar {
  /// The scalars of `bytes`, one per byte, which the caller has found all ASCII.
  init(ascii bytes: UnsafeBufferPointer<UInt8>) {
    self.init(unsafeUninitializedCapacity: bytes.count) { buffer, count in
      for i in bytes.indices { buffer.initializeElement(at: i, to: Unicode.Scalar(bytes[i])) }
      count = bytes.count
    }
  }
}
