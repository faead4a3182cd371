import Foundation

/// Everything one `conformance` run was asked to do, after parsing.
public struct RunOptions: Sendable {
  /// Which cases get a line of their own in the reports.
  public enum Record: String, Sendable, CaseIterable {
    /// Failing and errored cases in results.json (the default).
    case failures
    /// Also every case, streamed to cases.jsonl.
    case all
  }

  public var request: CorpusRequest
  /// Check ids, in catalog order; empty means all.
  public var checks: [String] = []
  public var out: URL
  public var record: Record = .failures
  public var jobs: Int = ProcessInfoCores.count
  /// Shard k of n (1-based).
  public var shard: (index: Int, count: Int)?
  /// The digest of the step cost model a shard was cut with (`StepCosts.digest`): shards
  /// of one night must agree on it.
  public var shardCosts: String?
  /// Plan and print the coverage, without running anything.
  public var dryRun = false
  /// The waiver file; `nil` for none.
  public var waivers: URL?
  /// A previous results.json to compare with.
  public var baseline: URL?
  /// Earlier nights' results, for the page's trend (`--history`).
  public var history: URL?
  /// When the exit status is 1.
  public var failOn = FailOn.unexpected
  /// What a failure that is only libicu's older data becomes.
  public var oracleStale = OracleStalePolicy.apart
  /// The command of an executor that answers the subject's questions (`--subject exec:`);
  /// `nil`: the seeds' logic, `PickerLogic`.
  public var subjectCommand: String?
  /// Where the executor's exchange is recorded, a JSON line per question (`--subject-log`).
  public var subjectLog: URL?
  /// The executable to run worker processes from; `nil` runs in this process.
  public var workerExecutable: URL?
  /// What starts `conformance` in the explain commands the reports print: the absolute path
  /// of the binary that ran (the CLI sets it), so a command pasted anywhere on this machine
  /// runs; `nil`: `swift run conformance`, which needs the package's directory.
  public var explainLauncher: String?
  /// How worker processes are started from `workerExecutable`: `conformance __worker`, or a
  /// sweep's own test binary re-run on its one test (`ConformanceSweep`).
  package var workerLaunch = WorkerLaunch()
  /// The CPU seconds every case may spend in a worker before it counts as hung
  /// (`--case-timeout`); `nil`: 5 × the slowest case of its check, from the cost model for
  /// the built-in subject, from the cases already run for any other (2 to 10 s).
  public var caseTimeout: Double?
  /// The command line as given, for reports.
  public var arguments: [String] = []

  public init(request: CorpusRequest, out: URL) {
    self.request = request
    self.out = out
  }

  /// The names of `reported`, in their order.
  static var reportedKeys: [String] {
    RunOptions(request: CorpusRequest(corporaDirectory: URL(fileURLWithPath: "/")),
               out: URL(fileURLWithPath: "/")).reported.map(\.name)
  }
}

/// The process's exit status, from the run's events (never from a recorder).
public enum ExitStatus: Int32, Sendable {
  /// The `--fail-on` rule did not fire.
  case clean = 0
  /// The `--fail-on` rule fired (by default: new failures or unexpected passes).
  case unexpected = 1
  /// Bad input or usage; nothing was run or written.
  case badInput = 2
  /// The harness itself failed.
  case harnessFailure = 3
}
