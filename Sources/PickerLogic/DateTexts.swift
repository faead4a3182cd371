import Foundation

/// The texts the seeds show for a date, produced the way each seed produces them.
///
/// Every function takes the user's calendar (which carries the time zone) and locale, as the
/// seeds' views do through their environment; none fixes a locale or a calendar, because
/// that is what the seeds do and where they go wrong.
package enum DateTexts {
  /// Seed 000's row: `date.formatted(date: .abbreviated, time: .omitted)`.
  package static func rowText(_ date: Date, calendar: Calendar, locale: Locale) -> String {
    date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale,
                                    calendar: calendar, timeZone: calendar.timeZone))
  }

  /// Seed 000's accessibility value: `date.formatted(date: .long, time: .omitted)`.
  package static func accessibilityValue(_ date: Date, calendar: Calendar, locale: Locale)
    -> String
  {
    date.formatted(Date.FormatStyle(date: .long, time: .omitted, locale: locale,
                                    calendar: calendar, timeZone: calendar.timeZone))
  }

  /// Seed 001's month title: `Date.FormatStyle().month(.wide).year()`.
  package static func monthTitle(_ date: Date, calendar: Calendar, locale: Locale) -> String {
    date.formatted(style(Date.FormatStyle().month(.wide).year(), calendar, locale))
  }

  /// Seed 001's day cell: `String(calendar.component(.day, from: day))`, in any locale.
  package static func dayLabel(_ date: Date, calendar: Calendar) -> String {
    String(calendar.component(.day, from: date))
  }

  /// Seed 001's day cell accessibility label: weekday, day, month and year, all wide.
  package static func dayAccessibilityLabel(_ date: Date, calendar: Calendar, locale: Locale)
    -> String
  {
    date.formatted(style(Date.FormatStyle().weekday(.wide).day().month(.wide).year(), calendar,
                         locale))
  }

  /// Seed 003's list header: a `DateFormatter` with the medium date style and no time.
  package static func headerText(_ date: Date, calendar: Calendar, locale: Locale) -> String {
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.dateStyle = .medium
    formatter.timeStyle = .none
    return formatter.string(from: date)
  }

  /// Seed 004's text field after "Done": a `DateFormatter` with `dateFormat = "yyyy-MM-dd"`
  /// and the user's locale and calendar (the seed sets neither). `pattern` is for the
  /// self-test's mutant that writes `YYYY`; the seed's is the default.
  package static func fieldText(_ date: Date, calendar: Calendar, locale: Locale,
                               pattern: String = "yyyy-MM-dd") -> String {
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.dateFormat = pattern
    return formatter.string(from: date)
  }

  /// Whatever reads seed 004's field back: the same formatter's `date(from:)`. `nil` when
  /// the text names no instant in the zone (the day's midnight is skipped). `zone` is for
  /// the self-test's mutant that reads in another zone; the seed's is the calendar's.
  package static func fieldDate(_ text: String, calendar: Calendar, locale: Locale,
                               zone: TimeZone? = nil) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = locale
    formatter.calendar = calendar
    formatter.timeZone = zone ?? calendar.timeZone
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.date(from: text)
  }

  /// Seed 001's `format(_:_:)`: the style with the view's calendar, zone and locale.
  static func style(_ base: Date.FormatStyle, _ calendar: Calendar, _ locale: Locale)
    -> Date.FormatStyle
  {
    var style = base
    style.calendar = calendar
    style.timeZone = calendar.timeZone
    style.locale = locale
    return style
  }
}
