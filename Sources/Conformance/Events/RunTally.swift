/// Collects a run's events into what the reports need: totals, per-check and per-step
/// counts, failure clusters, and a few example failures per step. Every failing case goes to
/// `failureSink` as it ends; the tally itself keeps them only when asked (small runs, tests),
/// so memory does not grow with the number of failures.
///
/// Fed by one thread (the runner delivers events in order).
public final class RunTally: @unchecked Sendable {
  /// One step as a JUnit testcase: its counts and its first failing cases.
  public struct Step: Sendable {
    /// The step's index in the whole plan.
    public var index: Int
    public var check: String
    public var name: String
    public var counts: StatusCounts
    public var duration: Double
    /// The step's first failed or errored cases (at most `examplesPerStep`).
    public var examples: [CaseResult]
    /// Why the step's first skipped case was skipped.
    public var skipReason: String?
  }

  /// Failing cases kept per step for the JUnit body.
  public static let examplesPerStep = 5

  public private(set) var info: RunInfo?
  public private(set) var totals = StatusCounts()
  public private(set) var checkCounts: [String: StatusCounts] = [:]
  public private(set) var steps: [Step] = []
  /// Every failed, errored, waived case and unexpected pass in plan order, when
  /// `keepProblems` (else empty).
  public private(set) var problems: [CaseResult] = []
  public private(set) var clusters = ClusterAccumulator()
  /// Why cases were skipped, with how many.
  public private(set) var skipReasons: [String: Int] = [:]
  public private(set) var elapsed: Double = 0
  /// CPU seconds the evaluating threads spent on the steps recorded here (in-process runs).
  public private(set) var evaluationCPU = 0.0
  /// Cases per baseline class (empty without a baseline).
  public private(set) var baselineCounts: [Baseline.Class: Int] = [:]
  /// Failures no waiver explains that are new (see `Outcome.isNewFailure`).
  public private(set) var newFailures = 0
  /// Pass counts per check and dimension value, for the report's matrices:
  /// `matrices[check]["calendar"]["hebrew"]`, likewise for `fw` and `zone class`.
  public private(set) var matrices: [String: [String: [String: PassCount]]] = [:]

  /// Passing and counted cases of one cell of a matrix (skipped cases are not counted).
  public struct PassCount: Sendable {
    public var passed = 0
    public var total = 0

    public init(passed: Int = 0, total: Int = 0) {
      self.passed = passed
      self.total = total
    }
  }
  private let keepProblems: Bool
  private let failureSink: ((CaseResult, _ isClusterExample: Bool) -> Void)?
  private var pendingExamples: [CaseResult] = []
  private var pendingWaived: CaseResult?
  private var pendingSkipReason: String?

  /// - Parameters:
  ///   - keepProblems: keep every failing case in `problems` (for tests and small runs).
  ///   - failureSink: receives every case that did not pass as it ends, and whether it is
  ///     one of its cluster's examples (the reports show those; see `ResultsJSON.abridges`).
  public init(keepProblems: Bool = true,
              failureSink: ((CaseResult, _ isClusterExample: Bool) -> Void)? = nil) {
    self.keepProblems = keepProblems
    self.failureSink = failureSink
  }

  public func record(_ event: Event) {
    switch event.kind {
    case .runStarted(let info):
      self.info = info
    case .caseEnded(let result):
      totals.add(result.outcome.status)
      checkCounts[result.id.check, default: StatusCounts()].add(result.outcome.status)
      if let kind = result.outcome.baseline { baselineCounts[kind, default: 0] += 1 }
      countInMatrices(result)
      if result.outcome.isNewFailure { newFailures += 1 }
      switch result.outcome.status {
      case .failed, .errored, .waived, .unexpectedPass:
        recordProblem(result)
      case .skipped:
        let reason = result.outcome.detail.first ?? "skipped"
        skipReasons[reason, default: 0] += 1
        if pendingSkipReason == nil { pendingSkipReason = reason }
      case .passed:
        break
      }
    case .stepEnded(let step):
      evaluationCPU += step.cpu
      steps.append(Step(index: step.index, check: step.check, name: step.name, counts: step.counts,
                        duration: step.duration,
                        examples: pendingExamples + (pendingWaived.map { [$0] } ?? []),
                        skipReason: pendingSkipReason))
      pendingExamples = []
      pendingWaived = nil
      pendingSkipReason = nil
    case .stepSummarized(let summary):
      recordMerged(step: summary.step, failures: summary.problems)
      absorb(matrices: summary.matrices, skipReasons: summary.skipReasons,
             baselineCounts: summary.baselineCounts)
    case .runEnded(let elapsed):
      self.elapsed = elapsed
    }
  }

  /// A case that did not pass: kept as an example, clustered, and passed to the sink.
  private func recordProblem(_ result: CaseResult) {
    if result.outcome.status == .waived {
      if pendingWaived == nil { pendingWaived = result }
    } else if pendingExamples.count < Self.examplesPerStep {
      pendingExamples.append(result)
    }
    if keepProblems { problems.append(result) }
    let isClusterExample = clusters.add(result)
    failureSink?(result, isClusterExample)
  }

  /// Records one step of a shard as `merge` rebuilds a whole run: its counts as the shard
  /// recorded them and its failing cases in plan order. What passing cases contributed
  /// (matrices, fixed cases, skip reasons) comes with `absorb`.
  public func recordMerged(step: Step, failures: [CaseResult]) {
    totals.add(step.counts)
    checkCounts[step.check, default: StatusCounts()].add(step.counts)
    for result in failures {
      if result.outcome.isNewFailure { newFailures += 1 }
      recordProblem(result)
    }
    var merged = step
    merged.examples = pendingExamples + (pendingWaived.map { [$0] } ?? [])
    steps.append(merged)
    pendingExamples = []
    pendingWaived = nil
  }

  /// Adds a shard's matrices, skip reasons and baseline classes of the cases it swept.
  public func absorb(matrices shard: [String: [String: [String: PassCount]]],
                     skipReasons shardReasons: [String: Int],
                     baselineCounts shardCounts: [Baseline.Class: Int]) {
    for (check, dimensions) in shard {
      for (dimension, values) in dimensions {
        for (value, count) in values {
          matrices[check, default: [:]][dimension, default: [:]][value, default: PassCount()]
            .passed += count.passed
          matrices[check, default: [:]][dimension, default: [:]][value, default: PassCount()]
            .total += count.total
        }
      }
    }
    for (reason, count) in shardReasons { skipReasons[reason, default: 0] += count }
    for (kind, count) in shardCounts where kind != .removed { baselineCounts[kind, default: 0] += count }
  }

  /// Sets what the run was about (merge builds it from the shards).
  public func start(_ info: RunInfo, elapsed: Double) {
    self.info = info
    self.elapsed = elapsed
  }

  private func countInMatrices(_ result: CaseResult) {
    let status = result.outcome.status
    guard status != .skipped else { return }
    let passed = status == .passed
    let id = result.id
    var cells: [(String, String)] = []
    if let calendar = id.calendar { cells.append(("calendar", calendar)) }
    if let weekday = id.firstWeekday { cells.append(("fw", weekday.description)) }
    if let zone = id.zone { cells.append(("zone class", info?.zoneClasses[zone] ?? "?")) }
    for (dimension, value) in cells {
      matrices[id.check, default: [:]][dimension, default: [:]][value, default: PassCount()]
        .passed += passed ? 1 : 0
      matrices[id.check, default: [:]][dimension, default: [:]][value, default: PassCount()]
        .total += 1
    }
  }

  /// Completes the run's review summary once the sweep has ended: waiver matches, stale
  /// waivers, and the baseline's failing cases this run did not sweep.
  public func completeReview(_ summary: RunInfo.ReviewSummary) {
    info?.review = summary
    if !summary.removed.isEmpty { baselineCounts[.removed] = summary.removed.count }
  }

  /// JUnit-style totals of one check's steps: a step with an errored case is an error, else
  /// one with a failed case or an unexpected pass a failure, else one with a waived case, or
  /// whose cases were all skipped, is skipped.
  public func testcaseCounts(check: String) -> (tests: Int, failures: Int, errors: Int,
                                                skipped: Int) {
    var result = (tests: 0, failures: 0, errors: 0, skipped: 0)
    for step in steps where step.check == check {
      result.tests += 1
      switch StepVerdict(step.counts) {
      case .error: result.errors += 1
      case .failure: result.failures += 1
      case .skipped: result.skipped += 1
      case .passed: break
      }
    }
    return result
  }
}

/// How one step reads as a JUnit testcase.
public enum StepVerdict: Equatable {
  case passed, failure, error, skipped

  public init(_ counts: StatusCounts) {
    if counts.errored > 0 {
      self = .error
    } else if counts.failed > 0 || counts.unexpectedPass > 0 {
      self = .failure
    } else if counts.waived > 0 || (counts.total > 0 && counts.skipped == counts.total) {
      self = .skipped
    } else {
      self = .passed
    }
  }
}
