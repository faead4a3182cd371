import Foundation

/// Writes `results.json` (a `RunRecord`) and gives the page the same facts as JSON values.
package enum ResultsJSON {
  /// Writes the run's `results.json`; its cases and steps were streamed to `files` already.
  package static func write(_ tally: RunTally, files: RunRecord.Files, to url: URL) throws {
    guard let info = tally.info else { throw HarnessError("results.json: the run never started") }
    var record = RunRecord(tally, info: info, files: files)
    record.run.slowReads = SlowReads.take()
    var data = try RecordCoding.documentEncoder().encode(record)
    data.append(UInt8(ascii: "\n"))
    try ReportFile.write(data, to: url)
  }

  static func counts(_ counts: StatusCounts) -> JSONValue {
    .object([(StatusCounts.CodingKeys.cases.stringValue, .int(counts.total))]
      + StatusCounts.fields.map { ($0.key.stringValue, .int(counts[keyPath: $0.path])) })
  }

  static func matrices(_ matrices: [String: [String: [String: PassCount]]]) -> JSONValue {
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
        ("implementation", .string(versions.subjectExecutor.map { "executor \($0), its own data; Foundation's "
          + "versions here are triage's" }
          ?? ((versions.subjectFunctions.map { "\($0), a team's functions on " } ?? "")
            + "Foundation (pure-Swift gregorian/iso8601, bundled ICU otherwise)"))),
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
}

extension RunRecord {
  /// The record of a run from its tally and what the run is about.
  init(_ tally: RunTally, info: RunInfo, files: Files) {
    var run = info
    run.review.removed = Array(info.review.removed.prefix(Self.removedListed))
    self.run = run
    elapsedSeconds = tally.elapsed.rounded(toPlaces: 3)
    summary = tally.totals
    checks = info.checks.map { check in
      CheckRecord(id: check.id, counts: tally.checkCounts[check.id] ?? StatusCounts(),
                  testcases: tally.testcaseCounts(check: check.id),
                  baselineClasses: info.review.baseline == nil ? nil
                    : tally.checkBaselineCounts[check.id] ?? [:])
    }
    skipReasons = tally.skipReasons
    newFailures = tally.newFailures
    newFailureClasses = info.review.baseline == nil ? [:]
      : Dictionary(uniqueKeysWithValues: NightCounts.newFailureClasses.map {
        ($0.0.rawValue, tally.newFailuresByClass[$0.0] ?? 0)
      })
    baselineClasses = info.review.baseline == nil ? [:]
      : Dictionary(uniqueKeysWithValues: Baseline.Class.allCases.map {
        ($0.rawValue, tally.baselineCounts[$0] ?? 0)
      })
    matrices = tally.matrices
    self.files = files
  }
}
