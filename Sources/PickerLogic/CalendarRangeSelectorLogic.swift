import Foundation

/// The date math of seed 001's calendar range selector, kept apart from any view.
///
/// This is the subject under test: each function keeps the seed's algorithm (its use of
/// `startOfDay`, `dateInterval(of: .month)`, `range(of: .day, in: .month)` and
/// `date(byAdding:)`), because finding where those algorithms break is the harness's job.
/// Do not make them more robust here; report what they get wrong instead.
public enum CalendarRangeSelectorLogic {
  /// The picked range: no start yet, a start only, or a start and an end.
  public struct Selection: Equatable, Sendable {
    public var start: Date?
    public var end: Date?

    public init(start: Date? = nil, end: Date? = nil) {
      self.start = start
      self.end = end
    }
  }

  /// How a day cell is drawn relative to the selection.
  public enum Role: String, Equatable, Sendable, CaseIterable {
    case outside, start, middle, end, single
  }

  /// The selection after tapping `day`: the first tap sets the start, the second the end; a
  /// tap before the start, or any tap once the range is complete, starts a new range.
  public static func selecting(_ day: Date, in selection: Selection, calendar: Calendar)
    -> Selection
  {
    let day = calendar.startOfDay(for: day)
    guard let start = selection.start.map({ calendar.startOfDay(for: $0) }),
      selection.end == nil, day >= start
    else {
      return Selection(start: day, end: nil)
    }
    return Selection(start: start, end: day)
  }

  /// The role of the cell for `day`, compared on start-of-day values.
  public static func role(of day: Date, in selection: Selection, calendar: Calendar) -> Role {
    let day = calendar.startOfDay(for: day)
    guard let start = selection.start.map({ calendar.startOfDay(for: $0) }) else {
      return .outside
    }
    guard let end = selection.end.map({ calendar.startOfDay(for: $0) }), end != start else {
      return day == start ? .single : .outside
    }
    let lower = min(start, end)
    let upper = max(start, end)
    if day == lower { return .start }
    if day == upper { return .end }
    return day > lower && day < upper ? .middle : .outside
  }

  /// One value per day cell of the month that contains `date`, as the seed builds them.
  public static func days(inMonthOf date: Date, calendar: Calendar) -> [Date] {
    guard let first = calendar.dateInterval(of: .month, for: date)?.start,
      let range = calendar.range(of: .day, in: .month, for: date)
    else { return [] }
    return range.compactMap {
      calendar.date(byAdding: .day, value: $0 - range.lowerBound, to: first)
    }
  }

  /// The empty cells before day one, given the calendar's first weekday.
  public static func leadingBlanks(inMonthOf date: Date, calendar: Calendar) -> Int {
    guard let first = calendar.dateInterval(of: .month, for: date)?.start else { return 0 }
    return (calendar.component(.weekday, from: first) - calendar.firstWeekday + 7) % 7
  }

  /// The column headers: very short standalone weekday symbols rotated to the first weekday.
  public static func weekdaySymbols(calendar: Calendar) -> [String] {
    let symbols = calendar.veryShortStandaloneWeekdaySymbols
    let offset = min(max(calendar.firstWeekday - 1, 0), symbols.count)
    return Array(symbols[offset...] + symbols[..<offset])
  }

  /// The month the previous (`-1`) or next (`+1`) month button shows after `month`.
  public static func paging(_ month: Date, by offset: Int, calendar: Calendar) -> Date? {
    calendar.date(byAdding: .month, value: offset, to: month)
  }

  /// The demo's "N nights" count between two picked days (0 or less reads "pick a later day").
  public static func nights(from start: Date, to end: Date, calendar: Calendar) -> Int {
    calendar.dateComponents([.day], from: start, to: end).day ?? 0
  }
}
