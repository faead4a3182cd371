@testable import Conformance
import Dispatch
import Foundation
import Synchronization
import Testing

/// The one scheduler under in-process and isolated runs, driven by slots written here: what
/// it hands out, and what it delivers.
@Suite("The step scheduler")
struct SchedulerTests {
  /// A plan of date-text steps (one a locale and calendar, its variants the cases): six
  /// locales, two calendars.
  func plan() throws -> Plan {
    let corpus = try smallCorpus(locales: ["en_US", "de_DE", "fr_FR", "ja_JP", "ar_EG", "hi_IN"],
                                 zones: ["UTC"], years: 2021...2021)
    return Plan.make(corpus: corpus, checks: CheckCatalog.all.filter { $0.id == "date-text" })
  }

  /// Each case of `job` passing, or failing where `failing` says, kept whole.
  func record(_ job: StepScheduler.Job, in scheduler: StepScheduler,
              _ outcome: (Int) -> Outcome = { _ in .agreed(1) }) -> StepRecord
  {
    let step = scheduler.step(job.step)
    let ids = step.cases()
    let positions = job.positions ?? Array(ids.indices)
    return StepRecord(step: step, check: "date-text",
                      cases: positions.map { CaseRecord(id: ids[$0], step: step.index, outcome: outcome($0)) },
                      zoneClasses: [:], keepPassing: true, seconds: 0)
  }

  @Test("a slot waits while the steps handed out and not delivered fill the window")
  func window() throws {
    let plan = try plan()
    try #require(plan.steps.count == 12)
    let scheduler = StepScheduler(plan: plan, window: .init(steps: 2))
    // Slot 0 holds the first step half a second; slot 1 answers at once. With a window of
    // two steps, slot 1 gets step 1 and then waits for step 0's delivery.
    let takenWhileHeld = Mutex<Int?>(nil)
    let taken = Mutex(0)
    let delivered = Mutex<[Int]>([])
    let failure = scheduler.run(slots: 2, serve: { slot in
      while case .run(let job) = scheduler.next() {
        if job.step == plan.steps[0].index {
          Thread.sleep(forTimeInterval: 0.5)
          takenWhileHeld.withLock { $0 = taken.withLock { $0 } }
        } else {
          taken.withLock { $0 += 1 }
        }
        scheduler.answered(job, record(job, in: scheduler))
        scheduler.finished(job)
      }
    }, { event in
      if case .stepEnded(let record) = event.kind { delivered.withLock { $0.append(record.index) } }
    })
    #expect(failure == nil)
    #expect(takenWhileHeld.withLock { $0 } == 1)
    #expect(delivered.withLock { $0 } == plan.steps.map(\.index))
  }

  @Test("a fault hands back the rest of its step, pieces delivered in plan order; three in a row trip the group")
  func faults() throws {
    let plan = try plan()
    let scheduler = StepScheduler(plan: plan, window: .init())
    let first = plan.steps[0]
    let n = first.caseCount
    try #require(n >= 6)
    let work = Mutex<[String]>([])
    let delivered = Mutex<[StepRecord]>([])
    let failure = scheduler.run(slots: 1, serve: { _ in
      while let next = scheduler.next() {
        switch next {
        case .notRun(let step, let positions, let trip):
          work.withLock { $0.append("not run \(step) \(positions)") }
          let notRun = Outcome.errored(trip.reason)
          scheduler.notRun(step: step, positions: positions,
                           record(.init(step: step, positions: positions), in: scheduler) { _ in notRun })
        case .run(let job):
          work.withLock { $0.append("run \(job.step) \(job.positions.map { "\($0)" } ?? "all")\(job.replay ? " again" : "")") }
          defer { scheduler.finished(job) }
          // In the first step, case 2 traps, and so does the first case of each job after it.
          if job.step == first.index, !job.replay {
            let position = max(2, job.positions?.first ?? 0)
            let trap = Outcome.errored("trap")
            #expect(scheduler.faulted(job, at: position, signature: "trap",
                                      errored: record(.init(step: job.step, positions: [position]), in: scheduler) { _ in trap }))
            continue
          }
          scheduler.answered(job, record(job, in: scheduler))
        }
      }
    }, { event in
      if case .stepEnded(let record) = event.kind { delivered.withLock { $0.append(record) } }
    })
    #expect(failure == nil)
    // The first step whole (trap at 2); 0 and 1 again; 3 on (trap at 3); 4 on (trap at 4:
    // the third in a row trips the group); the rest not run. Then every later step of the
    // group (check and calendar: date-text has no zone) is not run whole; the other
    // calendar's run.
    let f = first.index
    var expected = ["run \(f) all", "run \(f) [0, 1] again", "run \(f) \(Array(3..<n))",
                    "run \(f) \(Array(4..<n))", "not run \(f) \(Array(5..<n))"]
    for step in plan.steps.dropFirst() {
      expected.append(step.group.calendar == first.group.calendar
        ? "not run \(step.index) \(Array(0..<step.caseCount))" : "run \(step.index) all")
    }
    #expect(work.withLock { $0 } == expected)
    let records = delivered.withLock { $0 }
    #expect(records.map(\.index) == plan.steps.map(\.index))
    let whole = try #require(records.first)
    #expect(whole.cases.map(\.id) == first.cases())
    #expect(whole.cases.map(\.outcome.verdict) == [.passed, .passed] + Array(repeating: .errored, count: n - 2))
    #expect(scheduler.breaker.trips.count == 1)
  }
}
