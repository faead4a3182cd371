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
