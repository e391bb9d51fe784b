#if canImport(os)
import os
#elseif !hasFeature(Embedded)
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
  ///
  /// Unchecked because the compiler cannot see the lock: every read and write of `names`
  /// and `numbers` is inside ``locked(_:)``.
  private final class Table: @unchecked Sendable {
    private var names: [String] = []
    private var numbers: [String: UInt32] = [:]

    #if canImport(Darwin)
    // `os_unfair_lock` at an address that never moves; `OSAllocatedUnfairLock` and
    // `Mutex` would need iOS 16 and macOS 15. The table lives as long as the process.
    private let lock: UnsafeMutablePointer<os_unfair_lock> = {
      let lock = UnsafeMutablePointer<os_unfair_lock>.allocate(capacity: 1)
      lock.initialize(to: os_unfair_lock())
      return lock
    }()

    private func locked<Result: Sendable>(_ body: () -> Result) -> Result {
      os_unfair_lock_lock(lock)
      defer { os_unfair_lock_unlock(lock) }
      return body()
    }
    #elseif hasFeature(Embedded)
    // Embedded Swift on WebAssembly has one thread, and no `Mutex`.
    private func locked<Result: Sendable>(_ body: () -> Result) -> Result { body() }
    #else
    private let lock = Mutex(())

    private func locked<Result: Sendable>(_ body: () -> Result) -> Result {
      lock.withLock { _ in body() }
    }
    #endif

    func number(for name: String) -> UInt32 {
      locked {
        if let number = numbers[name] { return number }
        // Four billion names would exhaust memory first; past them the last is shared
        // rather than trapping. (Compared as 64-bit: `Int` has 32 bits in WebAssembly.)
        guard UInt64(names.count) < UInt64(UInt32.max) else { return UInt32.max - 1 }
        let number = UInt32(names.count)
        names.append(name)
        numbers[name] = number
        return number
      }
    }

    func name(_ number: UInt32) -> String {
      locked { names[Int(number)] }
    }
  }
}
