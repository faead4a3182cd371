import Foundation

/// The blank cells before day 1 of a month grid, as many date pickers write it: with the
/// deliberate defect this example exists to show, the count starts from Sunday whatever the
/// calendar's `firstWeekday` says (right in en_US, wrong wherever weeks start on Monday).
public enum MyPicker {
  public static func leadingBlanks(inMonthOf date: Date, calendar: Calendar) -> Int {
    guard let first = calendar.dateInterval(of: .month, for: date)?.start else { return 0 }
    return calendar.component(.weekday, from: first) - 1
  }

  /// The grid's column headers from the first weekday on, with a second deliberate defect:
  /// the table of rotations forgot Saturday, so it traps (index out of range) wherever weeks
  /// start on Saturday.
  public static func weekdaySymbols(calendar: Calendar) -> [String] {
    let rotations = [0, 1, 2, 3, 4, 5]  // Sunday first … Friday first
    let offset = rotations[calendar.firstWeekday - 1]
    let symbols = calendar.veryShortStandaloneWeekdaySymbols
    return Array(symbols[offset...] + symbols[..<offset])
  }

  /// The day cells of the month holding `date`, with a third deliberate defect, the kind of
  /// loop HorizonCalendar's layout enumerator has: each next day is rebuilt from its era,
  /// year, month and day + 1, which drops a Chinese (or Dangi) leap month's `isLeapMonth`,
  /// so in a leap month the next day lands back in the month before it and the walk never
  /// reaches the month's end. Right in every other month.
  public static func days(inMonthOf date: Date, calendar: Calendar) -> [Date] {
    guard let month = calendar.dateInterval(of: .month, for: date) else { return [] }
    var days: [Date] = []
    var day = month.start
    while day < month.end {
      if days.count < 62 { days.append(day) }
      let parts = calendar.dateComponents([.era, .year, .month, .day], from: day)
      let next = DateComponents(era: parts.era, year: parts.year, month: parts.month, day: (parts.day ?? 0) + 1)
      guard let following = calendar.date(from: next) else { break }
      day = following
    }
    return days
  }
}
