extension ICU {
  /// The very short standalone weekday symbols of a locale and calendar system, Sunday first.
  ///
  /// ICU's symbols do not depend on the first weekday; rotating them is arithmetic, done by
  /// the caller once per first-weekday setting.
  public static func standaloneNarrowWeekdays(locale id: String, calendar: String,
                                              catalog: LocaleCatalog) throws(ICUError)
    -> [String]
  {
    let localeWithCalendar = try catalog.id(id, settingKeyword: "calendar", to: calendar)
    let format = try ICUDateFormat(dateStyle: .medium, locale: localeWithCalendar, zone: "GMT",
                                   backend: catalog.backend)
    let symbols = try format.symbols(.standaloneNarrowWeekdays)
    guard symbols.count == 8 else {
      throw ICUError(status: 1, name: "U_INTERNAL_PROGRAM_ERROR",
                     operation: "udat_getSymbols(\(localeWithCalendar)) gave \(symbols.count)")
    }
    return Array(symbols[1...7])
  }

  /// Symbols rotated so that `firstWeekday` (1 = Sunday … 7) comes first.
  public static func rotated(_ sundayFirst: [String], toStartAt firstWeekday: Int) -> [String] {
    let offset = (firstWeekday - 1) % sundayFirst.count
    return Array(sundayFirst[offset...] + sundayFirst[..<offset])
  }
}
