import Dispatch
import Synchronization

/// Maps over an array with a fixed number of threads, keeping the input order.
enum ParallelMap {
  static func run<T: Sendable, R: Sendable>(
    _ items: [T], workers: Int = ProcessInfoCores.count, _ transform: @Sendable (T) -> R
  ) -> [R] {
    // One thread (a worker's forked child has no other): no queue at all.
    if min(workers, items.count) <= 1 { return items.map(transform) }
    let next = Atomic<Int>(0)
    let done = Mutex<[(index: Int, result: R)]>([])
    DispatchQueue.concurrentPerform(iterations: max(1, min(workers, items.count))) { _ in
      var mine: [(index: Int, result: R)] = []
      while true {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < items.count else { break }
        mine.append((index, transform(items[index])))
      }
      done.withLock { $0.append(contentsOf: mine) }
    }
    var results = [R?](repeating: nil, count: items.count)
    for (index, result) in done.withLock({ $0 }) { results[index] = result }
    return results.map { $0! }
  }
}

/// The number of cores this process may use: one in a worker's forked child, whose work
/// must not wait on Dispatch's threads (`WorkerChildren`).
package enum ProcessInfoCores {
  package static var count: Int { isForkedChild ? 1 : max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  private static let forkedChild = Atomic<Bool>(false)

  /// Whether this process is a worker's forked child (`WorkerChildren` says so in the child).
  static var isForkedChild: Bool { forkedChild.load(ordering: .relaxed) }

  /// Told in a forked child, before it serves.
  static func markForkedChild() { forkedChild.store(true, ordering: .relaxed) }
}

#if canImport(Glibc)
  import Glibc
#endif
