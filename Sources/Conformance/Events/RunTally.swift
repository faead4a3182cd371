import Synchronization

/// What the reports need from a run's events: totals, per-check and per-step counts, failure
/// clusters, a few example cases per step, the matrices and the review's counts. Every count a
/// report shows comes from here, and so from the same step records.
public struct RunTally: Sendable {
  /// One step as a JUnit testcase: its record (without its cases) and its first failing ones.
  public struct Step: Sendable {
    public var record: StepRecord
    /// The step's first failed or errored cases (at most `examplesPerStep`), then its first
    /// waived case.
    public var examples: [CaseRecord]

    public var index: Int { record.index }
    public var check: String { record.check }
    public var name: String { record.name }
    public var counts: StatusCounts { record.counts }
  }

  /// Failing cases kept per step for the JUnit body.
  public static let examplesPerStep = 5

  public private(set) var info: RunInfo?
  public private(set) var totals = StatusCounts()
  public private(set) var checkCounts: [String: StatusCounts] = [:]
  public private(set) var steps: [Step] = []
  /// Every case that did not pass or skip, in plan order, when kept (tests, small runs).
  public private(set) var problems: [CaseRecord] = []
  public private(set) var clusters = ClusterAccumulator()
  /// Why cases were skipped, with how many.
  public private(set) var skipReasons: [String: Int] = [:]
  public private(set) var elapsed: Double = 0
  /// CPU seconds the evaluating threads spent on the steps recorded here (in-process runs).
  public private(set) var evaluationCPU = 0.0
  /// Cases per baseline class (empty without a baseline).
  public private(set) var baselineCounts: [Baseline.Class: Int] = [:]
  /// Cases per waiver that matched them.
  public private(set) var waiverMatches: [String: Int] = [:]
  /// Failures no waiver explains that are new (see `CaseRecord.isNewFailure`).
  public private(set) var newFailures = 0
  /// Pass counts per check and dimension value, for the report's matrices:
  /// `matrices[check]["calendar"]["hebrew"]`, likewise for `fw` and `zone class`.
  public private(set) var matrices: [String: [String: [String: PassCount]]] = [:]

  let keepsProblems: Bool

  /// - Parameter keepProblems: keep every failing case in `problems` (tests and small runs).
  public init(keepProblems: Bool = true) {
    keepsProblems = keepProblems
  }

  /// Counts an event. `deliver` receives each case a step carries, as the results file keeps
  /// it: whole, or abridged when it is a waived case beyond its cluster's examples.
  public mutating func record(_ event: Event, deliver: (CaseRecord) -> Void = { _ in }) {
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
    totals.add(step.counts)
    checkCounts[step.check, default: StatusCounts()].add(step.counts)
    evaluationCPU += step.cpuSeconds
    skipReasons.merge(step.skipReasons, uniquingKeysWith: +)
    waiverMatches.merge(step.waiverMatches, uniquingKeysWith: +)
    for (name, count) in step.baselineClasses {
      if let kind = Baseline.Class(rawValue: name) { baselineCounts[kind, default: 0] += count }
    }
    matrices[step.check, default: [:]].mergeCounts(step.cells)
    var examples: [CaseRecord] = []
    var waived: CaseRecord?
    for record in step.cases {
      let status = record.status
      guard status != .passed && status != .skipped else {
        deliver(record)  // --record all
        continue
      }
      if record.isNewFailure { newFailures += 1 }
      if status == .waived {
        if waived == nil { waived = record }
      } else if examples.count < Self.examplesPerStep {
        examples.append(record)
      }
      if keepsProblems { problems.append(record) }
      let isClusterExample = clusters.add(record)
      deliver(isClusterExample || status != .waived ? record : record.abridged())
    }
    steps.append(Step(record: step.withoutCases, examples: examples + (waived.map { [$0] } ?? [])))
  }

  /// Completes the run's review summary once the sweep has ended: waiver matches, stale
  /// waivers, and the baseline's failing cases this run did not sweep.
  public mutating func completeReview(_ summary: RunInfo.ReviewSummary) {
    info?.review = summary
    if !summary.removed.isEmpty { baselineCounts[.removed] = summary.removed.count }
  }

  /// JUnit-style totals of one check's steps: a step with an errored case is an error, else
  /// one with a failed case or an unexpected pass a failure, else one with a waived case, or
  /// whose cases were all skipped, is skipped.
  public func testcaseCounts(check: String) -> TestcaseCounts {
    var result = TestcaseCounts()
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

/// A check's steps counted as JUnit testcases.
public struct TestcaseCounts: Sendable, Codable, Equatable {
  public var tests = 0
  public var failures = 0
  public var errors = 0
  public var skipped = 0
}

/// Feeds a run's events into a `RunTally` and the cases into the results' files, from the
/// `@Sendable` event handler: the mutex makes it safe whichever thread delivers.
public final class RunRecorder: Sendable {
  private let state: Mutex<RunTally>
  private let cases: JSONLinesWriter?
  private let steps: JSONLinesWriter?

  /// - Parameters:
  ///   - keepProblems: keep every failing case in memory (tests and small runs).
  ///   - cases, steps: the files the cases and the step records go to, if any.
  public init(keepProblems: Bool = true, cases: JSONLinesWriter? = nil,
              steps: JSONLinesWriter? = nil) {
    state = Mutex(RunTally(keepProblems: keepProblems))
    self.cases = cases
    self.steps = steps
  }

  public func record(_ event: Event) {
    if case .stepEnded(let step) = event.kind { steps?.append(step.withoutCases) }
    state.withLock { tally in
      tally.record(event) { record in cases?.append(record) }
    }
  }

  /// Completes the review (see `RunTally.completeReview`).
  public func completeReview(_ summary: RunInfo.ReviewSummary) {
    state.withLock { $0.completeReview(summary) }
  }

  /// What was recorded so far.
  public var tally: RunTally { state.withLock { $0 } }

  /// Closes the files.
  ///
  /// - Throws: `HarnessError` when a file could not be written.
  public func close() throws {
    try cases?.close()
    try steps?.close()
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
