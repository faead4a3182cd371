import Conformance
import Foundation
import Testing

/// The plan sweeps transition months (and controls) instead of every month in every zone,
/// on the reasoning that a month without a transition behaves alike in zones with the same
/// standard offset, so one zone per offset sweeps every month. `--exhaustive` exists to test
/// that reasoning: here, on a subset with two zones at -03:00.
@Suite("Month selection against the exhaustive sweep")
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
    let key = { (result: CaseResult, zone: String) in
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

@Suite("Oracle modes")
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
    #expect(tables.zoneTables.count == 6 && direct.zoneTables.isEmpty)
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
}
