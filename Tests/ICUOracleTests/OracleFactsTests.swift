import ICUOracle
import Testing

@Suite("Versions, locales and first days")
struct OracleFactsTests {
  @Test("versions of the system libicu are stated")
  func versions() throws {
    let versions = try ICUBackend.system.versions()
    #expect(versions.icu.split(separator: ".").count == 3)
    #expect(!versions.cldr.isEmpty && versions.cldr != "0.0")
    #expect(versions.tz.count >= 5)  // e.g. 2022e
  }

  @Test("Foundation's ICU is reachable and newer data than libicu's")
  func foundationBackend() throws {
    let foundation = try #require(ICUBackend.foundation, "\(ICUBackend.foundationProblem ?? "")")
    let theirs = try foundation.versions()
    let ours = try ICUBackend.system.versions()
    #expect(theirs.icu != ours.icu)
  }

  /// CLDR weekData: US Sunday, DE Monday, EG Saturday; `fw` keywords per UTS #35, applied
  /// by the oracle because libicu 72 ignores them; ISO 8601 weeks start on Monday.
  @Test("first day of week by UTS #35", arguments: [
    ("en_US", nil, 1), ("de_DE", nil, 2), ("ar_EG", nil, 7), ("en_US@fw=mon", nil, 2),
    ("en-US-u-fw-mon", nil, 2), ("de_DE@fw=sun", nil, 1), ("en_US", "iso8601", 2),
    ("en_US@fw=sun", "iso8601", 1),
  ] as [(String, String?, Int)])
  func firstDay(locale: String, calendar: String?, weekday: Int) throws {
    let catalog = try LocaleCatalog()
    let id = try catalog.icuID(for: locale)
    #expect(try FirstDayOfWeek.of(locale: id, calendar: calendar, catalog: catalog) == weekday)
  }

  @Test("locale ids: known, unknown and BCP 47")
  func locales() throws {
    let catalog = try LocaleCatalog()
    #expect(catalog.isKnown("de_DE"))
    #expect(catalog.isKnown("zh_CN"))  // listed by libicu as zh_Hans_CN
    #expect(catalog.isKnown("ja_JP@calendar=japanese"))
    #expect(!catalog.isKnown("xx_QQ"))
    #expect(try catalog.icuID(for: "en-US-u-fw-mon") == "en_US@fw=mon")
    #expect(try catalog.icuID(for: "ar_SA@calendar=islamic-umalqura") == "ar_SA@calendar=islamic-umalqura")
    #expect(try catalog.keyword("calendar", in: "ar_SA@calendar=islamic-umalqura") == "islamic-umalqura")
  }

  @Test("zone ids: unknown ids are refused instead of becoming GMT")
  func zones() throws {
    let zones = ZoneCatalog()
    #expect(zones.canonicalID(of: "US/Eastern") == "America/New_York")
    #expect(zones.canonicalID(of: "Mars/Olympus_Mons") == nil)
    // America/Coyhaique was added in tz 2025b; older libicu data lacks it.
    if try ICUBackend.system.versions().tz < "2025b" {
      #expect(zones.canonicalID(of: "America/Coyhaique") == nil)
    }
  }

  @Test("weekday symbols come Sunday first, and rotation is arithmetic")
  func symbols() throws {
    let catalog = try LocaleCatalog()
    let arabic = try ICU.standaloneNarrowWeekdays(locale: "ar_EG", calendar: "islamic",
                                                  catalog: catalog)
    #expect(arabic == ["ح", "ن", "ث", "ر", "خ", "ج", "س"])
    #expect(ICU.rotated(arabic, toStartAt: 7) == ["س", "ح", "ن", "ث", "ر", "خ", "ج"])
  }

  @Test("every handle a test opens is closed once it goes away")
  func handlesFreed() throws {
    let ledger = HandleLedger()
    try HandleLedger.$current.withValue(ledger) {
      for zone in ["UTC", "Asia/Tehran", "Pacific/Apia"] {
        let timeline = try ZoneTimeline(zone: zone)
        _ = try timeline.start(of: LocalDay(year: 2021, month: 3, day: 22))
      }
      _ = try ICU.months(of: "hebrew", overlapping: LocalDay(year: 2022, month: 1, day: 1)...LocalDay(
        year: 2022, month: 6, day: 1))
      _ = try ICU.standaloneNarrowWeekdays(locale: "fa_IR", calendar: "persian",
                                           catalog: LocaleCatalog())
      _ = try FirstDayOfWeek.of(locale: "de_DE", catalog: LocaleCatalog())
    }
    #expect(ledger.opened >= 6)
    #expect(ledger.closed == ledger.opened)
  }
}

/// The fact `OracleSession.dayArithmetic` rests on: ICU counts days alike in every calendar.
@Suite("Day arithmetic")
struct DayArithmeticTests {
  @Test("the day difference between day starts is the same in every calendar system", arguments: [
    ("America/Sao_Paulo", LocalDay(year: 2018, month: 11, day: 1)),  // midnight skipped
    ("Asia/Tehran", LocalDay(year: 2021, month: 3, day: 19)),  // midnight skipped
    ("Pacific/Apia", LocalDay(year: 2011, month: 12, day: 27)),  // a whole day skipped
    ("America/Havana", LocalDay(year: 2020, month: 10, day: 29)),  // midnight repeated
    ("America/St_Johns", LocalDay(year: 1987, month: 10, day: 22)),  // 00:01 fall-back
    ("Australia/Lord_Howe", LocalDay(year: 2011, month: 4, day: 1)),  // half-hour change
  ])
  func sameInEveryCalendar(zone: String, from first: LocalDay) throws {
    let timeline = try ZoneTimeline(zone: zone)
    // The existing dates of the week and their starts (Apia's 30 December has none).
    let days = try (Int32(0)..<8).compactMap { offset throws(ICUError) -> (day: LocalDay, start: Double)? in
      let day = first.adding(days: offset)
      return try timeline.start(of: day).map { (day, $0) }
    }
    #expect(days.count >= 7)
    /// `result[from][to]`: ICU's difference in days from one start to another.
    func differences(_ calendar: String) throws -> [[Int32]] {
      let icu = try ICUCalendar(locale: "en_US_POSIX@calendar=\(calendar)", zone: zone)
      return try days.map { from in
        try days.map { to in
          try icu.setMillis(from.start)
          return try icu.difference(to: to.start, in: .date)
        }
      }
    }
    let gregorian = try differences("gregorian")
    // Sao Paulo's 4 November and Tehran's 22 March start at 01:00; a day later is 01:00 of
    // the next date, past its start: ICU counts no whole day there.
    let skippedMidnights: Set<LocalDay> = [LocalDay(year: 2018, month: 11, day: 4),
                                           LocalDay(year: 2021, month: 3, day: 22)]
    // From each start to itself no day passes, to the next one day (Apia's 29th to 31st too:
    // the missing 30th is no night), to the previous one day back.
    for from in days.indices {
      #expect(gregorian[from][from] == 0)
      if from + 1 < days.count, !skippedMidnights.contains(days[from].day) {
        #expect(gregorian[from][from + 1] == 1, "\(zone) from \(days[from].day)")
        #expect(gregorian[from + 1][from] == -1, "\(zone) to \(days[from].day)")
      }
    }
    for calendar in ["chinese", "dangi", "hebrew", "islamic-umalqura", "islamic", "persian",
                     "ethiopic", "coptic", "indian", "japanese", "buddhist"] {
      #expect(try differences(calendar) == gregorian, "\(calendar) in \(zone)")
    }
  }
}
