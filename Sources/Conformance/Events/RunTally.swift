/// Collects a run's events into what the reports need: totals, per-check and per-step counts,
/// and every failing or errored case. Passing cases are counted, not kept.
///
/// Fed by one thread (the runner delivers events in order).
public final class RunTally: @unchecked Sendable {
  /// One step as a JUnit testcase: its counts and the failing cases inside it.
  public struct Step: Sendable {
    public var check: String
    public var name: String
    public var counts: StatusCounts
    public var duration: Double
    /// Indices into `problems` of this step's failed and errored cases.
    public var problemIndices: [Int]
    /// Why the step's first skipped case was skipped.
    public var skipReason: String?
  }

  public private(set) var info: RunInfo?
  public private(set) var totals = StatusCounts()
  public private(set) var checkCounts: [String: StatusCounts] = [:]
  public private(set) var steps: [Step] = []
  /// Every failed or errored case, in plan order.
  public private(set) var problems: [CaseResult] = []
  /// Why cases were skipped, with how many.
  public private(set) var skipReasons: [String: Int] = [:]
  public private(set) var elapsed: Double = 0
  private var pendingProblems: [Int] = []
  private var pendingSkipReason: String?

  public init() {}

  public func record(_ event: Event) {
    switch event.kind {
    case .runStarted(let info):
      self.info = info
    case .caseEnded(let result):
      totals.add(result.outcome.status)
      checkCounts[result.id.check, default: StatusCounts()].add(result.outcome.status)
      switch result.outcome.status {
      case .failed, .errored:
        pendingProblems.append(problems.count)
        problems.append(result)
      case .skipped:
        let reason = result.outcome.detail.first ?? "skipped"
        skipReasons[reason, default: 0] += 1
        if pendingSkipReason == nil { pendingSkipReason = reason }
      case .passed:
        break
      }
    case .stepEnded(let step):
      steps.append(Step(check: step.check, name: step.name, counts: step.counts,
                        duration: step.duration, problemIndices: pendingProblems,
                        skipReason: pendingSkipReason))
      pendingProblems = []
      pendingSkipReason = nil
    case .runEnded(let elapsed):
      self.elapsed = elapsed
    }
  }

  /// JUnit-style totals of one check's steps: a step with an errored case is an error, else
  /// one with a failed case a failure, else one whose cases were all skipped is skipped.
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
    } else if counts.failed > 0 {
      self = .failure
    } else if counts.total > 0 && counts.skipped == counts.total {
      self = .skipped
    } else {
      self = .passed
    }
  }
}
