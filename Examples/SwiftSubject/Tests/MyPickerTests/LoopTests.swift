import ConformanceKit
import Foundation
import MyPickerConformance
import Testing

/// MyPicker's `days` loops forever in Chinese leap months (as HorizonCalendar's layout
/// enumerator does). Swept with ConformanceKit's defaults (worker processes: this test binary
/// started again on this test), the loop costs exactly the cases it holds, each errored
/// under one signature named by the function, and every other case runs.
@Test func aLoopInDaysIsOneErroredGroup() throws {
  var sweep = ConformanceSweep(MyPickerConformance.functions)
  sweep.options.checks = ["month-days"]
  sweep.options.request.calendars = .list(["gregorian", "chinese"])
  sweep.options.request.zones = .list(["UTC", "Asia/Shanghai"])
  sweep.options.request.years = 2023...2023
  let result = try sweep.run()
  let cases = try casesFile(sweep.options.out)
  let errored = cases.filter { $0["verdict"] as? String == "errored" }
  // 2023's leap month is the second (閏二月), 22 March to 19 April: its month-days case in
  // each zone, and no other.
  #expect(Set(errored.compactMap { $0["id"] as? String }) == [
    "month-days|calendar=chinese|zone=UTC|month=2023-03-22",
    "month-days|calendar=chinese|zone=Asia/Shanghai|month=2023-03-22",
  ], "\(errored.map { $0["id"] ?? "?" })")
  #expect(Set(errored.compactMap { $0["pattern"] as? String }) == ["hang in the subject's days"])
  let clusters = result.clusters.filter { $0.status == .errored }
  #expect(clusters.count == 1 && clusters.first?.count == 2, "\(clusters.map { "\($0.pattern): \($0.count)" })")
  // Every other case ran and passed: 12 or 13 months a year in each calendar and zone.
  #expect(!result.clusters.contains { $0.status == .failed })
  #expect(result.cases > 40)
}

/// One loop is traced once: the first case it holds gets the backtracer's frames (where the
/// subject spun); the next, in the same function, ends its worker's child at once and says
/// whose detail has them. One worker, so which case is first is the plan's order.
@Test func aLoopIsTracedOnce() throws {
  var sweep = ConformanceSweep(MyPickerConformance.functions)
  sweep.options.checks = ["month-days"]
  sweep.options.jobs = 1
  sweep.options.request.calendars = .list(["chinese"])
  sweep.options.request.zones = .list(["UTC", "Asia/Shanghai"])
  sweep.options.request.years = 2023...2023
  _ = try sweep.run()
  let errored = try casesFile(sweep.options.out).filter { $0["verdict"] as? String == "errored" }
  try #require(errored.count == 2, "\(errored)")
  let (first, second) = (errored[0], errored[1])
  let firstDetail = (first["detail"] as? [String]) ?? []
  let secondDetail = (second["detail"] as? [String]) ?? []
  // MyPicker's own frame, from the backtracer: the loop is in `days(inMonthOf:calendar:)`
  // (stopped there, or in a library it called: libm, Foundation).
  #expect(firstDetail.contains { ($0.hasPrefix("stopped in: ") || $0.hasPrefix("called from: "))
    && $0.contains("MyPicker.days(inMonthOf:calendar:)") }, "\(firstDetail)")
  #expect(!secondDetail.contains { $0.contains("MyPicker.days(inMonthOf:calendar:)") }, "\(secondDetail)")
  #expect(secondDetail.contains("stopped in: not traced again; \(first["id"] as? String ?? "?") met this hang first, and its detail has the frames"),
          "\(secondDetail)")
}

/// MyPicker's leading blanks are wrong on Monday-first grids; explaining a wrong count asks
/// its `days` where the month starts (a diagnosis), which loops in the leap month. The case
/// is judged on `leadingBlanks`' own answer: failed, never errored for another function's
/// loop, and its detail says the diagnosis did not finish.
@Test func aLoopInADiagnosisCostsTheDiagnosisOnly() throws {
  var sweep = ConformanceSweep(MyPickerConformance.functions)
  sweep.options.checks = ["leading-blanks"]
  sweep.options.request.calendars = .list(["chinese"])
  sweep.options.request.zones = .list(["UTC"])
  sweep.options.request.firstWeekdays = [.fixed(2)]
  sweep.options.request.years = 2023...2023
  sweep.options.record = .all
  _ = try sweep.run()
  let cases = try casesFile(sweep.options.out)
  #expect(!cases.contains { $0["verdict"] as? String == "errored" }, "\(cases.filter { $0["verdict"] as? String == "errored" })")
  let leap = try #require(cases.first { $0["id"] as? String == "leading-blanks|calendar=chinese|fw=2|zone=UTC|month=2023-03-22" })
  // 22 March 2023 was a Wednesday: a Monday-first grid has 2 blanks, MyPicker counts 3 from Sunday.
  #expect(leap["verdict"] as? String == "failed" && leap["expected"] as? Int == 2 && leap["actual"] as? Int == 3, "\(leap)")
  let detail = (leap["detail"] as? [String]) ?? []
  #expect(detail.contains { $0.hasPrefix("diagnosis: not run; asked to explain this difference, the subject met hang in the subject's days") }, "\(detail)")
  #expect(leap["pattern"] as? String == "blank count off by 1, where the subject's month starts not diagnosed")
  // The month before is diagnosed as before (the subject's own first day cell); the step's
  // months after it are judged without asking `days` again (it would loop alike).
  let before = try #require(cases.first { $0["id"] as? String == "leading-blanks|calendar=chinese|fw=2|zone=UTC|month=2023-02-20" })
  #expect(((before["detail"] as? [String]) ?? []).contains { $0.hasPrefix("subject: month starts") }, "\(before)")
  let after = try #require(cases.first { $0["id"] as? String == "leading-blanks|calendar=chinese|fw=2|zone=UTC|month=2023-04-20" })
  #expect(((after["detail"] as? [String]) ?? []).contains {
    $0.hasPrefix("diagnosis: not asked; leading-blanks|calendar=chinese|fw=2|zone=UTC|month=2023-03-22 met hang in the subject's days")
  }, "\(after)")
  // It cost the diagnosis's limit (a quarter of the case's, at most 0.5 s of CPU), never a
  // case's (0.5 s or more in a warm worker, 2 s in a fresh one).
  let limit = detail.first { $0.contains("past its limit of ") }
    .flatMap { $0.components(separatedBy: "past its limit of ").last?.split(separator: " ").first }
    .flatMap { Double($0) }
  #expect(limit.map { $0 > 0 && $0 <= 0.5 } == true, "\(detail)")
}

/// A long sweep for `.ci/run` to kill: `swift test` is sent SIGTERM while it runs (as a CI
/// job's time limit does). SwiftPM does not pass the signal on, so this test binary sees
/// its parent go: the sweep stops, its workers end, what ran is written to
/// `<out>.partial`, and the process exits. Off unless `MYPICKER_KILLED_SWEEP_OUT` names
/// where its reports go.
@Test(.enabled(if: ProcessInfo.processInfo.environment["MYPICKER_KILLED_SWEEP_OUT"] != nil))
func aSweepToKill() throws {
  var sweep = ConformanceSweep(MyPickerConformance.functions)
  sweep.options.out = URL(fileURLWithPath: ProcessInfo.processInfo.environment["MYPICKER_KILLED_SWEEP_OUT"] ?? "")
  sweep.options.checks = ["leading-blanks", "month-days"]
  sweep.options.request.years = 1990...2030
  _ = try sweep.run()
}

/// `Scripts/timing.sh loop` times this sweep (month-days and leading-blanks over the Chinese and
/// Gregorian calendars in three zones, 2019…2024: 8 leap-month cases of month-days, 48 of
/// leading-blanks that fail and ask `days` where the month starts) with MyPicker's looping
/// `days`, and with
/// `MYPICKER_LOOP_COST=fixed` with one that steps by a day (`date(byAdding:)` keeps a leap
/// month): what the loop costs a team's run. Off unless `MYPICKER_LOOP_COST` is set.
@Test(.enabled(if: ProcessInfo.processInfo.environment["MYPICKER_LOOP_COST"] != nil))
func aLoopSweepToTime() throws {
  var functions = MyPickerConformance.functions
  if ProcessInfo.processInfo.environment["MYPICKER_LOOP_COST"] == "fixed" {
    functions.days = { month, calendar in
      guard let interval = calendar.dateInterval(of: .month, for: month) else { return [] }
      return Array(sequence(first: interval.start) { calendar.date(byAdding: .day, value: 1, to: $0) }
        .prefix { $0 < interval.end })
    }
  }
  var sweep = ConformanceSweep(functions)
  sweep.options.checks = ["month-days", "leading-blanks"]
  sweep.options.request.calendars = .list(["gregorian", "chinese"])
  sweep.options.request.zones = .list(["UTC", "Asia/Shanghai", "America/Sao_Paulo"])
  sweep.options.request.years = 2019...2024
  let result = try sweep.run()
  print("loop cost: \(result.cases) cases, \(result.clusters.filter { $0.status == .errored }.map(\.count).reduce(0, +)) errored")
}
