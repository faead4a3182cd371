import Foundation

/// The blank cells before day 1 of a month grid, as many date pickers write it: with the
/// deliberate defect this example exists to show, the count starts from Sunday whatever the
/// calendar's `firstWeekday` says (right in en_US, wrong wherever weeks start on Monday).
public enum MyPicker {
  public static func leadingBlanks(inMonthOf date: Date, calendar: Calendar) -> Int {
    guard let first = calendar.dateInterval(of: .month, for: date)?.start else { return 0 }
    return calendar.component(.weekday, from: first) - 1
  }
}
