import Conformance
import Foundation
import ICUOracle
import Testing

@Suite("Input: corpus files, case ids, bad values")
struct InputTests {
  @Test("case ids round-trip through text")
  func caseIDs() throws {
    let id = CaseID(check: "weekday-symbols", locale: "ja_JP@calendar=japanese;fw=mon",
                    calendar: "hebrew", firstWeekday: .own)
    #expect(try CaseID(parsing: id.description) == id)
    let monthly = CaseID(check: "range-roles", calendar: "chinese", zone: "America/St_Johns",
                         month: LocalDay(year: 1987, month: 10, day: 22), variant: "same-day")
    #expect(monthly.description
      == "range-roles|calendar=chinese|zone=America/St_Johns|month=1987-10-22|variant=same-day")
    #expect(try CaseID(parsing: monthly.description) == monthly)
    #expect(throws: InputError.self) { try CaseID(parsing: "range-roles|month=1987-13-01") }
    #expect(throws: InputError.self) { try CaseID(parsing: "range-roles|zone=UTC|calendar=x") }
  }

  @Test("case ids read every dimension, and name what is not understood", arguments: [
    ("leading-blanks|calendar=chinese|fw=1|zone=America/Regina|month=1999-01-18",
     CaseID(check: "leading-blanks", calendar: "chinese", firstWeekday: .fixed(1), zone: "America/Regina",
            month: LocalDay(year: 1999, month: 1, day: 18))),
    ("weekday-symbols|locale=ja_JP@calendar=japanese|fw=own",
     CaseID(check: "weekday-symbols", locale: "ja_JP@calendar=japanese", firstWeekday: .own)),
    ("date-text|locale=ar_EG|variant=a=b|c", nil),
    ("date-text|locale=ar_EG|variant=a=b", CaseID(check: "date-text", locale: "ar_EG", variant: "a=b")),
    ("month-days|zone=Pacific/Apia|month=2012-02-29",
     CaseID(check: "month-days", zone: "Pacific/Apia", month: LocalDay(year: 2012, month: 2, day: 29))),
    ("month-days|zone=Pacific/Apia|month=2011-02-29", nil),
    ("month-days|zone=UTC|month=2011-2-01", nil),
    ("month-days|zone=UTC|month=2011-02-01x", nil),
    ("month-days|fw=8", nil), ("month-days|fw=0", nil), ("month-days|fw=", nil), ("month-days|fw=12", nil),
    ("month-days|zone=UTC|zone=UTC", nil), ("month-days|zone=UTC|calendar=x", nil),
    ("month-days|Zone=UTC", nil), ("month-days|zone", nil), ("month-days||zone=UTC", nil),
    ("|zone=UTC", nil), ("", nil), ("month-days|", nil),
    ("disclosure", CaseID(check: "disclosure")),
    ("date-text|locale=fa_IR|zone=Asia/Tehran|variant=héllo wörld",
     CaseID(check: "date-text", locale: "fa_IR", zone: "Asia/Tehran", variant: "héllo wörld")),
  ] as [(String, CaseID?)])
  func caseIDText(text: String, id: CaseID?) throws {
    if let id {
      #expect(try CaseID(parsing: text) == id)
    } else {
      #expect { _ = try CaseID(parsing: text) } throws: { error in
        (error as? InputError)?.message.contains("'\(text)'") == true
      }
    }
  }

  @Test("corpus lines need a reason, and errors name file:line", arguments: [
    ("en_US | ok\nde_DE\n", "zones.txt:2"),
    ("# comment\n\nen_US | ok\nen_US | twice\n", "zones.txt:4"),
    (" | no value\n", "zones.txt:1"),
  ])
  func corpusErrors(text: String, location: String) {
    #expect {
      _ = try CorpusFile.parse(text, name: "zones.txt")
    } throws: { error in
      (error as? InputError)?.message.hasPrefix(location) == true
    }
  }

  @Test("the shipped corpus files parse, and every entry has a reason")
  func shippedCorpus() throws {
    for file in [Corpus.Files.coreLocales, Corpus.Files.calendars, Corpus.Files.coreZones] {
      let entries = try CorpusFile.load(corpora.appendingPathComponent(file))
      #expect(!entries.isEmpty)
      #expect(entries.allSatisfy { !$0.reason.isEmpty })
    }
  }

  @Test("the shipped waiver file is valid, and each waiver says why and where to check")
  func shippedWaivers() throws {
    let waivers = try WaiverFile.load(corpora.appendingPathComponent(Corpus.Files.waivers))
    #expect(waivers.count >= 10)
    #expect(Set(waivers.map(\.id)).count == waivers.count)
    #expect(waivers.allSatisfy { $0.reason.count > 40 && !$0.link.isEmpty })
  }

  @Test("unknown locale, calendar and zone are refused, naming the value", arguments: [
    ("locale", "xx_QQ"), ("calendar", "julian"), ("zone", "Mars/Olympus_Mons"),
  ])
  func unknownValues(dimension: String, value: String) {
    var request = CorpusRequest(corporaDirectory: corpora)
    switch dimension {
    case "locale": request.locales = .list([value])
    case "calendar": request.calendars = .list([value])
    default: request.zones = .list([value])
    }
    #expect {
      _ = try Corpus.load(request)
    } throws: { error in
      (error as? InputError)?.message.contains("'\(value)'") == true
    }
  }

  @Test("the core corpus covers every first day of week and the required zones")
  func coreCoverage() throws {
    let corpus = try Corpus.load(CorpusRequest(corporaDirectory: corpora))
    let catalog = try LocaleCatalog()
    let firstDays = Set(try corpus.locales.map {
      try FirstDayOfWeek.of(locale: $0.icuID, catalog: catalog)
    })
    #expect(firstDays.isSuperset(of: [1, 2, 6, 7]))
    #expect(corpus.calendars.count == 17)
    let zones = Set(corpus.zones.map(\.id))
    for zone in ["America/Sao_Paulo", "Asia/Tehran", "America/Havana", "Asia/Beirut",
                 "America/Santiago", "America/Asuncion", "Pacific/Apia", "Pacific/Kwajalein",
                 "Africa/Casablanca", "America/St_Johns", "Australia/Lord_Howe", "Europe/Dublin",
                 "Antarctica/Troll", "America/Nuuk", "America/Mexico_City", "UTC"] {
      #expect(zones.contains(zone), "\(zone)")
    }
    // Transition months come from libicu: Apia's 2011 date-line crossing is among them.
    let apia = try #require(corpus.zones.first { $0.id == "Pacific/Apia" })
    #expect(apia.transitions.contains { $0.kinds.contains(.skippedDay) })
  }
}
