import Foundation
import ICUOracle

/// `month-grid` (seed 001): the month view, `leadingBlanks` empty cells then the cells of
/// `days(inMonthOf:)`, under every first weekday.
///
/// Expected: libicu's grid, where each existing day sits in its weekday's column (counted
/// from the first weekday) and its week's row, and a skipped date leaves its cell empty.
/// The subject answers its blanks and its day cells, not a layout, so the check lays the
/// cells on the calendar by their dates: the first after the blanks, each next one as many
/// cells later as its date is days after the first's. A picker that puts each day in its
/// weekday's column (Pacific/Apia's 31 December 2011 under Saturday, after the skipped
/// 30th) is judged by its dates, not failed on the seed's packing of cells one after
/// another, which is the same grid wherever the cells are consecutive dates.
/// `leading-blanks` and `month-days` each check one function, and `month-days` only under the
/// calendar's own first weekday: a grid that loses its last week when the week starts on
/// Monday passes both. Swept over one month a year in the zone that stands for UTC, a
/// different month of the year each year (`MonthCoverage.midnightTransitionMonths`), and the
/// months where a transition skips or repeats a midnight or a day, where a grid's cells move;
/// `month-days` checks every transition month's cells.
package struct MonthGridCheck: Check {
  package let id = "month-grid"
  package let summary =
    "the month grid (seed 001: leadingBlanks blanks, then days(inMonthOf:) laid by their dates in 7 columns) under every first weekday vs libicu's days in their weekdays' columns"
  package let seeds = ["001"]
  package let subjectFunctions: [Subject.Function] = [.leadingBlanks, .days]
  package let dimensions: [Dimension] = [.calendar, .firstWeekday, .zone, .month]
  package let groupDimensions: [Dimension] = [.calendar, .zone]
  package let monthCoverage = MonthCoverage.midnightTransitionMonths

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone,
      case .fixed(let firstWeekday)? = id.firstWeekday
    else { throw HarnessError("\(id): month-grid needs calendar, zone and fw 1…7") }
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: calendarID, zone: zone, days: true)
    let timeline = try context.oracle.timeline(zone)
    let calendar = try context.calendars.calendar(calendarID, zone: zone, firstWeekday: firstWeekday)
    let probe = EvaluationContext.date(geometry.probe)
    // libicu's grid: a day's cell is its distance from day 1 past day 1's column.
    let firstColumn = (Int(month.firstWeekday) - firstWeekday + 7) % 7
    var expected = Grid()
    for day in geometry.days {
      expected.place(Int(day.day.julianDay - month.firstDay.julianDay) + firstColumn, label: Self.label(day.day, in: month))
    }
    // The subject's grid: its blanks, then its cells by their dates from the first one.
    let blanks = context.subject.leadingBlanks(probe, calendar)
    let cells = context.subject.days(probe, calendar)
    var actual = Grid()
    var first: LocalDay?
    for cell in cells {
      let day = try timeline.localDay(at: EvaluationContext.millis(cell))
      let from = first ?? day
      first = from
      // A count past two weeks is wrong already; the picture stays two weeks wide at most,
      // and so does a cell dated before the first or long after it.
      let offset = min(Int(day.julianDay - from.julianDay), 62)
      actual.place(max(min(max(blanks, 0), 14) + offset, 0), label: Self.label(day, in: month))
    }
    let values = { () -> (oracle: Value, subject: Value) in (.strings(expected.rows), .strings(actual.rows)) }
    guard expected != actual else { return context.recorded(.agreed(expected.cells.count), values) }
    return context.recorded(.comparing(
      expected: .strings(expected.rows), actual: .strings(actual.rows),
      pattern: Self.pattern(expected: expected, actual: actual, blanks: (firstColumn, blanks)),
      detail: [
        "week starts on weekday \(firstWeekday); libicu: day 1 is \(month.firstDay) (weekday \(month.firstWeekday)), "
          + "\(geometry.days.count) existing days, \(expected.weeks) weeks; subject: \(blanks) blanks, \(cells.count) cells, \(actual.weeks) weeks",
        "rows are weeks, · an empty cell; a day of another month is shown as its date",
      ],
      months: MonthReadings(oracle: month.reading, subject: EvaluationContext.subjectReading(probe, calendar))),
      values)
  }

  /// A day's label in the grid: its number in the month, or its date outside it.
  static func label(_ day: LocalDay, in month: CalendarMonth) -> String {
    month.contains(day) ? String(day.julianDay - month.firstDay.julianDay + 1) : day.description
  }

  /// The first difference a reader should see.
  static func pattern(expected: Grid, actual: Grid, blanks: (expected: Int, actual: Int)) -> String {
    if blanks.expected != blanks.actual { return "the first week's blanks differ" }
    let wanted = Dictionary(expected.cells.map { ($0.value, $0.key) }, uniquingKeysWith: min)
    let placed = Dictionary(actual.cells.map { ($0.value, $0.key) }, uniquingKeysWith: min)
    if wanted.contains(where: { label, cell in placed[label].map { $0 != cell } ?? false }) {
      return "a day in another weekday's column"
    }
    if wanted.keys.contains(where: { placed[$0] == nil }) {
      let last = expected.cells.keys.max() ?? 0
      return wanted.filter { placed[$0.key] == nil }.values.allSatisfy { $0 / 7 == last / 7 }
        ? "the last week's days are missing" : "days are missing"
    }
    return placed.keys.contains(where: { wanted[$0] == nil }) ? "a cell of another day" : "the grid differs"
  }

  /// Cells by position (row × 7 + column) with their labels.
  struct Grid: Equatable {
    var cells: [Int: String] = [:]

    mutating func place(_ position: Int, label: String) {
      cells[position] = cells[position].map { $0 + "+" + label } ?? label
    }

    var weeks: Int { (cells.keys.max() ?? -1) / 7 + 1 }

    /// One line per week: seven cells, `·` where empty.
    var rows: [String] {
      (0..<weeks).map { row in
        (0..<7).map { cells[row * 7 + $0] ?? "·" }.joined(separator: " ")
      }
    }
  }
}
