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
    package var timing = Timing()
    /// Cases evaluated.
    public var cases = 0
    /// The run's failure clusters, new failures and unexpected passes first (what a test
    /// target reports, one issue each).
    public var clusters: [FailureCluster] = []
  }

  /// Seconds spent in each part of a run (wall unless marked CPU).
  package struct Timing: Sendable {
    package var load = 0.0
    package var sweep = 0.0
    /// Process CPU seconds during the sweep (all threads).
    package var sweepCPU = 0.0
    /// CPU seconds of the calling thread during the sweep: receiving and recording results.
    package var deliveryCPU = 0.0
    /// CPU seconds of the threads evaluating steps, summed over steps (in-process runs; a
    /// worker process's are its own).
    package var evaluationCPU = 0.0
    package var write = 0.0
  }

  /// Runs the sweep `options` describe against `subject`.
  ///
  /// - Throws: `InputError` (exit 2) before any work when an input is bad;
  ///   `HarnessError` (exit 3) when the harness fails. A failing case is not an error.
  package static func run(_ options: RunOptions, subject: Subject = .pickerLogic) throws -> Result {
    let started = ContinuousClock.now
    var options = options
    let checks = try selectChecks(options.checks)
    let directory = try ReportDirectory(validating: options.out)
    // Read before any work: bad files exit 2, and a baseline that is the output's own
    // results.json is copied into memory before the run replaces it.
    let waivers = try options.waivers.map { url throws(InputError) in try WaiverFile.load(url) } ?? []
    let corpus = try Corpus.load(options.request)
    let costs = options.shard == nil ? StepCosts.uniform
      : try StepCosts.load(corpora: options.request.corporaDirectory)
    if options.shard != nil { options.shardCosts = costs.digest }
    var plan = Plan.make(corpus: corpus, checks: checks, shard: options.shard, costs: costs)
    if ProcessInfo.processInfo.environment[Plan.benchPlanVariable] == "before-closing-holes" {
      plan = plan.beforeClosingHoles(corpus: corpus)
    }
    // A shard sweeps a slice of the plan: the rest of the baseline is not "removed".
    let baseline = try options.baseline.map { url throws(InputError) in
      try Baseline.load(url, sweptBy: options.shard == nil ? plan : nil)
    }
    let history = try options.history.map { url throws(InputError) in try NightSummary.load(url) } ?? []
    if options.dryRun {
      return Result(status: .clean, summary: describe(plan, corpus, shard: options.shard, costs: costs), reason: nil)
    }
    guard plan.caseCount > 0 else {
      throw InputError("the selection has no cases (check the --checks, --first-weekdays and "
        + "--time-zones values together)")
    }
    // An injected fault that no case of the selection meets would make a clean night that
    // says nothing of it. The whole plan is asked: a shard may hold none of the fault's cases.
    if let fault = try Fault.fromEnvironment() {
      let whole = options.shard == nil ? plan : Plan.make(corpus: corpus, checks: checks, shard: nil, costs: costs)
      guard whole.steps.contains(where: { step in step.cases().contains { fault.cases.matches($0.description) } })
      else {
        throw InputError("CONFORMANCE_FAULT=\(fault.kind.rawValue):\(fault.cases.text): no case of the "
          + "selection matches '\(fault.cases.text)'")
      }
    }
    let (review, versions) = try Review.ofRun(subject, waivers: waivers, baseline: baseline,
                                              oracleStale: options.oracleStale)
    let staging = try directory.makeStaging()
    var timing = Timing()
    timing.load = (ContinuousClock.now - started).seconds
    do {
      let (cpu, thread, clock) = (ThreadClock.process, ThreadClock.now, ContinuousClock.now)
      let tally = try sweep(plan: plan, corpus: corpus, subject: subject, options: options,
                            versions: versions, review: review, staging: staging)
      timing.evaluationCPU = tally.evaluationCPU
      let signal = Interruption.received
      if signal != 0 {
        // What ran is evidence: a partial report beside the last complete one, marked so.
        var partial = tally
        partial.markIncomplete(IncompleteRun(interruptedBy: Interrupted(signal: signal).name,
                                             casesRun: tally.totals.total, casesPlanned: plan.caseCount))
        try Interruption.critical {
          try write(partial, into: staging, files: RunRecord.files(recordAll: options.record == .all),
                    history: history)
          try directory.commitPartial(staging)
        }
        throw Interrupted(signal: signal, partial: directory.partialURL, casesRun: tally.totals.total)
      }
      (timing.sweep, timing.sweepCPU, timing.deliveryCPU) =
        ((ContinuousClock.now - clock).seconds, ThreadClock.process - cpu, ThreadClock.now - thread)
      let writing = ContinuousClock.now
      try write(tally, into: staging, files: RunRecord.files(recordAll: options.record == .all),
                history: history)
      try directory.commit(staging)
      timing.write = (ContinuousClock.now - writing).seconds
      var result = summarize(tally, directory: directory, failOn: options.failOn)
      result.timing = timing
      result.cases = tally.totals.total
      result.clusters = tally.clusters.byUrgency
      return result
    } catch {
      directory.discard(staging)
      throw error
    }
  }

  /// The clusters as the console lists them: one line per check and pattern, with the
  /// page's groups it holds (apart by status and triage: one pattern may have several
  /// causes, each waived for its own reason), each as the page counts it; an unexpected
  /// pass, which has no pattern, says what it is.
  static func commonPatterns(_ clusters: [FailureCluster]) -> [String] {
    var lines: [(check: String, label: String, count: Int, groups: [FailureCluster], urgent: Bool)] = []
    for cluster in clusters {
      let label = cluster.status == .unexpectedPass ? "passes, though a waiver says it fails"
        : cluster.pattern.isEmpty ? "(no pattern)" : cluster.pattern
      let urgent = cluster.newCount > 0 || cluster.status == .unexpectedPass
      if let index = lines.firstIndex(where: { $0.check == cluster.check && $0.label == label }) {
        lines[index].count += cluster.count
        lines[index].groups.append(cluster)
        lines[index].urgent = lines[index].urgent || urgent
      } else {
        lines.append((cluster.check, label, cluster.count, [cluster], urgent))
      }
    }
    // New failures and unexpected passes first (in the clusters' order), then the rest by
    // size: clusters apart by triage or status add up to one line, so their order is not it.
    let ordered = lines.enumerated().sorted { one, other in
      let (first, second) = (one.element, other.element)
      if first.urgent != second.urgent { return first.urgent }
      if !first.urgent && first.count != second.count { return first.count > second.count }
      return one.offset < other.offset
    }.map(\.element)
    return ordered.map { line in
      // Status first (what a reader acts on), then the larger group.
      let groups = line.groups.sorted { ($0.status, -$0.count) < ($1.status, -$1.count) }
        .map { group in
          // An oracle-stale group's triage is its status: said once.
          let triage = group.triage.flatMap { $0.rawValue == group.status.rawValue ? nil : " · \($0.rawValue)" }
          return "\(CountText.number(group.count)) \(group.status.rawValue)" + (triage ?? "")
        }
        .joined(separator: ", ")
      return "\(CountText.number(line.count)) × \(line.check): \(ConsoleRecorder.visible(line.label)) (\(groups))"
    }
  }

  /// The plan's coverage as text, for `--dry-run`; with a shard, every shard's cases and
  /// expected CPU, this one marked.
  static func describe(_ plan: Plan, _ corpus: Corpus, shard: (index: Int, count: Int)? = nil,
                       costs: StepCosts = .uniform) -> [String] {
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
    if let shard {
      let mean = plan.shards.map(\.cpuSeconds).reduce(0, +) / Double(max(plan.shards.count, 1))
      lines.append("shards of \(shard.count), balanced by step costs \(costs.digest) (measured: \(costs.measured)):")
      for (number, slice) in plan.shards.enumerated() {
        lines.append(String(format: "  %@ %d/%d: %d cases, %.1f CPU-s expected (%.3f × the mean)",
                            number + 1 == shard.index ? "→" : " ", number + 1, shard.count, slice.cases,
                            slice.cpuSeconds, slice.cpuSeconds / max(mean, 1e-9)))
      }
      lines.append("this shard: \(plan.steps.count) steps, \(plan.caseCount) cases")
    }
    return lines
  }

  package static func selectChecks(_ ids: [String]) throws(InputError) -> [any Check] {
    guard !ids.isEmpty else { return CheckCatalog.all }
    for id in ids where CheckCatalog.check(id) == nil {
      throw InputError("unknown check '\(id)'"
        + "\(Suggestion.didYouMean(id, among: CheckCatalog.all.map(\.id))) (known: "
        + CheckCatalog.all.map(\.id).joined(separator: ", ") + ")")
    }
    return CheckCatalog.all.filter { ids.contains($0.id) }
  }

  static func sweep(plan: Plan, corpus: Corpus, subject: Subject, options: RunOptions,
                    versions: RunVersions, review: Review, staging: URL)
    throws -> RunTally
  {
    let files = RunRecord.files(recordAll: options.record == .all)
    // The command every report prints for a case of this run, made once: for a team's own
    // functions, through the worker that serves them.
    var explain = ExplainCommand(options)
    if subject.isOwn {
      if let worker = options.workerExecutable, !options.workerLaunch.explainsInProcess {
        explain.executable = worker.lastPathComponent
      } else {
        explain.inProcess = subject.name
      }
    }
    let recorder = RunRecorder(
      keepProblems: false,
      cases: try JSONLinesWriter(url: staging.appendingPathComponent(files.cases),
                                 explain: explain.explainer),
      steps: try JSONLinesWriter(url: staging.appendingPathComponent(files.steps)))
    // The time left follows the committed step costs (uniform when the file is missing).
    let costs = (try? StepCosts.load(corpora: options.request.corporaDirectory)) ?? .uniform
    // Computed once: `corpus.zoneClasses` classifies every zone each time it is read (per
    // step, that was over two minutes of a full sweep's start).
    let zoneClasses = corpus.zoneClasses
    let expected = Dictionary(plan.steps.map { step in
      (step.index, costs.cost(of: step, check: plan.checks[step.checkIndex].id,
                              zoneClass: step.group.zone.flatMap { zoneClasses[$0] }))
    }, uniquingKeysWith: { first, _ in first })
    let console = ConsoleRecorder(totalCases: plan.caseCount, expectedCost: expected)
    let handler: EventHandler = { event in
      recorder.record(event)
      console.record(event)
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
      checks: plan.checks.map { RunInfo.CheckInfo(id: $0.id, summary: $0.summary) },
      started: Date(), subject: subject.name)
    info.aliases = corpus.zones.flatMap { zone in
      zone.aliases.map { RunInfo.ZoneAlias(alias: $0, canonical: zone.id) }
    }.sorted { $0.alias < $1.alias }
    info.invariantOnlyCalendars = corpus.calendars.filter(corpus.invariantOnlyCalendars.contains)
    info.triageProblem = corpus.triageProblem
    info.zoneClasses = corpus.zoneClasses
    info.monthSweepZones = corpus.zones.filter(\.sweepsEveryMonth).map(\.id)
    info.explain = explain
    info.review.failOn = options.failOn.rawValue
    info.review.waiverFile = options.waivers?.path
    info.review.otherSubjects = review.otherSubjects.map { RunInfo.StaleWaiver(id: $0.waiver.id, why: $0.reason) }
    info.review.baseline = review.baseline?.reference
    handler(Event(.runStarted(info)))
    let clock = ContinuousClock.now
    if let executable = options.workerExecutable {
      var run = WorkerSetup.Run(options, explain: explain)
      if subject.isOwn { run.subject = subject.name }
      recorder.completeIsolation(try IsolatedRunner(
        plan: plan, executable: executable, launch: options.workerLaunch, workers: options.jobs,
        // The model timed the built-in subject: an executor's cases, and a team's own
        // subject's, are limited by what its own cases cost so far.
        limits: try .fromEnvironment(costs: options.subjectCommand == nil && !subject.isOwn ? costs : nil,
                                     caseTimeout: options.caseTimeout),
        setup: WorkerSetup(run: run, corpus: corpus), review: review,
        explain: explain, expectation: FaultedExpectation(corpus: corpus, subject: subject, checks: plan.checks)
      ).run(handler))
    } else {
      var runner = Runner(plan: plan, corpus: corpus, subject: subject, workers: options.jobs,
                          recordAll: options.record == .all)
      runner.review = review
      runner.run(handler)
    }
    handler(Event(.runEnded(elapsed: (ContinuousClock.now - clock).seconds)))
    try recorder.close()
    let summary = info.review.completed(
      activeWaivers: review.waivers.map {
        RunInfo.WaiverCount(id: $0.id, count: 0, reason: $0.reason, link: $0.link,
                            sweptWhole: $0.sweptWhole(checks: plan.checks.map(\.id), request: options.request,
                                               corpus: corpus),
                            checks: $0.checks(of: plan.checks.map(\.id)))
      },
      matches: recorder.tally.waiverMatches,
      inactive: review.inactive.map { RunInfo.StaleWaiver(id: $0.waiver.id, why: $0.reason) },
      removed: review.baseline?.removed ?? [], contradictions: recorder.tally.waiverContradictions,
      outOfScope: recorder.tally.waiverOutOfScope, shard: options.shard != nil)
    recorder.completeReview(summary)
    return recorder.tally
  }

  /// Writes the reports of a finished run whose cases and steps are already in `staging`.
  package static func write(_ tally: RunTally, into staging: URL, files: RunRecord.Files,
                           history: [NightSummary] = []) throws {
    // Built side by side (JUnit is the largest, 18 MB a full sweep): one after another they
    // were a merge's last second.
    let written = ParallelMap.run(["junit.xml", "index.html", "results.json"]) { name in
      Swift.Result { () throws in
        let url = staging.appendingPathComponent(name)
        switch name {
        case "junit.xml": try ReportFile.write(JUnitXML.document(tally), to: url)
        case "index.html":
          try ReportFile.write(HTMLReport.document(tally, history: history), to: url)
          try ReportFile.write(HTMLReport.styleSheet, to: staging.appendingPathComponent(HTMLReport.styleFile))
        default: try ResultsJSON.write(tally, files: files, to: url)
        }
      }
    }
    for result in written { try result.get() }
  }

  package static func summarize(_ tally: RunTally, directory: ReportDirectory, failOn: FailOn)
    -> Result
  {
    let totals = tally.totals
    var lines = [
      "\(CountText.number(totals.total)) cases in \(String(format: "%.1f", tally.elapsed)) s: "
        + NightCounts.statuses(totals),
    ]
    if let baseline = tally.info?.review.baseline {
      lines.append("against \(baseline.path) (\(baseline.started)): " + Baseline.Class.allCases
        .map { "\(CountText.number(tally.baselineCounts[$0] ?? 0)) \($0.rawValue)" }.joined(separator: ", "))
      if let split = NightCounts.newFailureSplit(tally) {
        lines.append("the \(CountText.counted(tally.newFailures, "new failure")), failures no waiver explains: \(split)")
      }
    }
    if let stale = tally.info?.review.stale, !stale.isEmpty {
      lines.append("stale waivers: " + stale.map { "\($0.id) (\($0.why))" }.joined(separator: "; "))
    }
    if let others = tally.info?.review.otherSubjects, !others.isEmpty {
      let about = Dictionary(grouping: others, by: \.why).sorted { $0.key < $1.key }
      lines.append("waivers not applied, about other subjects: " + about.map { why, waivers in
        "\(waivers.count) \(why) (\(waivers.prefix(3).map(\.id).joined(separator: ", "))\(waivers.count > 3 ? ", …" : ""))"
      }.joined(separator: "; "))
    }
    if let contradicted = tally.info?.review.contradicted, !contradicted.isEmpty {
      lines.append("contradicted waivers: " + contradicted.map { "\($0.id) (\($0.why))" }.joined(separator: "; "))
    }
    if let outOfScope = tally.info?.review.outOfScope, !outOfScope.isEmpty {
      lines.append("new failures outside the scope of the waiver that matched them: "
        + outOfScope.map { "\($0.id) (\($0.why))" }.joined(separator: "; "))
    }
    if let partly = tally.info?.review.unmatchedPartly, !partly.isEmpty {
      // Not a problem: named when few, counted when many (a two-locale selection had 29).
      let shown = partly.count <= 3 ? partly.joined(separator: ", ")
        : partly.prefix(3).joined(separator: ", ") + " and \(partly.count - 3) more (results.json: review.unmatchedPartly)"
      lines.append("\(CountText.counted(partly.count, "waiver")) matched nothing in this selection, which holds only "
        + "part of what they cover (not stale): " + shown)
    }
    if tally.totals.notRun > 0 {
      let trips = tally.info?.isolation?.trips.count ?? 0
      lines.append("the breaker did not run \(CountText.counted(tally.totals.notRun, "case")) (counted as not run, "
        + "never as errored): "
        + (trips > 0 ? "\(CountText.counted(trips, "group")) tripped on a repeated fault, listed in "
          + "results.json (run.isolation.trips) and index.html (Isolation)"
          : "the executor's questions of a function that failed 3 in a row were not sent"))
    }
    if let versions = tally.info?.versions { lines.append(versions.summary) }
    let patterns = commonPatterns(tally.clusters.byUrgency)
    if !patterns.isEmpty {
      let news = tally.newFailures + tally.totals.unexpectedPass > 0
      lines.append(news ? "Failure patterns, new ones first:" : "Failure patterns, largest first:")
      lines += patterns.prefix(8).map { "  \($0)" }
      if patterns.count > 8 {
        lines.append("  … and \(CountText.number(patterns.count - 8)) more: index.html lists every pattern "
          + "(Top failure patterns), cases.jsonl.gz every failing case")
      }
      // Where a reviewer starts: the first case of the most urgent new pattern.
      if let top = tally.clusters.byUrgency.first(where: { $0.newCount > 0 }), let example = top.examples.first {
        lines.append("The top new pattern's first case: "
          + (tally.info?.explainCommand ?? ExplainCommand()).text(for: example.id))
      }
    }
    for file in ["results.json", "cases.jsonl.gz", "steps.jsonl.gz", "junit.xml", "index.html"] {
      lines.append("wrote \(directory.url.appendingPathComponent(file).path)")
    }
    let fires = failOn.reason(totals, newFailures: tally.newFailures) != nil
    let exit = failOn.exitLine(totals, newFailures: tally.newFailures)
    return Result(
      status: fires ? .unexpected : .clean, summary: lines,
      reason: fires ? exit : exit + " (\(CountText.number(tally.newFailures)) new failures, "
        + "\(CountText.number(totals.unexpectedPass)) unexpected passes, \(CountText.number(totals.waived)) waived"
        + (totals.oracleStale > 0 ? ", \(CountText.number(totals.oracleStale)) oracle-stale" : "") + ")")
  }
}
