import Foundation

/// A Gregorian-or-other calendar in a zone, with an optional locale and first weekday.
func calendar(_ identifier: Calendar.Identifier = .gregorian, zone: String = "UTC",
              locale: String? = nil, firstWeekday: Int? = nil) -> Calendar {
  var calendar = Calendar(identifier: identifier)
  calendar.timeZone = TimeZone(identifier: zone)!
  if let locale { calendar.locale = Locale(identifier: locale) }
  if let firstWeekday { calendar.firstWeekday = firstWeekday }
  return calendar
}

/// An instant from an ISO 8601 UTC timestamp such as `2021-03-21T20:30:00Z`.
func instant(_ text: String) -> Date {
  let formatter = ISO8601DateFormatter()
  guard let date = formatter.date(from: text) else { fatalError("bad test timestamp \(text)") }
  return date
}

func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
