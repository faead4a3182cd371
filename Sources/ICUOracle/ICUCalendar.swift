internal import ICUShim

/// One open ICU calendar (a UCalendar of one backend), closed when the object goes away.
///
/// Not thread-safe, like the UCalendar it wraps: each worker opens its own.
public final class ICUCalendar {
  /// The calendar fields the oracle reads and writes.
  public enum Field: Sendable {
    case era, year, month, date, dayOfWeek, dayOfYear, hourOfDay, minute, second, millisecond
    case zoneOffset, dstOffset, extendedYear, julianDay, millisecondsInDay, isLeapMonth

    var shim: ICUShimField {
      switch self {
      case .era: ICUSHIM_FIELD_ERA
      case .year: ICUSHIM_FIELD_YEAR
      case .month: ICUSHIM_FIELD_MONTH
      case .date: ICUSHIM_FIELD_DATE
      case .dayOfWeek: ICUSHIM_FIELD_DAY_OF_WEEK
      case .dayOfYear: ICUSHIM_FIELD_DAY_OF_YEAR
      case .hourOfDay: ICUSHIM_FIELD_HOUR_OF_DAY
      case .minute: ICUSHIM_FIELD_MINUTE
      case .second: ICUSHIM_FIELD_SECOND
      case .millisecond: ICUSHIM_FIELD_MILLISECOND
      case .zoneOffset: ICUSHIM_FIELD_ZONE_OFFSET
      case .dstOffset: ICUSHIM_FIELD_DST_OFFSET
      case .extendedYear: ICUSHIM_FIELD_EXTENDED_YEAR
      case .julianDay: ICUSHIM_FIELD_JULIAN_DAY
      case .millisecondsInDay: ICUSHIM_FIELD_MILLISECONDS_IN_DAY
      case .isLeapMonth: ICUSHIM_FIELD_IS_LEAP_MONTH
      }
    }
  }

  /// What a wall time that does not exist (skipped) or exists twice (repeated) resolves to.
  public enum WallTime: Int32, Sendable {
    /// The later of two repeated times; for a skipped time, as if the earlier offset applied.
    case last = 0
    /// The earlier of two repeated times; for a skipped time, as if the later offset applied.
    case first = 1
    /// For a skipped time only: the first valid instant after the gap.
    case nextValid = 2
  }

  let handle: OpaquePointer
  /// The ledger that saw this handle open, told again when it closes.
  private let ledger = HandleLedger.current
  /// The backend this calendar computes with.
  public let backend: ICUBackend
  /// The locale id it was opened with (its `calendar` keyword picks the system).
  public let locale: String
  /// The zone id it was opened with.
  public let zone: String

  /// Opens a calendar for `locale` (e.g. `fa_IR@calendar=persian`) in `zone`.
  ///
  /// - Throws: `ICUError` when ICU refuses the locale or zone. ICU accepts unknown zones as
  ///   GMT and unknown calendar keywords as gregorian without complaint: callers validate ids
  ///   first (`ZoneCatalog`, `type`).
  public init(locale: String, zone: String, backend: ICUBackend = .system) throws(ICUError) {
    var status: Int32 = 0
    let opened = icushim_calendar_open(backend.handle, locale, zone, &status)
    self.handle = try ICU.opened(opened, status, backend,
                                 "ucal_open(locale: \(locale), zone: \(zone))")
    self.backend = backend
    self.locale = locale
    self.zone = zone
    ledger?.didOpen()
  }

  deinit {
    icushim_calendar_close(handle)
    ledger?.didClose()
  }

  /// The calendar system ICU actually opened (`gregorian` when it ignored a keyword).
  public func type() throws(ICUError) -> String {
    try ICU.cString(backend, "ucal_getType(\(locale))", capacity: 32) { buffer, capacity, status in
      icushim_calendar_type(handle, buffer, capacity, status)
    }
  }

  /// The current instant in ICU milliseconds since 1970.
  public func millis() throws(ICUError) -> Double {
    var status: Int32 = 0
    let value = icushim_calendar_millis(handle, &status)
    try ICU.check(status, backend, "ucal_getMillis(\(locale), \(zone))")
    return value
  }

  public func setMillis(_ millis: Double) throws(ICUError) {
    var status: Int32 = 0
    icushim_calendar_set_millis(handle, millis, &status)
    try ICU.check(status, backend, "ucal_setMillis(\(millis))")
  }

  public func get(_ field: Field) throws(ICUError) -> Int32 {
    var status: Int32 = 0
    let value = icushim_calendar_get(handle, field.shim, &status)
    try ICU.check(status, backend, "ucal_get(\(field), \(locale), \(zone))")
    return value
  }

  public func set(_ field: Field, _ value: Int32) {
    icushim_calendar_set(handle, field.shim, value)
  }

  /// Clears every field, so the next `set`s alone define the date.
  public func clear() { icushim_calendar_clear(handle) }

  public func add(_ field: Field, _ amount: Int32) throws(ICUError) {
    var status: Int32 = 0
    icushim_calendar_add(handle, field.shim, amount, &status)
    try ICU.check(status, backend, "ucal_add(\(field), \(amount), \(locale), \(zone))")
  }

  /// ICU's first day of the week for this calendar (1 = Sunday … 7 = Saturday).
  public var firstDayOfWeek: Int32 {
    get { icushim_calendar_attribute(handle, ICUSHIM_ATTRIBUTE_FIRST_DAY_OF_WEEK) }
    set { icushim_calendar_set_attribute(handle, ICUSHIM_ATTRIBUTE_FIRST_DAY_OF_WEEK, newValue) }
  }

  /// ICU's minimal days in the first week of a year (4 for ISO 8601).
  public var minimalDaysInFirstWeek: Int32 {
    icushim_calendar_attribute(handle, ICUSHIM_ATTRIBUTE_MINIMAL_DAYS_IN_FIRST_WEEK)
  }

  /// Whether ICU opened the calendar system `requested`. libicu 72 reports its ISO 8601
  /// calendar as `gregorian` (`ucal_getType`), so that one is recognised by its week rules.
  public func isSystem(_ requested: String) throws(ICUError) -> Bool {
    let opened = try type()
    if opened == requested { return true }
    return requested == "iso8601" && opened == "gregorian" && firstDayOfWeek == 2
      && minimalDaysInFirstWeek == 4
  }

  /// The policy for wall times a spring-forward skips (ICU's default: `.last`).
  public var skippedWallTime: WallTime {
    get {
      WallTime(rawValue: icushim_calendar_attribute(handle, ICUSHIM_ATTRIBUTE_SKIPPED_WALL_TIME))
        ?? .last
    }
    set {
      icushim_calendar_set_attribute(handle, ICUSHIM_ATTRIBUTE_SKIPPED_WALL_TIME, newValue.rawValue)
    }
  }

  /// The policy for wall times a fall-back repeats (ICU's default: `.last`).
  public var repeatedWallTime: WallTime {
    get {
      WallTime(rawValue: icushim_calendar_attribute(handle, ICUSHIM_ATTRIBUTE_REPEATED_WALL_TIME))
        ?? .last
    }
    set {
      icushim_calendar_set_attribute(handle, ICUSHIM_ATTRIBUTE_REPEATED_WALL_TIME,
                                     newValue.rawValue)
    }
  }

  /// ucal_getFieldDifference: how many `field` units from the current instant to `target`
  /// (moves the calendar towards `target`).
  public func difference(to target: Double, in field: Field) throws(ICUError) -> Int32 {
    var status: Int32 = 0
    let value = icushim_calendar_field_difference(handle, target, field.shim, &status)
    try ICU.check(status, backend, "ucal_getFieldDifference(\(field), \(locale), \(zone))")
    return value
  }

  /// The first zone transition strictly after `millis`, or `nil` when the rules have none.
  public func transition(after millis: Double) throws(ICUError) -> Double? {
    try setMillis(millis)
    var status: Int32 = 0
    var result: Double = 0
    let found = icushim_calendar_transition(handle, ICUSHIM_TRANSITION_NEXT, &result, &status)
    try ICU.check(status, backend, "ucal_getTimeZoneTransitionDate(\(zone))")
    return found != 0 ? result : nil
  }
}
