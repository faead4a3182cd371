import Foundation
import PickerLogic
import Testing

/// Start of day and the month's day cells where a zone transition touches midnight. Each
/// expectation is worked out from the tz rules: "start of day" is the earliest instant of
/// the local date.
@Suite("Day boundaries at transitions")
struct DayBoundaryTests {
  @Test("Asia/Tehran 2021-03-22: midnight is skipped, the day starts at 01:00 +04:30")
  func tehran() throws {
    // Iran's DST began on 2021-03-22 at 00:00 (+03:30 -> +04:30): 01:00 +04:30 = 20:30Z.
    let tehran = calendar(zone: "Asia/Tehran")
    #expect(iso(tehran.startOfDay(for: instant("2021-03-22T08:00:00Z"))) == "2021-03-21T20:30:00Z")
    let days = CalendarRangeSelectorLogic.days(inMonthOf: instant("2021-03-15T08:00:00Z"),
                                               calendar: tehran)
    try #require(days.count == 31)
    // Day 21 starts at 00:00 +03:30, day 22 at 01:00 +04:30, day 23 at 00:00 +04:30.
    #expect(days[20...22].map(iso) == [
      "2021-03-20T20:30:00Z", "2021-03-21T20:30:00Z", "2021-03-22T19:30:00Z",
    ])
  }

  @Test("America/Sao_Paulo 2018-11-04: the day starts at 01:00 -02:00")
  func saoPaulo() {
    // Brazil's DST began at 00:00 (-03:00 -> -02:00): 01:00 -02:00 = 03:00Z.
    let saoPaulo = calendar(zone: "America/Sao_Paulo")
    #expect(iso(saoPaulo.startOfDay(for: instant("2018-11-04T15:00:00Z"))) == "2018-11-04T03:00:00Z")
  }

  @Test("America/Havana 2020-11-01: midnight repeats; the day starts at its first 00:00")
  func havana() throws {
    // Cuba's DST ended at 01:00 -04:00 -> 00:00 -05:00: the first 00:00 is 04:00Z.
    let havana = calendar(zone: "America/Havana")
    #expect(iso(havana.startOfDay(for: instant("2020-11-01T12:00:00Z"))) == "2020-11-01T04:00:00Z")
    let days = CalendarRangeSelectorLogic.days(inMonthOf: instant("2020-11-15T12:00:00Z"),
                                               calendar: havana)
    try #require(days.count == 30)
    #expect(iso(days[0]) == "2020-11-01T04:00:00Z")
    #expect(iso(days[1]) == "2020-11-02T05:00:00Z")
  }

  @Test("Pacific/Apia December 2011: 30 local days, no 30th")
  func apia() throws {
    // Samoa moved from -10:00 (DST) to +14:00 after 2011-12-29 23:59:59: the 29th starts at
    // 10:00Z, and the 31st at 2011-12-30T10:00Z (00:00 +14:00).
    let apia = calendar(zone: "Pacific/Apia")
    let days = CalendarRangeSelectorLogic.days(inMonthOf: instant("2011-12-15T00:00:00Z"),
                                               calendar: apia)
    try #require(days.count >= 29)
    #expect(iso(days[0]) == "2011-12-01T10:00:00Z")
    #expect(iso(days[28]) == "2011-12-29T10:00:00Z")
    withKnownIssue("""
      The seed's days(inMonthOf:) assumes day numbers are contiguous: range(of: .day, in: \
      .month) is 1..<32 and adding 29 and 30 days to the 1st gives the 31st and 1 January, \
      so the grid has 31 cells, the last one in January. The month-days check reports it.
      """) {
      #expect(days.count == 30)
      #expect(days.last.map(iso) == "2011-12-30T10:00:00Z")
    }
  }
}
