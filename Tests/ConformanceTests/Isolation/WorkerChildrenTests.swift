import Foundation
import Synchronization
import Testing

@testable import Conformance

@Suite("A worker's forked children")
struct WorkerChildrenTests {
  /// Forks this process; the child runs `body` (two threads contending for one `Mutex`) and
  /// exits 0. Returns how the child ended: its exit status, or 128 + its signal. Called only
  /// inside an exit test's own process: forking the test runner while other suites' threads
  /// drive Dispatch shares its event loop's epoll set with the child.
  static func inChild(_ body: @escaping () -> Void) -> Int32 {
    // As a worker's thread has before it forks (it wrote `ready` under a Mutex): the runtime
    // caches the thread's id the first time a Mutex asks for it.
    Mutex(0).withLock { $0 += 1 }
    let pid = fork()
    if pid == 0 {
      body()
      _exit(0)
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  /// The calling thread holds a `Mutex` while a new thread waits for it: a contended lock,
  /// which goes to the kernel with its owner's thread id, and whose unlock does too.
  static func contend() {
    let counter = Mutex(0)
    counter.withLock { count in
      Thread { counter.withLock { $0 += 1 } }.start()
      usleep(50_000)
      count += 1
    }
    while counter.withLock({ $0 }) < 2 { usleep(1_000) }
  }

  @Test("a child serves on a thread of its own: the thread that forked it keeps its parent's cached thread id, and a contended Mutex traps on it")
  func childServesOnItsOwnThread() async {
    // Where the harness runs a child's requests: contention is harmless.
    await #expect(processExitsWith: .exitCode(0)) {
      exit(Self.inChild { try? WorkerChildren.onNewThread { Self.contend() } })
    }
    // On the thread that forked: the Swift runtime hands the kernel the forking thread's id
    // as the Mutex's owner, and unlocking it traps (SIGILL), as a core run's worker did once.
    await #expect(processExitsWith: .exitCode(128 + SIGILL)) {
      exit(Self.inChild { Self.contend() })
    }
  }
}
