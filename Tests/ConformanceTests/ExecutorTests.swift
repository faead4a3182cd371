@testable import Conformance
import Foundation
import Testing

/// A run of the `conformance` executable whose subject is an executor, into a temporary
/// directory that lives as long as this value.
final class ExecutorRun {
  let out: URL
  let status: Int32
  let stdout: String
  let stderr: String

  init(_ arguments: [String], subject: String?, environment: [String: String] = [:]) throws {
    out = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-exec-\(getpid())-\(UUID().uuidString)")
    let result = try Executable.run(arguments + ["--out", out.path] + (subject.map { ["--subject", $0] } ?? []),
                                    environment: environment)
    (status, stdout, stderr) = (result.status, result.out, result.error)
  }

  deinit { try? FileManager.default.removeItem(at: out) }

  var cases: [CaseRecord] { get throws { try recordedCases(out) } }
  var record: RunRecord { get throws { try runRecord(out) } }
}

/// The reference executor as a `--subject` value, with faults on purpose.
func referenceExecutor(_ misbehaviours: String...) -> String {
  "exec:'\(Executable.url.path)' executor" + misbehaviours.map { " --misbehave '\($0)'" }.joined()
}

/// Every check over calendars and zones with every kind of day boundary (Sao Paulo's skipped
/// midnight, Apia's skipped day, Havana's repeated midnight is outside 2011…2012 but its
/// other transitions are in), small enough for a debug build.
let executorSample = [
  "--checks", "all", "--locales", "en_US,fa_IR", "--calendars", "gregorian,hebrew,chinese",
  "--time-zones", "UTC,America/Sao_Paulo,Pacific/Apia,America/Havana", "--years", "2011...2012",
]

@Suite("Executor protocol")
struct ExecutorTests {
  @Test("a sweep through `conformance executor` reads as the in-process one, case by case, values included")
  func sameAsInProcess() throws {
    let inProcess = try ExecutorRun(executorSample + ["--record", "all"], subject: nil)
    let executor = try ExecutorRun(executorSample + ["--record", "all"], subject: referenceExecutor())
    #expect(inProcess.status == executor.status, "\(executor.stderr)")
    let (before, after) = (try inProcess.cases, try executor.cases)
    #expect(before.count > 1000)
    #expect(before.count == after.count)
    // Failures and passes both: the comparison is not of empty records.
    #expect(before.contains { $0.outcome.verdict == .failed || $0.review.waiver != nil })
    var differing: [String] = []
    for (one, other) in zip(before, after) where one != other {
      differing.append("\(one.id): \(one.outcome.verdict) \(one.outcome.actual) vs \(other.outcome.verdict) \(other.outcome.actual)")
    }
    #expect(differing.isEmpty, "\(differing.count) cases differ, first: \(differing.prefix(3))")
    #expect(try executor.record.run.subject.hasPrefix("PickerLogic"))
  }

  @Test("an executor that crashes, goes silent or writes garbage costs only the cases that asked it")
  func faultsCostOnlyTheirCases() throws {
    let selection = ["--checks", "month-days,leading-blanks,same-day-closing,stay-nights",
                     "--calendars", "gregorian,hebrew", "--time-zones", "UTC,America/Sao_Paulo,Pacific/Apia",
                     "--years", "2011...2012", "--waivers", "none", "--record", "all"]
    let clean = try ExecutorRun(selection, subject: referenceExecutor())
    let faulty = try ExecutorRun(
      selection,
      subject: referenceExecutor("crash:days:\"hebrew\"", "hang:closes:Pacific/Apia",
                                 "garbage:leadingBlanks:America/Sao_Paulo"),
      environment: ["CONFORMANCE_EXECUTOR_TIMEOUT": "0.5"])
    #expect(faulty.status == 1, "\(faulty.stderr)")
    let (before, after) = (try clean.cases, try faulty.cases)
    #expect(before.map(\.id) == after.map(\.id))
    let affected = { (id: CaseID) -> String? in
      switch (id.check, id.calendar, id.zone) {
      case ("month-days", "hebrew", _): "days"
      case ("same-day-closing", _, "Pacific/Apia"): "closes"
      case ("leading-blanks", _, "America/Sao_Paulo"): "leadingBlanks"
      default: nil
      }
    }
    // Outside the faults every case reads as in the clean run.
    let cleanByID = Dictionary(before.map { ($0.id.description, $0) }, uniquingKeysWith: { a, _ in a })
    let untouched = after.filter { affected($0.id) == nil }
    #expect(untouched.count == before.filter { affected($0.id) == nil }.count)
    for record in untouched {
      #expect(cleanByID[record.id.description] == record, "\(record.id)")
    }
    // Inside them every case is errored, by its fault or, once the breaker tripped, "not run".
    let errored = after.filter { affected($0.id) != nil }
    for (function, pattern) in [("days", "in days"), ("closes", "executor silent for 0.50 s in closes"),
                                ("leadingBlanks", "malformed answer to leadingBlanks")] {
      let mine = errored.filter { affected($0.id) == function }
      #expect(!mine.isEmpty, "\(function)")
      #expect(mine.allSatisfy { $0.outcome.verdict == .errored }, "\(function)")
      #expect(mine.contains { $0.outcome.pattern.hasPrefix("executor") || $0.outcome.pattern.hasPrefix("malformed") })
      #expect(mine.allSatisfy { $0.outcome.pattern.contains(pattern) }, "\(function): \(Set(mine.map(\.outcome.pattern)))")
    }
    // The crash's detail carries the executor's own message; the garbage is quoted.
    let crash = try #require(errored.first { affected($0.id) == "days" && !$0.outcome.pattern.hasPrefix("not run") })
    #expect(crash.outcome.detail.joined().contains("crashing on purpose"), "\(crash.outcome.detail)")
    let garbage = try #require(errored.first { affected($0.id) == "leadingBlanks" && !$0.outcome.pattern.hasPrefix("not run") })
    #expect(garbage.outcome.detail.joined().contains("this is not JSON"))
  }
}
