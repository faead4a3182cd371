import Foundation
import ICUOracle

/// `calendar-invariants`: what must hold in any calendar system, checked on Foundation's own
/// months, so that calendars libicu lacks (Foundation's bangla, gujarati, … vikram) are not
/// left unchecked.
///
/// For each month Foundation starts in a Gregorian year, in UTC: the seed's `days(inMonthOf:)`
/// gives consecutive local days (libicu's Gregorian day numbers, which no calendar system
/// changes) starting at the month's first instant; each day's weekday is libicu's weekday of
/// that date (+1 day advances the weekday by one); and the next month starts where this one
/// ends (months tile the year). The months are Foundation's (libicu lacks these calendars):
/// the weekday and tiling invariants judge Foundation's calendar, which is the built-in
/// subject's own logic; a team's subject (its functions, an executor) is judged on its
/// `days` only, never on the harness's reading of the month.
package struct CalendarInvariantsCheck: Check {
  package let id = "calendar-invariants"
  package let summary =
    "Foundation's months in any calendar: contiguous days, weekdays advancing by one, months tiling the year"
  package let seeds = ["001"]
  package let subjectFunctions: [Subject.Function] = [.days]
  package let dimensions: [Dimension] = [.calendar, .variant]
  package let groupDimensions: [Dimension] = [.calendar]
  package let needsOracleCalendar = false

  package init() {}

  /// One case per Gregorian year of the window, named `year-1970` and so on.
  package var variants: [String] { ["year-1970"] }
  package func variants(in corpus: Corpus) -> [String] { corpus.years.map { "year-\($0)" } }

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let variant = id.variant,
      variant.hasPrefix("year-"), let year = Int(variant.dropFirst(5))
    else { throw InputError("\(id): calendar-invariants needs a calendar and year-YYYY") }
    let calendar = try context.calendars.calendar(calendarID, zone: "UTC")
    let timeline = try context.oracle.timeline("UTC")
    let weekdays = try context.oracle.calendar("gregorian", zone: "UTC")
    let yearStart = LocalDay(year: year, month: 1, day: 1)
    let yearEnd = LocalDay(year: year + 1, month: 1, day: 1)
    var violations: [String] = []
    let judgesFoundation = context.subject.executor == nil && !context.subject.isOwn
    var cursor = EvaluationContext.date(yearStart.utcMidnightMillis + 43_200_000)
    var months = 0
    guard var interval = calendar.dateInterval(of: .month, for: cursor) else {
      // The harness has no month to ask a team's subject about: not the subject's fault.
      guard judgesFoundation else {
        return .skipped("Foundation has no \(calendarID) month interval to ask about")
      }
      return .comparing(expected: .string("invariants hold"),
                        actual: .string("dateInterval(of: .month) is nil"),
                        pattern: "Foundation has no month interval: the seed's grid is empty")
    }
    // Months that start in this Gregorian year (the first may start before it).
    while try timeline.localDay(at: EvaluationContext.millis(interval.start)) < yearEnd {
      months += 1
      let label = EvaluationContext.subjectReading(interval.start, calendar)
      let cells = context.subject.days(interval.start, calendar)
      let firstDay = try timeline.localDay(at: EvaluationContext.millis(interval.start))
      for (offset, cell) in cells.enumerated() {
        let day = try timeline.localDay(at: EvaluationContext.millis(cell))
        if day != firstDay.adding(days: Int32(offset)) {
          violations.append("\(label): cell \(offset + 1) is \(day), not \(firstDay.adding(days: Int32(offset)))")
          break
        }
        guard judgesFoundation else { continue }
        try weekdays.setMillis(EvaluationContext.millis(cell))
        let expectedWeekday = Int(try weekdays.get(.dayOfWeek))
        if calendar.component(.weekday, from: cell) != expectedWeekday {
          violations.append("\(label): \(day) has weekday \(calendar.component(.weekday, from: cell)), not \(expectedWeekday)")
          break
        }
      }
      let endDay = try timeline.localDay(at: EvaluationContext.millis(interval.end))
      if cells.count != Int(endDay.julianDay - firstDay.julianDay) {
        violations.append("\(label): \(cells.count) cells for \(endDay.julianDay - firstDay.julianDay) days")
      }
      cursor = interval.end
      guard let next = calendar.dateInterval(of: .month, for: cursor) else {
        if judgesFoundation { violations.append("\(label): no month after it") }
        break
      }
      if judgesFoundation, next.start != interval.end {
        violations.append("\(label): the next month starts at \(next.start), not at its end")
      }
      guard next.start > interval.start, months < 20 else {
        if judgesFoundation { violations.append("\(label): months do not advance") }
        break
      }
      interval = next
    }
    let ok = Value.string("invariants hold")
    return .comparing(
      expected: ok, actual: violations.isEmpty ? ok : .strings(violations),
      pattern: violations.first.map { Self.shape($0) } ?? "",
      detail: ["\(months) months start in \(year)"
        + (context.corpus.invariantOnlyCalendars.contains(calendarID)
          ? "; invariant-only: libicu has no \(calendarID) calendar" : "")])
  }

  static func shape(_ violation: String) -> String {
    if violation.contains("weekday") { return "weekday does not advance with the day" }
    if violation.contains("cells for") { return "cell count is not the month's length" }
    if violation.contains("cell") { return "days are not contiguous" }
    return "months do not tile the year"
  }
}
