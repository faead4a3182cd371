import Foundation
import ICUOracle
import PickerLogic

extension Subject {
  /// The answers Documentation/ExecutorProtocol.md states, written on Foundation: what a team
  /// that follows the contract, not the seeds, answers. `conformance executor --contract`
  /// serves it, and CI sweeps the core corpus through it: every failure must be one the
  /// document names (Foundation's data and calendars, never the contract's arithmetic).
  ///
  /// Dates are compared as dates (their Gregorian fields at the zone's wall time), never as
  /// instants or through `startOfDay`: that is where the seeds' logic deviates.
  public static let contract: Subject = {
    var subject = Subject.pickerLogic
    subject.name = "Contract"
    subject.shares = [.foundation, .any]
    subject.closes = .init { old, new, calendar in Contract.date(old, calendar) != Contract.date(new, calendar) }
    subject.selecting = .init { day, selection, calendar in
      let picked = Contract.date(day, calendar)
      guard let start = selection.start, selection.end == nil, picked >= Contract.date(start, calendar) else {
        return Selection(start: Contract.start(of: day, calendar))
      }
      return Selection(start: Contract.start(of: start, calendar), end: Contract.start(of: day, calendar))
    }
    subject.role = .init { day, selection, calendar in
      let date = Contract.date(day, calendar)
      guard let start = selection.start.map({ Contract.date($0, calendar) }) else { return .outside }
      guard let end = selection.end.map({ Contract.date($0, calendar) }), end != start else {
        return date == start ? .single : .outside
      }
      let (lower, upper) = (min(start, end), max(start, end))
      if date == lower { return .start }
      if date == upper { return .end }
      return date > lower && date < upper ? .middle : .outside
    }
    subject.days = .init { month, calendar in Contract.days(month, calendar) }
    subject.paging = .init { month, offset, calendar in
      guard let interval = calendar.dateInterval(of: .month, for: month) else { return nil }
      return offset > 0 ? interval.end
        : calendar.dateInterval(of: .month, for: interval.start.addingTimeInterval(-1))?.start
    }
    subject.nights = .init { start, end, calendar in Contract.nights(from: start, to: end, calendar) }
    subject.text = .init { kind, date, calendar, locale in
      switch kind {
      case .dayLabel:
        // The day number in the locale's digits (its default numbering system).
        calendar.component(.day, from: date).formatted(IntegerFormatStyle<Int>(locale: locale).grouping(.never))
      case .field, .fieldISO: Contract.date(date, calendar).description
      default: pickerLogic.text(kind, date, calendar, locale)
      }
    }
    subject.fieldDate = .init { text, calendar, _ in Contract.fieldDate(text, calendar) }
    return subject
  }()
}

/// The contract's day arithmetic on Foundation (Documentation/ExecutorProtocol.md, "Day
/// arithmetic the rules share").
enum Contract {
  /// An instant's local date: its Gregorian date at the zone's wall time, the same date in
  /// every calendar system.
  static func date(_ instant: Date, _ calendar: Calendar) -> LocalDay {
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = calendar.timeZone
    let parts = gregorian.dateComponents([.year, .month, .day], from: instant)
    return LocalDay(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
  }

  /// The first instant of an instant's date: after a skipped midnight, the gap's end.
  static func start(of instant: Date, _ calendar: Calendar) -> Date {
    let day = date(instant, calendar)
    // Foundation's start of day, unless it falls on another date (a fall-back across
    // midnight can give the day before's); then the latest instant before `instant` on it.
    let start = calendar.startOfDay(for: instant)
    return date(start, calendar) == day ? start : instant
  }

  /// The date after `instant`'s that exists in the zone: 36 hours after the start of a date
  /// is in the next existing date, however long the date was (23 to 25 hours) and whichever
  /// date the zone skipped (Pacific/Apia 2011-12-30).
  static func next(_ instant: Date, _ calendar: Calendar) -> Date {
    start(of: start(of: instant, calendar).addingTimeInterval(36 * 3_600), calendar)
  }

  /// The first instant of each existing date of the month holding `month`.
  static func days(_ month: Date, _ calendar: Calendar) -> [Date] {
    guard let interval = calendar.dateInterval(of: .month, for: month) else { return [] }
    var cells: [Date] = []
    var day = start(of: interval.start, calendar)
    while day < interval.end, cells.count < 64 {
      cells.append(day)
      day = next(day, calendar)
    }
    return cells
  }

  /// A night per existing date from `start`'s up to `end`'s, the last excluded; negative
  /// when `end` is before `start`.
  static func nights(from start: Date, to end: Date, _ calendar: Calendar) -> Int {
    guard date(end, calendar) >= date(start, calendar) else { return -nights(from: end, to: start, calendar) }
    var count = 0
    var day = start
    let last = date(end, calendar)
    while date(day, calendar) < last, count < 100_000 {
      day = next(day, calendar)
      count += 1
    }
    return count
  }

  /// The field, an ISO 8601 date, read back: the first instant of that date in the zone, or
  /// `nil` when the text is no such date or the zone skipped it.
  static func fieldDate(_ text: String, _ calendar: Calendar) -> Date? {
    guard text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "-" }),
      let day = LocalDay(isoText: text)
    else { return nil }
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = calendar.timeZone
    let (year, month, number) = day.gregorian
    guard let noon = gregorian.date(from: DateComponents(year: year, month: month, day: number, hour: 12)),
      date(noon, calendar) == day
    else { return nil }
    return start(of: noon, calendar)
  }
}
