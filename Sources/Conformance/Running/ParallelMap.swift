import Dispatch
import Synchronization

/// Maps over an array with a fixed number of threads, keeping the input order.
enum ParallelMap {
  static func run<T: Sendable, R: Sendable>(
    _ items: [T], workers: Int = ProcessInfoCores.count, _ transform: @Sendable (T) -> R
  ) -> [R] {
    let results = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
    results.initialize(repeating: nil)
    defer {
      // deallocate() alone would leak every result the buffer still holds.
      _ = results.deinitialize()
      results.deallocate()
    }
    nonisolated(unsafe) let output = results
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: max(1, min(workers, items.count))) { _ in
      while true {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < items.count else { return }
        // Each index is taken by exactly one thread.
        output[index] = transform(items[index])
      }
    }
    return results.map { $0! }
  }
}

/// The number of cores this process may use.
public enum ProcessInfoCores {
  public static var count: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}

#if canImport(Glibc)
  import Glibc
#endif
