/// Orders reports by where they point, so every stage lists its problems in file order.
public enum SourceOrder {
  /// `items` sorted by `span`'s start: those with no place first, ties and placeless ones
  /// in their original order.
  public static func sorted<T>(_ items: [T], by span: (T) -> SourceSpan?) -> [T] {
    items.enumerated().sorted { a, b in
      switch (span(a.element), span(b.element)) {
      case (nil, nil): return a.offset < b.offset
      case (nil, _): return true
      case (_, nil): return false
      case (let x?, let y?): return x.start == y.start ? a.offset < b.offset : x.start < y.start
      }
    }.map { $0.element }
  }
}
