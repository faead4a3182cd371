import Foundation
import ICUOracle

/// `month-paging` (seed 001): the previous and next month buttons
/// (`date(byAdding: .month, value: ±1)`) must land in the month before and after.
///
/// From three instants of each month (its first instant, its middle, the middle of its last
/// day), +1 must land in libicu's next month and −1 in its previous one. Holding for every
/// month and instant is what makes repeated taps visit every month once, in order, across
/// leap months (Hebrew Adar I/II, Chinese and Dangi) and era changes (Japanese).
package struct MonthPagingCheck: Check {
  package let id = "month-paging"
  package let summary =
    "month buttons, date(byAdding: .month, ±1) (seed 001), vs libicu's previous and next month"
  package let seeds = ["001"]
  package let subjectFunctions: [Subject.Function] = [.paging]
  package let dimensions: [Dimension] = [.calendar, .zone, .month]
  package let groupDimensions: [Dimension] = [.calendar, .zone]

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone else {
      throw HarnessError("\(id): month-paging needs calendar and zone")
    }
    let table = try context.monthTable(calendarID)
    let month = try context.month(of: id)
    guard let index = table.index(containing: month.firstDay), index > 0,
      index + 1 < table.months.count
    else { throw HarnessError("\(id): the month table has no neighbours for \(month.firstDay)") }
    let geometry = try context.oracle.geometry(of: month, calendar: calendarID, zone: zone,
                                               days: true)
    let calendar = try context.calendars.calendar(calendarID, zone: zone)
    let timeline = try context.oracle.timeline(zone)
    let lastDay = geometry.days.last.map { ($0.start + $0.end) / 2 } ?? geometry.probe
    let origins = [("first instant", geometry.firstInstant), ("middle", geometry.probe),
                   ("last day", lastDay)]
    // Each landing as (label, the month wanted, the month reached or the day outside).
    var landings: [(label: String, wanted: Int, reached: Int?, day: LocalDay?)] = []
    var kinds: Set<String> = []
    for (name, origin) in origins {
      for offset in [1, -1] {
        let label = "\(offset > 0 ? "+1" : "-1") from \(name)"
        guard let landing = context.subject.paging(EvaluationContext.date(origin), offset, calendar)
        else {
          landings.append((label, index + offset, nil, nil))
          kinds.insert("no date")
          continue
        }
        let day = try timeline.localDay(at: EvaluationContext.millis(landing))
        let reached = table.index(containing: day)
        landings.append((label, index + offset, reached, day))
        if reached != index + offset {
          let step = (reached ?? index) - index
          kinds.insert(step == 0 ? "stays in the same month"
            : abs(step) > 1 ? "skips a month" : "goes the wrong way")
        }
      }
    }
    // The months are compared by index; text only for a failure.
    // Each landing on each side, with --record all.
    let values = { () -> (oracle: Value, subject: Value) in
      (.list(landings.map { .string("\($0.label): \(table.months[$0.wanted].reading)") }),
       .list(landings.map { landing in
         .string("\(landing.label): " + (landing.reached.map { table.months[$0].reading }
           ?? landing.day.map { "day \($0)" } ?? "no date"))
       }))
    }
    guard !kinds.isEmpty else { return context.recorded(.agreed(landings.count), values) }
    let (expected, actual) = values()
    return context.recorded(.comparing(
      expected: expected, actual: actual,
      pattern: "paging " + kinds.sorted().joined(separator: ", "),
      detail: ["origins: " + origins.map { "\($0.0) \((try? timeline.wallText(at: $0.1)) ?? "?")" }
        .joined(separator: "; ")],
      months: MonthReadings(
        oracle: month.reading,
        subject: EvaluationContext.subjectReading(EvaluationContext.date(geometry.probe), calendar))),
      { (expected, actual) })
  }
}
