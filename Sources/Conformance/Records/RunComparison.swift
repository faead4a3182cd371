import Foundation

/// Two runs of the same selection compared case by case (`conformance compare BEFORE
/// AFTER`): the proof a redesign owes that it changed how results are written, never what
/// they say. Both runs are read by the readers every other surface uses (`ResultsDirectory`,
/// `CaseRecord`'s `Codable`), so a comparison cannot pass on a reader of its own that
/// agrees with itself.
///
/// What is compared: the two summaries, count by count; and every case that did not pass or
/// skip in either run, by id: its status, expected value (unless either side is abridged),
/// actual value (through the digest a baseline compares, so an abridged side compares too),
/// pattern, triage and baseline class. Each run is also checked against itself: the cases it
/// lists, per status, must add up to its summary (a cut-off cases file would otherwise read
/// as a run with fewer failures).
package struct RunComparison: Sendable {
  /// What is compared of one case.
  struct Reading: Sendable, Equatable {
    var status: CaseStatus
    /// `nil` when the record is abridged (its values were dropped).
    var expected: Value?
    var actual: UInt64
    var pattern: String
    var triage: Triage?
    var baseline: Baseline.Class?

    init(_ record: CaseRecord) {
      status = record.status
      expected = record.isAbridged ? nil : record.outcome.expected
      actual = record.actualDigestValue
      pattern = record.outcome.pattern
      triage = record.review.triage
      baseline = record.review.baseline
    }
  }

  /// The fields compared, in the order they are reported.
  enum Field: String, CaseIterable, Sendable {
    case status, expected, actual, pattern, triage, baseline

    /// Whether `before` and `after` agree on this field; `expected` is not compared where
    /// either side kept no value.
    func agrees(_ before: Reading, _ after: Reading) -> Bool {
      switch self {
      case .status: before.status == after.status
      case .expected: before.expected == nil || after.expected == nil || before.expected == after.expected
      case .actual: before.actual == after.actual
      case .pattern: before.pattern == after.pattern
      case .triage: before.triage == after.triage
      case .baseline: before.baseline == after.baseline
      }
    }

    func text(_ reading: Reading) -> String {
      switch self {
      case .status: reading.status.rawValue
      case .expected: reading.expected.map { "\($0)" } ?? "(abridged)"
      case .actual: reading.actual.digestText
      case .pattern: reading.pattern
      case .triage: reading.triage?.rawValue ?? "none"
      case .baseline: reading.baseline?.rawValue ?? "none"
      }
    }
  }

  /// What to print, one line each; the last is the verdict.
  package var lines: [String]
  /// Whether the runs say the same, case by case.
  package var same: Bool

  /// Compares the runs in `before` and `after` (report directories or their
  /// `results.json`), showing up to `show` examples of each difference; with `lines`, their
  /// cases files line by line too, leaving out the members `except` names
  /// (`lines(before:after:except:show:)`).
  ///
  /// - Throws: `InputError` naming the file that cannot be read.
  package static func run(before: URL, after: URL, show: Int = 3, lines byLine: Bool = false,
                          except: Set<String> = []) throws(InputError) -> RunComparison {
    let first = try ResultsDirectory(before, role: "compare BEFORE", as: RunRecord.self)
    let second = try ResultsDirectory(after, role: "compare AFTER", as: RunRecord.self)
    var lines: [String] = []
    for (label, run) in [("before", first), ("after", second)] {
      let summary = run.record.summary
      lines.append("\(label): \(run.url.path), \(summary.total) cases (failed \(summary.failed), "
        + "errored \(summary.errored), not-run \(summary.notRun), waived \(summary.waived), oracle-stale \(summary.oracleStale), "
        + "unexpected-pass \(summary.unexpectedPass))")
    }
    // What makes the runs different, for the verdict line.
    var problems: [String] = []
    let summaryDifferences = differences(first.record.summary, second.record.summary)
    lines.append("summary: " + (summaryDifferences.isEmpty ? "the same" : summaryDifferences.joined(separator: ", ")))
    if !summaryDifferences.isEmpty { problems.append("summary") }

    var table: [String: Reading] = [:]
    var twice: [String] = []
    var listed = StatusCounts()
    try read(first) { id, reading in
      if table.updateValue(reading, forKey: id) != nil { twice.append("before lists \(id) twice") }
      listed.add(reading.status)
    }
    var unbalanced = inconsistencies("before", listed, first.record.summary)

    var differing: [Field: [String]] = [:]
    var changes = VerdictChanges()
    var onlyAfter: [String] = []
    var compared = 0
    var seen = Set<String>()
    listed = StatusCounts()
    try read(second) { id, after in
      listed.add(after.status)
      guard seen.insert(id).inserted else { return twice.append("after lists \(id) twice") }
      guard let before = table.removeValue(forKey: id) else {
        changes.add(id, before: nil, after: after)
        return onlyAfter.append(id)
      }
      compared += 1
      if before.status != after.status || before.pattern != after.pattern {
        changes.add(id, before: before, after: after)
      }
      for field in Field.allCases where !field.agrees(before, after) {
        differing[field, default: []].append("\(id): \(field.text(before)) → \(field.text(after))")
      }
    }
    unbalanced += inconsistencies("after", listed, second.record.summary)
    let onlyBefore = table.keys.sorted()
    for id in onlyBefore { changes.add(id, before: table[id], after: nil) }

    for field in Field.allCases {
      let cases = differing[field] ?? []
      lines.append("\(field.rawValue): \(cases.count) differ")
      lines += cases.prefix(show).map { "  " + $0 }
    }
    for (label, ids) in [("only in before", onlyBefore), ("only in after", onlyAfter)] {
      lines.append("\(label): \(ids.count)")
      lines += ids.prefix(show).map { "  " + $0 }
    }
    lines += (twice.prefix(show) + unbalanced).map { "  " + $0 }
    lines += changes.lines
    var sameLines = ""
    if byLine {
      let read = try Self.lines(before: first, after: second, except: except, show: show)
      lines += read.lines
      if !read.same { problems.append("case lines differ") }
      sameLines = "; every case line the same (\(read.compared) lines)"
    }
    let fields = Field.allCases.filter { differing[$0] != nil }.map(\.rawValue)
    if !fields.isEmpty { problems.append(fields.joined(separator: ", ") + " differ") }
    if !onlyBefore.isEmpty || !onlyAfter.isEmpty { problems.append("cases in one run only") }
    if !twice.isEmpty { problems.append("a case listed twice") }
    if !unbalanced.isEmpty { problems.append("cases that do not add up to their summary") }
    let same = problems.isEmpty
    lines.append(same ? "same verdicts: \(compared) cases compared\(sameLines)" : "DIFFERENT: " + problems.joined(separator: "; "))
    return RunComparison(lines: lines, same: same)
  }

  /// Every case of `run` that neither passed nor was skipped.
  private static func read(_ run: ResultsDirectory<RunRecord>,
                           _ body: (String, Reading) -> Void) throws(InputError)
  {
    // Read by key a batch at a time, on the other cores (`MemberDecodable`): one JSONDecoder
    // call a record was most of what comparing a full sweep cost.
    try run.cases().forEachBatch(CaseRecord.self) { (batch) throws(InputError) in
      for record in batch where record.status != .passed && record.status != .skipped {
        body(record.id.description, Reading(record))
      }
    }
  }

  /// The summary's counts that differ, as `failed 3 → 4` (named as `results.json` names them).
  static func differences(_ before: StatusCounts, _ after: StatusCounts) -> [String] {
    StatusCounts.fields.compactMap { key, path in
      before[keyPath: path] == after[keyPath: path] ? nil
        : "\(key.stringValue) \(before[keyPath: path]) → \(after[keyPath: path])"
    }
  }

  /// Where the non-passing cases a run lists do not add up to its summary (passing and
  /// skipped cases are not listed without `--record all`).
  static func inconsistencies(_ label: String, _ listed: StatusCounts, _ summary: StatusCounts) -> [String] {
    StatusCounts.fields.filter { $0.key != .passed && $0.key != .skipped }.compactMap { key, path in
      let (lists, counts) = (listed[keyPath: path], summary[keyPath: path])
      return lists == counts ? nil : "\(label) lists \(lists) \(key.stringValue) cases, its summary counts \(counts)"
    }
  }

  /// Cases whose verdict or pattern changed, counted by check and by what each run said: the
  /// list a change of the expected column owes, with a count and a cause for each row.
  struct VerdictChanges {
    private var counts: [String: Int] = [:]

    /// A case of `id` that `before` and `after` list differently; a side that does not list
    /// it passed or did not sweep it.
    mutating func add(_ id: String, before: Reading?, after: Reading?) {
      let check = id.prefix { $0 != "|" }
      func said(_ reading: Reading?) -> String {
        guard let reading else { return "passed or not swept" }
        return reading.pattern.isEmpty ? reading.status.rawValue : "\(reading.status.rawValue) (\(reading.pattern))"
      }
      counts["\(check): \(said(before)) → \(said(after))", default: 0] += 1
    }

    /// `verdict changes: N`, then a row a kind of change, most cases first.
    var lines: [String] {
      let total = counts.values.reduce(0, +)
      return ["verdict changes: \(total) cases"] + counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        .map { "  \($0.value) × \($0.key)" }
    }
  }
}
