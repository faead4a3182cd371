import Foundation
import Synchronization

/// What the reports need from a run's events: totals, per-check and per-step counts, failure
/// clusters, a few example cases per step, the matrices and the review's counts. Every count a
/// report shows comes from here, and so from the same step records.
package struct RunTally: Sendable {
  /// One step as JUnit shows it: its record (without its cases), what the `--fail-on` rule
  /// counts against the run, and the known differences it does not count.
  package struct Step: Sendable {
    package var record: StepRecord
    /// The step's first cases the rule counts (at most `examplesPerStep`).
    package var examples: [CaseRecord] = []
    /// The cases the rule counts, by status (failed, errored, waived, unexpected-pass).
    package var counted = StatusCounts()
    /// The differences the rule does not count, with how many cases each.
    package var known: [KnownDifference: Int] = [:]
    /// The first case of each known difference (JUnit names a few to explain).
    package var knownExamples: [KnownDifference: CaseID] = [:]

    package var index: Int { record.index }
    package var check: String { record.check }
    package var name: String { record.name }
    package var counts: StatusCounts { record.counts }

    /// The one testcase the step reads as, named the same every night: what the rule judges
    /// (error, failure, or a pass, known differences aside); a step whose every case was
    /// not applicable is skipped. Its known differences are the check's own testcases
    /// (`RunTally.knownDifferences(check:)`), one per waiver.
    package var testcase: Testcase {
      if counts.total > 0, counts.skipped == counts.total { return .notApplicable }
      return counted.errored > 0 ? .error : counted.total > 0 ? .failure : .passed
    }
  }

  /// A non-passing case the `--fail-on` rule does not count against the run.
  package enum KnownDifference: Hashable, Sendable, Comparable {
    /// Failed, and this waiver explains it.
    case waived(String)
    /// Failed in the baseline with the same value.
    case stillFailing
    /// Failed only because libicu's data is older (`CaseStatus.oracleStale`).
    case oracleStale
    /// Passed against a waiver, and the rule does not count unexpected passes.
    case unexpectedPass
    /// Any other failure the rule does not count (`--fail-on none`).
    case uncounted
    /// Not run: the breaker stopped its group after a systematic fault (`CaseStatus.notRun`).
    case notRun
  }

  /// The JUnit testcase of a step.
  package enum Testcase: Sendable, Equatable {
    case passed, failure, error, notApplicable
  }

  /// One known difference of a check, over all its steps: a skipped JUnit testcase.
  package struct KnownGroup: Sendable {
    package var kind: KnownDifference
    package var cases = 0
    package var steps = 0
    /// The first cases, from the first steps (at most `examplesPerKnownGroup`).
    package var examples: [CaseID] = []
  }

  /// Explain commands a known difference's testcase lists.
  package static let examplesPerKnownGroup = 3

  /// A check's known differences, one per waiver (then still failing, passing against a
  /// waiver, not counted), with their cases and steps. The same kinds every night, with
  /// cases or without, so that JUnit's testcase names hold from night to night: every waiver
  /// that applies to the check, still failing, and what the `--fail-on` rule leaves uncounted.
  package func knownDifferences(check: String) -> [KnownGroup] {
    var groups: [KnownDifference: KnownGroup] = [:]
    if let review = info?.review {
      var kinds: [KnownDifference] = review.waiverMatches.filter { $0.checks?.contains(check) ?? false }
        .map { .waived($0.id) } + [.stillFailing]
      // Every night for a check the published reference judges, so its name holds.
      if CheckCatalog.check(check).map(Self.judgedByReference) == true { kinds.append(.oracleStale) }
      if review.failOn == FailOn.new.rawValue || review.failOn == FailOn.none.rawValue {
        kinds += [.unexpectedPass, .uncounted]
      }
      for kind in kinds { groups[kind] = KnownGroup(kind: kind) }
    }
    for step in steps where step.check == check {
      for (kind, count) in step.known {
        var group = groups[kind] ?? KnownGroup(kind: kind)
        group.cases += count
        group.steps += 1
        if group.examples.count < Self.examplesPerKnownGroup, let example = step.knownExamples[kind] {
          group.examples.append(example)
        }
        groups[kind] = group
      }
    }
    return groups.values.sorted { $0.kind < $1.kind }
  }

  /// Whether a release of the published reference can tell a case of `check` oracle-stale.
  static func judgedByReference(_ check: any Check) -> Bool {
    check is any ReferenceChecked || check is any ZoneReferenceChecked
  }

  /// Failing cases kept per step for the JUnit body.
  package static let examplesPerStep = 5

  package private(set) var info: RunInfo?
  package private(set) var totals = StatusCounts()
  package private(set) var checkCounts: [String: StatusCounts] = [:]
  package private(set) var steps: [Step] = []
  /// Every case that did not pass or skip, in plan order, when kept (tests, small runs).
  package private(set) var problems: [CaseRecord] = []
  package private(set) var clusters = ClusterAccumulator()
  /// Why cases were skipped, with how many.
  package private(set) var skipReasons: [String: Int] = [:]
  package private(set) var elapsed: Double = 0
  /// CPU seconds the evaluating threads spent on the steps recorded here (in-process runs).
  package private(set) var evaluationCPU = 0.0
  /// Cases per baseline class (empty without a baseline).
  package private(set) var baselineCounts: [Baseline.Class: Int] = [:]
  /// Cases per waiver that matched them.
  package private(set) var waiverMatches: [String: Int] = [:]
  /// Cases per waiver whose claim they contradict.
  package private(set) var waiverContradictions: [String: Int] = [:]
  /// Cases per waiver that matched them but whose scope does not list them (new failures).
  package private(set) var waiverOutOfScope: [String: Int] = [:]
  /// Failures no waiver explains that are new (see `CaseRecord.isNewFailure`).
  package private(set) var newFailures = 0
  /// The new failures by baseline class (with a baseline): `new-failure`, `changed` and
  /// `new-case` hold them, beside waived cases, so no column of the baseline's table is the
  /// banner's count; every surface words this split the same (`NightCounts`).
  package private(set) var newFailuresByClass: [Baseline.Class: Int] = [:]
  /// The new failures by check (JUnit's testsuites).
  package private(set) var checkNewFailures: [String: Int] = [:]
  /// Pass counts per check and dimension value, for the report's matrices:
  /// `matrices[check]["calendar"]["hebrew"]`, likewise for `fw` and `zone class`.
  package private(set) var matrices: [String: [String: [String: PassCount]]] = [:]

  /// Per check, calendar and zone class: how many cases passed, of how many, and how many
  /// the `--fail-on` rule counts (the page's heat map). From the steps that fix both.
  package private(set) var heat: [String: [String: [String: HeatCell]]] = [:]
  /// Cases per baseline class, per check (the trend across nights reads these).
  package private(set) var checkBaselineCounts: [String: [String: Int]] = [:]

  let keepsProblems: Bool

  /// - Parameter keepProblems: keep every failing case in `problems` (tests and small runs).
  package init(keepProblems: Bool = true) {
    keepsProblems = keepProblems
  }

  /// Counts an event. `deliver` receives each case a step carries, as the results file keeps
  /// it: whole, or abridged when it is a waived case beyond its cluster's examples.
  package mutating func record(_ event: Event, deliver: (CaseRecord) -> Void = { _ in }) {
    switch event.kind {
    case .runStarted(let info):
      self.info = info
    case .stepEnded(let step):
      record(step, deliver: deliver)
    case .runEnded(let elapsed):
      self.elapsed = elapsed
    }
  }

  private mutating func record(_ step: StepRecord, deliver: (CaseRecord) -> Void) {
    assert(step.caseLines.isEmpty, "a step whose cases are lines is recorded by RunRecorder")
    record(step, cases: step.cases) { record, abridge in deliver(abridge ? record.abridged() : record) }
  }

  /// Counts a step whose cases come apart from its record (a merge's, read from the shards'
  /// lines). `deliver` receives each case with whether the results file keeps it abridged
  /// (a waived case beyond its cluster's examples); only the cases kept as examples are
  /// asked for whole.
  mutating func record<Case: TalliedCase>(
    _ step: StepRecord, cases: [Case], deliver: (Case, _ abridge: Bool) throws(Case.Failure) -> Void
  ) throws(Case.Failure) {
    totals.add(step.counts)
    checkCounts[step.check, default: StatusCounts()].add(step.counts)
    evaluationCPU += step.cpuSeconds
    skipReasons.merge(step.skipReasons, uniquingKeysWith: +)
    waiverMatches.merge(step.waiverMatches, uniquingKeysWith: +)
    waiverContradictions.merge(step.waiverContradictions, uniquingKeysWith: +)
    waiverOutOfScope.merge(step.waiverOutOfScope, uniquingKeysWith: +)
    for (name, count) in step.baselineClasses {
      if let kind = Baseline.Class(rawValue: name) { baselineCounts[kind, default: 0] += count }
    }
    matrices[step.check, default: [:]].mergeCounts(step.cells)
    let rule = info.flatMap { FailOn(rawValue: $0.review.failOn) } ?? .unexpected
    let recordsAll = info?.option("record") == RunOptions.Record.all.rawValue
    var tallied = Step(record: step.withoutCases)
    for arriving in cases {
      let record = arriving.summary
      let status = record.status
      guard status != .passed && status != .skipped else {
        try deliver(arriving, false)  // --record all
        continue
      }
      if record.isNewFailure {
        newFailures += 1
        checkNewFailures[step.check, default: 0] += 1
        if let kind = record.review.baseline { newFailuresByClass[kind, default: 0] += 1 }
      }
      if rule.counts(record) {
        tallied.counted.add(status)
        if tallied.examples.count < Self.examplesPerStep { tallied.examples.append(try arriving.whole()) }
      } else {
        let kind: KnownDifference = if status == .notRun {
          .notRun
        } else if let waiver = record.review.waiver, status == .waived {
          .waived(waiver)
        } else if status == .oracleStale {
          .oracleStale
        } else if status == .unexpectedPass {
          .unexpectedPass
        } else if record.review.baseline == .stillFailing {
          .stillFailing
        } else {
          .uncounted
        }
        tallied.known[kind, default: 0] += 1
        if tallied.knownExamples[kind] == nil { tallied.knownExamples[kind] = record.id }
      }
      if keepsProblems { problems.append(try arriving.whole()) }
      let isClusterExample = try clusters.add(arriving)
      // With --record all a script reads every case whole (its values and the reference's).
      try deliver(arriving, !isClusterExample && status.isExplained && !recordsAll)
    }
    steps.append(tallied)
    checkBaselineCounts[step.check, default: [:]].merge(step.baselineClasses, uniquingKeysWith: +)
    if let calendars = step.cells["calendar"], calendars.count == 1,
      let classes = step.cells["zone class"], classes.count == 1,
      let calendar = calendars.keys.first, let zoneClass = classes.keys.first
    {
      heat[step.check, default: [:]][calendar, default: [:]][zoneClass, default: HeatCell()]
        .add(passed: step.counts.passed, total: step.counts.total - step.counts.skipped,
             counted: tallied.counted.total)
    }
  }

  /// Completes the run's review summary once the sweep has ended: waiver matches, stale
  /// waivers, and the baseline's failing cases this run did not sweep.
  package mutating func completeReview(_ summary: RunInfo.ReviewSummary) {
    info?.review = summary
    if !summary.removed.isEmpty { baselineCounts[.removed] = summary.removed.count }
  }

  /// Records how worker processes were limited and what the breaker stopped.
  package mutating func completeIsolation(_ summary: IsolationSummary) {
    info?.isolation = summary
  }

  /// Marks the run as stopped before its plan's end: its reports say so.
  package mutating func markIncomplete(_ incomplete: IncompleteRun) {
    info?.incomplete = incomplete
  }

  /// JUnit totals of one check's steps, testcase by testcase as `Step.testcases` reads them.
  package func testcaseCounts(check: String) -> TestcaseCounts {
    var result = TestcaseCounts()
    for step in steps where step.check == check {
      result.tests += 1
      switch step.testcase {
      case .error: result.errors += 1
      case .failure: result.failures += 1
      case .notApplicable: result.skipped += 1
      case .passed: break
      }
    }
    let known = knownDifferences(check: check).count
    result.tests += known
    result.skipped += known
    return result
  }
}

/// One cell of the page's heat map.
package struct HeatCell: Sendable, Equatable {
  package var passed = 0
  package var total = 0
  /// Cases the `--fail-on` rule counts against the run: only these make a cell red.
  package var counted = 0

  mutating func add(passed: Int, total: Int, counted: Int) {
    self.passed += passed
    self.total += total
    self.counted += counted
  }
}
