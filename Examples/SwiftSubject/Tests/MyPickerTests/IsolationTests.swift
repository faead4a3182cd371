import ConformanceKit
import Foundation
import MyPickerConformance
import Testing

/// MyPicker's column headers trap where weeks start on Saturday. In worker processes
/// (`worker`), each trap costs its case, errored with where it trapped; the test run and
/// every other case go on.
@Test func aTrapCostsOnlyItsCases() throws {
  var sweep = ConformanceSweep(MyPickerConformance.functions)
  sweep.worker = try ConformanceSweep.executable(named: "MyPickerWorker")
  sweep.options.checks = ["weekday-symbols"]
  sweep.options.request.locales = .list(["en_US", "de_DE"])
  sweep.options.request.calendars = .list(["gregorian", "hebrew"])
  let result = try sweep.run()
  // 2 locales × 2 calendars × first weekdays (own, 1…7): 32 cases, one Saturday-first in
  // each eight (en_US's own is Sunday, de_DE's Monday).
  let errored = result.clusters.filter { $0.status == .errored }
  #expect(errored.reduce(0) { $0 + $1.count } == 4)
  #expect(errored.allSatisfy { $0.pattern.contains("MyPicker.weekdaySymbols") }, "\(errored.map(\.pattern))")
  #expect(errored.allSatisfy { $0.exampleIDs.allSatisfy { $0.split(separator: "|").contains("fw=7") } })
  #expect(result.cases == 32)
  #expect(!result.clusters.contains { $0.status == .failed })
}
