@testable import Conformance
import Foundation
import PickerLogic
import Synchronization
import Testing

/// A hook of the tests' own: not `SubjectAnswers`, so its calls take the protocol's path.
private final class CallLog: SubjectHook {
  let seen = Mutex<[String]>([])

  func answer<Key: Equatable & Sendable, Answer: Sendable>(
    _ function: Subject.Function, _ key: Key, _ ask: @escaping @Sendable () -> Answer
  ) -> Answer {
    let answer = ask()
    seen.withLock { $0.append("\(function) \(key) → \(answer)") }
    return answer
  }
}

/// How often the subject was asked.
private final class Calls: Sendable {
  private let count = Mutex(0)
  func add() { count.withLock { $0 += 1 } }
  var made: Int { count.withLock { $0 } }
}

@Suite("A subject passed through a hook")
struct SubjectHookTests {
  let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  func day(_ text: String) -> Date { try! Date(text + "T00:00:00Z", strategy: .iso8601) }

  /// A subject whose leadingBlanks counts its calls: 3 for March 2024, 0 for any other month.
  private func counting(_ calls: Calls) -> Subject {
    var subject = Subject.pickerLogic
    let march = day("2024-03-01")
    subject.leadingBlanks = .init { month, _ in
      calls.add()
      return month == march ? 3 : 0
    }
    return subject
  }

  @Test("triage's reuse: a replayed call with the same arguments is answered from the first evaluation, any other reaches the subject")
  func answersReplay() {
    let calls = Calls()
    let answers = SubjectAnswers()
    let kept = counting(calls).intercepted(by: answers, name: "kept")
    answers.startCase()
    #expect(kept.leadingBlanks(day("2024-03-01"), utc) == 3)
    #expect(calls.made == 1)
    answers.startReplay()
    #expect(kept.leadingBlanks(day("2024-03-01"), utc) == 3)
    #expect(calls.made == 1)
    // Another month is another key; the same month in another calendar too.
    #expect(kept.leadingBlanks(day("2024-04-01"), utc) == 0)
    var tokyo = utc
    tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
    #expect(kept.leadingBlanks(day("2024-03-01"), tokyo) == 3)
    #expect(calls.made == 3)
    // A new case forgets the last one's answers.
    answers.startCase()
    answers.startReplay()
    #expect(kept.leadingBlanks(day("2024-03-01"), utc) == 3)
    #expect(calls.made == 4)
  }

  @Test("any other hook sees every call with its function and arguments, and the subject's answer")
  func otherHook() {
    let log = CallLog()
    let passed = Subject.pickerLogic.intercepted(by: log, name: "logged")
    // 2024-03-10 and 2024-03-11 are two days in UTC; 2024-03-10 again is the same day.
    #expect(passed.closes(day("2024-03-10"), day("2024-03-11"), utc))
    #expect(!passed.closes(day("2024-03-10"), day("2024-03-10"), utc))
    let seen = log.seen.withLock { $0 }
    #expect(seen.count == 2)
    #expect(seen.allSatisfy { $0.hasPrefix("closes ") })
    #expect(seen.first?.hasSuffix("→ true") == true)
    #expect(seen.last?.hasSuffix("→ false") == true)
  }
}
