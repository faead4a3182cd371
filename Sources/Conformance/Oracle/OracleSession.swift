import ICUOracle

/// One worker's access to an ICU: open zone timelines and memoized per-locale answers.
///
/// The oracle is libicu; a second session over Foundation's own ICU re-computes the same
/// expectations for triage. ICU handles are not thread-safe, so each worker owns a session.
final class OracleSession {
  let catalog: LocaleCatalog
  var backend: ICUBackend { catalog.backend }
  /// Shared zone tables (tables mode), or `nil`: then each zone is asked through libicu.
  private let tables: ZoneTables?
  /// Whether to memoize answers (symbols, first days, formats, the last month's geometry);
  /// off in direct mode, which asks libicu afresh for every case.
  private let memoize: Bool
  private var timelines: [String: any ZoneClock] = [:]
  private var symbols: Memo<[String]>
  private var firstDays: Memo<Int>
  private var lastGeometry: (key: GeometryKey, geometry: MonthGeometry)?
  /// Calendar handles are reused in both modes: direct mode re-reads answers, not handles.
  private var calendars = Memo<ICUCalendar>(limit: 256, enabled: true)
  private var formats: Memo<ICUDateFormat>
  /// The last locale's pattern generator: a date-text group asks it four skeletons in a row.
  private var lastGenerator: ICUPatternGenerator?

  /// Zone clocks from elsewhere (a tz release of the reference), asked before anything else.
  private let clocks: ((String) -> (any ZoneClock)?)?

  init(catalog: LocaleCatalog, tables: ZoneTables? = nil, memoize: Bool = true,
       clocks: ((String) -> (any ZoneClock)?)? = nil) {
    self.catalog = catalog
    self.tables = tables
    self.clocks = clocks
    self.memoize = memoize
    symbols = Memo(limit: 4096, enabled: memoize)
    firstDays = Memo(limit: 4096, enabled: memoize)
    // Formats are nearly all single-use (one per locale, calendar and text) and each holds
    // ~50 KB of ICU symbols and number formats: keep few (1024 of them cost ~100 MB).
    formats = Memo(limit: 32, enabled: memoize)
  }

  /// The zone's clock: its shared table (libicu beyond the table's span), else a libicu
  /// timeline this session keeps open.
  func timeline(_ zone: String) throws(ICUError) -> any ZoneClock {
    if let timeline = timelines[zone] { return timeline }
    // A reference context is built only for zones its release has (ZoneTriage checks first).
    if let clock = clocks?(zone) {
      timelines[zone] = clock
      return clock
    }
    if let table = try tables?.table(zone) {
      let clock = TableOrTimeline(table)
      timelines[zone] = clock
      return clock
    }
    let timeline = try ZoneTimeline(zone: zone, backend: backend)
    timelines[zone] = timeline
    return timeline
  }

  /// An ICU calendar of a calendar system in a zone, with ICU's default wall-time policies
  /// (`LAST` for skipped and repeated times, as Foundation's own arithmetic behaves).
  func calendar(_ calendar: String, zone: String) throws(ICUError) -> ICUCalendar {
    let backend = self.backend
    return try calendars.value(calendar + "|" + zone) { () throws(ICUError) in
      try ICUCalendar(locale: "en_US_POSIX@calendar=\(calendar)", zone: zone, backend: backend)
    }
  }

  /// A date format for an ICU locale id (with its calendar keyword) in a zone: from a
  /// pattern, a skeleton (through the locale's best pattern) or a date style.
  func format(locale: String, zone: String, _ spec: FormatSpec) throws(ICUError) -> ICUDateFormat {
    let backend = self.backend
    return try formats.value("\(locale)|\(zone)|\(spec)") { () throws(ICUError) in
      switch spec {
      case .pattern(let pattern):
        return try ICUDateFormat(pattern: pattern, locale: locale, zone: zone, backend: backend)
      case .skeleton(let skeleton):
        let pattern = try self.patternGenerator(locale).bestPattern(skeleton: skeleton)
        return try ICUDateFormat(pattern: pattern, locale: locale, zone: zone, backend: backend)
      case .style(let style):
        return try ICUDateFormat(dateStyle: style, locale: locale, zone: zone, backend: backend)
      }
    }
  }

  /// The locale's pattern generator: the last one again in memo mode, else a fresh one.
  private func patternGenerator(_ locale: String) throws(ICUError) -> ICUPatternGenerator {
    if memoize, let last = lastGenerator, last.locale == locale { return last }
    let generator = try ICUPatternGenerator(locale: locale, backend: backend)
    if memoize { lastGenerator = generator }
    return generator
  }

  /// Standalone narrow weekday symbols, Sunday first, for an ICU locale id and calendar.
  func weekdaySymbols(locale icuID: String, calendar: String) throws(ICUError) -> [String] {
    let catalog = self.catalog
    return try symbols.value(icuID + "|" + calendar) { () throws(ICUError) in
      try ICU.standaloneNarrowWeekdays(locale: icuID, calendar: calendar, catalog: catalog)
    }
  }

  /// The locale's first weekday in a calendar by UTS #35 (its `fw` keyword, else libicu's
  /// week data for the locale and calendar).
  func firstDay(locale icuID: String, calendar: String) throws(ICUError) -> Int {
    let catalog = self.catalog
    return try firstDays.value(icuID + "|" + calendar) { () throws(ICUError) in
      try FirstDayOfWeek.of(locale: icuID, calendar: calendar, catalog: catalog)
    }
  }

  /// The month laid onto the zone; with `days`, every existing day and its start.
  func geometry(of month: CalendarMonth, calendar: String, zone: String, days withDays: Bool)
    throws(ICUError) -> MonthGeometry
  {
    // A struct, not an interpolated string: this runs for every case of every month check.
    let key = GeometryKey(calendar: calendar, zone: zone, month: month.firstDay, days: withDays)
    if memoize, let last = lastGeometry, last.key == key { return last.geometry }
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

/// What a month geometry was computed for.
struct GeometryKey: Equatable {
  var calendar: String
  var zone: String
  var month: LocalDay
  var days: Bool
}

/// How the oracle builds the format for a text.
enum FormatSpec: Hashable, CustomStringConvertible {
  case pattern(String)
  case skeleton(String)
  case style(ICUDateFormat.Style)

  var description: String {
    switch self {
    case .pattern(let pattern): "pattern \(pattern)"
    case .skeleton(let skeleton): "skeleton \(skeleton)"
    case .style(let style): "style \(style)"
    }
  }
}

/// Answers kept by key up to `limit`, then all dropped at once (refilling is cheap, and a
/// sweep over every locale must not grow without bound); when not `enabled`, every answer
/// is computed afresh and nothing is kept.
struct Memo<Value> {
  let limit: Int
  let enabled: Bool
  private var values: [String: Value] = [:]

  init(limit: Int, enabled: Bool) {
    self.limit = limit
    self.enabled = enabled
  }

  mutating func value(_ key: String, _ make: () throws(ICUError) -> Value) throws(ICUError)
    -> Value
  {
    if enabled, let kept = values[key] { return kept }
    let value = try make()
    guard enabled else { return value }
    if values.count > limit { values.removeAll(keepingCapacity: true) }
    values[key] = value
    return value
  }
}
