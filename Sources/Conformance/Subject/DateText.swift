import Foundation
import PickerLogic

/// The texts the seeds show for a date (`date-text` variants).
public enum DateText: String, CaseIterable, Sendable {
  /// Seed 000's row: abbreviated date.
  case row
  /// Seed 000's accessibility value: long date.
  case accessibilityValue = "accessibility-value"
  /// Seed 001's month title: wide month and year.
  case monthTitle = "month-title"
  /// Seed 001's day cell: `String(Int)` of the day number.
  case dayLabel = "day-label"
  /// Seed 001's day cell accessibility label: weekday, day, month, year.
  case dayAccessibilityLabel = "day-accessibility-label"
  /// Seed 003's list header: medium date style.
  case header
  /// Seed 004's text field, `yyyy-MM-dd`: what `field-roundtrip` reads back.
  case field
  /// Seed 004's field as `date-text` judges it: the ISO 8601 date a form field means
  /// (Gregorian, ASCII digits), whatever the user's locale and calendar.
  case fieldISO = "field-iso8601"

  /// The texts `date-text` checks: every one but `field`, whose text `field-iso8601` judges
  /// (a `yyyy-MM-dd` field in the user's calendar is what the seed writes, not what a form
  /// field means).
  public static let checked: [DateText] = allCases.filter { $0 != .field }

  /// The texts `date-text` also checks over a whole cycle of the calendar's months: the wide
  /// month name (`Date.FormatStyle`) and the medium date (`DateFormatter`, seed 003). The
  /// other month-naming texts take the same names through the same two formatters.
  public static let cycled: [DateText] = [.monthTitle, .header]

  func render(_ date: Date, _ calendar: Calendar, _ locale: Locale) -> String {
    switch self {
    case .row: DateTexts.rowText(date, calendar: calendar, locale: locale)
    case .accessibilityValue: DateTexts.accessibilityValue(date, calendar: calendar, locale: locale)
    case .monthTitle: DateTexts.monthTitle(date, calendar: calendar, locale: locale)
    case .dayLabel: DateTexts.dayLabel(date, calendar: calendar)
    case .dayAccessibilityLabel:
      DateTexts.dayAccessibilityLabel(date, calendar: calendar, locale: locale)
    case .header: DateTexts.headerText(date, calendar: calendar, locale: locale)
    case .field, .fieldISO: DateTexts.fieldText(date, calendar: calendar, locale: locale)
    }
  }
}
