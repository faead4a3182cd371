import Foundation
import Synchronization

/// Told before and after each case a step evaluates.
protocol CaseObserver: AnyObject {
  func willEvaluate(position: Int)
  func didEvaluate(position: Int)
}

/// The worker's side of a systematic fault: which case it is evaluating, for its watchdog
/// thread (which stops a case past its limit and says so) and for its parent (which, when
/// the worker dies, reads the slot file to learn which case killed it).
final class WorkerCases: CaseObserver {
  private let watch: CaseWatch
  private let slot: CaseSlot?
  /// The request being answered.
  var step = 0
  var limit = CaseLimit(cpu: .infinity, wall: .infinity)
  /// The diagnosis that faulted an earlier worker on this step (`WorkerRequest.diagnosisFault`).
  var diagnosisFault: DiagnosisFault?
  /// The limit of every case after this worker's first (`WorkerRequest.warmLimit`).
  var warmLimit: CaseLimit?
  /// Whether this worker has begun a case: its first loads Foundation's data.
  private var warm = false
  /// The contexts that evaluate the cases (the subject's and triage's).
  var contexts: [EvaluationContext] = []

  init(watch: CaseWatch, slot: CaseSlot?) {
    self.watch = watch
    self.slot = slot
  }

  /// CPU seconds of the slowest case the watchdog saw since the last call (`run.isolation`
  /// reports each check's), less up to one of its polls; 0 when every case was shorter.
  func takeSlowestCPU() -> Double { watch.takeSlowest() }

  // No clock is read here: two reads of the thread's CPU clock a case (a system call each)
  // were 0.9 % of a worker's CPU; the watchdog reads it once a poll instead.
  func willEvaluate(position: Int) {
    let note = diagnosisFault?.note(at: position)
    for context in contexts { context.withoutDiagnosis = note }
    slot?.enter(step: step, position: position)
    watch.begin(step: step, position: position, limit: warm ? warmLimit ?? limit : limit)
    warm = true
  }

  func didEvaluate(position: Int) {
    watch.end()
    slot?.leave()
  }
}

/// The case the evaluating thread is in, shared with the watchdog thread, which times it:
/// the case's CPU and wall time count from the first poll that saw it running, so a case is
/// stopped at most one poll (20 ms) past its limit, and a case shorter than a poll costs no
/// clock read at all.
final class CaseWatch: CaseClock.Watch {
  private struct Current {
    var step: Int
    var position: Int
    var limit: CaseLimit
    /// The evaluating thread's CPU clock and the wall clock when the watchdog first saw it.
    var seen: (cpu: Double, wall: ContinuousClock.Instant)?
    /// The clocks when its diagnosis began, while it is in one.
    var diagnosis: (cpu: Double, wall: ContinuousClock.Instant)?
  }

  private struct State {
    var current: Current?
    var slowest = 0.0
    /// The evaluating thread's clocks when it went off the clock, while it is.
    var offSince: (cpu: Double, wall: ContinuousClock.Instant)?
  }

  private let state = Mutex(State())
  private let traced = Mutex(Set<String>())
  /// Where the parent learns that a death came in a diagnosis.
  private let slot: CaseSlot?

  init(slot: CaseSlot? = nil) {
    self.slot = slot
  }

  /// The most CPU a diagnosis may spend, less when the case's own limit is small: it only
  /// explains a difference already found, so it never costs a case's whole limit.
  static let diagnosisCPU = 0.5

  /// Runs `body`, the subject asked only to explain a difference already found (a
  /// diagnosis), under a limit of its own (`diagnosisCPU`): past it, or dying in it, the
  /// worker says so and the case is asked again without it (`EvaluationContext.diagnosis`).
  /// Code below Isolation asks through `CaseClock`, which this watch is installed in.
  func diagnosing<T>(_ body: () -> T) -> T {
    slot?.diagnosing(true)
    state.withLock { $0.current?.diagnosis = (Self.threadCPU(), .now) }
    defer {
      state.withLock { $0.current?.diagnosis = nil }
      slot?.diagnosing(false)
    }
    return body()
  }

  /// Runs `body`, work a case does for the whole process (reading a reference release on
  /// first use), off the case's clock: its CPU and wall time are not the case's, so the first
  /// case to need a table is not stopped as hung on a slow machine.
  func offTheClock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    pause(cpu: Self.threadCPU(), wall: .now)
    defer { resume(cpu: Self.threadCPU(), wall: .now) }
    return try body()
  }

  /// The calling thread's CPU seconds.
  private static func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The evaluating thread goes off the clock at its CPU clock `cpu` and wall clock `wall`:
  /// polls judge nothing until `resume`.
  func pause(cpu: Double, wall: ContinuousClock.Instant) {
    state.withLock { $0.offSince = (cpu, wall) }
  }

  /// Back on the clock: the case's first sight moves forward by the time spent off it since
  /// then, so that time is not counted.
  func resume(cpu: Double, wall: ContinuousClock.Instant) {
    state.withLock { state in
      guard let off = state.offSince else { return }
      state.offSince = nil
      guard let seen = state.current?.seen else { return }
      // No poll sets a first sight while off the clock, so it is never after `off`.
      state.current?.seen = (seen.cpu + (cpu - off.cpu), seen.wall + (wall - off.wall))
      if let began = state.current?.diagnosis {
        state.current?.diagnosis = (began.cpu + (cpu - off.cpu), began.wall + (wall - off.wall))
      }
    }
  }

  /// The subject's functions whose hang the run already has frames of
  /// (`WorkerRequest.tracedHangs`).
  var tracedHangs: Set<String> {
    get { traced.withLock { $0 } }
    set { traced.withLock { $0 = newValue } }
  }

  /// Whether a hang noted `note` ends the process without a backtrace: its frames would say
  /// nothing the reports do not already hold.
  func endsQuietly(_ note: HangNote) -> Bool {
    note.diagnosis == true || note.function.map { tracedHangs.contains($0) } == true
  }

  func begin(step: Int, position: Int, limit: CaseLimit) {
    state.withLock { $0.current = Current(step: step, position: position, limit: limit) }
  }

  func end() {
    state.withLock { $0.current = nil }
  }

  /// The most CPU a case was seen to have spent since the last call.
  func takeSlowest() -> Double {
    state.withLock { state in
      defer { state.slowest = 0 }
      return state.slowest
    }
  }

  /// Starts the watchdog of `thread` (the one evaluating cases): every 20 ms it checks the
  /// case's CPU and wall time. A case past its limit is reported through `report`, then the
  /// thread gets SIGABRT, so Swift's backtracer prints where it was spinning, and the worker
  /// dies (or its forked child does); or, when those frames would add nothing
  /// (`endsQuietly`), it exits at once.
  /// A worker whose parent is gone exits, hung or not.
  func startWatchdog(of thread: pthread_t, report: @escaping @Sendable (HangNote) -> Void) {
    Self.unblockFatalSignals()
    CaseClock.install(self)
    var clock = clockid_t()
    pthread_getcpuclockid(thread, &clock)
    let parent = getppid()
    let watchdog = Thread { [self, clock] in
      while true {
        usleep(20_000)
        if getppid() != parent { _exit(70) }
        guard let note = overdue(clock: clock) else { continue }
        report(note)
        if endsQuietly(note) { _exit(72) }
        Self.abort(thread)
      }
    }
    watchdog.start()
  }

  private func overdue(clock: clockid_t) -> HangNote? {
    var time = timespec()
    clock_gettime(clock, &time)
    return poll(cpu: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9, wall: .now)
  }

  /// One poll at the evaluating thread's CPU clock `cpuNow` and wall clock `wallNow`: the
  /// case past its limit, if it is.
  func poll(cpu cpuNow: Double, wall wallNow: ContinuousClock.Instant) -> HangNote? {
    state.withLock { state in
      guard let current = state.current, state.offSince == nil else { return nil }
      guard let seen = current.seen else {
        state.current?.seen = (cpuNow, wallNow)
        return nil
      }
      let (cpu, wall) = (cpuNow - seen.cpu, (wallNow - seen.wall).seconds)
      state.slowest = max(state.slowest, cpu)
      let function = SubjectActivity.function?.description
      if let began = current.diagnosis {
        let limit = Self.diagnosisLimit(current.limit)
        let (spent, waited) = (cpuNow - began.cpu, (wallNow - began.wall).seconds)
        if spent > limit.cpu || waited > limit.wall {
          return HangNote(step: current.step, position: current.position, cpuSeconds: spent,
                          wallSeconds: waited, limit: limit, function: function, diagnosis: true)
        }
      }
      guard cpu > current.limit.cpu || wall > current.limit.wall else { return nil }
      return HangNote(step: current.step, position: current.position, cpuSeconds: cpu,
                      wallSeconds: wall, limit: current.limit, function: function)
    }
  }

  /// A diagnosis's limit in a case limited by `limit`: a quarter of it, at most `diagnosisCPU`.
  static func diagnosisLimit(_ limit: CaseLimit) -> CaseLimit {
    let cpu = min(diagnosisCPU, limit.cpu / 4)
    return CaseLimit(cpu: cpu, wall: cpu * limit.wall / max(limit.cpu, .leastNonzeroMagnitude))
  }

  /// A process inherits its blocked signals from the thread that spawned it: one started
  /// from a Dispatch thread (a test runner's, a CI tool's) begins with SIGABRT, SIGINT and
  /// SIGQUIT blocked, so the watchdog's SIGABRT would stay pending and no backtrace print.
  /// Called on the evaluating thread, before the watchdog starts (which inherits the mask).
  private static func unblockFatalSignals() {
    var signals = sigset_t()
    sigemptyset(&signals)
    for number in [SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGQUIT, SIGINT, SIGTERM, SIGHUP] {
      sigaddset(&signals, number)
    }
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  }

  /// Ends the worker with SIGABRT sent to `thread`. Swift's backtracer handles the first one:
  /// it prints the thread's frames, restores the default action and returns, which for a
  /// signal sent from outside resumes the loop; so once the action is the default again,
  /// the second one ends the process. Without a backtracer the first one does.
  private static func abort(_ thread: pthread_t) -> Never {
    pthread_kill(thread, SIGABRT)
    for _ in 0..<500 {
      usleep(10_000)
      var action = sigaction()
      sigaction(SIGABRT, nil, &action)
      if action.__sigaction_handler.sa_handler == nil { pthread_kill(thread, SIGABRT) }
    }
    _exit(71)
  }
}
