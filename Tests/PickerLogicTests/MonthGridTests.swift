import Foundation
import PickerLogic
import Testing

/// Blank cells and column headers, against tables derived by hand from published facts:
/// 2026-03-01 is a Sunday (2026-01-01 is a Thursday; +31 days of January, +28 of February),
/// CLDR's first days (US Sunday, DE Monday, EG and IR Saturday), and the narrow weekday
/// symbols as the initial letters of the weekday names.
@Suite("Month grid: leading blanks and weekday symbols")
struct MonthGridTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var locale: String
    var firstWeekday: Int
    /// (1 Sunday − firstWeekday + 7) % 7 for March 2026.
    var blanksMarch2026: Int
    /// Sunday-first narrow standalone symbols, then rotated by the test.
    var sundayFirst: [String]
    var testDescription: String { locale }
  }

  static let rows: [Row] = [
    Row(locale: "en_US", firstWeekday: 1, blanksMarch2026: 0,
        sundayFirst: ["S", "M", "T", "W", "T", "F", "S"]),
    // Sonntag, Montag, Dienstag, Mittwoch, Donnerstag, Freitag, Samstag.
    Row(locale: "de_DE", firstWeekday: 2, blanksMarch2026: 6,
        sundayFirst: ["S", "M", "D", "M", "D", "F", "S"]),
    // الأحد الاثنين الثلاثاء الأربعاء الخميس الجمعة السبت: their distinctive letters.
    Row(locale: "ar_EG", firstWeekday: 7, blanksMarch2026: 1,
        sundayFirst: ["ح", "ن", "ث", "ر", "خ", "ج", "س"]),
    // یکشنبه دوشنبه سه‌شنبه چهارشنبه پنجشنبه جمعه شنبه: their initial letters.
    Row(locale: "fa_IR", firstWeekday: 7, blanksMarch2026: 1,
        sundayFirst: ["ی", "د", "س", "چ", "پ", "ج", "ش"]),
  ]

  @Test("the locale's first weekday and the blanks before 1 March 2026", arguments: rows)
  func blanks(row: Row) {
    let gregorian = calendar(locale: row.locale)
    #expect(gregorian.firstWeekday == row.firstWeekday)
    let march = instant("2026-03-15T12:00:00Z")
    #expect(CalendarRangeSelectorLogic.leadingBlanks(inMonthOf: march, calendar: gregorian)
      == row.blanksMarch2026)
  }

  @Test("headers are the symbols rotated to the first weekday", arguments: rows)
  func headers(row: Row) {
    let offset = row.firstWeekday - 1
    let expected = Array(row.sundayFirst[offset...] + row.sundayFirst[..<offset])
    #expect(CalendarRangeSelectorLogic.weekdaySymbols(calendar: calendar(locale: row.locale))
      == expected)
  }

  @Test("an explicit first weekday overrides the locale", arguments: 1...7)
  func explicitFirstWeekday(firstWeekday: Int) {
    let gregorian = calendar(locale: "en_US", firstWeekday: firstWeekday)
    // 1 March 2026 is a Sunday (weekday 1).
    #expect(CalendarRangeSelectorLogic.leadingBlanks(
      inMonthOf: instant("2026-03-10T00:00:00Z"), calendar: gregorian)
      == (1 - firstWeekday + 7) % 7)
    #expect(CalendarRangeSelectorLogic.weekdaySymbols(calendar: gregorian).first
      == ["S", "M", "T", "W", "T", "F", "S"][firstWeekday - 1])
  }

  @Test("Persian: 1 Farvardin 1405 is Saturday 2026-03-21, so fa_IR's Saturday-first grid has no blanks")
  func persianMonth() {
    let persian = calendar(.persian, zone: "Asia/Tehran", locale: "fa_IR")
    let farvardin = instant("2026-04-01T08:00:00Z")
    let parts = persian.dateComponents([.year, .month], from: farvardin)
    #expect(parts.year == 1405 && parts.month == 1)
    #expect(CalendarRangeSelectorLogic.leadingBlanks(inMonthOf: farvardin, calendar: persian) == 0)
  }
}
