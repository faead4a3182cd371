import Foundation
import Synchronization
import ICUOracle

/// Runs a plan in worker processes (the same executable, `__worker` mode) so that a subject
/// that traps or hangs costs one case, not the run.
///
/// Steps go to workers in plan order, a bounded number ahead of delivery. A worker that dies
/// or stays silent past the step timeout is killed and replaced, and its step is retried one
/// case at a time: the case that kills or hangs a worker becomes `errored`, with the signal
/// or timeout and the worker's last words. Results are delivered in plan order as
/// `stepEnded` events, the same step records an in-process run delivers.
public final class IsolatedRunner: Sendable {
  public struct Limits: Sendable {
    /// Seconds a worker may spend on one step before it is killed.
    public var step: Double
    /// Seconds a worker may spend on one retried case.
    public var singleCase: Double
    /// Seconds a worker may take to load the corpus.
    public var startup: Double

    /// From `CONFORMANCE_STEP_TIMEOUT`, `CONFORMANCE_CASE_TIMEOUT` (seconds), or defaults;
    /// a value that is not a positive number is bad input, not a silent default.
    public static func fromEnvironment(
      _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Limits {
      func seconds(_ name: String, default value: Double) throws -> Double {
        guard let text = environment[name] else { return value }
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
          throw InputError("\(name)=\(text): expected a positive number of seconds")
        }
        return seconds
      }
      return Limits(step: try seconds("CONFORMANCE_STEP_TIMEOUT", default: 600),
                    singleCase: try seconds("CONFORMANCE_CASE_TIMEOUT", default: 60),
                    startup: 300)
    }
  }

  enum Job: Equatable, Sendable {
    case step(Int)
    case single(step: Int, position: Int)
    var step: Int {
      switch self {
      case .step(let index), .single(let index, _): index
      }
    }
  }

  let plan: Plan
  let executable: URL
  let arguments: [String]
  let workers: Int
  let limits: Limits
  let zoneClasses: [String: String]
  /// Applied here to the cases a worker could not finish (errored), as a worker applies it.
  let review: Review

  /// Each step's position in the plan, by its index.
  private let positionOf: [Int: Int]

  /// What the worker slots and the delivering thread share.
  private struct Schedule: Sendable {
    var nextStep = 0
    var delivered = 0
    var retries: [Job] = []
    /// Steps being retried case by case: each case's record by its position, and how many
    /// are still out (put together in plan order once all are back, whatever order they came).
    var partial: [Int: (records: [Int: StepRecord], remaining: Int)] = [:]
    var completed: [Int: StepRecord] = [:]
    var failure: (any Error)?
    var cancelled = false
  }

  private let schedule = Monitor(Schedule())

  /// - Parameters:
  ///   - executable: the `conformance` binary; `arguments`: the run's own command line.
  public init(plan: Plan, executable: URL, arguments: [String], workers: Int, limits: Limits,
              zoneClasses: [String: String], review: Review) {
    self.plan = plan
    self.executable = executable
    self.arguments = arguments
    self.workers = max(1, workers)
    self.limits = limits
    self.zoneClasses = zoneClasses
    self.review = review
    positionOf = Dictionary(plan.steps.enumerated().map { ($1.index, $0) }, uniquingKeysWith: { a, _ in a })
  }

  public func run(_ handler: EventHandler) throws {
    let token = Interruption.register { [self] in cancel() }
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
    cancel()
    finished.wait()
    if let error = schedule.update({ $0.failure }) { throw error }
  }

  private func cancel() {
    schedule.update { $0.cancelled = true }
  }

  // MARK: Scheduling

  /// The next job for a worker: a retry first, else the next step within reach of delivery.
  private func nextJob() -> Job? {
    let (steps, window) = (plan.steps, workers * 64)
    // Summaries are small (counts and failing lines); a wide window keeps a worker busy
    // while delivery waits on one slow step.
    func canGive(_ state: Schedule) -> Bool {
      state.nextStep < steps.count && state.nextStep - state.delivered < window
    }
    return schedule.wait(until: { state in
      // Done when every step is handed out and nothing can come back for a retry.
      state.cancelled || !state.retries.isEmpty || canGive(state)
        || (state.nextStep >= steps.count && state.partial.isEmpty)
    }, then: { state in
      if state.cancelled { return nil }
      if !state.retries.isEmpty { return state.retries.removeFirst() }
      guard canGive(state) else { return nil }
      state.nextStep += 1
      return .step(steps[state.nextStep - 1].index)
    })
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

  private func finish(_ job: Job, _ summary: StepRecord) {
    schedule.update { state in
      switch job {
      case .step(let index):
        state.completed[index] = summary
      case .single(let index, let position):
        guard var entry = state.partial[index] else { return }
        entry.records[position] = summary
        entry.remaining -= 1
        guard entry.remaining == 0 else {
          state.partial[index] = entry
          return
        }
        state.partial[index] = nil
        var records = entry.records.sorted { $0.key < $1.key }.map(\.value)
        var whole = records.removeFirst()
        for record in records { whole.absorb(record) }
        state.completed[index] = whole
      }
    }
  }

  /// A worker died or hung on `job`: a whole step is retried case by case; a single case is
  /// the culprit and becomes an errored result.
  private func failed(_ job: Job, reason: String, lastWords: String) {
    switch job {
    case .step(let index):
      let count = plan.steps[positionOf[index] ?? 0].caseCount
      schedule.update { state in
        state.partial[index] = ([:], count)
        state.retries.append(contentsOf: (0..<count).map { Job.single(step: index, position: $0) })
      }
    case .single(let index, let position):
      finish(job, erroredSummary(step: index, position: position, reason: reason, lastWords: lastWords))
    }
  }

  /// The record of a case that killed or hung its worker: errored, reviewed like any case
  /// (a waiver may explain it, the baseline classifies it).
  private func erroredSummary(step index: Int, position: Int, reason: String, lastWords: String)
    -> StepRecord
  {
    let step = plan.steps[positionOf[index] ?? 0]
    let id = step.cases()[position]
    var outcome = Outcome.errored("the worker \(reason) while evaluating this case")
    outcome.pattern = "worker \(reason.split(separator: " ").prefix(3).joined(separator: " "))"
    let crash = CrashReport(lastWords)
    if let message = crash.message { outcome.detail.append("message: \(message)") }
    if let frame = crash.frame { outcome.detail.append("crashed in: \(frame)") }
    if crash.message == nil && crash.frame == nil && !lastWords.isEmpty {
      outcome.detail.append("its last output: \(crash.tail)")
    }
    var record = CaseRecord(id: id, step: index, outcome: outcome)
    review.apply(&record)
    return StepRecord(step: step, check: plan.checks[step.checkIndex].id, cases: [record],
                      zoneClasses: zoneClasses, keepPassing: false, seconds: 0)
  }

  // MARK: One worker slot

  /// Keeps one worker process busy, replacing it whenever it dies.
  private func serve(slot: Int) {
    var worker: WorkerProcess?
    defer { worker?.quit() }
    while let job = nextJob() {
      do {
        if worker == nil {
          worker = try WorkerProcess(executable: executable, arguments: arguments,
                                     startup: limits.startup)
        }
      } catch {
        abandon(error)
        return
      }
      guard let current = worker else { return }
      let request: WorkerRequest
      let timeout: Double
      switch job {
      case .step(let index): (request, timeout) = (WorkerRequest(step: index), limits.step)
      case .single(let index, let position):
        (request, timeout) = (WorkerRequest(step: index, positions: [position]), limits.singleCase)
      }
      switch current.ask(request, timeout: timeout) {
      case .answered(let reply):
        do {
          finish(job, try record(in: reply, for: request))
        } catch {
          abandon(error)
          return
        }
      case .died(let reason, let lastWords):
        worker = nil
        failed(job, reason: reason, lastWords: lastWords)
      }
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

  /// The step record a worker answered, checked against what was asked.
  private func record(in reply: WorkerReply, for request: WorkerRequest) throws -> StepRecord {
    guard let record = reply.step, record.index == request.step else {
      throw HarnessError("a worker answered \(request) with something else")
    }
    return record
  }
}

/// One worker process and its pipes.
final class WorkerProcess {
  enum Answer {
    case answered(WorkerReply)
    case died(reason: String, lastWords: String)
  }

  private let process = Process()
  private let input: FileHandle
  private let output: FileHandle
  private let errors: FileHandle
  private let stderrTail = Tail()
  private var released = false
  private var buffer: [UInt8] = []
  private let encoder = RecordCoding.lineEncoder()
  private let decoder = RecordCoding.decoder()

  init(executable: URL, arguments: [String], startup: Double) throws {
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.executableURL = executable
    process.arguments = ["__worker"] + arguments
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    input = stdin.fileHandleForWriting
    output = stdout.fileHandleForReading
    errors = stderr.fileHandleForReading
    let tail = stderrTail
    errors.readabilityHandler = { handle in
      let data = handle.availableData
      if !data.isEmpty { tail.append(data) }
    }
    try process.run()
    guard case .answered(let reply) = read(timeout: startup), reply.ready == true else {
      quit()
      throw HarnessError("a worker did not start: \(CrashReport(stderrTail.text).tail)")
    }
  }

  /// Sends one request and reads its answer.
  func ask(_ request: WorkerRequest, timeout: Double) -> Answer {
    var line = RecordCoding.line(request, encoder: encoder)
    line.append(UInt8(ascii: "\n"))
    do {
      try input.write(contentsOf: line)
    } catch {
      return died(timedOut: false, timeout: timeout)
    }
    return read(timeout: timeout)
  }

  /// Closes the worker's stdin, which ends it, and waits for it.
  func quit() {
    try? input.close()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    release()
  }

  /// Once the process has exited: drops the stderr handler (it keeps the handle, and so this
  /// worker's pipes, alive), keeps what stderr still holds, and closes our ends of the pipes,
  /// so replacing workers all night leaks neither memory nor descriptors.
  private func release() {
    guard !released else { return }
    released = true
    errors.readabilityHandler = nil
    var poll = pollfd(fd: errors.fileDescriptor, events: Int16(POLLIN), revents: 0)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while Glibc.poll(&poll, 1, 0) > 0 {
      let count = Glibc.read(errors.fileDescriptor, &chunk, chunk.count)
      if count <= 0 { break }
      stderrTail.append(Data(chunk[..<count]))
    }
    try? errors.close()
    try? output.close()
    try? input.close()
  }

  /// Reads the worker's next reply (one line of JSON). A line that is not a reply is the
  /// worker's fault, like a death: its stdout belongs to the protocol.
  private func read(timeout: Double) -> Answer {
    let deadline = Date().addingTimeInterval(timeout)
    let descriptor = output.fileDescriptor
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = Data(buffer[..<newline])
        buffer.removeSubrange(...newline)
        do {
          return .answered(try decoder.decode(WorkerReply.self, from: line))
        } catch {
          kill(process.processIdentifier, SIGKILL)
          let answer = died(timedOut: false, timeout: timeout)
          guard case .died(let reason, let lastWords) = answer else { return answer }
          return .died(reason: "wrote a reply that does not parse (\(JSONValueReader.describe(error))); \(reason)",
                       lastWords: lastWords)
        }
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else {
        kill(process.processIdentifier, SIGKILL)
        return died(timedOut: true, timeout: timeout)
      }
      var poll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = Glibc.poll(&poll, 1, Int32(min(remaining, 1) * 1000))
      if ready <= 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = Glibc.read(descriptor, &chunk, chunk.count)
      if count <= 0 { return died(timedOut: false, timeout: timeout) }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  private func died(timedOut: Bool, timeout: Double) -> Answer {
    process.waitUntilExit()
    release()
    let reason: String
    if timedOut {
      reason = "timed out after \(Int(timeout)) s (killed)"
    } else if process.terminationReason == .uncaughtSignal {
      reason = "died from \(signalName(process.terminationStatus))"
    } else {
      reason = "exited with status \(process.terminationStatus)"
    }
    return .died(reason: reason, lastWords: stderrTail.text)
  }

  private func signalName(_ number: Int32) -> String {
    switch number {
    case SIGILL: "SIGILL"
    case SIGTRAP: "SIGTRAP"
    case SIGABRT: "SIGABRT"
    case SIGSEGV: "SIGSEGV"
    case SIGBUS: "SIGBUS"
    case SIGKILL: "SIGKILL"
    case SIGTERM: "SIGTERM"
    default: "signal \(number)"
    }
  }
}

/// What a worker wrote to stderr, appended from the pipe's reading thread: its first 32 KB
/// (where Swift's backtracer puts the message and the crashed thread's frames) and its
/// last 4 KB (for anything else).
final class Tail: Sendable {
  private struct Kept {
    var head: [UInt8] = []
    var tail: [UInt8] = []
  }

  private let kept = Mutex(Kept())
  static let headLimit = 32 * 1024
  static let tailLimit = 4096

  func append(_ data: Data) {
    kept.withLock { kept in
      let room = max(0, Self.headLimit - kept.head.count)
      kept.head.append(contentsOf: data.prefix(room))
      kept.tail.append(contentsOf: data.dropFirst(room))
      if kept.tail.count > Self.tailLimit { kept.tail.removeFirst(kept.tail.count - Self.tailLimit) }
    }
  }

  /// Everything kept, head then tail.
  var text: String {
    kept.withLock { String(decoding: $0.head + $0.tail, as: UTF8.self) }
  }
}

/// A worker's death in a reader's words, from its stderr: the runtime's message (a fatal
/// error's text) and the subject's frame that crashed (the first frame of the crashed
/// thread outside the Swift runtime and the C library), as Swift's backtracer prints them.
struct CrashReport: Equatable {
  var message: String?
  var frame: String?
  /// The last few non-empty lines, when neither is found.
  var tail: String

  init(_ stderr: String) {
    let lines = stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    message = lines.first { $0.contains("Fatal error:") || $0.contains("Precondition failed") }
      ?? lines.first { $0.hasPrefix("*** Program crashed:") }
        .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "* ")) }
    frame = nil
    if let crashed = lines.firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix("crashed:") }) {
      for line in lines[(crashed + 1)...] {
        if line.hasPrefix("Thread ") || line == "Registers:" { break }
        guard let first = line.first, first.isNumber, line.contains(" in "),
          !line.contains("[system]"), !line.contains("[thunk]"),
          !line.contains(" in libswiftCore.so"), !line.contains(" in libc.so")
        else { continue }
        frame = Self.frame(line)
        break
      }
    }
    tail = lines.filter { !$0.isEmpty }.suffix(3).joined(separator: " | ")
  }

  /// `1 [ra] 0x… Fault.inject(_:) + 753 in conformance at /x/Fault.swift:46:7` →
  /// `Fault.inject(_:) at Fault.swift:46:7`.
  static func frame(_ line: String) -> String {
    var text = Substring(line)
    // Drop the frame number, the [ra] marks and the address.
    while let space = text.firstIndex(of: " "),
      text[..<space].allSatisfy({ $0.isNumber }) || text.hasPrefix("[") || text.hasPrefix("0x")
    {
      text = text[text.index(after: space)...].drop { $0 == " " }
    }
    let symbol = text.range(of: " + ").map { String(text[..<$0.lowerBound]) } ?? String(text)
    guard let at = text.range(of: " at ", options: .backwards) else { return symbol }
    let location = text[at.upperBound...].split(separator: "/").last.map(String.init) ?? ""
    return location.isEmpty ? symbol : "\(symbol) at \(location)"
  }
}
