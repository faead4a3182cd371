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
package enum SelfTest {
  /// What one subject's run showed.
  package struct Row: Sendable {
    package var subject: String
    package var mistake: String
    /// Checks that flagged it, with how many cases each.
    package var caughtBy: [(check: String, cases: Int)]
    /// One flagged case, to `explain`.
    package var example: String?
    package var caught: Bool { !caughtBy.isEmpty }
  }

  package struct Report: Sendable {
    package var rows: [Row]
    /// The real subject is the first row: it must not be caught; every mutant must.
    package var passed: Bool {
      guard let real = rows.first else { return false }
      return !real.caught && rows.dropFirst().allSatisfy(\.caught)
    }

    package var lines: [String] {
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

  /// - Parameter realRun: a finished run of the real subject on the core corpus (the quick
  ///   start's, in CI), read for the real subject's row instead of sweeping it again; it must
  ///   be the run this would make (see `finishedRun`).
  package static func run(corporaDirectory: URL, jobs: Int, mutants: [Mutant] = Mutant.all,
                         realRun: URL? = nil, log: (String) -> Void) throws -> Report {
    let corpus = try Corpus.load(CorpusRequest(corporaDirectory: corporaDirectory))
    let plan = Plan.make(corpus: corpus, checks: CheckCatalog.all)
    let waivers = try WaiverFile.load(corporaDirectory.appendingPathComponent(Corpus.Files.waivers))
    let versions = try RunVersions.current().naming(.pickerLogic)
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
      let catches: Catches
      var read = ""
      if baseline == nil, let realRun {
        read = ", read from \(realRun.path)"
        (catches, baseline) = try finishedRun(realRun, plan: plan, corporaDirectory: corporaDirectory,
                                              versions: versions)
      } else {
        var runner = Runner(plan: plan, corpus: corpus, subject: subject, workers: jobs)
        runner.review = Review(waivers: waivers, about: subject, baseline: baseline, versions: versions, today: .today)
        let caught = Mutex(Catches())
        runner.run { event in
          guard case .stepEnded(let step) = event.kind else { return }
          caught.withLock { catches in step.cases.forEach { catches.add($0) } }
        }
        catches = caught.withLock { $0 }
      }
      let row = Row(subject: name, mistake: mistake,
                    caughtBy: plan.checks.map(\.id).compactMap { id in catches.counts[id].map { (id, $0) } },
                    example: catches.example)
      log(String(format: "%@: %@ (%.0f s%@)", name, row.caught ? "caught" : "not caught",
                 (ContinuousClock.now - clock).seconds, read))
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

/// What one run flagged, filled by the runner's handler or from a finished run's cases.
struct Catches: Sendable {
  var counts: [String: Int] = [:]
  var example: String?
  /// The failing cases' actual values, from the real subject's run: the mutants' baseline.
  var failures: [CaseKey: UInt64] = [:]

  /// Counts a case that a nightly would go red for (a new failure) or flag (an unexpected
  /// pass); keeps every failing case's actual value.
  mutating func add(_ record: CaseRecord) {
    if record.outcome.isFailure {
      failures[CaseKey(record.id.description)] = record.actualDigestValue
    }
    guard record.isNewFailure || record.status == .unexpectedPass else { return }
    counts[record.id.check, default: 0] += 1
    if example == nil { example = record.id.description }
  }
}

extension SelfTest {
  /// The real subject's row and the mutants' baseline from a finished run, which must be the
  /// run `self-test` would make: the built-in subject with no fault injected, the corpus's own
  /// waivers, no baseline, these versions, and every step of the core plan as planned here.
  /// A run of part of the corpus or with other waivers would hide what the real subject shows.
  ///
  /// - Throws: `InputError` naming the directory and what differs (exit 2).
  static func finishedRun(_ path: URL, plan: Plan, corporaDirectory: URL, versions: RunVersions)
    throws(InputError) -> (Catches, Baseline)
  {
    let role = "self-test --real-run"
    let results = try ResultsDirectory(path, role: role, as: RunRecord.self)
    let run = results.record.run
    let explain = run.explainCommand
    let corpora = explain.corpora ?? URL(fileURLWithPath: "Corpora").standardizedFileURL.path
    let differences = [
      run.subject == Subject.pickerLogic.name ? nil : "its subject is \(run.subject), not \(Subject.pickerLogic.name)",
      explain.subject == nil ? nil : "its subject is \(explain.subject ?? "")",
      explain.fault.map { "it ran with CONFORMANCE_FAULT=\($0)" },
      explain.waivers.map { "its waivers are \($0), not the corpus's own" },
      corpora == corporaDirectory.standardizedFileURL.path ? nil : "its corpora are \(corpora)",
      run.review.baseline.map { "it ran against a baseline (\($0.path)): its new failures are not the real subject's" },
      run.versions == versions ? nil : "its versions are \(run.versions.summary), these are \(versions.summary)",
    ].compactMap { $0 }
    guard differences.isEmpty else {
      throw InputError("\(role) \(results.url.path): not the run self-test makes: "
        + differences.joined(separator: "; "))
    }
    let baseline = try Baseline.load(path, sweptBy: plan)
    let planned = PlanStepSet.index(plan)
    guard baseline.steps == planned else {
      let missing = planned.filter { baseline.steps[$0.key] != $0.value }.count
      throw InputError("\(role) \(results.url.path): not the core corpus's plan: \(missing) of its "
        + "\(planned.count) steps swept otherwise or not at all, \(baseline.steps.count) steps in the run")
    }
    var catches = Catches()
    let cases = try results.cases()
    try cases.forEachBatch(CaseRecord.self) { (batch) throws(InputError) in batch.forEach { catches.add($0) } }
    return (catches, baseline)
  }
}
