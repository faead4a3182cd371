import Foundation
import Synchronization

/// The subject's answers in the case being evaluated, so that triage (the same case again,
/// with Foundation's ICU as the oracle) asks the subject only what the first evaluation did
/// not: re-asking doubled the subject's time in every failing or waived case.
///
/// An answer is reused only for a call whose arguments are all equal: the subject is a set of
/// pure functions of its arguments. Triage's oracle may lead a check to other instants (other
/// tz data); those calls reach the subject. One per worker thread; its state is behind a
/// `Mutex` all the same (never contended, held across the subject's call: nothing reenters).
final class SubjectAnswers: SubjectHook {
  private final class Log<Key: Equatable, Answer> {
    var entries: [(key: Key, answer: Answer)] = []
    /// Where the next replayed call is expected: checks call in the same order both times.
    var cursor = 0
    var caseNumber = -1
    var replayNumber = -1
  }

  private struct State {
    var logs: [AnyObject?] = Array(repeating: nil, count: Subject.Function.allCases.count)
    var caseNumber = 0
    var replayNumber = 0
    var replaying = false
  }

  private let state = Mutex(State())

  /// Forget the last case's answers and keep this case's.
  func startCase() {
    state.withLock { state in
      state.caseNumber &+= 1
      state.replaying = false
    }
  }

  /// From now on, answer from this case's kept answers where the arguments match.
  func startReplay() {
    state.withLock { state in
      state.replayNumber &+= 1
      state.replaying = true
    }
  }

  func answer<Key: Equatable & Sendable, Answer: Sendable>(
    _ function: Subject.Function, _ key: Key, _ ask: @escaping @Sendable () -> Answer
  ) -> Answer {
    state.withLock { state in
      let log: Log<Key, Answer>
      if let kept = state.logs[function.rawValue] {
        log = unsafeDowncast(kept, to: Log<Key, Answer>.self)
      } else {
        log = Log()
        state.logs[function.rawValue] = log
      }
      if log.caseNumber != state.caseNumber {
        log.entries.removeAll(keepingCapacity: true)
        log.caseNumber = state.caseNumber
      }
      guard state.replaying else {
        let answer = SubjectActivity.inside(function, ask)
        log.entries.append((key, answer))
        return answer
      }
      if log.replayNumber != state.replayNumber {
        log.cursor = 0
        log.replayNumber = state.replayNumber
      }
      let entries = log.entries
      if log.cursor < entries.count, entries[log.cursor].key == key {
        log.cursor += 1
        return entries[log.cursor - 1].answer
      }
      if let index = entries.firstIndex(where: { $0.key == key }) {
        log.cursor = index + 1
        return entries[index].answer
      }
      return SubjectActivity.inside(function, ask)
    }
  }
}

/// Which of the subject's functions the evaluating thread is in, for a worker's watchdog:
/// a hang is named by the function that loops (`HangNote.function`), not by the frame the
/// loop happened to be stopped at, which one loop spreads over many lines and libraries.
/// Only a worker's one evaluating thread is read; threads of an in-process run write it
/// unread.
enum SubjectActivity {
  /// The function's `rawValue + 1`; 0 outside the subject.
  private static let current = Atomic<Int>(0)

  /// `ask`, marked as inside `function` (the innermost, when one function calls another).
  static func inside<Answer>(_ function: Subject.Function, _ ask: () -> Answer) -> Answer {
    let outer = current.exchange(function.rawValue + 1, ordering: .relaxed)
    defer { current.store(outer, ordering: .relaxed) }
    return ask()
  }

  /// The function the evaluating thread is in now, if any.
  static var function: Subject.Function? {
    let value = current.load(ordering: .relaxed)
    return value == 0 ? nil : Subject.Function(rawValue: value - 1)
  }
}
