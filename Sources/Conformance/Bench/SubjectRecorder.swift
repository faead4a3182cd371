import Foundation
import Synchronization
import PickerLogic

/// Records every call a subject receives, with its arguments, so the same calls can be
/// replayed alone: the benchmark's "loop that only calls the subject for the same cases".
///
/// One per worker thread; its state is behind a `Mutex` all the same (never contended).
final class SubjectRecorder: SubjectHook {
  private struct State {
    var calls: [@Sendable () -> Void] = []
    /// Thread CPU seconds spent in the subject's calls as the checks made them (cold caches
    /// included), since the last `takeSubjectTime()`.
    var subjectTime = 0.0
  }

  private let state = Mutex(State())

  /// Makes the call as the check asked for it, timed, and keeps it for `replay()`.
  func answer<Key: Equatable & Sendable, Answer: Sendable>(
    _ function: Subject.Function, _ key: Key, _ ask: @escaping @Sendable () -> Answer
  ) -> Answer {
    let start = ThreadClock.now
    let answer = ask()
    let time = ThreadClock.now - start
    state.withLock { state in
      state.calls.append { _ = ask() }
      state.subjectTime += time
    }
    return answer
  }

  /// The subject's CPU time inside evaluation since the last call, and resets it.
  func takeSubjectTime() -> Double {
    state.withLock { state in
      defer { state.subjectTime = 0 }
      return state.subjectTime
    }
  }

  /// A subject that forwards to `base` and records each call for `replay()`.
  func recording(_ base: Subject) -> Subject {
    base.intercepted(by: self, name: base.name + " (recorded)")
  }

  /// Replays the calls recorded since the last replay; returns the thread CPU seconds spent.
  func replay() -> Double {
    let pending = state.withLock { state in
      defer { state.calls.removeAll(keepingCapacity: true) }
      return state.calls
    }
    let start = ThreadClock.now
    for call in pending { call() }
    return ThreadClock.now - start
  }
}

/// CPU time of the calling thread, in seconds.
enum ThreadClock {
  static var now: Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// CPU time of the whole process (user + system), in seconds.
  static var process: Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }
}

/// Resident memory of this process from /proc: now and its peak, in megabytes.
enum ResidentMemory {
  static func read() -> (current: Double, peak: Double) {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return (0, 0)
    }
    // Lines read "VmRSS:\t  123456 kB".
    func field(_ name: String) -> Double {
      guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
      return (Double(String(line.filter(\.isNumber))) ?? 0) / 1024
    }
    return (field("VmRSS:"), field("VmHWM:"))
  }
}
