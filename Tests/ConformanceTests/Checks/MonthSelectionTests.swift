import Conformance
import Foundation
import ICUOracle
import Synchronization
import Testing

/// The plan sweeps transition months (and controls) instead of every month in every zone,
/// on the reasoning that a month without a transition behaves alike in zones with the same
/// standard offset, so one zone per offset sweeps every month. `--exhaustive` exists to test
/// that reasoning: here, on a subset with two zones at -03:00.
@Suite("Month selection against the exhaustive sweep", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct MonthSelectionTests {
  /// A failure in a month the default plan skips must show, with the same pattern, in the
  /// same month of the zone that sweeps every month at the same offset: then the plan still
  /// reports it.
  @Test("what the exhaustive sweep adds already fails the same way in the control zone")
  func exhaustiveFindsNothingMore() throws {
    var request = CorpusRequest(corporaDirectory: corpora)
    request.locales = .list(["en_US"])
    request.calendars = .list(["gregorian", "hebrew", "islamic"])
    request.zones = .list(["Asia/Tehran", "America/Sao_Paulo", "Etc/GMT+3", "America/St_Johns",
                           "UTC"])
    request.years = 2017...2019
    request.monthSweep = .perOffset
    let checks = ["leading-blanks", "month-days", "month-paging", "same-day-closing",
                  "range-roles", "stay-nights"]
    let corpus = try Corpus.load(request)
    request.exhaustive = true
    let exhaustive = try Corpus.load(request)

    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all.filter { checks.contains($0.id) })
    let planned = Set(plan.steps.flatMap { $0.cases().map { "\($0.check)|\($0.calendar ?? "")|\($0.zone ?? "")|\($0.month.map(\.description) ?? "")" } })
    let wide = sweep(exhaustive, checks: checks)
    #expect(wide.totals.total > sweep(corpus, checks: checks).totals.total)
    let unplanned = wide.problems.filter {
      !planned.contains("\($0.id.check)|\($0.id.calendar ?? "")|\($0.id.zone ?? "")|\($0.id.month.map(\.description) ?? "")")
    }
    let offsets = Dictionary(corpus.zones.map { ($0.id, $0.standardOffset) }, uniquingKeysWith: { a, _ in a })
    let controls = Dictionary(corpus.zones.filter(\.sweepsEveryMonth).map { ($0.standardOffset, $0.id) },
                              uniquingKeysWith: { a, _ in a })
    #expect(controls[offsets["America/Sao_Paulo"] ?? 0] == "Etc/GMT+3")
    let key = { (result: CaseRecord, zone: String) in
      "\(result.id.check)|\(result.id.calendar ?? "")|\(zone)|\(result.id.month.map(\.description) ?? "")|\(result.outcome.pattern)"
    }
    let found = Set(wide.problems.map { key($0, $0.id.zone ?? "") })
    let unexplained = unplanned.filter { result in
      guard let zone = result.id.zone, let offset = offsets[zone], let control = controls[offset]
      else { return true }
      return !found.contains(key(result, control))
    }
    #expect(unexplained.map(\.id.description) == [],
            "failures in skipped months that the control zone does not show")
  }
}

/// A zone's month is swept once among zones whose offsets agree around it, on the reasoning
/// that the checks see a zone only through its offsets (`OffsetHistory`). Here the exhaustive
/// sweep evaluates the folded months too, and each must answer exactly as the zone that
/// sweeps it does.
@Suite("Equivalent months against the exhaustive sweep", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct EquivalentMonthTests {
  @Test("a month left to an equivalent zone gives the same answers in that zone")
  func foldedMonthsAnswerAlike() throws {
    var request = CorpusRequest(corporaDirectory: corpora)
    request.locales = .list(["en_US"])
    request.calendars = .list(["gregorian", "hebrew", "chinese"])
    // Paris and Berlin follow the same EU rules; New York and Toronto moved to the same new
    // US rules in 2007; London and Dublin share offsets unless one side's data writes
    // Dublin's winter as negative DST. Havana starts 2007 at New York's offset but changes
    // it on other days (at midnight).
    request.zones = .list(["Europe/Paris", "Europe/Berlin", "Europe/London", "Europe/Dublin",
                           "America/New_York", "America/Toronto", "America/Havana", "UTC"])
    request.years = 2007...2009
    let corpus = try Corpus.load(request)
    let folded = Plan.equivalentMonths(corpus: corpus, calendar: "gregorian",
                                       coverage: .transitionMonths)
    // 2 transitions a year, each with its month, in three years.
    #expect(Set(folded["Europe/Berlin"]?.values.map { $0 } ?? []) == ["Europe/Paris"])
    #expect((folded["Europe/Berlin"]?.count ?? 0) >= 6)
    #expect(Set(folded["America/Toronto"]?.values.map { $0 } ?? []) == ["America/New_York"])
    #expect(folded["America/Havana"]?.isEmpty == true && folded["Europe/Paris"]?.isEmpty == true)

    let checks = ["leading-blanks", "month-days", "month-paging", "same-day-closing",
                  "range-roles", "stay-nights", "return-clamp"]
    request.exhaustive = true
    let exhaustive = try Corpus.load(request)
    let plan = Plan.make(corpus: exhaustive, checks: CheckCatalog.all.filter { checks.contains($0.id) })
    let results = Mutex([String: CaseRecord]())
    var runner = Runner(plan: plan, corpus: exhaustive, subject: .pickerLogic, workers: 2)
    runner.recordAll = true
    runner.run { event in
      guard case .stepEnded(let step) = event.kind else { return }
      results.withLock { results in
        for result in step.cases { results[result.id.description] = result }
      }
    }
    let all = results.withLock { $0 }
    var compared = 0
    var differences: [String] = []
    for calendar in ["gregorian", "hebrew", "chinese"] {
      for coverage in [MonthCoverage.everyMonth, .transitionMonths] {
        let months = Plan.equivalentMonths(corpus: corpus, calendar: calendar, coverage: coverage)
        for result in all.values where result.id.calendar ?? "gregorian" == calendar
          && CheckCatalog.check(result.id.check)?.monthCoverage == coverage
        {
          guard let zone = result.id.zone, let month = result.id.month,
            let owner = months[zone]?[month] else { continue }
          var twin = result.id
          twin.zone = owner
          guard let other = all[twin.description] else {
            differences.append("\(result.id): no case \(twin) in the exhaustive sweep")
            continue
          }
          compared += 1
          let (a, b) = (result.outcome, other.outcome)
          if a.verdict != b.verdict || a.expected != b.expected || a.actual != b.actual {
            differences.append("\(result.id): \(a.verdict) \(a.actual) vs \(owner): \(b.verdict) \(b.actual)")
          }
        }
      }
    }
    #expect(compared > 100)
    #expect(differences == [], "\(differences.count) folded cases answer differently")
  }
}

@Suite("Oracle modes", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct OracleModeTests {
  @Test("tables and direct give the same outcome for every case, transitions of every kind included")
  func sameOutcomes() throws {
    var request = CorpusRequest(corporaDirectory: corpora)
    request.locales = .list(["en_US", "fa_IR"])
    request.calendars = .list(["gregorian", "hebrew", "chinese"])
    // 2009…2012 holds Apia's skipped day, St_Johns' 00:01 fall-backs, skipped and repeated
    // midnights, and Lord_Howe's half-hour changes.
    request.zones = .list(["Pacific/Apia", "America/Sao_Paulo", "America/Havana",
                           "America/St_Johns", "Australia/Lord_Howe", "UTC"])
    request.years = 2009...2012
    let tables = try Corpus.load(request)
    request.oracleMode = .direct
    let direct = try Corpus.load(request)
    #expect(tables.zoneTables?.zones.count == 6 && direct.zoneTables == nil)
    let checks = CheckCatalog.all.map(\.id).filter { $0 != "date-text" }
    let a = sweep(tables, checks: checks)
    let b = sweep(direct, checks: checks)
    #expect(a.totals == b.totals)
    let text = { (tally: RunTally) in tally.problems.map { "\($0.id) \($0.outcome.expected) \($0.outcome.actual)" } }
    let (left, right) = (text(a), text(b))
    #expect(left == right, "first difference: \(zip(left, right).first { $0 != $1 }.map { "\($0)" } ?? "in length")")
    #expect(a.totals.errored == 0)
    #expect(a.totals.failed > 0)  // the sample does reach the known differences
  }

  @Test("a worker's corpus reads a calendar's months and a zone's table when first asked, the same as read at load")
  func lazyTables() throws {
    var request = CorpusRequest(corporaDirectory: corpora)
    request.locales = .list(["en_US"])
    request.calendars = .list(["gregorian", "chinese", "islamic"])
    request.zones = .list(["America/Sao_Paulo", "Pacific/Apia", "UTC"])
    request.years = 2011...2018
    let eager = try Corpus.load(request)
    let lazy = try Corpus.load(request, eagerTables: false)
    #expect(lazy.zoneTables?.readCount == 0 && eager.zoneTables?.readCount == 0, "no zone table read at load")
    for calendar in ["gregorian", "chinese", "islamic"] {
      let (read, loaded) = (try #require(lazy.monthTables[calendar]), try #require(eager.monthTables[calendar]))
      #expect(read.months == loaded.months, "\(calendar)")
      // 2011…2018 and two months either side: 98 Gregorian months; Chinese years hold 12 or 13.
      #expect(read.months.count >= 98, "\(calendar): \(read.months.count) months")
    }
    #expect(lazy.monthTables["hebrew"] == nil, "a calendar the run does not hold has no table")
    let apia = try #require(try lazy.zoneTables?.table("Pacific/Apia"))
    #expect(lazy.zoneTables?.readCount == 1)
    // Apia skipped 2011-12-30: the day after the 29th starts on the 31st.
    let skipped = LocalDay(year: 2011, month: 12, day: 30)
    #expect(try apia.localDay(at: try #require(try apia.start(of: LocalDay(year: 2011, month: 12, day: 29))) + 86_400_000)
            == LocalDay(year: 2011, month: 12, day: 31), "\(skipped) is missing")
    #expect(try lazy.zoneTables?.table("Europe/Paris") == nil, "a zone the run does not hold has no table")
  }
}
