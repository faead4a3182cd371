import Foundation
import Synchronization
import PickerLogic

/// Records every call a subject receives, with its arguments, so the same calls can be
/// replayed alone: the benchmark's "loop that only calls the subject for the same cases".
///
/// One per worker thread; its state is behind a `Mutex` all the same (never contended).
final class SubjectRecorder: SubjectHook {
  private let calls = Mutex<[@Sendable () -> Void]>([])
  /// Thread CPU seconds spent in the subject's calls as the checks made them (cold caches
  /// included).
  private let timer = SubjectTimer()

  /// Makes the call as the check asked for it, timed, and keeps it for `replay()`.
  func answer<Key: Equatable & Sendable, Answer: Sendable>(
    _ function: Subject.Function, _ key: Key, _ ask: @escaping @Sendable () -> Answer
  ) -> Answer {
    let answer = timer.answer(function, key, ask)
    calls.withLock { $0.append { _ = ask() } }
    return answer
  }

  /// The subject's CPU time inside evaluation since the last call, and resets it.
  func takeSubjectTime() -> Double { timer.take() }

  /// A subject that forwards to `base` and records each call for `replay()`.
  func recording(_ base: Subject) -> Subject {
    base.intercepted(by: self, name: base.name + " (recorded)")
  }

  /// Replays the calls recorded since the last replay; returns the thread CPU seconds spent.
  func replay() -> Double {
    let pending = calls.withLock { calls in
      defer { calls.removeAll(keepingCapacity: true) }
      return calls
    }
    let start = ThreadClock.now
    for call in pending { call() }
    return ThreadClock.now - start
  }
}
