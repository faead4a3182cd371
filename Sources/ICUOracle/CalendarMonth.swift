/// One month of one calendar system, in local days: what the oracle expects of a month.
public struct CalendarMonth: Hashable, Sendable {
  /// The month's first local day (ICU `DATE` = 1).
  public var firstDay: LocalDay
  /// Local days from this month's first day to the next month's first day. Taken from
  /// consecutive month starts, not from `ucal_getLimit`, which is wrong for Chinese and Dangi
  /// leap months in libicu 72.
  public var length: Int32
  /// ICU's day of week of the first day (1 = Sunday … 7 = Saturday).
  public var firstWeekday: Int32
  public var era: Int32
  public var year: Int32
  public var extendedYear: Int32
  /// ICU's 0-based month number (Hebrew numbers Adar I as 5 in every year).
  public var month: Int32
  public var isLeapMonth: Bool

  /// The first day after the month.
  public var endDay: LocalDay { firstDay.adding(days: length) }

  /// Whether `day` falls in this month.
  public func contains(_ day: LocalDay) -> Bool { day >= firstDay && day < endDay }

  /// The oracle's reading of the month, e.g. `era 1 year 5781 month 8` or `… month 6 leap`.
  public var reading: String {
    "era \(era) year \(year) month \(month + 1)\(isLeapMonth ? " leap" : "")"
  }
}

extension ICU {
  /// The months of a calendar system that overlap `days`, from libicu's month arithmetic.
  ///
  /// Computed once per calendar: calendar structure does not depend on the zone when it is
  /// expressed in local days. Starts come from `ucal_add(MONTH, 1)` then `DATE = 1`, read as
  /// `JULIAN_DAY`, which also steps through leap months.
  ///
  /// - Throws: `ICUError` when ICU fails, or when it does not open `calendar` as asked (it
  ///   silently substitutes `gregorian` for keywords it does not know).
  public static func months(of calendar: String, overlapping days: ClosedRange<LocalDay>,
                            backend: ICUBackend = .system) throws(ICUError) -> [CalendarMonth]
  {
    let icu = try ICUCalendar(locale: "en_US_POSIX@calendar=\(calendar)", zone: "GMT",
                              backend: backend)
    guard try icu.isSystem(calendar) else {
      throw ICUError(status: 1, name: "U_ILLEGAL_ARGUMENT_ERROR",
                     operation: "ucal_open(@calendar=\(calendar)) opened \(try icu.type())")
    }
    try icu.setMillis(days.lowerBound.utcMillis)
    icu.set(.date, 1)
    var months: [CalendarMonth] = []
    var start = LocalDay(julianDay: try icu.get(.julianDay))
    while start <= days.upperBound {
      let month = try readMonth(icu, startingOn: start, calendar: calendar)
      months.append(month)
      start = month.endDay
    }
    return months
  }

  /// The month of `calendar` that holds `day`, asked of libicu afresh (a new calendar
  /// handle): the `--oracle direct` answer, which a test compares with the tables'.
  public static func month(of calendar: String, containing day: LocalDay,
                           backend: ICUBackend = .system) throws(ICUError) -> CalendarMonth
  {
    let icu = try ICUCalendar(locale: "en_US_POSIX@calendar=\(calendar)", zone: "GMT",
                              backend: backend)
    try icu.setMillis(day.utcMillis)
    icu.set(.date, 1)
    return try readMonth(icu, startingOn: LocalDay(julianDay: try icu.get(.julianDay)),
                         calendar: calendar)
  }

  /// Reads the month whose first day `icu` is set to, then leaves `icu` on the next month's
  /// first day.
  private static func readMonth(_ icu: ICUCalendar, startingOn start: LocalDay,
                                calendar: String) throws(ICUError) -> CalendarMonth
  {
    let fields = (
      era: try icu.get(.era), year: try icu.get(.year), extendedYear: try icu.get(.extendedYear),
      month: try icu.get(.month), isLeap: try icu.get(.isLeapMonth) != 0,
      weekday: try icu.get(.dayOfWeek))
    // Adding a month to day 1 lands on day 1 (the day is pinned, never rolled). Setting
    // DATE again right after ucal_add is unsafe: libicu 72's Chinese add leaves a user-set
    // JULIAN_DAY behind that wins over it.
    try icu.add(.month, 1)
    let next = LocalDay(julianDay: try icu.get(.julianDay))
    guard next > start, try icu.get(.date) == 1 else {
      throw ICUError(status: 1, name: "U_INTERNAL_PROGRAM_ERROR",
                     operation: "ucal_add(MONTH) in \(calendar) from \(start) gave \(next)")
    }
    return CalendarMonth(
      firstDay: start, length: next.julianDay - start.julianDay, firstWeekday: fields.weekday,
      era: fields.era, year: fields.year, extendedYear: fields.extendedYear,
      month: fields.month, isLeapMonth: fields.isLeap)
  }
}

extension LocalDay {
  /// Noon UTC of this date: an instant that is this local date in GMT whatever the rounding.
  var utcMillis: Double { utcMidnightMillis + 43_200_000 }
}
