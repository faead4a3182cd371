import Foundation
import ICUOracle
import Synchronization

/// The first line a worker reads: what the run is (`Run`), and the corpus's zones as its
/// parent read them (their class for the report's matrices, whether the plan sweeps every
/// month there). Reading every zone's transitions from both ICUs was half of a worker's
/// start, paid again by each one that replaces a crashed worker.
package struct WorkerSetup: Codable, Sendable {
  package typealias Zone = Corpus.KnownZone

  /// What of the run's options a worker evaluates by, from the parent's `RunOptions`: a
  /// typed value, where the run's command line passed again would be parsed again (with
  /// whatever the environment made of `--shard auto` by then) and could not carry the
  /// options of a run that a library, not the command line, started.
  struct Run: Codable, Sendable, Equatable {
    var request: CorpusRequest
    /// Check ids; empty means all.
    var checks: [String]
    var recordAll: Bool
    var oracleStale: OracleStalePolicy
    var waivers: FilePath?
    var baseline: FilePath?
    var subjectCommand: String?
    var subjectLog: FilePath?
    /// The subject's name, when it is neither the seeds' logic nor an executor's: a team's
    /// own functions, which only the executable that serves them as a worker has
    /// (`Worker.run(serving:)`), and which it checks it serves.
    var subject: String?
    /// The run's explain command, which each case line carries.
    var explain: ExplainCommand

    init(_ options: RunOptions, explain: ExplainCommand) {
      request = options.request
      checks = options.checks
      recordAll = options.record == .all
      oracleStale = options.oracleStale
      waivers = options.waivers.map(FilePath.init)
      baseline = options.baseline.map(FilePath.init)
      subjectCommand = options.subjectCommand
      subjectLog = options.subjectLog.map(FilePath.init)
      self.explain = explain
    }
  }

  var run: Run
  var zones: [Zone]
  /// The zone that stands for UTC, which a worker cannot tell from these zones alone.
  var utcZone: String?

  init(run: Run, corpus: Corpus) {
    self.run = run
    zones = corpus.zones.map { Zone(id: $0.id, zoneClass: $0.zoneClass, sweepsEveryMonth: $0.sweepsEveryMonth) }
    utcZone = corpus.utcZone
  }

  /// The zones as the parent read them, which a worker's corpus takes instead of reading
  /// them again.
  var knownZones: Corpus.KnownZones { Corpus.KnownZones(zones: zones, utcZone: utcZone) }
}

/// What the parent asks a worker: the cases of one step, all or those at `positions`, each
/// within `limit`.
struct WorkerRequest: Codable, Equatable {
  /// The step's index in the plan.
  var step: Int
  /// The step as the plan encodes it (`PlanStepSet.encode`).
  var plan: String
  var positions: [Int]?
  var limit: CaseLimit?
  /// The diagnosis that faulted an earlier worker on this step: from its case on, the cases
  /// are judged without asking for one.
  var diagnosisFault: DiagnosisFault?
  /// The limit of every case after a worker's first (`WorkerLimits.warmLimit`); `nil`:
  /// `limit` for all.
  var warmLimit: CaseLimit?
  /// The subject's functions this run already has a hang's frames of: a case stopped in one
  /// ends at once, without the backtracer (a third of a second of CPU for each case a loop
  /// holds), as a hang in a diagnosis always does (its note carries no frames).
  var tracedHangs: [String]?
}

/// A case of a step whose diagnosis (the subject asked only to explain a difference
/// already found) hung or crashed a worker. The step is asked again: that case, and every
/// later one (the same function asked alike would fault alike: a loop in a leap month met
/// every first weekday of it), judged on their own answers, each with a note in its detail.
/// Which cases lose their diagnosis depends on the step alone, never on another worker.
struct DiagnosisFault: Codable, Equatable, Sendable {
  var position: Int
  /// The note of the case whose diagnosis faulted.
  var note: String
  /// The note of each later case.
  var later: String

  /// The note of the case at `position` of the step, if it asks for no diagnosis.
  func note(at position: Int) -> String? {
    position == self.position ? note : position > self.position ? later : nil
  }
}

/// What a worker answers: that it is ready, a step's record (with the CPU seconds of its
/// slowest case, and the number of case lines that follow it), or that a case hung (its
/// last answer).
struct WorkerReply: Codable {
  var ready: Bool?
  /// The record without its cases: they follow as lines of their own.
  var step: StepRecord?
  var slowestCaseCPU: Double?
  var caseLines: Int?
  /// For each case line, its actual value's digest when the case is waived (those beyond
  /// their cluster's examples are kept abridged, which needs the digest and nothing else).
  var actualDigests: [String?]?
  var hung: HangNote?
  /// What the worker's fast readers declined since its last reply (`SlowReads`).
  var slowReads: [String: Int]?
  /// Not an answer: the worker is waiting on its executor, which has not gone past its own
  /// limit (the parent's request limit starts again).
  var alive: Bool?
  /// With `ready`: the worker serves from forked children (`WorkerChildren`), each of which
  /// a case may end while the worker lives on.
  var forks: Bool?
  /// The child that served ended (not cleanly): the answer to the request it was on, as a
  /// death is.
  var childEnded: WorkerChildren.End?

  enum CodingKeys: String, CodingKey {
    case step, slowestCaseCPU, caseLines, actualDigests, ready, hung, slowReads, alive, forks, childEnded
  }
}

extension WorkerReply: MemberDecodable {
  static let slowReader = SlowReads.Reader.workerReply
}

/// How a worker process is started: its arguments, what its environment gets besides the
/// parent's, and whether a case of its sweep is explained in the test that ran it (a test
/// binary re-run as a worker is no command a person can run).
package struct WorkerLaunch: Sendable, Equatable {
  package var arguments = ["__worker"]
  package var environment: [String: String] = [:]
  package var explainsInProcess = false

  package init(arguments: [String] = ["__worker"], environment: [String: String] = [:],
               explainsInProcess: Bool = false) {
    (self.arguments, self.environment, self.explainsInProcess) = (arguments, environment, explainsInProcess)
  }
}
