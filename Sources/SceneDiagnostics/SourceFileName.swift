#if canImport(os)
import os
#else
import Synchronization
#endif

/// The name of a source file, stored once per process and carried as a number.
///
/// Every AST node has a location, and the resolver copies nodes often: a `String` in each
/// location made every copy retain and release it, about a sixth of resolving a big scene.
/// A number makes a location plain data. Names are never forgotten: a process reads a
/// handful of files, and reading one again gives back the same number.
public struct SourceFileName: Hashable, Sendable, Comparable, CustomStringConvertible {
  let number: UInt32

  /// The number for `name`, adding it on first use.
  public init(_ name: String) {
    number = Self.table.number(for: name)
  }

  /// The name as it was given.
  public var description: String { Self.table.name(number) }

  /// By the names, as the file names were ordered when locations held them.
  public static func < (a: SourceFileName, b: SourceFileName) -> Bool {
    a.number != b.number && a.description < b.description
  }

  private static let table = Table()

  /// Names and their numbers, behind a lock: files are read on any thread.
  private final class Table: Sendable {
    private struct Names {
      var names: [String] = []
      var numbers: [String: UInt32] = [:]
    }

    #if canImport(os)
    private let lock = OSAllocatedUnfairLock(initialState: Names())
    #else
    private let lock = Mutex(Names())
    #endif

    func number(for name: String) -> UInt32 {
      lock.withLock { table in
        if let number = table.numbers[name] { return number }
        // Four billion names would exhaust memory first; past them the last is shared
        // rather than trapping.
        guard table.names.count < Int(UInt32.max) else { return UInt32.max - 1 }
        let number = UInt32(table.names.count)
        table.names.append(name)
        table.numbers[name] = number
        return number
      }
    }

    func name(_ number: UInt32) -> String {
      lock.withLock { $0.names[Int(number)] }
    }
  }
}
