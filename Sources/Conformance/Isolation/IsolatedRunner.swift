import Foundation
import Synchronization
import ICUOracle

/// Runs a plan in worker processes (the same executable, `__worker` mode) so that a subject
/// that traps or hangs costs the cases it touches, not the run.
///
/// Steps go to workers in plan order, a bounded number ahead of delivery. Each case runs
/// under a limit derived from the cost model's slowest case of its check and calendar
/// (`WorkerLimits`); the worker's watchdog stops one past it. When a worker dies or stops a
/// case, the slot file names the case: it becomes `errored` with the fault's signature, the
/// cases before it are asked again and those after it go on in a new worker, unless the
/// `Breaker` has tripped for that check and calendar, which reports them "not run" (in
/// their detail; their pattern is the fault's signature). Results are delivered in plan order as `stepEnded` events, the
/// same step records an in-process run delivers.
public final class IsolatedRunner: Sendable {
  /// Cases of one step for a worker.
  struct Job: Sendable, Equatable {
    var step: Int
    /// `nil`: every case of the step.
    var positions: [Int]?
    /// Cases that already ran once without fault (before one that did), asked again for
    /// their records: completing them says nothing about faults in a row.
    var replay = false
    /// Asked again after its worker was killed from outside.
    var afterKill = false
  }

  /// What a worker slot does next.
  enum Work: Sendable {
    case run(Job)
    /// Cases of a tripped group: recorded here, without a worker.
    case notRun(step: Int, positions: [Int], trip: Breaker.Trip)
  }

  let plan: Plan
  let executable: URL
  let workers: Int
  let zoneClasses: [String: String]
  /// The line each worker reads first (`WorkerSetup`).
  let setupLine: Data
  /// Applied here to the cases a worker could not finish (errored), as a worker applies it.
  let review: Review
  /// The run's explain command, for the lines of cases errored on this side.
  let explain: ExplainCommand

  /// Each step's position in the plan, by its index.
  private let positionOf: [Int: Int]

  /// A step whose cases come back in pieces (after a fault): each piece's record by its
  /// first position, and how many cases are still out.
  private struct Assembly: Sendable {
    var pieces: [Int: StepRecord] = [:]
    var remaining: Int
  }

  /// What the worker slots and the delivering thread share.
  private struct Schedule: Sendable {
    /// The first position not handed out yet, and those handed out after it.
    var nextStep = 0
    var handedAhead: Set<Int> = []
    var delivered = 0
    /// Jobs in workers, by group; and the checks that have had a fault.
    var inFlight: [Breaker.Group: Int] = [:]
    var faultedChecks: Set<String> = []
    var queue: [Work] = []
    var assembling: [Int: Assembly] = [:]
    var completed: [Int: StepRecord] = [:]
    var limits: WorkerLimits
    var breaker = Breaker()
    /// Live workers by slot, killed when the run is interrupted.
    var processes: [Int: Int32] = [:]
    var failure: (any Error)?
    var cancelled = false
  }

  private let schedule: Monitor<Schedule>

  /// - Parameters:
  ///   - executable: the `conformance` binary, run as `conformance __worker`.
  ///   - setup: what each worker is told of the run and the corpus's zones before it starts.
  init(plan: Plan, executable: URL, workers: Int, limits: WorkerLimits,
       setup: WorkerSetup, review: Review, explain: ExplainCommand = ExplainCommand()) {
    self.plan = plan
    self.explain = explain
    self.executable = executable
    self.workers = max(1, workers)
    zoneClasses = Dictionary(setup.zones.map { ($0.id, $0.zoneClass) }, uniquingKeysWith: { first, _ in first })
    setupLine = RecordCoding.line(setup, encoder: RecordCoding.lineEncoder())
    self.review = review
    schedule = Monitor(Schedule(limits: limits))
    positionOf = Dictionary(plan.steps.enumerated().map { ($1.index, $0) }, uniquingKeysWith: { a, _ in a })
  }

  /// Checks the test-only settings of worker limits (`CONFORMANCE_CASE_TIMEOUT`,
  /// `CONFORMANCE_STEP_TIMEOUT`) before anything runs.
  public static func checkEnvironment() throws(InputError) {
    _ = try WorkerLimits.fromEnvironment()
  }

  /// Runs every step; returns the limits used and what the breaker stopped.
  func run(_ handler: EventHandler) throws -> IsolationSummary {
    let token = Interruption.register { [self] in cancel(killing: true) }
    defer { Interruption.unregister(token) }
    // A request written to a worker that just died must fail as EPIPE, which `ask` reports
    // as the worker's death, rather than kill this process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    let finished = DispatchGroup()
    for slot in 0..<workers {
      finished.enter()
      let thread = Thread { [self] in
        serve(slot: slot)
        finished.leave()
      }
      thread.start()
    }
    for position in plan.steps.indices {
      guard let record = take(position) else { break }
      handler(Event(.stepEnded(record)))
    }
    // Done: the slots let their idle workers end on their own (closing stdin), so each one
    // exits normally, with its exit handlers (a sanitizer's leak report) run.
    cancel(killing: false)
    finished.wait()
    if let error = schedule.update({ $0.failure }) { throw error }
    return schedule.update { $0.limits.summary(checks: plan.checks.map(\.id), breaker: $0.breaker) }
  }

  /// Stops handing out work; on an interruption also kills the live workers, so a slot
  /// waiting on a hung one returns at once.
  private func cancel(killing: Bool) {
    let live = schedule.update { state in
      state.cancelled = true
      return Array(state.processes.values)
    }
    if killing {
      for pid in live { WorkerProcess.kill(pid) }
    }
  }

  // MARK: Scheduling

  private func step(_ index: Int) -> Plan.Step { plan.steps[positionOf[index] ?? 0] }

  /// The next work for a slot: queued work first, else the next step within reach of
  /// delivery (recorded "not run" when its group has tripped).
  private func nextWork() -> Work? {
    let (steps, window) = (plan.steps, workers * 512)
    // Summaries are small (counts and failing lines); a wide window keeps a worker busy
    // while delivery waits on one slow step. The slowest take 13 s (same-day-closing in the
    // lunisolar calendars around Havana); 64 steps a worker (about a second of average
    // steps) left a shard's other core idle for most of that.
    func canGive(_ state: Schedule) -> Bool {
      state.nextStep < steps.count && state.nextStep - state.delivered < window
    }
    return schedule.wait(until: { state in
      // Done when every step is handed out and nothing can come back to be continued.
      state.cancelled || !state.queue.isEmpty || canGive(state)
        || (state.nextStep >= steps.count && state.assembling.isEmpty)
    }, then: { state in
      if state.cancelled { return nil }
      if !state.queue.isEmpty {
        let work = state.queue.removeFirst()
        if case .run(let job) = work { state.inFlight[group(job.step), default: 0] += 1 }
        return work
      }
      guard canGive(state) else { return nil }
      let position = Self.pick(in: &state, steps: steps, window: window)
      let step = steps[position]
      let group = Breaker.group(step.group)
      if let trip = state.breaker.trip(group, zone: step.group.zone) {
        state.assembling[step.index] = Assembly(remaining: step.caseCount)
        return .notRun(step: step.index, positions: Array(0..<step.caseCount), trip: trip)
      }
      state.inFlight[group, default: 0] += 1
      return .run(Job(step: step.index))
    })
  }

  /// The position of the next step to hand out: the first not handed out, unless its check
  /// has had a fault and another worker is in its group, when a later step (within the
  /// window) of a group no worker is in goes first. A systematic fault then stops a worker
  /// once per group, not once per worker, before the breaker trips; a clean run never
  /// reorders.
  private static func pick(in state: inout Schedule, steps: [Plan.Step], window: Int) -> Int {
    func busy(_ position: Int) -> Bool {
      state.inFlight[Breaker.group(steps[position].group), default: 0] > 0
    }
    var position = state.nextStep
    if state.faultedChecks.contains(steps[position].group.check), busy(position) {
      let end = min(steps.count, state.delivered + window)
      if let other = (position + 1..<max(position + 1, end)).first(where: {
        !state.handedAhead.contains($0) && !busy($0)
      }) {
        position = other
      }
    }
    if position == state.nextStep {
      state.nextStep += 1
      while state.handedAhead.remove(state.nextStep) != nil { state.nextStep += 1 }
    } else {
      state.handedAhead.insert(position)
    }
    return position
  }

  private func group(_ index: Int) -> Breaker.Group { Breaker.group(step(index).group) }

  /// A worker is done with `job`, whatever came of it.
  private func finished(_ job: Job) {
    let group = group(job.step)
    schedule.update { state in
      state.inFlight[group, default: 1] -= 1
      if state.inFlight[group] == 0 { state.inFlight[group] = nil }
    }
  }

  private func take(_ position: Int) -> StepRecord? {
    let index = plan.steps[position].index
    return schedule.wait(until: { state in
      state.completed[index] != nil || state.cancelled || state.failure != nil
    }, then: { state in
      guard let summary = state.completed.removeValue(forKey: index) else { return nil }
      state.delivered = position + 1
      return summary
    })
  }

  /// Files a piece of a step: the whole step when nothing of it faulted, else one of the
  /// pieces put together in plan order once all are back.
  private static func file(_ record: StepRecord, of job: Job, count: Int, in state: inout Schedule) {
    guard var assembly = state.assembling[job.step] else {
      state.completed[job.step] = record
      return
    }
    assembly.pieces[job.positions?.first ?? 0] = record
    assembly.remaining -= count
    guard assembly.remaining <= 0 else {
      state.assembling[job.step] = assembly
      return
    }
    state.assembling[job.step] = nil
    var pieces = assembly.pieces.sorted { $0.key < $1.key }.map(\.value)
    var whole = pieces.removeFirst()
    for piece in pieces { whole.absorb(piece) }
    state.completed[job.step] = whole
  }

  /// A worker answered `job`.
  private func answered(_ job: Job, _ record: StepRecord) {
    let step = step(job.step)
    let check = plan.checks[step.checkIndex].id
    schedule.update { state in
      state.limits.observe(check, slowestCaseCPU: record.slowestCaseCPUSeconds ?? 0, jobSeconds: record.seconds)
      if !job.replay && record.counts.total > 0 {
        state.breaker.completed(Breaker.group(step.group), zone: step.group.zone)
      }
      Self.file(record, of: job, count: job.positions?.count ?? step.caseCount, in: &state)
    }
  }

  /// A worker stopped at `position` of `job` with `fault`: the case is errored; the cases
  /// before it are asked again, those after it go on, or are not run once the breaker trips.
  private func faulted(_ job: Job, at position: Int, _ fault: CaseFault) {
    let step = step(job.step)
    let positions = job.positions ?? Array(0..<step.caseCount)
    guard let at = positions.firstIndex(of: position) else {
      abandon(HarnessError("a worker stopped in case \(position) of step \(job.step), which it was not asked"))
      return
    }
    var outcome = Outcome.errored(fault.detail.first ?? "")
    (outcome.pattern, outcome.detail) = (fault.signature, fault.detail)
    let errored = erroredRecord(step, positions: [position], outcome)
    let check = plan.checks[step.checkIndex].id
    let (before, after) = (Array(positions[..<at]), Array(positions[(at + 1)...]))
    let group = Breaker.group(step.group)
    schedule.update { state in
      state.faultedChecks.insert(check)
      if state.assembling[job.step] == nil { state.assembling[job.step] = Assembly(remaining: step.caseCount) }
      Self.file(errored, of: Job(step: job.step, positions: [position]), count: 1, in: &state)
      if !before.isEmpty {
        if !job.replay { state.breaker.completed(group, zone: step.group.zone) }
        state.queue.append(.run(Job(step: job.step, positions: before, replay: true)))
      }
      let trip = state.breaker.faulted(group, zone: step.group.zone, signature: fault.signature)
      guard !after.isEmpty else { return }
      if let trip {
        state.queue.append(.notRun(step: job.step, positions: after, trip: trip))
      } else {
        state.queue.append(.run(Job(step: job.step, positions: after)))
      }
    }
  }

  /// Records cases of a tripped group as errored with the fault's signature as their
  /// pattern, the trip's reason ("not run: ...") as their detail. Which cases of a
  /// systematic fault ran before the breaker tripped depends on what this run had seen (a
  /// shard sees a slice; two workers race), so it is stated in the detail only: pattern,
  /// verdict and cluster are the same in a single run and a merged night.
  private func recordNotRun(step index: Int, positions: [Int], trip: Breaker.Trip) {
    var outcome = Outcome.errored(trip.reason)
    outcome.pattern = trip.signature
    let step = step(index)
    let record = erroredRecord(step, positions: positions, outcome)
    schedule.update { state in
      state.breaker.notRun(Breaker.group(step.group), zone: step.group.zone, count: positions.count)
      Self.file(record, of: Job(step: index, positions: positions), count: positions.count, in: &state)
    }
  }

  /// The record of cases this side marks errored (a fault, "not run"), each reviewed as a
  /// worker reviews its cases (a waiver may explain it, the baseline classifies it).
  private func erroredRecord(_ step: Plan.Step, positions: [Int], _ outcome: Outcome) -> StepRecord {
    let ids = step.cases()
    let records = positions.map { position in
      var record = CaseRecord(id: ids[position], step: step.index, outcome: outcome)
      review.apply(&record)
      return record
    }
    var record = StepRecord(step: step, check: plan.checks[step.checkIndex].id, cases: records,
                            zoneClasses: zoneClasses, keepPassing: false, seconds: 0)
    // As lines, like the workers' cases of the same step they are put together with.
    (record.caseLines, record.cases) = (record.cases.map { CaseLine(encoding: $0, explain: explain) }, [])
    return record
  }

  // MARK: One worker slot

  /// Keeps one worker process busy, replacing it whenever it dies.
  private func serve(slot: Int) {
    var worker: WorkerProcess?
    defer {
      worker?.quit()
      schedule.update { _ = $0.processes.removeValue(forKey: slot) }
    }
    while let work = nextWork() {
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
          let started = try WorkerProcess(executable: executable, setup: setupLine,
                                           startup: schedule.update { $0.limits.startup })
          let cancelled = schedule.update { state in
            state.processes[slot] = started.pid
            return state.cancelled
          }
          worker = started
          if cancelled { return }
        } catch {
          if attempt == 2 || schedule.update({ $0.cancelled }) {
            abandon(error)
            return
          }
        }
      }
      guard let current = worker else { return }
      defer { finished(job) }
      if !ask(current, job) {
        worker = nil
        schedule.update { _ = $0.processes.removeValue(forKey: slot) }
      }
    }
  }

  /// Asks `worker` for `job` and files what comes of it; `false` when the worker is gone.
  private func ask(_ worker: WorkerProcess, _ job: Job) -> Bool {
    let step = step(job.step)
    let check = plan.checks[step.checkIndex].id
    let (limit, timeout) = schedule.update { state in
      let limit = state.limits.caseLimit(check: check, calendar: step.group.calendar)
      state.limits.gave(limit, check: check)
      return (limit, state.limits.jobLimit(check))
    }
    let request = WorkerRequest(step: job.step, plan: PlanStepSet.encode(step), positions: job.positions,
                                limit: limit)
    switch worker.ask(request, timeout: timeout) {
    case .answered(let reply):
      if let note = reply.hung {
        let lastWords = worker.awaitDeath(within: 10)
        faulted(job, at: note.position, CaseFault(kind: .hung(note), crash: CrashReport(lastWords)))
        return false
      }
      guard let record = reply.step, record.index == job.step else {
        abandon(HarnessError("a worker answered \(request) with something else"))
        return true
      }
      var timed = record
      if let slowest = reply.slowestCaseCPU, slowest > 0 { timed.slowestCaseCPUSeconds = slowest }
      answered(job, timed)
      return true
    case .died(let death):
      if schedule.update({ $0.cancelled }) { return false }
      if death.fromOutside && !job.afterKill {
        // Not the subject's doing: the whole job again, once.
        var again = job
        again.afterKill = true
        schedule.update { $0.queue.append(.run(again)) }
      } else if let inCase = death.inCase, inCase.step == job.step {
        faulted(job, at: inCase.position, CaseFault(kind: death.kind, crash: CrashReport(death.lastWords)))
      } else {
        abandon(HarnessError("a worker died outside any case (\(CaseFault(kind: death.kind, crash: CrashReport(death.lastWords)).signature)): "
          + CrashReport(death.lastWords).tail))
      }
      return false
    }
  }

  /// Stops the run on a harness failure (a worker that cannot start, an answer that does not
  /// parse): `run` rethrows it once the slots have wound down.
  private func abandon(_ error: Error) {
    schedule.update { state in
      state.failure = error
      state.cancelled = true
    }
  }
}
