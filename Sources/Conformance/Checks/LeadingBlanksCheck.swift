import Foundation
import ICUOracle

/// `leading-blanks` (seed 001): the blank cells before day 1 of a month grid.
///
/// Expected: `(weekday of local day 1 − first weekday + 7) % 7`, with day 1 and its weekday
/// from libicu. The locale plays no part (the first weekday is set explicitly), so the check
/// is swept over calendar × zone × first weekday 1…7 × month.
package struct LeadingBlanksCheck: Check, ReferenceChecked {
  package let id = "leading-blanks"
  package let summary =
    "blank cells before day 1 (seed 001 leadingBlanks) vs libicu's weekday of local day 1"
  package let seeds = ["001"]
  package let subjectFunctions: [Subject.Function] = [.leadingBlanks]
  package let dimensions: [Dimension] = [.calendar, .firstWeekday, .zone, .month]
  package let groupDimensions: [Dimension] = [.calendar, .zone]

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone,
      case .fixed(let firstWeekday)? = id.firstWeekday
    else { throw HarnessError("\(id): leading-blanks needs calendar, zone and fw 1…7") }
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: calendarID, zone: zone,
                                               days: false)
    let expected = (Int(month.firstWeekday) - firstWeekday + 7) % 7
    let calendar = try context.calendars.calendar(calendarID, zone: zone, firstWeekday: firstWeekday)
    let probe = EvaluationContext.date(geometry.probe)
    let actual = context.subject.leadingBlanks(probe, calendar)
    // Where the subject's month starts is its own answer (its first day cell), asked only to
    // explain a failure (a diagnosis, under its own limit), and not while an executor's
    // answer is still a stand-in.
    let start = expected == actual || context.awaitsSubject ? nil
      : context.diagnosis { MonthStart(probe, calendar, context) }
    return .comparing(
      expected: .int(expected), actual: .int(actual),
      pattern: context.withoutDiagnosis != nil && expected != actual
        ? "blank count off by \(actual - expected), where the subject's month starts not diagnosed"
        : Self.pattern(expected: expected, actual: actual, month: month, start: start,
                       context: context, zone: zone),
      detail: Self.detail(month: month, geometry: geometry, start: start, context: context,
                          zone: zone, firstWeekday: firstWeekday),
      months: MonthReadings(oracle: month.reading,
                            subject: EvaluationContext.subjectReading(probe, calendar)))
  }

  /// In UTC only (or the zone a sweep folds UTC into, Africa/Abidjan with `--time-zones all`):
  /// a month table's defect is the calendar's, the same in every zone, so it is reported
  /// once per calendar, first weekday and month (the full sweep would repeat it in 478 zones).
  func referenceJudgesPasses(_ id: CaseID, in data: ReferenceData) -> Bool {
    id.zone != nil && id.zone == data.utcZone
  }

  /// The blanks before the reference's day 1 of the month holding the middle of libicu's
  /// month (the same month where the two start a day apart). One release for every side.
  func reference(_ id: CaseID, in data: ReferenceData, side: ReferenceSide,
                 context: EvaluationContext) -> (name: String, answer: ReferenceAnswer) {
    let calendarID = id.calendar ?? "gregorian"
    guard let table = data.calendars[calendarID] else {
      return ("\(calendarID) months", .missing("Corpora/reference has no table of \(calendarID) months"))
    }
    guard case .fixed(let firstWeekday)? = id.firstWeekday, let day = id.month,
      let month = context.corpus.monthTables[calendarID]?.month(startingOn: day)
    else { return (table.name, .missing("\(id) names no libicu month")) }
    guard let theirs = table.month(containing: month.firstDay.adding(days: month.length / 2)) else {
      return (table.name, .missing("the table has no month around \(month.firstDay)"))
    }
    let weekday = Int((theirs.firstDay.julianDay + 1) % 7) + 1
    return (table.name, .value(.int((weekday - firstWeekday + 7) % 7),
                               note: "day 1 is \(theirs.firstDay), \(theirs.length) days"))
  }

  /// Where the subject's month starts: the first of its day cells (`days`), its own answer;
  /// for a subject without `days`, Foundation's month interval, labelled as the harness's.
  struct MonthStart {
    var instant: Date
    /// Who says so: "subject", or the harness's reading.
    var source: String

    init?(_ probe: Date, _ calendar: Calendar, _ context: EvaluationContext) {
      if !context.subject.missing.contains(.days) {
        guard let first = context.subject.days(probe, calendar).first else { return nil }
        (instant, source) = (first, "subject")
      } else {
        guard let start = calendar.dateInterval(of: .month, for: probe)?.start else { return nil }
        (instant, source) = (start, "Foundation (the harness's reading; the subject has no days function)")
      }
    }
  }

  /// Tells a month the subject starts on another day from a wrong weekday arithmetic.
  static func pattern(expected: Int, actual: Int, month: CalendarMonth, start: MonthStart?,
                      context: EvaluationContext, zone: String) -> String {
    guard let start, let subjectDay = try? context.oracle.timeline(zone).localDay(
      at: EvaluationContext.millis(start.instant))
    else { return "subject has no month interval" }
    let shift = subjectDay.julianDay - month.firstDay.julianDay
    // The size of the shift stays in the detail: one cause (a calendar read as another)
    // shifts different months by different amounts.
    if shift != 0 {
      return "subject's month starts \(shift > 0 ? "later" : "earlier") than libicu's"
    }
    return "blank count off by \(actual - expected) with the same day 1"
  }

  static func detail(month: CalendarMonth, geometry: MonthGeometry, start: MonthStart?,
                     context: EvaluationContext, zone: String, firstWeekday: Int) -> [String] {
    let timeline = try? context.oracle.timeline(zone)
    var lines = [
      "oracle: day 1 is \(month.firstDay) (weekday \(month.firstWeekday)), month of "
        + "\(month.length) days starting \((try? timeline?.wallText(at: geometry.firstInstant)) ?? "?")",
      "probe instant: \((try? timeline?.wallText(at: geometry.probe)) ?? "?")",
    ]
    if let start {
      let millis = EvaluationContext.millis(start.instant)
      let subjectDay = try? timeline?.localDay(at: millis)
      let shift = subjectDay.map { $0.julianDay - month.firstDay.julianDay } ?? 0
      // The weekday of that local day (libicu's zone rules), Sunday 1.
      let weekday = subjectDay.map { String(($0.julianDay + 1) % 7 + 1) } ?? "?"
      lines.append(
        "\(start.source): month starts \((try? timeline?.wallText(at: millis)) ?? "?")"
          + (shift == 0 ? "" : " (\(shift > 0 ? "+" : "")\(shift) days)")
          + ", weekday \(weekday), firstWeekday \(firstWeekday)")
    }
    return lines
  }
}
