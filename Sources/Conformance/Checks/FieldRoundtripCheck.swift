import Foundation
import ICUOracle

/// `field-roundtrip` (seed 004): the text field's `yyyy-MM-dd`, read back, must give the
/// picked local day.
///
/// The days are those a zone transition falls on (where midnight may be skipped, as in
/// America/Sao_Paulo on 2018-11-04, or repeated, as in America/Havana on 2020-11-01), the
/// month's first day as a control, and 29 December to 3 January where the month holds them
/// (each year's in the zone that stands for UTC): there a week-based year (`YYYY`) is not the
/// calendar year, and reads back a year off.
///
/// Two readers (the variants): the formatter that wrote the field (`date(from:)`, what the app does when it
/// reads its own field) must give an instant of the picked date, as libicu places it in the zone
/// (which instant does not matter to a person: Havana's 2020-11-01 read at its second midnight
/// is still 1 November; no instant at all, where the date has no midnight, does);
/// an ISO 8601 reader (a server, a web form: ASCII digits, Gregorian) must give the day's
/// Gregorian date. The field is written in `en_US` (ASCII digits; `date-text`'s `field-iso8601` checks
/// every locale's digits), in the case's calendar: a Buddhist year reads as another year.
package struct FieldRoundtripCheck: Check {
  package let id = "field-roundtrip"
  package let summary =
    "seed 004's yyyy-MM-dd field read back by its own formatter and by an ISO 8601 reader vs the picked day's first instant and Gregorian date (libicu)"
  package let seeds = ["004"]
  package let subjectFunctions: [Subject.Function] = [.text, .fieldDate]
  package let dimensions: [Dimension] = [.calendar, .zone, .month, .variant]
  package let groupDimensions: [Dimension] = [.calendar, .zone]
  package let monthCoverage = MonthCoverage.transitionAndYearEndMonths
  /// One reader a case: the formatter's reading depends on the zone's rules (and tz data),
  /// the ISO reader's only on the text, so each failure triages on its own.
  package let variants = Reader.allCases.map(\.rawValue)

  /// The user's locale the field is written in.
  static let locale = "en_US"

  package init() {}

  package func evaluate(_ id: CaseID, in context: EvaluationContext) throws -> Outcome {
    guard let calendarID = id.calendar, let zone = id.zone, let variant = id.variant,
      let reader = Reader(rawValue: variant)
    else {
      throw HarnessError("\(id): field-roundtrip needs calendar, zone and a known variant")
    }
    try context.subject.requireText(.field)
    let (geometry, timeline, transitions, picked) = try Self.days(of: id, zone: zone, calendar: calendarID,
                                                                  in: context)
    // A voice that evaluates the case again asks libicu's days: a release whose transition
    // falls on another day would otherwise compare answers to other questions.
    let asked = try context.primary.map { primary in
      Set(try Self.days(of: id, zone: zone, calendar: calendarID, in: primary).picked.map(\.day))
    }
    let days = asked.map { asked in geometry.days.filter { asked.contains($0.day) } } ?? picked
    let calendar = try context.calendars.calendar(calendarID, zone: zone, locale: Self.locale)
    let locale = calendar.locale ?? Locale(identifier: Self.locale)

    var expected: [Value] = []
    var actual: [Value] = []
    var findings: [Finding] = []
    var texts: [String] = []
    // Each read-back and whether it is the date's first instant, for a failure's detail.
    var readings: [(day: MonthGeometry.Day, text: String, atStart: Bool, sameDay: Bool)] = []
    for day in days {
      // The picked instant: the middle of the day, where no transition falls.
      let picked = EvaluationContext.date((day.start + day.end) / 2)
      let text = context.subject.text(.field, picked, calendar, locale)
      texts.append("\(day.day) '\(text)'")
      switch reader {
      case .sameFormatter:
        // The user's date comes back, at any instant of it: which instant of the date a
        // formatter picks (the second of two midnights) is no date a person sees.
        let readBack = context.subject.fieldDate(text, calendar, locale).map(EvaluationContext.millis)
        expected.append(.string("\(day.day): \(day.day)"))
        let placed = try readBack.map { (millis) throws(ICUError) in try Self.place(millis, timeline) }
        actual.append(.string("\(day.day): \(placed.map { $0.day?.description ?? $0.text } ?? "nothing")"))
        if let placed {
          readings.append((day, placed.text, readBack == day.start, placed.day == day.day))
          if placed.day != day.day { findings.append(.otherDay) }
        } else {
          findings.append(try Self.startsAfterMidnight(day.start, timeline) ? .noMidnight : .noReading)
        }
      case .iso8601:
        let iso = Self.isoDay(text)
        expected.append(.string("\(day.day): \(day.day)"))
        actual.append(.string("\(day.day): \(iso?.description ?? "nothing")"))
        if let iso, iso != day.day {
          findings.append(iso.gregorian.year != day.day.gregorian.year ? .isoOtherYear : .isoOtherDate)
        } else if iso == nil {
          findings.append(.isoUnreadable)
        }
      }
    }
    let kinds = Set(transitions.flatMap(\.kinds)).sorted().map(\.rawValue)
    return context.recorded(.comparing(
      expected: .list(expected), actual: .list(actual),
      pattern: findings.min().map(\.text) ?? "",
      detail: [
        reader == .sameFormatter
          ? "read back by the formatter that wrote it: each day's date is expected (any instant of it)"
          : "read as an ISO 8601 date (ASCII digits, Gregorian): each day's date is expected",
        "fields: " + texts.joined(separator: ", "),
      ] + (readings.isEmpty ? [] : ["read back: " + readings.map { reading in
        "\(reading.day.day) read back at \(reading.text)" + (reading.atStart || !reading.sameDay ? ""
          : " (not the date's first instant, \((try? timeline.isoText(at: reading.day.start)) ?? "?"))")
      }.joined(separator: "; ")]) + [

        "days: the month's first, those a transition falls on (\(kinds.isEmpty ? "none" : kinds.joined(separator: ", "))) and any of 29 December – 3 January",
        "written with yyyy-MM-dd in \(Self.locale), calendar \(calendarID), zone \(zone)",
      ])) { (.list(expected), .list(actual)) }
  }

  /// The case's month in `context`'s view, its zone's clock and transitions there, and the
  /// days it asks: the month's first, those a transition falls on, and the week-based year's
  /// edges (the same in every zone: read back in one; a month, at most 31 days in any
  /// calendar, holds those of its first day's year or the year before).
  static func days(of id: CaseID, zone: String, calendar: String, in context: EvaluationContext)
    throws -> (geometry: MonthGeometry, timeline: any ZoneClock, transitions: [ZoneTransition],
               picked: [MonthGeometry.Day])
  {
    let month = try context.month(of: id)
    let geometry = try context.oracle.geometry(of: month, calendar: calendar, zone: zone, days: true)
    let timeline = try context.oracle.timeline(zone)
    let transitions = try timeline.transitions(from: geometry.firstInstant, to: geometry.endInstant)
    let year = month.firstDay.gregorian.year
    let edges = zone == context.corpus.utcZone ? Set((year - 1...year).flatMap(Corpus.weekYearEdge)) : []
    let picked = geometry.days.enumerated().filter { index, day in
      index == 0 || edges.contains(day.day)
        || transitions.contains { day.start <= $0.instant && $0.instant < day.end }
    }.map(\.element)
    return (geometry, timeline, transitions, picked)
  }

  /// A read-back instant as text and its local day, by `clock`; beyond a tz release's table
  /// (a Japanese field read back in the current era, decades later) it is written in UTC and
  /// has no day: it is none of the case's days, which lie within the table.
  static func place(_ millis: Double, _ clock: any ZoneClock) throws(ICUError) -> (text: String, day: LocalDay?) {
    if let table = clock as? ZoneTable, !table.covers(millis) {
      let day = LocalDay.containing(localMillis: millis)
      let second = Int((millis - (millis / 86_400_000).rounded(.down) * 86_400_000) / 1000)
      func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
      return ("\(day)T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z "
        + "(beyond the tz table's years)", nil)
    }
    return (try clock.isoText(at: millis), try clock.localDay(at: millis))
  }

  /// Who reads the field back.
  enum Reader: String, CaseIterable {
    /// The app, with the formatter that wrote the field.
    case sameFormatter = "same-formatter"
    /// A server or a web form: ISO 8601.
    case iso8601
  }

  /// What went wrong on a day, most telling first.
  enum Finding: Int, Comparable {
    case noMidnight, noReading, otherDay, isoOtherYear, isoOtherDate, isoUnreadable

    static func < (a: Finding, b: Finding) -> Bool { a.rawValue < b.rawValue }

    var text: String {
      switch self {
      case .noMidnight: "the field does not read back: the day has no midnight"
      case .noReading: "the field does not read back"
      case .otherDay: "the field reads back as another day"
      case .isoOtherYear: "an ISO 8601 reader takes the field for another year"
      case .isoOtherDate: "an ISO 8601 reader takes the field for another date"
      case .isoUnreadable: "an ISO 8601 reader cannot read the field"
      }
    }
  }

  /// The date an ISO 8601 reader takes `text` for: exactly `YYYY-MM-DD` in ASCII digits, a
  /// valid Gregorian date; `nil` otherwise.
  static func isoDay(_ text: String) -> LocalDay? {
    guard text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "-" }) else { return nil }
    return LocalDay(isoText: text)
  }

  /// Whether a day's first instant is later than its midnight (the zone skips midnight).
  static func startsAfterMidnight(_ start: Double, _ timeline: any ZoneClock) throws(ICUError) -> Bool {
    let local = start + Double(try timeline.offset(at: start).total)
    return local.truncatingRemainder(dividingBy: 86_400_000) != 0
  }
}
