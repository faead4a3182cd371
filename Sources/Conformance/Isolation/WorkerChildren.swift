import Foundation
import Synchronization

/// A worker serves its requests from children it forks once it is set up: a case that traps
/// or hangs ends the child, and the next child, a copy of the same set-up process, serves on.
/// Starting the executable again (the loader binding its libraries, a test library finding
/// its tests) was most of what each such case cost a sweep.
///
/// A child has only the thread that forked it: Dispatch's threads are not in it, so code a
/// child runs must not wait on a queue (`ProcessInfoCores` says one core there, and the
/// harness's parallel maps and readers run inline). A worker that talks to an executor does
/// not fork: Foundation's `Process` watches its children on a queue.
enum WorkerChildren {
  /// How a child ended, as the worker tells its parent (`WorkerReply.childEnded`).
  struct End: Codable, Equatable, Sendable {
    var signal: Int32?
    var exit: Int32?
  }

  /// What the worker writes to stderr after each child ends: the parent's tail of stderr up
  /// to it is that child's last words.
  static let endMarker = "conformance: the worker's child ended"


  /// Forks children one after another. Returns `true` in each child, which serves the
  /// requests; in this process, returns `false` once a child ends cleanly (its stdin closed:
  /// the run is over), after telling `ended` of every other end and forking the next child.
  /// Returns `true` without forking when the system refuses a fork: this process serves.
  static func serve(ended: (End) -> Void) -> Bool {
    while true {
      let pid = fork()
      if pid == 0 {
        ProcessInfoCores.markForkedChild()
        return true
      }
      guard pid > 0 else { return true }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      // WIFSIGNALED / WEXITSTATUS, which Swift does not import.
      let signal = status & 0x7f
      let code = (status >> 8) & 0xff
      if signal == 0 && code == 0 { return false }
      // Killed from outside (the OOM killer, a person), perhaps halfway through writing a
      // reply: this process goes the same way, so its parent sees a worker killed from
      // outside and its pipes closed, never half a reply followed by the next child's.
      if [SIGKILL, SIGTERM, SIGINT].contains(signal) {
        Glibc.signal(signal, SIG_DFL)
        kill(getpid(), signal)
        _exit(128 + signal)
      }
      FileHandle.standardError.write(Data("\n\(endMarker)\n".utf8))
      ended(signal == 0 ? End(exit: code) : End(signal: signal))
    }
  }

  /// Runs `body` on a thread of its own (with a main thread's 8 MiB stack) and waits for it.
  /// The thread that forked a child keeps the Swift runtime's cached id of the thread it was
  /// copied from, which a contended `Mutex` hands the kernel as its owner's: the child traps
  /// ("Unknown error occurred while attempting to acquire a Mutex"). A thread started in the
  /// child has its own.
  static func onNewThread(_ body: @escaping () throws -> Void) throws {
    final class Work {
      let body: () throws -> Void
      var error: (any Error)?
      init(_ body: @escaping () throws -> Void) { self.body = body }
    }
    let work = Unmanaged.passRetained(Work(body))
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, 8 << 20)
    var thread = pthread_t()
    let created = pthread_create(&thread, &attributes, { context in
      let work = Unmanaged<Work>.fromOpaque(context!).takeUnretainedValue()
      do { try work.body() } catch { work.error = error }
      return nil
    }, work.toOpaque())
    let done = work.takeRetainedValue()
    guard created == 0 else { return try body() }
    pthread_join(thread, nil)
    if let error = done.error { throw error }
  }
}
