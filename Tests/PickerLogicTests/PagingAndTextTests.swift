import Foundation
import PickerLogic
import Testing

/// Month paging across leap months and the seed texts that go wrong outside en_US, against
/// published calendars and hand-worked digits.
@Suite("Paging across leap months, and field texts")
struct PagingAndTextTests {
  typealias Logic = CalendarRangeSelectorLogic

  /// Hebrew 5782 (a leap year): Shevat from 2022-01-03, Adar I from 02-02, Adar II from
  /// 03-04, Nisan from 04-02 (published Hebrew calendars).
  @Test("Hebrew 5782: next month from Shevat is Adar I, then Adar II, then Nisan")
  func hebrewAdar() throws {
    let hebrew = calendar(.hebrew)
    var month = instant("2022-01-18T12:00:00Z")
    let starts = ["2022-02-02", "2022-03-04", "2022-04-02", "2022-05-02"]
    for (start, next) in zip(starts, starts.dropFirst()) {
      month = try #require(Logic.paging(month, by: 1, calendar: hebrew))
      #expect(month >= instant("\(start)T00:00:00Z") && month < instant("\(next)T00:00:00Z"),
              "landed on \(iso(month)), expected the month starting \(start)")
    }
    // And back again from Nisan: Adar II, then Adar I.
    month = try #require(Logic.paging(month, by: -1, calendar: hebrew))
    #expect(month >= instant("2022-03-04T00:00:00Z") && month < instant("2022-04-02T00:00:00Z"))
    month = try #require(Logic.paging(month, by: -1, calendar: hebrew))
    #expect(month >= instant("2022-02-02T00:00:00Z") && month < instant("2022-03-04T00:00:00Z"))
  }

  /// Chinese 1995 (Hong Kong Observatory): 8th month from 08-26, leap 8th from 09-25, 9th
  /// from 10-24, 10th from 11-22.
  @Test("Chinese 1995: next month from the 8th is the leap 8th, then the 9th")
  func chineseLeapMonth() throws {
    let chinese = calendar(.chinese, zone: "Asia/Shanghai")
    let leap = try #require(Logic.paging(instant("1995-09-10T04:00:00Z"), by: 1, calendar: chinese))
    #expect(leap >= instant("1995-09-24T16:00:00Z") && leap < instant("1995-10-23T16:00:00Z"))
    #expect(chinese.dateComponents([.month, .isLeapMonth], from: leap).isLeapMonth == true)
    let ninth = try #require(Logic.paging(leap, by: 1, calendar: chinese))
    #expect(ninth >= instant("1995-10-23T16:00:00Z") && ninth < instant("1995-11-21T16:00:00Z"))
  }

  /// Seed 004's field: "yyyy-MM-dd" in the user's locale and calendar. Buddhist years are
  /// Gregorian + 543 (2026 → 2569); ar_EG writes Arabic-Indic digits (U+0660…U+0669).
  @Test("the yyyy-MM-dd field in th_TH and ar_EG is not ISO 8601", arguments: [
    ("th_TH", Calendar.Identifier.buddhist, "2569-03-21"),
    ("ar_EG", Calendar.Identifier.gregorian, "\u{0662}\u{0660}\u{0662}\u{0666}-\u{0660}\u{0663}-\u{0662}\u{0661}"),
    ("en_US", Calendar.Identifier.gregorian, "2026-03-21"),
  ])
  func fieldText(locale: String, identifier: Calendar.Identifier, text: String) {
    let field = DateTexts.fieldText(instant("2026-03-21T12:00:00Z"),
                                    calendar: calendar(identifier), locale: Locale(identifier: locale))
    #expect(field == text)
  }

  @Test("the day cell label is String(Int): ASCII digits whatever the locale")
  func dayLabel() {
    #expect(DateTexts.dayLabel(instant("2026-03-21T12:00:00Z"), calendar: calendar(locale: "ar_EG")) == "21")
  }

  @Test("disclosure rows follow their seed's rules", arguments: DisclosureRow.Kind.allCases)
  func disclosure(kind: DisclosureRow.Kind) {
    let utc = calendar()
    var row = DisclosureRow(kind: kind, selection: instant("2026-03-21T10:00:00Z"))
    #expect(row.isExpanded == (kind == .listHeader))  // only 003 starts expanded
    row.tap()
    #expect(row.isExpanded == (kind != .listHeader))
    if kind == .listHeader { row.tap() }  // open it again
    row.select(instant("2026-03-21T13:00:00Z"), calendar: utc)  // same day
    #expect(row.isExpanded)
    row.select(instant("2026-03-22T10:00:00Z"), calendar: utc)  // next day
    #expect(row.isExpanded == (kind != .inlineCalendar))  // only 000 closes on another day
  }
}
