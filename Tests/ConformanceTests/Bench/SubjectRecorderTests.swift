@testable import Conformance
import Foundation
import Synchronization
import Testing

/// The bench's subject-only loop: the calls a sweep made, timed as they were made, then
/// replayed alone.
@Suite("The subject recorder")
struct SubjectRecorderTests {
  @Test("each call is made once as the check asks it, timed, and made once more by each replay of the calls since the last")
  func recordsAndReplays() {
    let calls = Mutex(0)
    var base = Subject.pickerLogic
    base.weekdaySymbols = .init { calendar in
      calls.withLock { $0 += 1 }
      // Enough work that the thread's clock moves; the answer is the base's own, whatever
      // the machine's locale.
      for _ in 0..<200 { _ = calendar.veryShortStandaloneWeekdaySymbols }
      return ["one", "two"]
    }
    let recorder = SubjectRecorder()
    let subject = recorder.recording(base)
    let calendar = Calendar(identifier: .gregorian)
    #expect(subject.weekdaySymbols(calendar) == ["one", "two"])
    _ = subject.weekdaySymbols(calendar)
    #expect(calls.withLock { $0 } == 2)
    #expect(recorder.takeSubjectTime() > 0)
    #expect(recorder.takeSubjectTime() == 0)
    _ = recorder.replay()
    #expect(calls.withLock { $0 } == 4)
    // Nothing recorded since: the next replay makes no call.
    _ = recorder.replay()
    #expect(calls.withLock { $0 } == 4)
  }
}
