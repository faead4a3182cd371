import ICUOracle
import Testing

/// Zone structure from libicu: day starts and transition kinds on hand-verified cases.
@Suite("Zone timelines")
struct ZoneTimelineTests {
  /// UDate of an instant given as UTC fields.
  func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Double {
    LocalDay(year: year, month: month, day: day).utcMidnightMillis
      + Double(hour * 3_600_000 + minute * 60_000)
  }

  @Test("start of day: skipped midnight, repeated midnight, skipped day")
  func starts() throws {
    // Tehran 2021-03-22 starts at 01:00 +04:30 = 2021-03-21 20:30Z.
    #expect(try ZoneTimeline(zone: "Asia/Tehran").start(of: LocalDay(year: 2021, month: 3, day: 22))
      == utc(2021, 3, 21, 20, 30))
    // Havana 2020-11-01: first 00:00 is at -04:00 = 04:00Z.
    #expect(try ZoneTimeline(zone: "America/Havana").start(of: LocalDay(year: 2020, month: 11, day: 1))
      == utc(2020, 11, 1, 4))
    // Apia skipped 2011-12-30; the 31st starts at 00:00 +14:00 = 2011-12-30 10:00Z.
    let apia = try ZoneTimeline(zone: "Pacific/Apia")
    #expect(try apia.start(of: LocalDay(year: 2011, month: 12, day: 30)) == nil)
    #expect(try apia.start(of: LocalDay(year: 2011, month: 12, day: 31)) == utc(2011, 12, 30, 10))
  }

  @Test("St_Johns 1987-10-25: 23:30 -03:30 after the fall-back is still the 24th")
  func splitDate() throws {
    let stJohns = try ZoneTimeline(zone: "America/St_Johns")
    #expect(try stJohns.localDay(at: utc(1987, 10, 25, 2, 29)) == LocalDay(year: 1987, month: 10, day: 24))
    #expect(try stJohns.localDay(at: utc(1987, 10, 25, 2, 30)) == LocalDay(year: 1987, month: 10, day: 25))
    #expect(try stJohns.localDay(at: utc(1987, 10, 25, 3, 0)) == LocalDay(year: 1987, month: 10, day: 24))
  }

  typealias Kind = ZoneTransition.Kind

  /// Transitions on days checked against the tz source (tzdata `northamerica`, `australasia`,
  /// `southamerica`, `asia`).
  @Test("transition kinds", arguments: [
    ("Pacific/Apia", 2011, 12, 29, [Kind.springForward, .skippedMidnight, .skippedDay]),
    ("Pacific/Kwajalein", 1993, 8, 20, [.springForward, .skippedMidnight, .skippedDay]),
    ("America/Sao_Paulo", 2018, 11, 3, [.springForward, .skippedMidnight]),
    ("America/Havana", 2020, 10, 31, [.fallBack, .repeatedMidnight]),
    ("America/St_Johns", 1987, 10, 24, [.fallBack, .repeatedMidnight]),
    ("Australia/Lord_Howe", 2021, 4, 3, [.fallBack, .nonHourChange]),
    ("Europe/Berlin", 2021, 3, 27, [.springForward]),
  ] as [(String, Int, Int, Int, Set<Kind>)])
  func kinds(zone: String, year: Int, month: Int, day: Int, kinds: Set<Kind>) throws {
    let timeline = try ZoneTimeline(zone: zone)
    let from = utc(year, month, day) - 86_400_000
    let transitions = try timeline.transitions(from: from, to: from + 3 * 86_400_000)
    let transition = try #require(transitions.first)
    #expect(transitions.count == 1)
    #expect(transition.kinds == kinds)
  }
}
