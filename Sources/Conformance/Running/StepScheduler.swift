import Foundation

/// Hands a plan's steps to slots and delivers their records in plan order: the one scheduler
/// under an in-process run (a slot is a thread evaluating steps, `Runner`) and an isolated one
/// (a slot keeps a worker process busy, `IsolatedRunner`).
///
/// Steps go out in plan order within a window ahead of delivery, so the records held in
/// memory stay bounded while delivery (reports, logs) overlaps with evaluation, and reports
/// do not depend on scheduling. A slot that meets a fault in a case hands back the rest of
/// its job (`faulted`): the cases before it are asked again, those after it go on, or are
/// not run once the `Breaker` has tripped for their group, and the pieces are put together
/// in plan order. While a check has had a fault, a slot skips ahead to a step of a group no
/// other slot is in (`pick`); a run without faults never reorders.
final class StepScheduler: Sendable {
  /// Cases of one step for a slot.
  struct Job: Sendable, Equatable {
    /// The step's index (`Plan.Step.index`).
    var step: Int
    /// `nil`: every case of the step.
    var positions: [Int]?
    /// Cases that already ran once without fault (before one that did), asked again for
    /// their records: completing them says nothing about faults in a row.
    var replay = false
    /// Asked again after its worker was killed from outside.
    var afterKill = false
    /// Asked again after a case's diagnosis faulted a worker: from it on, none is asked.
    var diagnosisFault: DiagnosisFault?
  }

  /// What a slot does next.
  enum Work: Sendable {
    case run(Job)
    /// Cases of a tripped group: recorded by the slot, without evaluating them.
    case notRun(step: Int, positions: [Int], trip: Breaker.Trip)
  }

  /// How far hand-out may run ahead of delivery.
  struct Window: Sendable {
    /// Steps handed out and not yet delivered.
    var steps = Int.max
    /// Cases in steps handed out and not yet delivered; the next step to deliver is always
    /// let through, however large.
    var cases = Int.max
  }

  /// A step whose cases come back in pieces (after a fault): each piece's record by its
  /// first position, and how many cases are still out.
  private struct Assembly: Sendable {
    var pieces: [Int: StepRecord] = [:]
    var remaining: Int
  }

  /// What the slots and the delivering thread share.
  private struct State: Sendable {
    /// The first position not handed out yet, and those handed out after it.
    var nextStep = 0
    var handedAhead: Set<Int> = []
    var delivered = 0
    /// Cases in steps handed out and not yet delivered.
    var casesAhead = 0
    /// Jobs in slots, by group; and the checks that have had a fault.
    var inFlight: [Breaker.Group: Int] = [:]
    var faultedChecks: Set<String> = []
    var queue: [Work] = []
    var assembling: [Int: Assembly] = [:]
    var completed: [Int: StepRecord] = [:]
    var breaker = Breaker()
    var failure: (any Error)?
    var cancelled = false
  }

  let plan: Plan
  private let window: Window
  /// Each step's position in the plan, by its index.
  private let positionOf: [Int: Int]
  private let state = Monitor(State())

  init(plan: Plan, window: Window) {
    self.plan = plan
    self.window = window
    positionOf = Dictionary(plan.steps.enumerated().map { ($1.index, $0) }, uniquingKeysWith: { a, _ in a })
  }

  /// Runs `serve(slot)` on `slots` threads, each taking work with `next()` until it is `nil`,
  /// and hands every step's record to `handler` in plan order on the calling thread. An
  /// interruption (SIGINT, SIGTERM) cancels the schedule, then runs `interrupted` (killing
  /// live workers, say). Returns the harness failure that stopped the run (`abandon`).
  func run(slots: Int, serve: @escaping @Sendable (Int) -> Void,
           interrupted: @escaping @Sendable () -> Void = {}, _ handler: EventHandler) -> (any Error)?
  {
    let token = Interruption.register { [self] in
      cancel()
      interrupted()
    }
    defer { Interruption.unregister(token) }
    let finished = DispatchGroup()
    for slot in 0..<max(1, slots) {
      finished.enter()
      let thread = Thread {
        serve(slot)
        finished.leave()
      }
      // Checks recurse through calendars and the oracle's shim deeper than the default.
      thread.stackSize = 8 << 20
      thread.start()
    }
    for position in plan.steps.indices {
      guard let record = take(position) else { break }
      handler(Event(.stepEnded(record)))
    }
    // Done: slots waiting for work return (an isolated slot lets its idle worker end on its
    // own, closing stdin, so it exits normally, with its exit handlers run).
    cancel()
    // Interrupted, a slot's thread may spin in the subject in-process and never return: the
    // steps delivered are what the partial report holds, so it is not waited for long.
    if Interruption.received != 0 {
      _ = finished.wait(timeout: .now() + 0.3)
    } else {
      finished.wait()
    }
    return state.update { $0.failure }
  }

  /// The step with index `index`.
  func step(_ index: Int) -> Plan.Step { plan.steps[positionOf[index] ?? 0] }

  /// Whether the run was cancelled (interrupted, abandoned or done).
  var isCancelled: Bool { state.update { $0.cancelled } }

  /// What the breaker saw and stopped.
  var breaker: Breaker { state.update { $0.breaker } }

  // MARK: Handing out

  /// The next work for a slot: queued work first, else the next step within the window
  /// (recorded "not run" when its group has tripped); `nil` when there is none left or the
  /// run is cancelled.
  func next() -> Work? {
    let (steps, window) = (plan.steps, window)
    func canGive(_ state: State) -> Bool {
      guard state.nextStep < steps.count else { return false }
      return state.nextStep == state.delivered
        || (state.nextStep - state.delivered < window.steps
          && state.casesAhead + steps[state.nextStep].caseCount <= window.cases)
    }
    return state.wait(until: { state in
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
      let position = Self.pick(in: &state, steps: steps, end: window.steps)
      let step = steps[position]
      state.casesAhead += step.caseCount
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
  /// has had a fault and another slot is in its group, when a later step (within the
  /// window) of a group no slot is in goes first. A systematic fault then stops a worker
  /// once per group, not once per worker, before the breaker trips.
  private static func pick(in state: inout State, steps: [Plan.Step], end window: Int) -> Int {
    func busy(_ position: Int) -> Bool {
      state.inFlight[Breaker.group(steps[position].group), default: 0] > 0
    }
    var position = state.nextStep
    if state.faultedChecks.contains(steps[position].group.check), busy(position) {
      let (start, delivered) = (position + 1, state.delivered)
      let end = delivered + min(window, steps.count - delivered)
      if let other = (start..<max(start, end)).first(where: {
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

  /// Puts `job` back at the head of the line (its worker was killed from outside).
  func requeue(_ job: Job) {
    state.update { $0.queue.append(.run(job)) }
  }

  // MARK: Taking back

  /// A slot is done with `job`, whatever came of it.
  func finished(_ job: Job) {
    let group = group(job.step)
    state.update { state in
      state.inFlight[group, default: 1] -= 1
      if state.inFlight[group] == 0 { state.inFlight[group] = nil }
    }
  }

  /// A slot evaluated `job` into `record`.
  func answered(_ job: Job, _ record: StepRecord) {
    let step = step(job.step)
    state.update { state in
      if !job.replay && record.counts.total > 0 {
        state.breaker.completed(Breaker.group(step.group), zone: step.group.zone)
      }
      Self.file(record, of: job, count: job.positions?.count ?? step.caseCount, in: &state)
    }
  }

  /// A slot stopped at `position` of `job` with a fault of `signature`, recorded as
  /// `errored`: the cases before it are asked again; those after it go on, or are not run
  /// once the breaker trips. `false` when `job` has no case at `position`.
  func faulted(_ job: Job, at position: Int, signature: String, errored: StepRecord) -> Bool {
    let step = step(job.step)
    let positions = job.positions ?? Array(0..<step.caseCount)
    guard let at = positions.firstIndex(of: position) else { return false }
    let check = plan.checks[step.checkIndex].id
    let (before, after) = (Array(positions[..<at]), Array(positions[(at + 1)...]))
    let group = Breaker.group(step.group)
    state.update { state in
      state.faultedChecks.insert(check)
      if state.assembling[job.step] == nil { state.assembling[job.step] = Assembly(remaining: step.caseCount) }
      Self.file(errored, of: Job(step: job.step, positions: [position]), count: 1, in: &state)
      if !before.isEmpty {
        if !job.replay { state.breaker.completed(group, zone: step.group.zone) }
        state.queue.append(.run(Job(step: job.step, positions: before, replay: true)))
      }
      let trip = state.breaker.faulted(group, zone: step.group.zone, signature: signature)
      guard !after.isEmpty else { return }
      if let trip {
        state.queue.append(.notRun(step: job.step, positions: after, trip: trip))
      } else {
        state.queue.append(.run(Job(step: job.step, positions: after)))
      }
    }
    return true
  }

  /// A slot recorded the cases of `step` at `positions`, of a tripped group, as not run.
  func notRun(step index: Int, positions: [Int], _ record: StepRecord) {
    let group = group(index)
    state.update { state in
      state.breaker.notRun(group, zone: step(index).group.zone, count: positions.count)
      Self.file(record, of: Job(step: index, positions: positions), count: positions.count, in: &state)
    }
  }

  /// Files a piece of a step: the whole step when nothing of it faulted, else one of the
  /// pieces put together in plan order once all are back.
  private static func file(_ record: StepRecord, of job: Job, count: Int, in state: inout State) {
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

  // MARK: Delivering

  /// Waits for the step at `position` (the next to deliver) and removes its record; `nil`
  /// once the run is cancelled or abandoned without it.
  private func take(_ position: Int) -> StepRecord? {
    let step = plan.steps[position]
    return state.wait(until: { state in
      state.completed[step.index] != nil || state.cancelled || state.failure != nil
    }, then: { state in
      guard let record = state.completed.removeValue(forKey: step.index) else { return nil }
      state.delivered = position + 1
      state.casesAhead -= step.caseCount
      return record
    })
  }

  /// Stops handing out work and wakes every slot and the delivering thread.
  func cancel() {
    state.update { $0.cancelled = true }
  }

  /// Stops the run on a harness failure (a worker that cannot start, an answer that does not
  /// parse): `run` returns it once the slots have wound down.
  func abandon(_ error: any Error) {
    state.update { state in
      state.failure = error
      state.cancelled = true
    }
  }
}

extension Breaker {
  /// The group of a case or a step: its check and calendar (its zone is a zone of the group).
  static func group(_ id: CaseID) -> Group {
    Group(check: id.check, calendar: id.calendar)
  }
}
