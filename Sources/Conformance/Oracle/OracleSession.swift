import ICUOracle

/// One worker's access to libicu: open zone timelines and memoized per-locale answers.
///
/// ICU handles are not thread-safe, so each worker owns a session.
final class OracleSession {
  let catalog: LocaleCatalog
  private var timelines: [String: ZoneTimeline] = [:]
  private var symbols: [String: [String]] = [:]
  private var firstDays: [String: Int] = [:]
  private var lastGeometry: (key: String, geometry: MonthGeometry)?

  init(catalog: LocaleCatalog) { self.catalog = catalog }

  func timeline(_ zone: String) throws(ICUError) -> ZoneTimeline {
    if let timeline = timelines[zone] { return timeline }
    let timeline = try ZoneTimeline(zone: zone)
    timelines[zone] = timeline
    return timeline
  }

  /// Standalone narrow weekday symbols, Sunday first, for an ICU locale id and calendar.
  func weekdaySymbols(locale icuID: String, calendar: String) throws(ICUError) -> [String] {
    let key = icuID + "|" + calendar
    if let cached = symbols[key] { return cached }
    let value = try ICU.standaloneNarrowWeekdays(locale: icuID, calendar: calendar,
                                                 catalog: catalog)
    if symbols.count > 4096 { symbols.removeAll(keepingCapacity: true) }
    symbols[key] = value
    return value
  }

  /// The locale's first weekday in a calendar by UTS #35 (its `fw` keyword, else libicu's
  /// week data for the locale and calendar).
  func firstDay(locale icuID: String, calendar: String) throws(ICUError) -> Int {
    let key = icuID + "|" + calendar
    if let cached = firstDays[key] { return cached }
    let value = try FirstDayOfWeek.of(locale: icuID, calendar: calendar, catalog: catalog)
    if firstDays.count > 4096 { firstDays.removeAll(keepingCapacity: true) }
    firstDays[key] = value
    return value
  }

  /// The month laid onto the zone; with `days`, every existing day and its start.
  func geometry(of month: CalendarMonth, calendar: String, zone: String, days withDays: Bool)
    throws(ICUError) -> MonthGeometry
  {
    let key = "\(calendar)|\(zone)|\(month.firstDay.julianDay)|\(withDays)"
    if let last = lastGeometry, last.key == key { return last.geometry }
    let timeline = try timeline(zone)
    let first = try timeline.firstInstant(onOrAfter: month.firstDay)
    let end = try timeline.firstInstant(onOrAfter: month.endDay)
    var days: [MonthGeometry.Day] = []
    if withDays {
      var pending: (day: LocalDay, start: Double)?
      var day = month.firstDay
      while day < month.endDay {
        if let start = try timeline.start(of: day) {
          if let previous = pending {
            days.append(.init(day: previous.day, start: previous.start, end: start))
          }
          pending = (day, start)
        }
        day = day.adding(days: 1)
      }
      if let previous = pending {
        days.append(.init(day: previous.day, start: previous.start, end: end))
      }
    }
    let geometry = MonthGeometry(month: month, firstInstant: first, endInstant: end, days: days)
    lastGeometry = (key, geometry)
    return geometry
  }
}
