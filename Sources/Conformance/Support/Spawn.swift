import Foundation

/// Children of this process are started one at a time.
///
/// On Linux, Foundation's `Process` emulates `POSIX_SPAWN_CLOEXEC_DEFAULT`: it closes in the
/// child the descriptors it saw open just before spawning. A pipe, or the socket by which
/// Foundation learns that a child ended, that another thread opens in between is inherited
/// by the wrong child, which holds it open. The owner then never reads EOF, and Foundation
/// never sees its child end, so `waitUntilExit` waits for the other child too: two workers
/// started together, one killed from outside, and the run waited for its sibling, which
/// waited for the run. The test "Children started together" shows the leak without the lock.
package enum Spawn {
  private static let lock = NSLock()

  /// Runs `body` (make the child's pipes, then `run()` it) while no other child of this
  /// process is being started.
  package static func serially<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
