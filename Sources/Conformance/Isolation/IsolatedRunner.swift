import Foundation
import Synchronization
import ICUOracle

/// Runs a plan in worker processes (the same executable, `__worker` mode) so that a subject
/// that traps or hangs costs the cases it touches, not the run.
///
/// Steps go to workers through a `StepScheduler`, in plan order, a bounded number ahead of
/// delivery. Each case runs
/// under a limit derived from the cost model's slowest case of its check and calendar
/// (`WorkerLimits`); the worker's watchdog stops one past it. When a worker dies or stops a
/// case, the slot file names the case: it becomes `errored` with the fault's signature, the
/// cases before it are asked again and those after it go on in the worker's next forked child
/// (`WorkerChildren`; a new worker when it cannot fork), unless the
/// `Breaker` has tripped for that check and calendar, which reports them "not run" (in
/// their detail; their pattern is the fault's signature). Results are delivered in plan order as `stepEnded` events, the
/// same step records an in-process run delivers.
package final class IsolatedRunner: Sendable {
  typealias Job = StepScheduler.Job

  let plan: Plan
  let executable: URL
  let launch: WorkerLaunch
  let workers: Int
  let zoneClasses: [String: String]
  /// The line each worker reads first (`WorkerSetup`).
  let setupLine: Data
  /// Applied here to the cases a worker could not finish (errored), as a worker applies it.
  let review: Review
  /// The run's explain command, for the lines of cases errored on this side.
  let explain: ExplainCommand
  /// libicu's expected value of each case the subject faulted in, when given.
  let expectation: FaultedExpectation?

  /// What the slots share besides the schedule: the limits they give and learn, and the
  /// live workers by slot, killed when the run is interrupted.
  private struct Workers: Sendable {
    var limits: WorkerLimits
    var processes: [Int: Int32] = [:]
    /// The first case each of the subject's functions hung in with its frames taken, by
    /// function: later hangs in it end without the backtracer.
    var tracedHangs: [String: String] = [:]
  }

  private let scheduler: StepScheduler
  private let shared: Monitor<Workers>

  /// - Parameters:
  ///   - executable: the `conformance` binary, run as `conformance __worker`.
  ///   - setup: what each worker is told of the run and the corpus's zones before it starts.
  init(plan: Plan, executable: URL, launch: WorkerLaunch = WorkerLaunch(), workers: Int, limits: WorkerLimits,
       setup: WorkerSetup, review: Review, explain: ExplainCommand = ExplainCommand(),
       expectation: FaultedExpectation? = nil) {
    self.plan = plan
    self.explain = explain
    self.expectation = expectation
    self.executable = executable
    self.launch = launch
    self.workers = max(1, workers)
    zoneClasses = Dictionary(setup.zones.map { ($0.id, $0.zoneClass) }, uniquingKeysWith: { first, _ in first })
    setupLine = RecordCoding.line(setup, encoder: RecordCoding.lineEncoder())
    self.review = review
    // Summaries are small (counts and failing lines); a wide window keeps a worker busy
    // while delivery waits on one slow step. The slowest take 13 s (same-day-closing in the
    // lunisolar calendars around Havana); 64 steps a worker (about a second of average
    // steps) left a shard's other core idle for most of that.
    scheduler = StepScheduler(plan: plan, window: .init(steps: self.workers * 512))
    shared = Monitor(Workers(limits: limits))
  }

  /// Checks the test-only settings of worker limits (`CONFORMANCE_CASE_TIMEOUT`,
  /// `CONFORMANCE_STEP_TIMEOUT`) before anything runs.
  package static func checkEnvironment() throws(InputError) {
    _ = try WorkerLimits.fromEnvironment()
  }

  /// Runs every step; returns the limits used and what the breaker stopped.
  func run(_ handler: EventHandler) throws -> IsolationSummary {
    // A request written to a worker that just died must fail as EPIPE, which `ask` reports
    // as the worker's death, rather than kill this process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    // An interruption kills the live workers, so a slot waiting on a hung one returns at once.
    let failure = scheduler.run(slots: workers, serve: { [self] slot in serve(slot: slot) },
                                interrupted: { [shared] in
                                  for pid in shared.update({ Array($0.processes.values) }) {
                                    ChildProcess.kill(pid)
                                  }
                                }, handler)
    if let failure { throw failure }
    let breaker = scheduler.breaker
    return shared.update { $0.limits.summary(checks: plan.checks.map(\.id), breaker: breaker) }
  }

  // MARK: What comes back

  /// A worker answered `job`.
  private func answered(_ job: Job, _ record: StepRecord) {
    let check = plan.checks[scheduler.step(job.step).checkIndex].id
    shared.update { $0.limits.observe(check, slowestCaseCPU: record.slowestCaseCPUSeconds ?? 0, jobSeconds: record.seconds) }
    scheduler.answered(job, record)
  }

  /// A worker stopped at `position` of `job` with `fault`: the case is errored; the cases
  /// before it are asked again, those after it go on, or are not run once the breaker trips.
  private func faulted(_ job: Job, at position: Int, _ fault: CaseFault) {
    var outcome = Outcome.errored(fault.detail.first ?? "")
    (outcome.pattern, outcome.detail) = (fault.signature, fault.detail)
    let errored = erroredRecord(scheduler.step(job.step), positions: [position], outcome, expecting: true)
    guard scheduler.faulted(job, at: position, signature: fault.signature, errored: errored) else {
      scheduler.abandon(HarnessError("a worker stopped in case \(position) of step \(job.step), which it was not asked"))
      return
    }
  }

  /// A worker stopped in the diagnosis of the case at `position` of `job` (the subject asked
  /// only to explain a difference already found): the job again, that case and the step's
  /// later ones judged without one (`DiagnosisFault`). Not a fault of the case: the breaker
  /// does not count it.
  private func undiagnosed(_ job: Job, at position: Int, _ fault: CaseFault) {
    guard job.diagnosisFault.map({ position < $0.position }) ?? true else {
      // Asked for no diagnosis from there on, it cannot die in one: the slot lied.
      scheduler.abandon(HarnessError("a worker died in the diagnosis of case \(position) of step \(job.step), "
        + "which was asked without one"))
      return
    }
    let id = scheduler.step(job.step).cases()[position]
    var again = job
    again.diagnosisFault = DiagnosisFault(
      position: position,
      note: "diagnosis: not run; asked to explain this difference, the subject met \(fault.signature)"
        + (fault.detail.first.map { " (\($0))" } ?? "") + ", so the case is judged on its own answer",
      later: "diagnosis: not asked; \(id) met \(fault.signature) in its diagnosis, so this step's later "
        + "cases are judged on their own answers")
    scheduler.requeue(again)
  }

  /// Records cases of a tripped group as `not-run` (never errored: the breaker did not ask
  /// them, so it cannot say they fault), with the fault's signature as their pattern and the
  /// trip's reason ("not run: ...") as their detail.
  private func recordNotRun(step index: Int, positions: [Int], trip: Breaker.Trip) {
    let outcome = Outcome.notRun(trip.reason, signature: trip.signature)
    scheduler.notRun(step: index, positions: positions,
                     erroredRecord(scheduler.step(index), positions: positions, outcome))
  }

  /// The record of cases this side marks errored or not run, each reviewed as a
  /// worker reviews its cases (a waiver may explain it, the baseline classifies it).
  /// - Parameter expecting: give each case libicu's expected value (a faulted case; one not
  ///   run has none).
  private func erroredRecord(_ step: Plan.Step, positions: [Int], _ outcome: Outcome,
                             expecting: Bool = false) -> StepRecord {
    let ids = step.cases()
    let records = positions.map { position in
      var record = CaseRecord(id: ids[position], step: step.index, outcome: outcome)
      if expecting, let expectation {
        record.outcome.expected = expectation.expected(ids[position], checkIndex: step.checkIndex)
      }
      review.apply(&record)
      return record
    }
    var record = StepRecord(step: step, check: plan.checks[step.checkIndex].id, cases: records,
                            zoneClasses: zoneClasses, keepPassing: false, seconds: 0)
    // As lines, like the workers' cases of the same step they are put together with.
    (record.caseLines, record.cases) = (record.cases.map { CaseLine(encoding: $0, explain: explain.explainer) }, [])
    return record
  }

  // MARK: One worker slot

  /// Keeps one worker process busy, replacing it whenever it dies (not when a case ends its
  /// forked child: it forks the next).
  private func serve(slot: Int) {
    var worker: WorkerProcess?
    defer {
      worker?.quit()
      shared.update { _ = $0.processes.removeValue(forKey: slot) }
    }
    while let work = scheduler.next() {
      guard case .run(let job) = work else {
        if case .notRun(let step, let positions, let trip) = work {
          recordNotRun(step: step, positions: positions, trip: trip)
        }
        continue
      }
      // A worker killed while it starts (the OOM killer, a person, a loaded CI runner) is
      // started again, once; one that cannot start twice in a row is the harness's failure.
      for attempt in 1...2 where worker == nil {
        do {
          let started = try WorkerProcess(executable: executable, launch: launch, setup: setupLine,
                                           startup: shared.update { $0.limits.startup })
          // Listed before the schedule is asked whether the run is cancelled: an
          // interruption cancels it before it kills the listed workers, so either this
          // worker is killed or this slot sees the cancellation.
          shared.update { $0.processes[slot] = started.pid }
          worker = started
          if scheduler.isCancelled { return }
        } catch {
          if attempt == 2 || scheduler.isCancelled {
            scheduler.abandon(error)
            return
          }
        }
      }
      guard let current = worker else { return }
      defer { scheduler.finished(job) }
      if !ask(current, job) {
        worker = nil
        shared.update { _ = $0.processes.removeValue(forKey: slot) }
      }
    }
  }

  /// Asks `worker` for `job` and files what comes of it; `false` when the worker is gone.
  private func ask(_ worker: WorkerProcess, _ job: Job) -> Bool {
    let step = scheduler.step(job.step)
    let check = plan.checks[step.checkIndex].id
    let (limit, warm, timeout, traced) = shared.update { state in
      let limit = state.limits.caseLimit(check: check, calendar: step.group.calendar)
      let warm = state.limits.warmLimit(check: check)
      state.limits.gave(limit, check: check)
      if let warm { state.limits.gave(warm, check: check) }
      return (limit, warm, state.limits.jobLimit(check), state.tracedHangs.keys.sorted())
    }
    let request = WorkerRequest(step: job.step, plan: PlanStepSet.encode(step), positions: job.positions,
                                limit: limit, diagnosisFault: job.diagnosisFault, warmLimit: warm,
                                tracedHangs: traced.isEmpty ? nil : traced)
    switch worker.ask(request, timeout: timeout) {
    case .answered(let reply):
      if let note = reply.hung {
        let lastWords = worker.awaitDeath(within: 10)
        var fault = CaseFault(kind: .hung(note), crash: CrashReport(lastWords))
        if let function = note.function, note.diagnosis != true {
          let id = "\(step.cases()[note.position])"
          fault.framesIn = shared.update { state in
            if fault.crash.frame != nil {
              if state.tracedHangs[function] == nil { state.tracedHangs[function] = id }
              return nil
            }
            return state.tracedHangs[function]
          }
        }
        if note.diagnosis == true {
          undiagnosed(job, at: note.position, fault)
        } else {
          faulted(job, at: note.position, fault)
        }
        return worker.isServing
      }
      guard let record = reply.step, record.index == job.step else {
        scheduler.abandon(HarnessError("a worker answered \(request) with something else"))
        return true
      }
      var timed = record
      if let slowest = reply.slowestCaseCPU, slowest > 0 { timed.slowestCaseCPUSeconds = slowest }
      answered(job, timed)
      return true
    case .died(let death):
      if scheduler.isCancelled { return false }
      if death.fromOutside && !job.afterKill {
        // Not the subject's doing: the whole job again, once.
        var again = job
        again.afterKill = true
        scheduler.requeue(again)
      } else if let inCase = death.inCase, inCase.step == job.step {
        let fault = CaseFault(kind: death.kind, crash: CrashReport(death.lastWords))
        if inCase.diagnosing { undiagnosed(job, at: inCase.position, fault) } else { faulted(job, at: inCase.position, fault) }
      } else {
        scheduler.abandon(HarnessError("a worker died outside any case (\(CaseFault(kind: death.kind, crash: CrashReport(death.lastWords)).signature)): "
          + CrashReport(death.lastWords).tail))
      }
      // A child that ended outside this job's cases (killed from outside between requests)
      // may have left this request unread for the next child to answer as well: a new
      // worker, with new pipes, takes the job again.
      guard worker.isServing, death.inCase?.step == job.step else {
        worker.end()
        return false
      }
      return true
    }
  }
}
