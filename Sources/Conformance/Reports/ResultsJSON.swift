import Foundation

/// `results.json`: the machine-readable report, compared between runs (`--baseline`).
public enum ResultsJSON {
  /// Bumped whenever a reader of an older file would misread this one (2: waived cases
  /// beyond their cluster's examples are abridged).
  public static let schema = "conformance-results/2"

  /// The schemas `--baseline` reads: a baseline needs only ids, statuses and actual values,
  /// which every version has (in full, or as a digest).
  public static let baselineSchemas: Set<String> = ["conformance-results/1", schema]

  /// The separator the failure log is written with, so it is the body of a JSON array.
  public static let failureSeparator = ",\n    "

  /// Writes `results.json` for a finished run whose failing cases were streamed to
  /// `failuresFile` (written with `failureSeparator`), copying them in without parsing.
  public static func write(_ tally: RunTally, recordedCases: String?, failuresFile: URL,
                           to url: URL) throws {
    let marker = "@@failures@@"
    let text = document(tally, recordedCases: recordedCases, failures: .string(marker)).rendered()
    let parts = text.components(separatedBy: "\"\(marker)\"")
    guard parts.count == 2 else { throw HarnessError("results.json: failure marker not unique") }
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)  // errors surface below
    let output = try FileHandle(forWritingTo: url)
    defer { try? output.close() }
    let input = try FileHandle(forReadingFrom: failuresFile)
    defer { try? input.close() }
    // Empty when nothing was logged (waived cases and unexpected passes are logged too).
    let size = (try? FileManager.default.attributesOfItem(atPath: failuresFile.path)[.size] as? Int) ?? 0
    let empty = size == 0
    output.write(Data((parts[0] + (empty ? "[" : "[\n    ")).utf8))
    while let chunk = try input.read(upToCount: 4 << 20), !chunk.isEmpty {
      output.write(chunk)
    }
    output.write(Data(((empty ? "" : "\n  ") + "]" + parts[1] + "\n").utf8))
  }

  /// The whole document for a finished run, with the failures the tally kept in memory.
  public static func document(_ tally: RunTally, recordedCases: String?) -> JSONValue {
    document(tally, recordedCases: recordedCases, failures: .array(tally.problems.map(caseJSON)))
  }

  static func document(_ tally: RunTally, recordedCases: String?, failures: JSONValue)
    -> JSONValue
  {
    guard let info = tally.info else { return .object([("schema", .string(schema))]) }
    let checks: [JSONValue] = info.checks.map { check in
      let counts = tally.checkCounts[check.id] ?? StatusCounts()
      let testcases = tally.testcaseCounts(check: check.id)
      return .object([
        ("id", .string(check.id)), ("summary", .string(check.summary)),
        ("cases", .int(counts.total)), ("passed", .int(counts.passed)),
        ("failed", .int(counts.failed)), ("errored", .int(counts.errored)),
        ("skipped", .int(counts.skipped)), ("waived", .int(counts.waived)),
        ("unexpectedPasses", .int(counts.unexpectedPass)),
        ("testcases", .object([
          ("tests", .int(testcases.tests)), ("failures", .int(testcases.failures)),
          ("errors", .int(testcases.errors)), ("skipped", .int(testcases.skipped)),
        ])),
      ])
    }
    return .object([
      ("schema", .string(schema)),
      ("run", .object([
        ("started", .string(ISO8601DateFormatter().string(from: info.started))),
        ("elapsedSeconds", .double(tally.elapsed)),
        ("arguments", .array(info.arguments.map(JSONValue.string))),
        ("options", .object(info.options.map { ($0.0, .string($0.1)) })),
        ("subject", .string(info.subject)),
      ])),
      ("versions", versions(info.versions)),
      ("summary", counts(tally.totals)),
      ("checks", .array(checks)),
      ("coverage", .object([
        ("checks", .array(info.coverage.map(coverage))),
        ("transitionsByKind", counts(info.transitionsByKind)),
        ("invariantOnlyCalendars", .array(info.invariantOnlyCalendars.map(JSONValue.string))),
        ("aliases", .object(info.aliases.map { ($0.alias, .string($0.canonical)) })),
      ])),
      ("skipReasons", .object(tally.skipReasons.sorted { $0.key < $1.key }
        .map { ($0.key, .int($0.value)) })),
      ("review", review(info.review, tally)),
      ("triage", info.triageProblem.map { .object([("off", .string($0))]) }
        ?? .object([("on", .string("failures re-evaluated against Foundation's own ICU"))])),
      ("plan", .array(info.planLines.map(JSONValue.string))),
      ("steps", .array(tally.steps.map { .string(stepLine($0)) })),
      ("matrices", matrices(tally.matrices)),
      ("recordedCases", recordedCases.map(JSONValue.string) ?? .null),
      ("failures", failures),
    ])
  }

  static func counts(_ counts: StatusCounts) -> JSONValue {
    .object([
      ("cases", .int(counts.total)), ("passed", .int(counts.passed)),
      ("failed", .int(counts.failed)), ("errored", .int(counts.errored)),
      ("skipped", .int(counts.skipped)), ("waived", .int(counts.waived)),
      ("unexpectedPasses", .int(counts.unexpectedPass)),
    ])
  }

  static func review(_ review: RunInfo.ReviewSummary, _ tally: RunTally) -> JSONValue {
    .object([
      ("failOn", .string(review.failOn)),
      ("newFailures", .int(tally.newFailures)),
      ("baseline", review.baseline.map { baseline in
        .object([
          ("path", .string(baseline.path)), ("started", .string(baseline.started)),
          ("versions", .string(baseline.versions)),
          ("classes", .object(Baseline.Class.allCases.map {
            ($0.rawValue, .int(tally.baselineCounts[$0] ?? 0))
          })),
          ("removed", .array(review.removed.prefix(1000).map(JSONValue.string))),
        ])
      } ?? .null),
      ("waivers", .object([
        ("file", review.waiverFile.map(JSONValue.string) ?? .null),
        ("matched", .array(review.waiverMatches.map { .array([.string($0.id), .int($0.count)]) })),
        ("stale", .array(review.stale.map { stale in
          .object([("id", .string(stale.id)), ("why", .string(stale.why))])
        })),
      ])),
    ])
  }

  /// One step as `results.json` records it, tab-separated: index, check, name, the counts
  /// (passed, failed, errored, skipped, waived, unexpected passes), seconds, skip reason.
  static func stepLine(_ step: RunTally.Step) -> String {
    let counts = step.counts
    return [String(step.index), step.check, step.name,
            [counts.passed, counts.failed, counts.errored, counts.skipped, counts.waived,
             counts.unexpectedPass].map(String.init).joined(separator: ","),
            String(format: "%.3f", step.duration), step.skipReason ?? ""].joined(separator: "\t")
  }

  static func matrices(_ matrices: [String: [String: [String: RunTally.PassCount]]]) -> JSONValue {
    .object(matrices.sorted { $0.key < $1.key }.map { check, dimensions in
      (check, .object(dimensions.sorted { $0.key < $1.key }.map { dimension, values in
        (dimension, .object(values.sorted { $0.key < $1.key }.map {
          ($0.key, .array([.int($0.value.passed), .int($0.value.total)]))
        }))
      }))
    })
  }

  static func counts(_ counts: [String: Int]) -> JSONValue {
    .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
  }

  static func versions(_ versions: RunVersions) -> JSONValue {
    .object([
      ("swift", .string(versions.swift)),
      ("subject", .object([
        ("implementation", .string("Foundation (pure-Swift gregorian/iso8601, bundled ICU otherwise)")),
        ("icu", versions.subjectICU.map { .string($0.icu) } ?? .null),
        ("cldr", versions.subjectICU.map { .string($0.cldr) } ?? .null),
        ("tzICU", versions.subjectICU.map { .string($0.tz) } ?? .null),
        ("tz", .string(versions.subjectTimeZoneData)),
        ("icuProblem", versions.subjectICUProblem.map(JSONValue.string) ?? .null),
      ])),
      ("oracle", .object([
        ("implementation", .string("system libicu")),
        ("icu", .string(versions.oracle.icu)), ("cldr", .string(versions.oracle.cldr)),
        ("tz", .string(versions.oracle.tz)),
      ])),
    ])
  }

  static func coverage(_ coverage: PlanCoverage) -> JSONValue {
    .object([
      ("check", .string(coverage.check)), ("cases", .int(coverage.cases)),
      ("steps", .int(coverage.steps)), ("locales", .int(coverage.locales)),
      ("calendars", .int(coverage.calendars)), ("firstWeekdays", .int(coverage.firstWeekdays)),
      ("zones", .int(coverage.zones)), ("zoneMonths", .int(coverage.zoneMonths)),
      ("equivalentZoneMonths", .int(coverage.equivalentZoneMonths)),
      ("months", .int(coverage.months)),
      ("transitionsByKind", counts(coverage.transitionsByKind)),
      ("crossProduct", .int(coverage.crossProduct)),
    ])
  }

  /// Whether `failures` abridges a case: waived ones beyond their cluster's examples. A
  /// nightly full sweep waives ~400,000 known differences; in full they made results.json
  /// ~600 MB, which every later `--baseline` parsed. The examples stay whole (the reports
  /// show them, and `merge` rebuilds the reports from them); the rest keep what a reviewer
  /// filters by and what a baseline compares, and `explain` re-runs any of them.
  public static func abridges(_ result: CaseResult, isClusterExample: Bool) -> Bool {
    result.outcome.status == .waived && !isClusterExample
  }

  /// A `RunTally` failure sink that appends each case's `failures` line to `log`.
  public static func failureSink(into log: JSONLinesWriter) -> (CaseResult, Bool) -> Void {
    { result, isClusterExample in
      log.append(line: failureLine(result, isClusterExample: isClusterExample))
    }
  }

  /// The line `failures` holds for a case (see `abridges`).
  public static func failureLine(_ result: CaseResult, isClusterExample: Bool) -> String {
    guard abridges(result, isClusterExample: isClusterExample) else { return result.jsonLine }
    if result.isAbridged, let line = result.json { return line }  // merge: already abridged
    return abridgedJSON(result).rendered(indent: nil)
  }

  /// An abridged case: its id, step, status, waiver, triage, baseline class, pattern, and a
  /// digest of its actual value (`Value.digest`) in place of the values and detail.
  static func abridgedJSON(_ result: CaseResult) -> JSONValue {
    let outcome = result.outcome
    var members: [(String, JSONValue)] = [
      ("id", .string(result.id.description)),
      ("check", .string(result.id.check)),
      ("step", result.step.map(JSONValue.int) ?? .null),
      ("status", .string(outcome.status.rawValue)),
    ]
    if let waiver = outcome.waiver { members.append(("waiver", .string(waiver))) }
    if let baseline = outcome.baseline { members.append(("baseline", .string(baseline.rawValue))) }
    if let triage = outcome.triage { members.append(("triage", .string(triage.rawValue))) }
    members.append(("pattern", .string(outcome.pattern)))
    members.append(("actualDigest", .string(outcome.actual.digest.digestText)))
    return .object(members)
  }

  /// One case, as in `failures` and in `cases.jsonl`.
  public static func caseJSON(_ result: CaseResult) -> JSONValue {
    let outcome = result.outcome
    var members: [(String, JSONValue)] = [
      ("id", .string(result.id.description)),
      ("check", .string(result.id.check)),
      ("step", result.step.map(JSONValue.int) ?? .null),
      ("dimensions", .object(result.id.dimensionValues.map { ($0.key, .string($0.value)) })),
      ("status", .string(outcome.status.rawValue)),
      ("expected", outcome.expected.json),
      ("actual", outcome.actual.json),
    ]
    if let months = outcome.months {
      members.append(("months", .object([
        ("oracle", .string(months.oracle)), ("subject", .string(months.subject)),
      ])))
    }
    if let waiver = outcome.waiver { members.append(("waiver", .string(waiver))) }
    if let baseline = outcome.baseline { members.append(("baseline", .string(baseline.rawValue))) }
    if let triage = outcome.triage {
      members.append(("triage", .string(triage.rawValue)))
      members.append(("expectedFoundationICU", outcome.triageExpected?.json ?? .null))
    }
    if outcome.status != .passed {
      members.append(("pattern", .string(outcome.pattern)))
      members.append(("detail", .array(outcome.detail.map(JSONValue.string))))
      members.append(("explain", .string(ExplainCommand.text(for: result.id))))
    }
    return .object(members)
  }
}

/// The command that re-runs one case and prints its inputs and both sides' values.
public enum ExplainCommand {
  public static func text(for id: CaseID) -> String {
    "swift run conformance explain '\(id.description.replacingOccurrences(of: "'", with: "'\\''"))'"
  }
}
