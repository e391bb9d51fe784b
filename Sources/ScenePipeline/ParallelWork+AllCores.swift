import Dispatch
import SceneDiagnostics

extension ParallelWork {
  /// Pieces spread over every core by libdispatch, for the stages of the core that split
  /// their work (decoding long lists, compiling their expressions).
  public static let allCores = ParallelWork { count, body in
    DispatchQueue.concurrentPerform(iterations: count) { body($0) }
  }
}
