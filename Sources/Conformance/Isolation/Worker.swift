import Foundation
import ICUOracle
import Synchronization

/// The worker side of isolation: `conformance __worker` loads the same corpus as its parent
/// (the parent's first line, `WorkerSetup`, says what the run is and gives the corpus's
/// zones; the command line carries nothing) and evaluates what the parent asks on stdin, one `WorkerRequest` per line (all cases of a
/// step, or a few of them: a retry after a worker died), each naming its step as the plan
/// encodes it: a worker never plans (choosing the months of a full sweep costs 1.8 s of CPU,
/// and a worker that replaces a crashed one would pay it again). It answers on stdout with
/// one `WorkerReply` per line: `ready` once, then each step's `StepRecord`, followed by a
/// line for each of its cases that did not pass (every case with `--record all`), the line
/// the results' cases file keeps; while it waits on an executor, `alive` at most once a
/// second, which starts the request's limit again. It ends when stdin closes.
///
/// Each request carries the limit of its cases. A watchdog thread stops a case past it and
/// answers `hung` first; the slot file (`CONFORMANCE_WORKER_SLOT`) names the case a death
/// came from (`CaseWatch`).
public enum Worker {
  public static func run() throws {
    // The parent's first line says what the run is and what the worker needs of the
    // corpus's zones.
    guard let first = readLine() else { return }
    let setup: WorkerSetup
    do {
      setup = try RecordCoding.decoder().decode(WorkerSetup.self, from: Data(first.utf8))
    } catch {
      throw HarnessError("worker: the setup line is malformed: \(error)")
    }
    let run = setup.run
    let subject = try run.subjectCommand.map { command throws(InputError) in
      try Subject.executor(command: command, log: run.subjectLog, truncating: false)
    } ?? .pickerLogic
    let checks = try ConformanceRun.selectChecks(run.checks)
    let waivers = try run.waivers.map { url throws(InputError) in try WaiverFile.load(url) } ?? []
    let baseline = try run.baseline.map { url throws(InputError) in try Baseline.load(url) }
    let corpus = try Corpus.load(run.request, eagerTables: false, setup: setup)
    let versions = try RunVersions.current()
    let review = Review(waivers: waivers, baseline: baseline, versions: versions, today: .today)
    let (context, triage) = EvaluationContext.worker(corpus: corpus, subject: subject,
                                                     recordsValues: run.recordAll)
    let zoneClasses = corpus.zoneClasses
    let encoder = RecordCoding.lineEncoder()
    let decoder = RecordCoding.decoder()
    let explain = run.explain
    let watch = CaseWatch()
    let cases = WorkerCases(
      watch: watch, slot: ProcessInfo.processInfo.environment["CONFORMANCE_WORKER_SLOT"].flatMap(CaseSlot.init))
    watch.startWatchdog(of: pthread_self()) { note in
      write(WorkerReply(hung: note), RecordCoding.lineEncoder())
    }
    // A batch of questions to the executor is asked between cases, timed by no watchdog
    // here: the parent's request limit would end a worker whose executor answers slowly
    // but steadily, or within a silence limit longer than the request's, and fail the run.
    // Waiting on it, the worker says it is alive, at most once a second; the executor's
    // own limit ends a silent one.
    let lastPulse = Mutex(ContinuousClock.now)
    ExecutorProcess.whileWaiting.withLock { waiting in
      waiting = {
        let now = ContinuousClock.now
        guard lastPulse.withLock({ last in
          guard now - last >= .seconds(1) else { return false }
          last = now
          return true
        }) else { return }
        write(WorkerReply(alive: true), RecordCoding.lineEncoder())
      }
    }
    write(WorkerReply(ready: true), encoder)
    while let line = readLine() {
      let request: WorkerRequest
      do {
        request = try decoder.decode(WorkerRequest.self, from: Data(line.utf8))
      } catch {
        throw HarnessError("worker: request '\(line)' is malformed: \(error)")
      }
      guard let check = checks.firstIndex(where: { request.plan.hasPrefix($0.id + "|") || request.plan.hasPrefix($0.id + "\t") }),
        let step = PlanStepSet.step(request.plan, index: request.step, checkIndex: check)
      else {
        throw HarnessError("worker: request '\(line)' names no step of this run's checks")
      }
      if let positions = request.positions, let bad = positions.first(where: { !(0..<step.caseCount).contains($0) }) {
        throw HarnessError("worker: step \(request.step) has no case \(bad)")
      }
      cases.step = request.step
      cases.limit = request.limit ?? CaseLimit(cpu: .infinity, wall: .infinity)
      _ = cases.takeSlowestCPU()
      let record = Runner.evaluate(step, check: checks[check], context: context,
                                   triage: triage, review: review, zoneClasses: zoneClasses,
                                   recordAll: run.recordAll, positions: request.positions,
                                   observer: cases)
      var reply = WorkerReply(step: record.withoutCases, slowestCaseCPU: cases.takeSlowestCPU(),
                              caseLines: record.cases.count)
      reply.slowReads = SlowReads.take()
      if record.cases.contains(where: { $0.status == .waived }) {
        reply.actualDigests = record.cases.map { $0.status == .waived ? $0.outcome.actual.digestText : nil }
      }
      write(reply, cases: record.cases, explain: explain, encoder)
    }
    context.executor?.close()
  }

  /// Held while a reply is written: the watchdog thread writes too.
  private static let output = Mutex(())

  /// Writes a reply and, after it, each of `cases` as the line the results' cases file
  /// holds (the parent copies them there), all at once.
  static func write(_ reply: WorkerReply, cases: [CaseRecord] = [], explain: ExplainCommand = ExplainCommand(),
                    _ encoder: JSONEncoder) {
    var data = RecordCoding.line(reply, encoder: encoder)
    data.append(UInt8(ascii: "\n"))
    for record in cases {
      data.append(CaseLineWriter.line(record, explain: explain))
      data.append(UInt8(ascii: "\n"))
    }
    output.withLock { _ in FileHandle.standardOutput.write(data) }
  }
}

/// The first line a worker reads: what the run is (`Run`), and the corpus's zones as its
/// parent read them (their class for the report's matrices, whether the plan sweeps every
/// month there). Reading every zone's transitions from both ICUs was half of a worker's
/// start, paid again by each one that replaces a crashed worker.
public struct WorkerSetup: Codable, Sendable {
  public struct Zone: Codable, Sendable, Equatable {
    var id: String
    var zoneClass: String
    var sweepsEveryMonth: Bool
  }

  /// What of the run's options a worker evaluates by, from the parent's `RunOptions`: a
  /// typed value, where the run's command line passed again would be parsed again (with
  /// whatever the environment made of `--shard auto` by then) and could not carry the
  /// options of a run that a library, not the command line, started.
  struct Run: Codable, Sendable, Equatable {
    var request: CorpusRequest
    /// Check ids; empty means all.
    var checks: [String]
    var recordAll: Bool
    private var waiverFile: FilePath?
    private var baselineFile: FilePath?
    var subjectCommand: String?
    private var subjectLogFile: FilePath?
    /// The run's explain command, which each case line carries.
    var explain: ExplainCommand

    var waivers: URL? { waiverFile?.url }
    var baseline: URL? { baselineFile?.url }
    var subjectLog: URL? { subjectLogFile?.url }

    init(_ options: RunOptions, explain: ExplainCommand) {
      request = options.request
      checks = options.checks
      recordAll = options.record == .all
      waiverFile = options.waivers.map(FilePath.init)
      baselineFile = options.baseline.map(FilePath.init)
      subjectCommand = options.subjectCommand
      subjectLogFile = options.subjectLog.map(FilePath.init)
      self.explain = explain
    }

    enum CodingKeys: String, CodingKey {
      case request, checks, recordAll, waiverFile = "waivers", baselineFile = "baseline"
      case subjectCommand, subjectLogFile = "subjectLog", explain
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

  /// The reply's keys, for `JSONEncoder`, `JSONDecoder` and `init(members:)` alike.
  enum CodingKeys: String, CodingKey, CaseIterable {
    case step, slowestCaseCPU, caseLines, actualDigests, ready, hung, slowReads, alive
  }
}

extension WorkerReply {
  /// Every key, in `CodingKeys` order: `ready` is member 4, `hung` 5, `alive` 7.
  static let members = JSONMembers.Names(CodingKeys.allCases)

  /// A step's reply read from its members, the way a merge reads step records: a shard's
  /// parent reads ~8,000 of them, and `JSONDecoder` mapping each whole first was a tenth of
  /// what the parent spent. Anything else (`ready`, `hung`, what it is not sure of) is
  /// `nil`, and is decoded with `JSONDecoder`.
  init?(members bytes: UnsafeBufferPointer<UInt8>) {
    guard let members = JSONMembers(bytes, wanted: Self.members), !members.has(4), !members.has(5), !members.has(7),
      let stepText = members.text(0), let stepMembers = JSONMembers(stepText, wanted: StepRecord.members),
      let step = StepRecord(members: stepMembers)
    else { return nil }
    self.step = step
    if members.has(1) {
      guard let cpu = members.double(1) else { return nil }
      slowestCaseCPU = cpu
    }
    if members.has(2) {
      guard let count = members.int(2) else { return nil }
      caseLines = count
    }
    if members.has(3) {
      guard let text = members.text(3), let digests = JSONMembers.optionalStrings(text) else { return nil }
      actualDigests = digests
    }
    if members.has(6) {
      guard let text = members.text(6), let counts = JSONMembers.counts(text) else { return nil }
      slowReads = counts
    }
  }
}
