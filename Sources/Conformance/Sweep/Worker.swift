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
package enum Worker {
  /// Serves a run's requests (see above).
  ///
  /// - Parameters:
  ///   - serving: a team's own subject (`ConformanceWorker.main`, in an executable of the
  ///     team's, or a test binary re-run by `ConformanceSweep`), for a sweep of that subject;
  ///     `nil`: `conformance __worker`, which serves the seeds' logic or an executor.
  ///   - replies: the descriptor the replies go to: stdout, or where a test binary keeps the
  ///     pipe once its stdout is the test library's.
  /// - Throws: `HarnessError` when the run is not one this worker serves.
  package static func run(serving own: Subject? = nil, replies: Int32 = STDOUT_FILENO) throws {
    replyDescriptor.store(replies, ordering: .relaxed)
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
    let subject: Subject
    switch (own, run.subject) {
    case (let own?, let name) where run.subjectCommand == nil && name == own.name:
      subject = own
    case (let own?, let name):
      throw HarnessError("worker: this executable serves \(own.name); the run sweeps "
        + (run.subjectCommand.map { "exec:\($0)" } ?? name ?? Subject.pickerLogic.name))
    case (nil, let name?):
      throw HarnessError("worker: the run sweeps \(name), a subject of its own: its workers are "
        + "the executable that serves it (ConformanceWorker.main), not conformance")
    case (nil, nil):
      subject = try run.subjectCommand.map { command throws(InputError) in
        try Subject.executor(command: command, log: run.subjectLog?.url, truncating: false)
      } ?? .pickerLogic
    }
    let checks = try ConformanceRun.selectChecks(run.checks)
    let waivers = try run.waivers.map { file throws(InputError) in try WaiverFile.load(file.url) } ?? []
    let baseline = try run.baseline.map { file throws(InputError) in try Baseline.load(file.url) }
    let corpus = try Corpus.load(run.request, eagerTables: false, known: setup.knownZones)
    let review = try Review.ofRun(subject, waivers: waivers, baseline: baseline, oracleStale: run.oracleStale).review
    let evaluator = CaseEvaluator(corpus: corpus, subject: subject, review: review, recordAll: run.recordAll)
    let (context, triage) = (evaluator.context, evaluator.triage)
    let encoder = RecordCoding.lineEncoder()
    let decoder = RecordCoding.decoder()
    let explainer = run.explain.explainer
    let slot = ProcessInfo.processInfo.environment["CONFORMANCE_WORKER_SLOT"].flatMap(CaseSlot.init)
    let watch = CaseWatch(slot: slot)
    let cases = WorkerCases(watch: watch, slot: slot)
    cases.contexts = [context] + (triage.map { [$0] } ?? [])
    // Set up, this process forks the children that serve (`WorkerChildren`), unless an
    // executor answers: its `Process` needs Dispatch.
    let forks = context.executor == nil
    write(WorkerReply(ready: true, forks: forks ? true : nil), encoder)
    if forks {
      guard WorkerChildren.serve(ended: { write(WorkerReply(childEnded: $0), RecordCoding.lineEncoder()) }) else { return }
    }
    guard ProcessInfoCores.isForkedChild else { return try serve() }
    try WorkerChildren.onNewThread(serve)
    // A child's end is its own: nothing of the process it was forked from (exit handlers,
    // buffers) runs twice.
    _exit(0)

    /// Answers requests until stdin closes.
    func serve() throws {
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
        cases.warmLimit = request.warmLimit
        watch.tracedHangs = Set(request.tracedHangs ?? [])
        cases.diagnosisFault = request.diagnosisFault
        _ = cases.takeSlowestCPU()
        let record = evaluator.evaluate(step, check: checks[check], positions: request.positions,
                                        observer: cases)
        var reply = WorkerReply(step: record.withoutCases, slowestCaseCPU: cases.takeSlowestCPU(),
                                caseLines: record.cases.count)
        reply.slowReads = SlowReads.take()
        if record.cases.contains(where: { $0.status.isExplained }) {
          reply.actualDigests = record.cases.map { $0.status.isExplained ? $0.outcome.actual.digestText : nil }
        }
        write(reply, cases: record.cases, explain: explainer, encoder)
      }
      evaluator.close()
    }
  }

  /// Held while a reply is written: the watchdog thread writes too.
  private static let output = Mutex(())
  private static let replyDescriptor = Atomic<Int32>(STDOUT_FILENO)

  /// Writes a reply and, after it, each of `cases` as the line the results' cases file
  /// holds (the parent copies them there), all at once.
  static func write(_ reply: WorkerReply, cases: [CaseRecord] = [], explain: CaseExplainer = .plain,
                    _ encoder: JSONEncoder) {
    var data = RecordCoding.line(reply, encoder: encoder)
    data.append(UInt8(ascii: "\n"))
    for record in cases {
      data.append(CaseLineWriter.line(record, explain: explain))
      data.append(UInt8(ascii: "\n"))
    }
    output.withLock { _ in
      FileHandle(fileDescriptor: replyDescriptor.load(ordering: .relaxed), closeOnDealloc: false).write(data)
    }
  }
}
