import Foundation
import ICUOracle

/// `month-days` (seed 001): `days(inMonthOf:)` must give one distinct, increasing
/// start-of-day per local day of the month that exists in the zone.
///
/// Expected: libicu's existing days of the month and their earliest instants (a skipped
/// midnight starts the day later; a skipped date, such as Pacific/Apia 2011-12-30, has no
/// cell).
public struct MonthDaysCheck: Check {
  public let id = "month-days"
  public let summary =
    "days(inMonthOf:) (seed 001) vs libicu's existing local days and their first instants"
  public let seeds = ["001"]
  public let subjectFunctions: [Subject.Function] = [.days]
  public let dimensions: [Dimension] = [.calendar, .zone, .month]
  public let groupDimensions: [Dimension] = [.calendar, .zone]

  public init() {}

  public func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone else {
      throw HarnessError("\(id): month-days needs calendar and zone")
    }
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: calendarID, zone: zone,
                                               days: true)
    let calendar = try context.calendars.calendar(calendarID, zone: zone)
    let probe = EvaluationContext.date(geometry.probe)
    let cells = context.subject.days(probe, calendar).map(EvaluationContext.millis)
    let expected = geometry.days.map(\.start)
    let timeline = try context.oracle.timeline(zone)
    // Every cell on each side, as ISO 8601 local time with its offset.
    let values = { () throws -> (oracle: Value, subject: Value) in
      (.strings(try expected.map(timeline.isoText)), .strings(try cells.map(timeline.isoText)))
    }
    guard cells != expected else { return try context.recorded(.agreed(expected.count), values) }
    let months = MonthReadings(oracle: month.reading,
                               subject: EvaluationContext.subjectReading(probe, calendar))
    let wall = { (millis: Double) in (try? timeline.wallText(at: millis)) ?? "?" }
    let cellDays = try cells.map { (millis) throws(ICUError) in try timeline.localDay(at: millis) }
    return try context.recorded(Outcome(
      verdict: .failed, expected: .strings(expected.map(wall)), actual: .strings(cells.map(wall)),
      pattern: Self.pattern(cells: cells, cellDays: cellDays, geometry: geometry),
      detail: Self.detail(cells: cells, expected: expected, wall: wall, geometry: geometry),
      months: months), values)
  }

  /// The shape of the difference: cells outside the month, duplicated days, or cells that
  /// are on the right day but not at its first instant.
  static func pattern(cells: [Double], cellDays: [LocalDay], geometry: MonthGeometry) -> String {
    let month = geometry.month
    let starts = Dictionary(geometry.days.map { ($0.day, $0.start) },
                            uniquingKeysWith: { first, _ in first })
    if cellDays.contains(where: { !month.contains($0) }) {
      return "a cell falls outside the month (\(cells.count) cells for \(geometry.days.count) days)"
    }
    if Set(cellDays).count < cellDays.count {
      return "two cells on one local day"
    }
    if cells.count != geometry.days.count {
      return "\(cells.count < geometry.days.count ? "missing" : "extra") cells"
    }
    let late = zip(cells, cellDays).filter { cell, day in starts[day].map { cell != $0 } ?? true }
    return late.isEmpty ? "cells differ" : "a cell is not at the first instant of its day"
  }

  static func detail(cells: [Double], expected: [Double], wall: (Double) -> String,
                     geometry: MonthGeometry) -> [String] {
    var lines = ["oracle: \(expected.count) existing days, month of \(geometry.month.length) day "
      + "numbers; subject: \(cells.count) cells"]
    let extra = Set(cells).subtracting(expected).sorted()
    let missing = Set(expected).subtracting(cells).sorted()
    if !extra.isEmpty { lines.append("subject only: " + extra.prefix(4).map(wall).joined(separator: ", ")) }
    if !missing.isEmpty { lines.append("oracle only: " + missing.prefix(4).map(wall).joined(separator: ", ")) }
    return lines
  }
}
