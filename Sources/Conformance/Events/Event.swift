import Foundation

/// Something observable that happened during a run. The runner returns nothing; recorders,
/// reports and the exit code are all built from these.
public struct Event: Sendable {
  public enum Kind: Sendable {
    /// The plan is made and the sweep begins.
    case runStarted(RunInfo)
    /// One case was evaluated.
    case caseEnded(CaseResult)
    /// All cases of one step were evaluated.
    case stepEnded(StepResult)
    /// A step evaluated in a worker process: its counts and sums, and its cases that did not
    /// pass (passing cases are counted, not sent).
    case stepSummarized(StepSummary)
    /// Every step has ended.
    case runEnded(elapsed: Double)
  }

  public var kind: Kind
  public var instant: Date

  public init(_ kind: Kind, instant: Date = Date()) {
    self.kind = kind
    self.instant = instant
  }
}

/// Receives every event of a run, in plan order, one at a time.
public typealias EventHandler = @Sendable (Event) -> Void

/// One evaluated case.
public struct CaseResult: Sendable {
  public var id: CaseID
  public var outcome: Outcome
  /// The case as one line of JSON, rendered by the worker that evaluated it (failing cases
  /// always, every case with `--record all`), so the delivering thread only copies text.
  public var json: String?
  /// The index of the step it belongs to in the whole plan (shards merge by it).
  public var step: Int?
  /// Read back from an abridged line of `results.json` (`merge`): `json` is that line, and
  /// the outcome has no values or detail.
  public var isAbridged = false

  public init(id: CaseID, outcome: Outcome, json: String? = nil, step: Int? = nil) {
    self.id = id
    self.outcome = outcome
    self.json = json
    self.step = step
  }

  /// The JSON line, rendered now if the worker did not.
  public var jsonLine: String { json ?? ResultsJSON.caseJSON(self).rendered(indent: nil) }
}

/// One step as a worker process reports it.
public struct StepSummary: Sendable {
  public var step: RunTally.Step
  /// The cases that did not pass, in order.
  public var problems: [CaseResult]
  public var matrices: [String: [String: [String: RunTally.PassCount]]]
  public var baselineCounts: [Baseline.Class: Int]
  public var skipReasons: [String: Int]
  /// Every case's JSON line, with `--record all`.
  public var lines: [String]

  /// Adds another part of the same step (a case retried alone).
  mutating func add(_ other: StepSummary) {
    step.counts.add(other.step.counts)
    step.duration += other.step.duration
    if step.skipReason == nil { step.skipReason = other.step.skipReason }
    problems += other.problems
    lines += other.lines
    for (check, dimensions) in other.matrices {
      for (dimension, values) in dimensions {
        for (value, count) in values {
          matrices[check, default: [:]][dimension, default: [:]][value, default: .init()].passed += count.passed
          matrices[check, default: [:]][dimension, default: [:]][value, default: .init()].total += count.total
        }
      }
    }
    baselineCounts.merge(other.baselineCounts, uniquingKeysWith: +)
    skipReasons.merge(other.skipReasons, uniquingKeysWith: +)
  }
}

/// The totals of one step (one JUnit testcase).
public struct StepResult: Sendable {
  /// The step's index in the whole plan.
  public var index: Int
  public var check: String
  public var name: String
  public var counts: StatusCounts
  /// Seconds spent evaluating the step.
  public var duration: Double
  /// CPU seconds of the thread that evaluated it (the benchmark's split).
  public var cpu = 0.0
}

/// Cases per status.
public struct StatusCounts: Sendable, Equatable {
  public var passed = 0
  public var failed = 0
  public var errored = 0
  public var skipped = 0
  public var waived = 0
  public var unexpectedPass = 0

  public init() {}

  public var total: Int { passed + failed + errored + skipped + waived + unexpectedPass }

  public mutating func add(_ status: Outcome.Status) {
    switch status {
    case .passed: passed += 1
    case .failed: failed += 1
    case .errored: errored += 1
    case .skipped: skipped += 1
    case .waived: waived += 1
    case .unexpectedPass: unexpectedPass += 1
    }
  }

  public mutating func add(_ other: StatusCounts) {
    passed += other.passed
    failed += other.failed
    errored += other.errored
    skipped += other.skipped
    waived += other.waived
    unexpectedPass += other.unexpectedPass
  }
}

/// What a run is about: recorded at its start and written into every report.
public struct RunInfo: Sendable {
  // Completed by the run once the sweep ends (waiver matches, removed baseline cases).
  /// The command line as given, for the report header.
  public var arguments: [String]
  /// The resolved options, as (name, value) pairs in a stable order.
  public var options: [(String, String)]
  public var versions: RunVersions
  public var coverage: [PlanCoverage]
  public var transitionsByKind: [String: Int]
  public var checks: [(id: String, summary: String)]
  public var started: Date
  public var subject: String
  /// Zone aliases swept as their canonical zone (alias → canonical).
  public var aliases: [(alias: String, canonical: String)] = []
  /// Calendars only Foundation has, checked by invariants alone.
  public var invariantOnlyCalendars: [String] = []
  /// Why triage is off, or `nil` when it ran.
  public var triageProblem: String?
  /// Each zone's class for the report's matrix (its most telling transition kind).
  public var zoneClasses: [String: String] = [:]
  /// Zones that sweep every month (controls), to label them in reports.
  public var monthSweepZones: [String] = []
  /// The plan, one line per step (see `PlanStepSet.encode`), for the next run's baseline.
  public var planLines: [String] = []
  /// Waivers and baseline, as far as known when the run starts; completed at its end.
  public var review = ReviewSummary()

  /// What the run expected: its waivers, its baseline, its exit rule.
  public struct ReviewSummary: Sendable {
    public var failOn = FailOn.unexpected.rawValue
    public var waiverFile: String?
    public var waiverMatches: [(id: String, count: Int)] = []
    /// Waivers that matched nothing, expired or whose versions do not hold.
    public var stale: [(id: String, why: String)] = []
    public var baseline: Baseline?
    /// The baseline's failing cases this run did not sweep.
    public var removed: [String] = []

    public init() {}
  }

  public init(arguments: [String], options: [(String, String)], versions: RunVersions,
              coverage: [PlanCoverage], transitionsByKind: [String: Int],
              checks: [(id: String, summary: String)], started: Date, subject: String) {
    self.arguments = arguments
    self.options = options
    self.versions = versions
    self.coverage = coverage
    self.transitionsByKind = transitionsByKind
    self.checks = checks
    self.started = started
    self.subject = subject
  }
}
