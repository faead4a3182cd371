import ConformanceKit
import Foundation
import MyPickerConformance
import Testing

/// MyPicker's `days` loops forever in Chinese leap months (as HorizonCalendar's layout
/// enumerator does). Swept in worker processes, the loop costs exactly the cases it holds,
/// each errored under one signature named by the function, and every other case runs.
@Test func aLoopInDaysIsOneErroredGroup() throws {
  var sweep = ConformanceSweep(MyPickerConformance.functions)
  sweep.worker = try ConformanceSweep.executable(named: "MyPickerWorker")
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

/// MyPicker's leading blanks are wrong on Monday-first grids; explaining a wrong count asks
/// its `days` where the month starts (a diagnosis), which loops in the leap month. The case
/// is judged on `leadingBlanks`' own answer: failed, never errored for another function's
/// loop, and its detail says the diagnosis did not finish.
@Test func aLoopInADiagnosisCostsTheDiagnosisOnly() throws {
  var sweep = ConformanceSweep(MyPickerConformance.functions)
  sweep.worker = try ConformanceSweep.executable(named: "MyPickerWorker")
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
  // Another month's failure is diagnosed as before: the subject's own first day cell.
  let march = try #require(cases.first { $0["id"] as? String == "leading-blanks|calendar=chinese|fw=2|zone=UTC|month=2023-02-20" })
  #expect(((march["detail"] as? [String]) ?? []).contains { $0.hasPrefix("subject: month starts") }, "\(march)")
  // It cost the diagnosis's limit (0.5 s of CPU), not a case's (2 s or more).
  #expect(detail.contains { $0.contains("past its limit of 0.50 s of CPU") }, "\(detail)")
}
