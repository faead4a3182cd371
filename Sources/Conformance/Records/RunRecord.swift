import Foundation

/// `results.json`: what a run was and what it found, in numbers. Its cases and step records
/// sit beside it as JSON Lines (`files`), so the document stays small however much failed.
package struct RunRecord: Sendable, Codable {
  /// Bumped whenever a reader of an older file would misread this one (3: one typed record;
  /// cases and steps in their own gzip-compressed JSON Lines files).
  package static let schema = "conformance-results/3"

  package var schema = RunRecord.schema
  package var run: RunInfo
  package var elapsedSeconds: Double
  package var summary: StatusCounts
  package var checks: [CheckRecord]
  package var skipReasons: [String: Int]
  /// Failures no waiver explains that are new (what `--fail-on new` counts).
  package var newFailures: Int
  /// The new failures by baseline class (`new-failure`, `changed`, `new-case`; empty without
  /// a baseline): they sum to `newFailures`, while `baselineClasses` counts waived cases too.
  /// Absent from results written before it.
  package var newFailureClasses: [String: Int]?
  /// Cases per baseline class, every class named (empty without a baseline).
  package var baselineClasses: [String: Int]
  /// Pass counts per check, dimension and value (see `StepRecord.cells`).
  package var matrices: [String: [String: [String: PassCount]]]
  package var files: Files

  /// The files beside `results.json`, relative to it.
  package struct Files: Sendable, Codable, Equatable {
    /// One `StepRecord` per line, in plan order: the plan, each step's counts and cells.
    package var steps: String
    /// One `CaseRecord` per line, in plan order.
    package var cases: String
    /// `not-passing` (every case that did not pass or skip) or `all` (`--record all`).
    package var casesHold: String

    package init(steps: String, cases: String, casesHold: String) {
      self.steps = steps
      self.cases = cases
      self.casesHold = casesHold
    }
  }

  /// One check's counts, as cases and as JUnit testcases.
  package struct CheckRecord: Sendable, Codable, Equatable {
    package var id: String
    package var counts: StatusCounts
    package var testcases: TestcaseCounts
    /// Cases per baseline class (with a baseline): what a later page's trend plots.
    package var baselineClasses: [String: Int]?
  }

  /// How many removed cases `results.json` lists by id (the count is in `baselineClasses`).
  static let removedListed = 1000

  /// The default names of the files beside `results.json`.
  static func files(recordAll: Bool) -> Files {
    Files(steps: "steps.jsonl.gz", cases: "cases.jsonl.gz",
          casesHold: recordAll ? "all" : "not-passing")
  }
}
