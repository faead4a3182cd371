import Foundation

/// The night's counts in the words every surface uses: console, tab title, banner, baseline
/// table, JUnit and `results.json` say one number per notion, under one name. Where two
/// surfaces count different things by definition, they say why: the baseline table counts a
/// class's cases, waived ones too, while a new failure is one no waiver explains; JUnit counts
/// steps (its testcases), the rest count cases.
enum NightCounts {
  /// The baseline classes a new failure can be in (`CaseRecord.isNewFailure`), in reading
  /// order, and what each means for it.
  static let newFailureClasses: [(Baseline.Class, String)] = [
    (.newFailure, "passed in the baseline"),
    (.newCase, "not swept by the baseline"),
    (.changed, "failed in the baseline with another value"),
  ]

  /// The new failures split by how they compare with the baseline, the classes that hold
  /// none left out: "109,431 passed in the baseline, 8,008 failed in the baseline with another
  /// value". `nil` without a baseline or without new failures.
  static func newFailureSplit(_ tally: RunTally) -> String? {
    guard tally.info?.review.baseline != nil, tally.newFailures > 0 else { return nil }
    return newFailureClasses.compactMap { kind, meaning in
      let count = tally.newFailuresByClass[kind] ?? 0
      return count == 0 ? nil : "\(CountText.number(count)) \(meaning)"
    }.joined(separator: ", ")
  }

  /// The sentence under the baseline table (page, with and without JavaScript), naming the
  /// banner's count beside the table's columns.
  static func baselineLegend(_ tally: RunTally) -> String {
    "The banner's \(CountText.counted(tally.newFailures, "new failure")) are the second row: cases of "
      + newFailureClasses.map { $0.0.rawValue }.joined(separator: ", ")
      + " that no waiver explains (one whose scope lists the case); the first row counts every case of a class, waived ones too."
  }

  /// A case count per status, in the console's order and words.
  static func statuses(_ counts: StatusCounts) -> String {
    "\(CountText.number(counts.passed)) passed, \(CountText.number(counts.failed)) failed, "
      + "\(CountText.number(counts.errored)) errored, "
      + (counts.notRun > 0 ? "\(CountText.number(counts.notRun)) not run (the breaker), " : "")
      + "\(CountText.number(counts.waived)) waived, "
      + "\(CountText.number(counts.oracleStale)) oracle-stale (libicu's data older), "
      + "\(CountText.counted(counts.unexpectedPass, "unexpected pass", plural: "unexpected passes")), "
      + "\(CountText.number(counts.skipped)) skipped"
  }

  /// What a JUnit reader is told beside a testsuite's counts: they are testcases, one per
  /// step, and the check's cases are these.
  static func junitCases(_ counts: StatusCounts, newFailures: Int) -> String {
    "\(CountText.counted(counts.total, "case")): \(statuses(counts)); "
      + "\(CountText.counted(newFailures, "new failure")). The testsuite's tests, failures and errors "
      + "count testcases, one per step (a calendar, zone or locale's cases of this check), not cases."
  }

  /// The tab's title: what differs between nights first (the verdict, when the run started
  /// and its directory), then what the page is and the night's case counts.
  static func title(_ tally: RunTally) -> String {
    let totals = tally.totals
    let rule = FailOn(rawValue: tally.info?.review.failOn ?? "") ?? .unexpected
    let verdict = rule.reason(totals, newFailures: tally.newFailures)
      .map { "exit 1: " + $0.replacingOccurrences(of: " (--fail-on \(rule.rawValue))", with: "") } ?? "exit 0"
    var when: [String] = []
    if let started = tally.info?.started {
      // 2026-12-07T12:02:32Z → 2026-12-07 12:02 UTC
      when.append(started.formatted(.iso8601).prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC")
    }
    if let out = tally.info?.option("out") { when.append(URL(fileURLWithPath: out).lastPathComponent) }
    return (tally.info?.incomplete != nil ? "INCOMPLETE " : "") + verdict
      + (when.isEmpty ? "" : " · " + when.joined(separator: " · "))
      + " — calendar conformance: \(CountText.number(totals.errored)) errored"
      + (totals.notRun > 0 ? ", \(CountText.number(totals.notRun)) not run" : "")
      + ", \(CountText.number(totals.failed)) failed, \(CountText.number(totals.waived)) waived of "
      + CountText.counted(totals.total, "case")
  }
}
