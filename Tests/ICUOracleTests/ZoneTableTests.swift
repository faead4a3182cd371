import ICUOracle
import Testing

/// Zone tables must answer exactly as libicu does, call by call, on zones that have every
/// kind of transition.
@Suite("Zone tables agree with libicu")
struct ZoneTableTests {
  typealias Kind = ZoneTransition.Kind

  /// Zones whose transitions in 1970…2037 include every kind.
  static let zones = ["Pacific/Apia", "Pacific/Kwajalein", "Pacific/Kiritimati",
                      "America/Sao_Paulo", "America/Havana", "America/St_Johns",
                      "Australia/Lord_Howe", "Europe/Dublin", "Africa/Casablanca",
                      "Asia/Tehran", "America/Santiago", "UTC"]

  @Test("the sample covers every kind of transition")
  func coverage() throws {
    let days = LocalDay(year: 1970, month: 1, day: 1)...LocalDay(year: 2037, month: 12, day: 31)
    var kinds: Set<Kind> = []
    for zone in Self.zones {
      let timeline = try ZoneTimeline(zone: zone)
      for transition in try timeline.transitions(from: days.lowerBound.utcMidnightMillis,
                                                 to: days.upperBound.utcMidnightMillis) {
        kinds.formUnion(transition.kinds)
      }
    }
    // Negative DST, repeated whole days and name-only changes do not occur in these zones
    // in libicu 72's data for 1970…2037.
    #expect(kinds.isSuperset(of: [.springForward, .fallBack, .skippedMidnight, .repeatedMidnight,
                                  .skippedDay, .nonHourChange]))
  }

  @Test("day starts, local dates, offsets and transitions match libicu", arguments: zones)
  func agree(zone: String) throws {
    let days = LocalDay(year: 1970, month: 1, day: 1)...LocalDay(year: 2037, month: 12, day: 31)
    let table = try ZoneTable(zone: zone, days: days)
    let timeline = try ZoneTimeline(zone: zone)
    let transitions = try timeline.transitions(from: days.lowerBound.utcMidnightMillis,
                                               to: days.upperBound.utcMidnightMillis)
    #expect(try table.transitions(from: days.lowerBound.utcMidnightMillis,
                                  to: days.upperBound.utcMidnightMillis) == transitions)
    // Every day within 40 days of each transition, and the 1st of every month.
    var sample: Set<LocalDay> = []
    for transition in transitions {
      let day = LocalDay.containing(localMillis: transition.wallBefore)
      for offset in Int32(-40)...40 { sample.insert(day.adding(days: offset)) }
    }
    for year in 1970...2037 { for month in 1...12 { sample.insert(LocalDay(year: year, month: month, day: 1)) } }
    var mismatches: [String] = []
    for day in sample.sorted() where days.contains(day) {
      let (ours, theirs) = (try table.start(of: day), try timeline.start(of: day))
      if ours != theirs { mismatches.append("start(of: \(day)): \(String(describing: ours)) vs \(String(describing: theirs))") }
      if try table.firstInstant(onOrAfter: day) != timeline.firstInstant(onOrAfter: day) {
        mismatches.append("firstInstant(\(day))")
      }
    }
    for transition in transitions {
      for delta in [-3_600_001.0, -1000, -1, 0, 1, 1000, 3_600_000, 86_400_000] {
        let instant = transition.instant + delta
        if try table.localDay(at: instant) != timeline.localDay(at: instant) {
          mismatches.append("localDay(at: \(instant))")
        }
        if try table.offset(at: instant) != timeline.offset(at: instant) {
          mismatches.append("offset(at: \(instant))")
        }
      }
    }
    #expect(mismatches.prefix(5) == [], "\(mismatches.count) mismatches in \(zone)")
  }

  /// Triage asks a case once of all the tz releases whose tables answer alike, so "alike"
  /// must mean every answer: São Paulo's 2018 spring-forward (00:00 -03 became 01:00 -02 at
  /// 03:00 UTC on 4 November) written out by hand, then moved by an hour, and cut shorter.
  @Test("tables answer alike exactly when their span, offsets and transitions agree")
  func answersAlike() {
    let hour: Int32 = 3_600_000
    let span = 0.0...2_000_000_000_000
    func table(instant: Double = 1_541_300_400_000, span: ClosedRange<Double> = span) -> ZoneTable {
      ZoneTable(zone: "America/Sao_Paulo", initial: (-3 * hour, 0),
                transitions: [ZoneTransition(instant: instant, offsetBefore: -3 * hour, offsetAfter: -2 * hour,
                                             dstBefore: 0, dstAfter: hour)],
                span: span)
    }
    #expect(table().answersAlike(table()))
    #expect(!table().answersAlike(table(instant: 1_541_304_000_000)))
    #expect(!table().answersAlike(table(span: 0...1_900_000_000_000)))
    #expect(!table().answersAlike(ZoneTable(zone: "America/Sao_Paulo", initial: (-3 * hour, 0),
                                            transitions: [], span: span)))
  }
}

/// A table built from transitions alone (a tz release's, `Corpora/reference/tz`) must find
/// the same day starts libicu finds, with its skipped-midnight, repeated-midnight and
/// skipped-day rules, from nothing but the offsets.
@Suite("Zone tables from transitions alone agree with libicu")
struct TransitionTableTests {
  @Test("every day next to a transition starts where libicu says", arguments: ZoneTableTests.zones)
  func agree(zone: String) throws {
    let days = LocalDay(year: 1970, month: 1, day: 1)...LocalDay(year: 2037, month: 12, day: 31)
    let timeline = try ZoneTimeline(zone: zone)
    let from = days.lowerBound.adding(days: -2).utcMidnightMillis
    let to = days.upperBound.adding(days: 3).utcMidnightMillis
    let transitions = try timeline.transitions(from: from, to: to)
    let table = ZoneTable(zone: zone, initial: try timeline.offset(at: from), transitions: transitions,
                          span: from...to)
    var checked = 0
    for transition in transitions {
      for day in transition.localDays {
        for neighbour in [day.adding(days: -1), day, day.adding(days: 1), day.adding(days: 2)] {
          #expect(try table.start(of: neighbour) == timeline.start(of: neighbour), "\(zone) \(neighbour)")
          #expect(try table.firstInstant(onOrAfter: neighbour) == timeline.firstInstant(onOrAfter: neighbour),
                  "\(zone) \(neighbour)")
          checked += 1
        }
      }
    }
    #expect(checked >= (zone == "UTC" ? 0 : 4), "\(zone): \(checked) days checked")
  }
}
