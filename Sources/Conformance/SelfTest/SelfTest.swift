import Foundation
import Synchronization
import ICUOracle

/// `conformance self-test`: does the harness have teeth? Runs the core corpus against the
/// real subject and against each `Mutant`, with the shipped waivers: every mutant must be
/// caught (a new failure or an unexpected pass in at least one check) and the real subject
/// must not be flagged beyond the waived differences.
///
/// Each mutant's run has the real subject's as its baseline, as a nightly has last night's:
/// a mistake whose failures a waiver written for other cases matches is still caught, since
/// the waiver's scope does not list them (new is news).
public enum SelfTest {
  /// What one subject's run showed.
  public struct Row: Sendable {
    public var subject: String
    public var mistake: String
    /// Checks that flagged it, with how many cases each.
    public var caughtBy: [(check: String, cases: Int)]
    /// One flagged case, to `explain`.
    public var example: String?
    public var caught: Bool { !caughtBy.isEmpty }
  }

  public struct Report: Sendable {
    public var rows: [Row]
    /// The real subject is the first row: it must not be caught; every mutant must.
    public var passed: Bool {
      guard let real = rows.first else { return false }
      return !real.caught && rows.dropFirst().allSatisfy(\.caught)
    }

    public var lines: [String] {
      var lines = ["subject | checks that caught it | example case", "--- | --- | ---"]
      for row in rows {
        let checks = row.caughtBy.map { "\($0.check) (\($0.cases))" }.joined(separator: ", ")
        lines.append("\(row.subject) | \(checks.isEmpty ? "none" : checks) | \(row.example ?? "—")")
      }
      lines.append(passed
        ? "self-test passed: every mutant was caught, the real subject only shows waived differences"
        : "self-test FAILED: " + (rows.first?.caught == true ? "the real subject has unexplained results; " : "")
          + rows.dropFirst().filter { !$0.caught }.map { "\($0.subject) was not caught" }
            .joined(separator: "; "))
      return lines
    }
  }

  public static func run(corporaDirectory: URL, jobs: Int, mutants: [Mutant] = Mutant.all,
                         log: (String) -> Void) throws -> Report {
    let corpus = try Corpus.load(CorpusRequest(corporaDirectory: corporaDirectory))
    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all)
    let waivers = try WaiverFile.load(corporaDirectory.appendingPathComponent(Corpus.Files.waivers))
    let versions = try RunVersions.current()
    var rows: [Row] = []
    let subjects = [("PickerLogic", "none: the seeds' logic", Subject.pickerLogic, plan)]
      + mutants.map { mutant in
        // Only the checks that call a function the mutant changes can catch it.
        let checks = plan.checks.filter { !mutant.changes.isDisjoint(with: $0.subjectFunctions) }
        return (mutant.name, mutant.mistake, mutant.make(.pickerLogic), Plan.make(corpus: corpus, checks: checks))
      }
    var baseline: Baseline?
    for (name, mistake, subject, plan) in subjects {
      let clock = ContinuousClock.now
      var runner = Runner(plan: plan, corpus: corpus, subject: subject, workers: jobs)
      runner.review = Review(waivers: waivers, baseline: baseline, versions: versions, today: .today)
      let caught = Mutex(Catches())
      let isBaseline = baseline == nil
      runner.run { event in
        guard case .stepEnded(let step) = event.kind else { return }
        caught.withLock { catches in
          for record in step.cases {
            if isBaseline, record.outcome.isFailure {
              catches.failures[CaseKey(record.id.description)] = record.actualDigestValue
            }
            guard record.isNewFailure || record.status == .unexpectedPass else { continue }
            catches.counts[record.id.check, default: 0] += 1
            if catches.example == nil { catches.example = record.id.description }
          }
        }
      }
      let catches = caught.withLock { $0 }
      let row = Row(subject: name, mistake: mistake,
                    caughtBy: plan.checks.map(\.id).compactMap { id in catches.counts[id].map { (id, $0) } },
                    example: catches.example)
      log(String(format: "%@: %@ (%.0f s)", name, row.caught ? "caught" : "not caught",
                 (ContinuousClock.now - clock).seconds))
      rows.append(row)
      if baseline == nil {
        baseline = Baseline(
          reference: BaselineReference(path: "the real subject's run", started: "",
                                       versions: versions.summary),
          failures: catches.failures, steps: PlanStepSet.index(plan))
      }
    }
    return Report(rows: rows)
  }
}

/// What one run flagged, filled by the runner's handler.
struct Catches: Sendable {
  var counts: [String: Int] = [:]
  var example: String?
  /// The failing cases' actual values, from the real subject's run: the mutants' baseline.
  var failures: [CaseKey: UInt64] = [:]
}
