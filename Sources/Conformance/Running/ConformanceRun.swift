import Foundation
import ICUOracle

/// One whole run: validate, plan, sweep, write the reports, decide the exit status.
public enum ConformanceRun {
  /// What a finished run tells its caller.
  public struct Result: Sendable {
    public var status: ExitStatus
    /// Lines for stdout: totals, the most common failure patterns, where reports went.
    public var summary: [String]
    /// Why the status is not clean, for stderr.
    public var reason: String?
    /// Where the time went, for the benchmark.
    public var timing = Timing()
    /// Cases evaluated.
    public var cases = 0
  }

  /// Seconds spent in each part of a run (wall unless marked CPU).
  public struct Timing: Sendable {
    public var load = 0.0
    public var sweep = 0.0
    /// Process CPU seconds during the sweep (all threads).
    public var sweepCPU = 0.0
    /// CPU seconds of the calling thread during the sweep: receiving and recording results.
    public var deliveryCPU = 0.0
    /// CPU seconds of the threads evaluating steps, summed over steps (in-process runs; a
    /// worker process's are its own).
    public var evaluationCPU = 0.0
    public var write = 0.0
  }

  /// Runs the sweep `options` describe against `subject`.
  ///
  /// - Throws: `InputError` (exit 2) before any work when an input is bad;
  ///   `HarnessError` (exit 3) when the harness fails. A failing case is not an error.
  public static func run(_ options: RunOptions, subject: Subject = .pickerLogic) throws -> Result {
    let started = ContinuousClock.now
    let checks = try selectChecks(options.checks)
    let directory = try ReportDirectory(validating: options.out)
    // Read before any work: bad files exit 2, and a baseline that is the output's own
    // results.json is copied into memory before the run replaces it.
    let waivers = try options.waivers.map { url throws(InputError) in try WaiverFile.load(url) } ?? []
    var baseline = try options.baseline.map { url throws(InputError) in try Baseline.load(url) }
    let corpus = try Corpus.load(options.request)
    let plan = Plan.make(corpus: corpus, checks: checks, shard: options.shard)
    if options.dryRun { return Result(status: .clean, summary: describe(plan, corpus), reason: nil) }
    guard plan.caseCount > 0 else {
      throw InputError("the selection has no cases (check the --checks, --first-weekdays and "
        + "--time-zones values together)")
    }
    // A shard sweeps a slice of the plan: the rest of the baseline is not "removed".
    let removed = options.shard == nil ? baseline?.removed(from: plan) ?? [] : []
    // Worker processes classify against their own copy; this one needs only the baseline's
    // name, and lets the tables go before the sweep (~170 MB for a full night's).
    if options.workerExecutable != nil { baseline = baseline?.withoutTables }
    let versions = try RunVersions.current()
    let review = Review(waivers: waivers, baseline: baseline, versions: versions,
                        today: LocalDay.today)
    let staging = try directory.makeStaging()
    var timing = Timing()
    timing.load = (ContinuousClock.now - started).seconds
    do {
      let (cpu, thread, clock) = (ThreadClock.process, ThreadClock.now, ContinuousClock.now)
      let tally = try sweep(plan: plan, corpus: corpus, subject: subject, options: options,
                            versions: versions, review: review, removed: removed,
                            staging: staging)
      timing.evaluationCPU = tally.evaluationCPU
      try Interruption.check()
      (timing.sweep, timing.sweepCPU, timing.deliveryCPU) =
        ((ContinuousClock.now - clock).seconds, ThreadClock.process - cpu, ThreadClock.now - thread)
      let writing = ContinuousClock.now
      try write(tally, into: staging, recordedCases: options.record == .all ? "cases.jsonl" : nil)
      try FileManager.default.removeItem(at: staging.appendingPathComponent(failureLog))
      try directory.commit(staging)
      timing.write = (ContinuousClock.now - writing).seconds
      var result = summarize(tally, directory: directory, failOn: options.failOn)
      result.timing = timing
      result.cases = tally.totals.total
      return result
    } catch {
      directory.discard(staging)
      throw error
    }
  }

  /// The plan's coverage as text, for `--dry-run`.
  static func describe(_ plan: Plan, _ corpus: Corpus) -> [String] {
    var lines = ["plan: \(plan.caseCount) cases in \(plan.steps.count) steps; "
      + "\(corpus.locales.count) locales, \(corpus.calendars.count) calendars "
      + "(\(corpus.invariantOnlyCalendars.count) invariant-only), \(corpus.zones.count) zones "
      + "(\(corpus.zones.filter(\.sweepsEveryMonth).count) sweep every month, "
      + "\(corpus.zones.reduce(0) { $0 + $1.aliases.count }) aliases folded), "
      + "\(corpus.zones.reduce(0) { $0 + $1.transitions.count }) transitions"]
    for coverage in plan.coverage {
      lines.append("  \(coverage.check): \(coverage.cases) cases (cross product "
        + "\(coverage.crossProduct)), \(coverage.zoneMonths) zone-months"
        + (coverage.equivalentZoneMonths > 0
          ? " (+\(coverage.equivalentZoneMonths) covered by an equivalent zone)" : ""))
    }
    return lines
  }

  public static func selectChecks(_ ids: [String]) throws(InputError) -> [any Check] {
    guard !ids.isEmpty else { return CheckCatalog.all }
    for id in ids where CheckCatalog.check(id) == nil {
      throw InputError("unknown check '\(id)' (known: "
        + CheckCatalog.all.map(\.id).joined(separator: ", ") + ")")
    }
    return CheckCatalog.all.filter { ids.contains($0.id) }
  }

  static func sweep(plan: Plan, corpus: Corpus, subject: Subject, options: RunOptions,
                    versions: RunVersions, review: Review, removed: [String], staging: URL)
    throws -> RunTally
  {
    let failures = try JSONLinesWriter(url: staging.appendingPathComponent(failureLog),
                                       separator: ResultsJSON.failureSeparator)
    let tally = RunTally(keepProblems: false, failureSink: ResultsJSON.failureSink(into: failures))
    let console = ConsoleRecorder(totalCases: plan.caseCount)
    let cases = options.record == .all
      ? try JSONLinesWriter(url: staging.appendingPathComponent("cases.jsonl")) : nil
    let handler: EventHandler = { event in
      tally.record(event)
      console.record(event)
      switch event.kind {
      case .caseEnded(let result): cases?.append(result)
      case .stepSummarized(let summary):
        for line in summary.lines { cases?.append(line: line) }
        // Workers applied the waivers; their matches are counted here.
        for problem in summary.problems { if let id = problem.outcome.waiver { review.noteMatch(id) } }
      case .runEnded:
        cases?.close()
        failures.close()
      default: break
      }
    }
    var kinds: [String: Int] = [:]
    for zone in corpus.zones {
      for transition in zone.transitions {
        for kind in transition.kinds { kinds[kind.rawValue, default: 0] += 1 }
      }
    }
    var info = RunInfo(
      arguments: options.arguments, options: options.reported, versions: versions,
      coverage: plan.coverage, transitionsByKind: kinds,
      checks: plan.checks.map { ($0.id, $0.summary) }, started: Date(), subject: subject.name)
    info.aliases = corpus.zones.flatMap { zone in zone.aliases.map { ($0, zone.id) } }
      .sorted { $0.0 < $1.0 }
    info.invariantOnlyCalendars = corpus.calendars.filter(corpus.invariantOnlyCalendars.contains)
    info.triageProblem = corpus.triageProblem
    info.zoneClasses = Dictionary(corpus.zones.map { ($0.id, $0.zoneClass) },
                                  uniquingKeysWith: { first, _ in first })
    info.monthSweepZones = corpus.zones.filter(\.sweepsEveryMonth).map(\.id)
    info.planLines = plan.steps.map(PlanStepSet.encode)
    info.review.failOn = options.failOn.rawValue
    info.review.waiverFile = options.waivers?.path
    info.review.baseline = review.baseline
    handler(Event(.runStarted(info)))
    let clock = ContinuousClock.now
    if let executable = options.workerExecutable {
      try IsolatedRunner(
        plan: plan, executable: executable, arguments: options.arguments, workers: options.jobs,
        limits: try .fromEnvironment(), zoneClasses: info.zoneClasses
      ).run(handler)
    } else {
      var runner = Runner(plan: plan, corpus: corpus, subject: subject, workers: options.jobs,
                          renderAll: options.record == .all)
      runner.review = review
      runner.run(handler)
    }
    let elapsed = ContinuousClock.now - clock
    handler(Event(.runEnded(elapsed: elapsed.seconds)))
    var summary = info.review
    summary.waiverMatches = review.matchCounts
    summary.stale = review.unmatched.map { ($0.id, "matched no case of this run") }
      + review.inactive.map { ($0.waiver.id, $0.reason) }
    summary.removed = removed
    tally.completeReview(summary)
    return tally
  }

  /// The failing cases as they end, in the staging directory; spliced into results.json.
  public static let failureLog = ".failures.jsonl"

  public static func write(_ tally: RunTally, into staging: URL, recordedCases: String?) throws {
    try ResultsJSON.write(tally, recordedCases: recordedCases,
                          failuresFile: staging.appendingPathComponent(failureLog),
                          to: staging.appendingPathComponent("results.json"))
    try ReportFile.write(JUnitXML.document(tally), to: staging.appendingPathComponent("junit.xml"))
    try ReportFile.write(HTMLReport.document(tally),
                         to: staging.appendingPathComponent("index.html"))
  }

  public static func summarize(_ tally: RunTally, directory: ReportDirectory, failOn: FailOn)
    -> Result
  {
    let totals = tally.totals
    var lines = [
      "\(totals.total) cases in \(String(format: "%.1f", tally.elapsed)) s: \(totals.passed) passed, "
        + "\(totals.failed) failed, \(totals.errored) errored, \(totals.waived) waived, "
        + "\(totals.unexpectedPass) unexpected passes, \(totals.skipped) skipped",
    ]
    if let baseline = tally.info?.review.baseline {
      lines.append("against \(baseline.path) (\(baseline.started)): " + Baseline.Class.allCases
        .map { "\(tally.baselineCounts[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", "))
    }
    if let stale = tally.info?.review.stale, !stale.isEmpty {
      lines.append("stale waivers: " + stale.map { "\($0.id) (\($0.why))" }.joined(separator: "; "))
    }
    if let versions = tally.info?.versions { lines.append(versions.summary) }
    let clusters = tally.clusters.sorted
    if !clusters.isEmpty {
      lines.append("Most common failure patterns:")
      for cluster in clusters.prefix(8) {
        lines.append("  \(cluster.count) × \(cluster.check): \(cluster.pattern)")
      }
    }
    for file in ["results.json", "junit.xml", "index.html"] {
      lines.append("wrote \(directory.url.appendingPathComponent(file).path)")
    }
    let reason = failOn.reason(totals, newFailures: tally.newFailures)
    return Result(
      status: reason == nil ? .clean : .unexpected, summary: lines,
      reason: reason.map { "exit 1: \($0)" }
        ?? "exit 0: nothing for --fail-on \(failOn.rawValue) (\(tally.newFailures) new failures, "
        + "\(totals.unexpectedPass) unexpected passes, \(totals.waived) waived)")
  }
}
