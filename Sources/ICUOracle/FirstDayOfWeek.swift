/// The first day of the week a locale asks for, by the rules of UTS #35.
///
/// libicu 72 ignores the `fw` keyword in every spelling (`@fw=mon`, `-u-fw-mon`), so the
/// oracle applies it here; otherwise ICU's week data for the locale and calendar system
/// decides (CLDR region data, honouring `rg` and likely subtags; ISO 8601 always starts on
/// Monday, as ICU 74+ also does unless `fw` says otherwise).
public enum FirstDayOfWeek {
  /// The keyword values of `fw`, Sunday = 1 (UTS #35, "Unicode Calendar Identifier" table).
  static let keywordValues = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6,
                              "sat": 7]

  /// The weekday (1 = Sunday … 7 = Saturday) an `fw` keyword value names, or `nil`.
  public static func weekday(forKeyword value: String) -> Int? {
    keywordValues[value.lowercased()]
  }

  /// The locale's first weekday in a calendar system: its valid `fw` keyword, else ICU's
  /// week data for the locale with that calendar.
  ///
  /// - Parameters:
  ///   - id: an ICU locale id (BCP 47 tags converted by `LocaleCatalog.icuID`).
  ///   - calendar: a CLDR calendar id; `nil` keeps the locale's own `calendar` keyword.
  public static func of(locale id: String, calendar: String? = nil, catalog: LocaleCatalog)
    throws(ICUError) -> Int
  {
    if let value = try catalog.keyword("fw", in: id), let weekday = weekday(forKeyword: value) {
      return weekday
    }
    let localeID = try calendar.map { (calendar) throws(ICUError) in
      try catalog.id(id, settingKeyword: "calendar", to: calendar)
    } ?? id
    let icu = try ICUCalendar(locale: localeID, zone: "GMT", backend: catalog.backend)
    return Int(icu.firstDayOfWeek)
  }
}
