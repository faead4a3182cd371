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
  package static let contract: Subject = {
    var subject = Subject.pickerLogic
    subject.name = "Contract"
    subject.shares = [.foundation, .any]
    subject.closes = .init { old, new, calendar in
      let dates = Contract(calendar)
      return dates.date(old) != dates.date(new)
    }
    subject.selecting = .init { day, selection, calendar in
      let dates = Contract(calendar)
      guard let start = selection.start, selection.end == nil, dates.date(day) >= dates.date(start) else {
        return Selection(start: dates.start(of: day))
      }
      return Selection(start: dates.start(of: start), end: dates.start(of: day))
    }
    subject.role = .init { day, selection, calendar in
      let dates = Contract(calendar)
      let date = dates.date(day)
      guard let start = selection.start.map(dates.date) else { return .outside }
      guard let end = selection.end.map(dates.date), end != start else {
        return date == start ? .single : .outside
      }
      let (lower, upper) = (min(start, end), max(start, end))
      if date == lower { return .start }
      if date == upper { return .end }
      return date > lower && date < upper ? .middle : .outside
    }
    subject.days = .init { month, calendar in Contract(calendar).days(month) }
    subject.paging = .init { month, offset, calendar in
      guard let interval = calendar.dateInterval(of: .month, for: month) else { return nil }
      return offset > 0 ? interval.end
        : calendar.dateInterval(of: .month, for: interval.start.addingTimeInterval(-1))?.start
    }
    subject.nights = .init { start, end, calendar in Contract(calendar).nights(from: start, to: end) }
    subject.text = .init { kind, date, calendar, locale in
      switch kind {
      case .dayLabel:
        // The day number in the locale's digits (its default numbering system).
        calendar.component(.day, from: date).formatted(IntegerFormatStyle<Int>(locale: locale).grouping(.never))
      case .field, .fieldISO: Contract(calendar).date(date).description
      default: pickerLogic.text(kind, date, calendar, locale)
      }
    }
    subject.fieldDate = .init { text, calendar, _ in Contract(calendar).fieldDate(text) }
    return subject
  }()
}

/// The contract's day arithmetic on Foundation (Documentation/ExecutorProtocol.md, "Dates
/// the rules share"), in one question's calendar: its Gregorian twin in the same zone is made
/// once, not once per date read.
struct Contract {
  let calendar: Calendar
  private let gregorian: Calendar

  init(_ calendar: Calendar) {
    self.calendar = calendar
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = calendar.timeZone
    self.gregorian = gregorian
  }

  /// An instant's local date: its Gregorian date at the zone's wall time, the same date in
  /// every calendar system.
  func date(_ instant: Date) -> LocalDay {
    let parts = gregorian.dateComponents([.year, .month, .day], from: instant)
    return LocalDay(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
  }

  /// The first instant of an instant's date: after a skipped midnight, the gap's end.
  func start(of instant: Date) -> Date {
    // Foundation's start of day, unless it falls on another date (a fall-back across
    // midnight can give the day before's); then the instant itself.
    let start = calendar.startOfDay(for: instant)
    return date(start) == date(instant) ? start : instant
  }

  /// The date after `instant`'s that exists in the zone: 36 hours after the start of a date
  /// is in the next existing date, however long the date was (23 to 25 hours) and whichever
  /// date the zone skipped (Pacific/Apia 2011-12-30).
  func next(_ instant: Date) -> Date {
    start(of: start(of: instant).addingTimeInterval(36 * 3_600))
  }

  /// The first instant of each existing date of the month holding `month`.
  func days(_ month: Date) -> [Date] {
    guard let interval = calendar.dateInterval(of: .month, for: month) else { return [] }
    var cells: [Date] = []
    var day = start(of: interval.start)
    while day < interval.end, cells.count < 64 {
      cells.append(day)
      day = next(day)
    }
    return cells
  }

  /// A night per existing date from `start`'s up to `end`'s, the last excluded; negative
  /// when `end` is before `start`.
  func nights(from start: Date, to end: Date) -> Int {
    guard date(end) >= date(start) else { return -nights(from: end, to: start) }
    var count = 0
    var day = start
    let last = date(end)
    while date(day) < last, count < 100_000 {
      day = next(day)
      count += 1
    }
    return count
  }

  /// The field, an ISO 8601 date, read back: the first instant of that date in the zone, or
  /// `nil` when the text is no such date or the zone skipped it.
  func fieldDate(_ text: String) -> Date? {
    guard text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "-" }),
      let day = LocalDay(isoText: text)
    else { return nil }
    let (year, month, number) = day.gregorian
    guard let noon = gregorian.date(from: DateComponents(year: year, month: month, day: number, hour: 12)),
      date(noon) == day
    else { return nil }
    return start(of: noon)
  }
}
