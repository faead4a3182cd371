import Foundation
import Synchronization

/// Times the subject's calls where the checks make them (cold caches included), so that a
/// measured step can say how much of its CPU was the subject's (`CPUParts.subject`). Sits
/// under the answers triage keeps: an answer replayed from them costs the subject nothing.
///
/// One per evaluator, and so per thread; its state is behind a `Mutex` all the same (never
/// contended).
final class SubjectTimer: SubjectHook {
  private let seconds = Mutex(0.0)

  func answer<Key: Equatable & Sendable, Answer: Sendable>(
    _ function: Subject.Function, _ key: Key, _ ask: @escaping @Sendable () -> Answer
  ) -> Answer {
    let start = ThreadClock.now
    let answer = ask()
    let time = ThreadClock.now - start
    seconds.withLock { $0 += time }
    return answer
  }

  /// The thread CPU the subject's calls took since the last call, and starts again from 0.
  func take() -> Double {
    seconds.withLock { seconds in
      defer { seconds = 0 }
      return seconds
    }
  }
}
