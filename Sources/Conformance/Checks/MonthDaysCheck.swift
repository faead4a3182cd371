import Foundation
import ICUOracle

/// `month-days` (seed 001): `days(inMonthOf:)` must give one cell per local date of the month
/// that exists in the zone, in order.
///
/// Expected: libicu's existing dates of the month (a skipped date, such as Pacific/Apia
/// 2011-12-30, has no cell). A cell is judged by its date, the instant it answers read in the
/// zone: which instant of the date it names (the first, as libicu places it, or Havana's
/// second midnight of 2020-11-01) is no date a person sees, and is said in the detail only.
package struct MonthDaysCheck: Check {
  package let id = "month-days"
  package let summary =
    "days(inMonthOf:) (seed 001) vs libicu's existing local days and their first instants"
  package let seeds = ["001"]
  package let subjectFunctions: [Subject.Function] = [.days]
  package let dimensions: [Dimension] = [.calendar, .zone, .month]
  package let groupDimensions: [Dimension] = [.calendar, .zone]

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone else {
      throw HarnessError("\(id): month-days needs calendar and zone")
    }
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: calendarID, zone: zone,
                                               days: true)
    let calendar = try context.calendars.calendar(calendarID, zone: zone)
    let probe = EvaluationContext.date(geometry.probe)
    let cells = context.subject.days(probe, calendar).map(EvaluationContext.millis)
    let timeline = try context.oracle.timeline(zone)
    let expected = geometry.days.map(\.day)
    // Cells at their dates' first instants are on those dates: only other cells are read.
    let atStarts = cells.elementsEqual(geometry.days.lazy.map(\.start))
    let cellDays = try atStarts ? expected
      : cells.map { (millis) throws(ICUError) in try timeline.localDay(at: millis) }
    // Every date on each side, with --record all.
    let values = { () -> (oracle: Value, subject: Value) in
      (.strings(expected.map(\.description)), .strings(cellDays.map(\.description)))
    }
    guard cellDays != expected else { return context.recorded(.agreed(expected.count), values) }
    let months = MonthReadings(oracle: month.reading,
                               subject: EvaluationContext.subjectReading(probe, calendar))
    let wall = { (millis: Double) in (try? timeline.wallText(at: millis)) ?? "?" }
    return context.recorded(Outcome(
      verdict: .failed, expected: .strings(geometry.days.map { wall($0.start) }),
      actual: .strings(cells.map(wall)),
      pattern: Self.pattern(cellDays: cellDays, geometry: geometry),
      detail: Self.detail(cells: cells, cellDays: cellDays, wall: wall, geometry: geometry),
      months: months), values)
  }

  /// The shape of the difference: cells outside the month, duplicated dates, or missing or
  /// extra ones.
  static func pattern(cellDays: [LocalDay], geometry: MonthGeometry) -> String {
    let month = geometry.month
    if cellDays.contains(where: { !month.contains($0) }) {
      return "a cell falls outside the month (\(cellDays.count) cells for \(geometry.days.count) days)"
    }
    if Set(cellDays).count < cellDays.count {
      return "two cells on one local day"
    }
    if cellDays.count != geometry.days.count {
      return "\(cellDays.count < geometry.days.count ? "missing" : "extra") cells"
    }
    return zip(cellDays, cellDays.dropFirst()).contains { $0 >= $1 } ? "cells out of order" : "cells differ"
  }

  static func detail(cells: [Double], cellDays: [LocalDay], wall: (Double) -> String,
                     geometry: MonthGeometry) -> [String] {
    var lines = ["oracle: \(geometry.days.count) existing days, month of \(geometry.month.length) day "
      + "numbers; subject: \(cells.count) cells"]
    let wanted = Set(geometry.days.map(\.day))
    let got = Set(cellDays)
    let extra = zip(cells, cellDays).filter { !wanted.contains($0.1) }.map(\.0)
    let missing = geometry.days.filter { !got.contains($0.day) }.map(\.start)
    if !extra.isEmpty { lines.append("subject only: " + extra.prefix(4).map(wall).joined(separator: ", ")) }
    if !missing.isEmpty { lines.append("oracle only: " + missing.prefix(4).map(wall).joined(separator: ", ")) }
    return lines
  }
}
