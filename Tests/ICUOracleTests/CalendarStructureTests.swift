import ICUOracle
import Testing

/// Month tables against published calendars, and invariants over the whole default window.
@Suite("Calendar months from libicu")
struct CalendarStructureTests {
  @Test("Chinese 1995: the leap 8th month runs 1995-09-25 … 10-23, 29 days")
  func chineseLeapMonth() throws {
    // Hong Kong Observatory's 1995 table: leap 8th month from 25 September, 9th month from
    // 24 October. libicu's own month limit says 30 here: lengths must come from month starts.
    let months = try ICU.months(of: "chinese", overlapping: LocalDay(year: 1995, month: 9, day: 1)...LocalDay(
      year: 1995, month: 11, day: 1))
    let leap = try #require(months.first { $0.isLeapMonth })
    #expect(leap.firstDay == LocalDay(year: 1995, month: 9, day: 25))
    #expect(leap.length == 29)
    #expect(leap.month == 7)  // ICU's 0-based month: the 8th
  }

  @Test("Hebrew 5782 is a leap year: Adar I from 2022-02-02 (30 days), Adar II from 03-04 (29)")
  func hebrewAdar() throws {
    let months = try ICU.months(of: "hebrew", overlapping: LocalDay(year: 2022, month: 2, day: 10)...LocalDay(
      year: 2022, month: 3, day: 10))
    #expect(months.map(\.firstDay) == [LocalDay(year: 2022, month: 2, day: 2),
                                       LocalDay(year: 2022, month: 3, day: 4)])
    #expect(months.map(\.length) == [30, 29])
    #expect(months.map(\.month) == [5, 6])  // ICU numbers Adar I 5 and Adar (II) 6
  }

  @Test("ethiopic-amete-alem opens as itself, not Gregorian: year 7514 in January 2022")
  func ameteAlem() throws {
    // Amete Alem = Amete Mihret + 5500; 2022-01-01 is in Ethiopic year 2014.
    let months = try ICU.months(of: "ethiopic-amete-alem", overlapping: LocalDay(year: 2022, month: 1, day: 1)...LocalDay(
      year: 2022, month: 1, day: 1))
    #expect(months.first?.year == 7514)
  }

  @Test("a keyword libicu does not know is refused, not silently Gregorian")
  func unknownKeyword() {
    #expect(throws: ICUError.self) {
      _ = try ICU.months(of: "ethioaa", overlapping: LocalDay(year: 2022, month: 1, day: 1)...LocalDay(
        year: 2022, month: 2, day: 1))
    }
  }

  @Test("months tile the window and weekdays advance with day numbers", arguments: [
    "gregorian", "buddhist", "chinese", "coptic", "ethiopic", "ethiopic-amete-alem", "hebrew",
    "indian", "islamic", "islamic-civil", "islamic-tbla", "islamic-umalqura", "japanese",
    "persian", "roc", "dangi", "iso8601",
  ])
  func tiling(calendar: String) throws {
    let window = LocalDay(year: 1970, month: 1, day: 1)...LocalDay(year: 2037, month: 12, day: 31)
    let months = try ICU.months(of: calendar, overlapping: window)
    #expect(months.first.map { $0.firstDay <= window.lowerBound } == true)
    #expect(months.last.map { $0.endDay > window.upperBound } == true)
    for (month, next) in zip(months, months.dropFirst()) {
      #expect(month.endDay == next.firstDay, "\(calendar) \(month.reading)")
      // Months of 28…31 days; the 13th month of coptic and ethiopic years has 5 or 6.
      #expect((28...31).contains(month.length) || (5...6).contains(month.length),
              "\(calendar) \(month.reading): \(month.length) days")
      // +n days advances the weekday by n mod 7 (1 = Sunday).
      #expect((Int(month.firstWeekday) - 1 + Int(month.length)) % 7 + 1 == Int(next.firstWeekday))
    }
  }
}
