import Dispatch
import Synchronization

/// State shared by threads that must wait for each other (a pipeline's next step, a worker's
/// next job): a `Mutex` that can also wait until its state is ready.
///
/// `Mutex` alone cannot wait, and `NSCondition` guards no state of its own, so every class
/// built on it was `@unchecked Sendable`, safe only by its comments. Here the state is
/// reachable only inside the lock, and a waiter sleeps on a semaphore of its own that the
/// next change signals (each waiter then checks again), so no wake-up is ever lost.
final class Monitor<State: Sendable>: Sendable {
  private struct Guarded: Sendable {
    var state: State
    var waiters: [DispatchSemaphore] = []
  }

  private let guarded: Mutex<Guarded>

  init(_ state: State) { guarded = Mutex(Guarded(state: state)) }

  /// Changes (or reads) the state and wakes every waiter to check it again.
  func update<R: Sendable>(_ body: (inout State) throws -> R) rethrows -> R {
    try guarded.withLock { guarded in
      defer { Self.wake(&guarded) }
      return try body(&guarded.state)
    }
  }

  /// Waits until `ready` holds of the state, then runs `body` on it in the same hold of the
  /// lock, and wakes every other waiter (`body` may have changed what they wait for).
  func wait<R: Sendable>(until ready: (State) -> Bool, then body: (inout State) -> R) -> R {
    while true {
      let semaphore = DispatchSemaphore(value: 0)
      let result: R? = guarded.withLock { guarded in
        guard ready(guarded.state) else {
          guarded.waiters.append(semaphore)
          return nil
        }
        defer { Self.wake(&guarded) }
        return body(&guarded.state)
      }
      if let result { return result }
      semaphore.wait()
    }
  }

  private static func wake(_ guarded: inout Guarded) {
    for waiter in guarded.waiters { waiter.signal() }
    guarded.waiters.removeAll()
  }
}
