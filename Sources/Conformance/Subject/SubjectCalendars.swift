import Foundation

/// Foundation `Calendar` values for the subject, built once per (calendar, zone, locale,
/// first weekday) and reused: building one with a new locale costs tens of microseconds.
///
/// One per worker; not shared between threads.
final class SubjectCalendars {
  struct Key: Hashable {
    var calendar: String
    var zone: String
    var locale: String?
    var firstWeekday: Int?
  }

  private var cache: [Key: Calendar] = [:]
  private var zones: [String: TimeZone] = [:]
  /// Bounds the cache for sweeps over every locale; refilling costs little.
  private let limit = 4096

  /// The subject's calendar.
  ///
  /// - Throws: `SubjectUnavailable` when Foundation cannot make it (the case is skipped).
  func calendar(_ cldr: String, zone: String, locale: String? = nil, firstWeekday: Int? = nil)
    throws(SubjectUnavailable) -> Calendar
  {
    let key = Key(calendar: cldr, zone: zone, locale: locale, firstWeekday: firstWeekday)
    if let cached = cache[key] { return cached }
    guard let identifier = CalendarIdentifiers.foundation(cldr) else {
      throw SubjectUnavailable("Foundation has no calendar '\(cldr)'")
    }
    guard let timeZone = zones[zone] ?? TimeZone(identifier: zone) else {
      throw SubjectUnavailable("Foundation does not know time zone '\(zone)'")
    }
    zones[zone] = timeZone
    var calendar = Calendar(identifier: identifier)
    calendar.timeZone = timeZone
    if let locale { calendar.locale = Locale(identifier: locale) }
    if let firstWeekday { calendar.firstWeekday = firstWeekday }
    if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
    cache[key] = calendar
    return calendar
  }
}

/// Why the subject cannot run a case on this toolchain (the case is skipped, not failed).
struct SubjectUnavailable: Error {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
