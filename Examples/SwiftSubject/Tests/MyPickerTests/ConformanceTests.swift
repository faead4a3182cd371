import ConformanceKit
import MyPicker
import Testing

/// MyPicker's leading blanks swept over calendars, zones, months and first weekdays against
/// libicu: one issue per failure cluster, not one test per case.
@Test func leadingBlanksConform() throws {
  var mine = SubjectFunctions(name: "MyPicker")
  mine.leadingBlanks = { month, calendar in MyPicker.leadingBlanks(inMonthOf: month, calendar: calendar) }
  var sweep = ConformanceSweep(mine)
  sweep.options.checks = ["leading-blanks"]
  sweep.options.request.zones = .list(["UTC", "America/Sao_Paulo", "Asia/Tehran"])
  sweep.options.request.years = 2018...2020
  // The defect is deliberate: the sweep must find it (a known issue that did not occur
  // fails the test).
  var result: ConformanceRun.Result?
  withKnownIssue("MyPicker counts blanks from Sunday whatever firstWeekday says") {
    result = try sweep.expectConformance()
  }
  // Found where weeks start on another day than Sunday, and only there.
  let failing = try #require(result).clusters.filter { $0.status == .failed }
  #expect(!failing.isEmpty)
  #expect(failing.allSatisfy { $0.exampleIDs.allSatisfy { !$0.split(separator: "|").contains("fw=1") } })
}
