import Foundation
import Synchronization

/// One worker process, its pipes and its slot file.
final class WorkerProcess {
  enum Answer {
    case answered(WorkerReply)
    /// The worker died, or was killed for not answering in time (`timedOut`).
    case died(Death)
  }

  struct Death {
    /// `SIGILL`, `exit 3`, … as `CaseFault.Kind` names it.
    var kind: CaseFault.Kind
    var lastWords: String
    /// The case it was in (from the slot file) and whether in its diagnosis, or `nil` between
    /// cases.
    var inCase: (step: Int, position: Int, diagnosing: Bool)?
    /// Killed by SIGKILL, SIGTERM or SIGINT that this run did not send: from outside (the
    /// OOM killer, a person), not the subject's doing.
    var fromOutside: Bool
  }

  private let process: ChildProcess
  private let stderrTail: Tail
  private let slot: URL
  private var released = false
  private var killedHere = false
  private let encoder = RecordCoding.lineEncoder()
  private let decoder = RecordCoding.decoder()

  var pid: Int32 { process.pid }
  /// Whether the worker serves from forked children (`WorkerChildren`): a case that ends one
  /// leaves the worker serving.
  private(set) var forks = false

  /// Whether the worker still serves: after a case ended a child of one that forks, or never
  /// once it died.
  var isServing: Bool { forks && !released && process.isRunning }

  /// Starts a worker and tells it `setup` (its first line: `WorkerSetup`).
  init(executable: URL, launch: WorkerLaunch = WorkerLaunch(), setup: Data, startup: Double) throws {
    slot = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-slot-\(getpid())-\(UUID().uuidString)")
    try CaseSlot.create(at: slot)
    var environment = ProcessInfo.processInfo.environment.merging(launch.environment) { _, launched in launched }
    environment["CONFORMANCE_WORKER_SLOT"] = slot.path
    // Nothing but the mode on its command line: the run comes on stdin (`WorkerSetup.Run`).
    process = try ChildProcess(executable, arguments: launch.arguments, environment: Self.backtracing(environment),
                               input: true, output: .lines, errors: true)
    stderrTail = process.stderr ?? Tail()
    // A worker that died at once leaves the pipe closed (EPIPE): its stderr says why, below.
    process.send(setup + [UInt8(ascii: "\n")])
    guard awaitReady(within: startup) else {
      quit()
      throw HarnessError("a worker did not start: \(CrashReport(stderrTail.text).tail)")
    }
  }

  /// Reads up to the worker's `ready`. What a test binary re-run as a worker writes before it
  /// (the test library's own lines, the test's) is no reply and is passed over; from `ready`
  /// on, stdout belongs to the protocol.
  private func awaitReady(within seconds: Double) -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while true {
      process.dropTaken()
      guard case .line(let range) = process.nextLine(by: deadline) else { return false }
      let line = Data(process.buffer[range])
      if line.first == UInt8(ascii: "{"), let reply = try? decoder.decode(WorkerReply.self, from: line), reply.ready == true {
        forks = reply.forks == true
        return true
      }
      stderrTail.append(line + [UInt8(ascii: "\n")])
    }
  }

  /// Sends one request and reads its answer.
  func ask(_ request: WorkerRequest, timeout: Double) -> Answer {
    var line = RecordCoding.line(request, encoder: encoder)
    line.append(UInt8(ascii: "\n"))
    // It died before reading this request (EPIPE): how, its exit status says.
    guard process.send(line) else { return .died(died(nil)) }
    return read(timeout: timeout)
  }

  /// Closes the worker's stdin, which ends it, and waits for it.
  func quit() {
    process.closeInput()
    if !process.awaitExit(within: 5, every: 0.01) { process.kill() }
    process.waitUntilExit()
    release()
  }

  /// Waits for a worker whose watchdog stopped a case to die (its backtracer prints first),
  /// killing it after `seconds`; returns what it wrote to stderr. A worker that forks lives
  /// on: it is its child that ends.
  func awaitDeath(within seconds: Double) -> String {
    if forks {
      if case .died(let death) = read(timeout: seconds), isServing { return death.lastWords }
      return stderrTail.take()
    }
    if !process.awaitExit(within: seconds, every: 0.005) { process.killWithChildren() }
    process.waitUntilExit()
    release()
    return stderrTail.text
  }

  /// Kills the worker and its children now and waits for it: its pipes may hold a request
  /// nobody will answer alone.
  func end() {
    guard !released else { return }
    killedHere = true
    process.killWithChildren()
    process.waitUntilExit()
    release()
  }

  /// Once the process has exited: its pipes closed (`ChildProcess.release`) and its slot
  /// file removed, so replacing workers all night leaks neither descriptors nor files.
  private func release() {
    guard !released else { return }
    released = true
    process.release()
    try? FileManager.default.removeItem(at: slot)
  }

  /// Reads the worker's next reply: a line of JSON, then as many case lines as it says
  /// (`WorkerReply.caseLines`), which become the step's `CaseLine`s. Text that is not a
  /// reply is the worker's fault, like a death: its stdout belongs to the protocol.
  private func read(timeout: Double) -> Answer {
    var deadline = ContinuousClock.now + .seconds(timeout)
    var reply: WorkerReply
    repeat {
      // Nothing of the last line read is held any more: what is left starts the next one.
      process.dropTaken()
      switch process.nextLine(by: deadline) {
      case .line(let range):
        do {
          reply = try process.buffer.withUnsafeBufferPointer { try WorkerReply.read(UnsafeBufferPointer(rebasing: $0[range]), decoder: decoder) }
          if let counts = reply.slowReads { SlowReads.add(counts) }
        } catch {
          return .died(killed(.garbled(JSONValueReader.describe(error))))
        }
      case .closed: return .died(died(nil))
      case .timedOut: return .died(killed(.unanswered(seconds: timeout)))
      }
      if let end = reply.childEnded { return .died(childEnded(end)) }
      // Waiting on its executor, which answers within its own limit: the request's starts again.
      if reply.alive == true { deadline = ContinuousClock.now + .seconds(timeout) }
    } while reply.alive == true
    guard let count = reply.caseLines, count > 0, var step = reply.step else { return .answered(reply) }
    var lines: [Range<Int>] = []
    lines.reserveCapacity(count)
    while lines.count < count {
      switch process.nextLine(by: deadline) {
      case .line(let range): lines.append(range)
      case .closed: return .died(died(nil))
      case .timedOut: return .died(killed(.unanswered(seconds: timeout)))
      }
    }
    do throws(InputError) {
      let source = "worker \(pid)'s reply for step \(step.index)"
      let digests = reply.actualDigests
      step.caseLines = try process.buffer.withUnsafeBufferPointer { bytes throws(InputError) in
        try lines.enumerated().map { number, range throws(InputError) in
          try CaseLine(UnsafeBufferPointer(rebasing: bytes[range]), path: source, lineNumber: number + 2,
                       actualDigest: digests.flatMap { number < $0.count ? $0[number] : nil })
        }
      }
    } catch {
      return .died(killed(.garbled(error.message)))
    }
    reply.step = step
    return .answered(reply)
  }

  /// Kills a worker that answered with something else or not in time, and says so.
  private func killed(_ kind: CaseFault.Kind) -> Death {
    killedHere = true
    process.killWithChildren()
    return died(kind)
  }

  /// How the child serving ended, with what it wrote to stderr since the one before it ended
  /// (up to the worker's `WorkerChildren.endMarker`, which follows all of it).
  private func childEnded(_ end: WorkerChildren.End) -> Death {
    let deadline = Date().addingTimeInterval(5)
    while !stderrTail.text.contains(WorkerChildren.endMarker) && Date() < deadline { usleep(2_000) }
    let lastWords = stderrTail.take().replacingOccurrences(of: WorkerChildren.endMarker, with: "")
    let kind: CaseFault.Kind
    if let signal = end.signal {
      kind = .signal(ChildProcess.signalName(signal))
    } else {
      kind = .exited(end.exit ?? 0)
    }
    // A child killed from outside takes its worker with it (`WorkerChildren.serve`).
    return Death(kind: kind, lastWords: lastWords, inCase: CaseSlot.read(slot), fromOutside: false)
  }

  /// Waits for the process and says how it ended; `known` when this side already knows why.
  private func died(_ known: CaseFault.Kind?) -> Death {
    let exit = process.waitUntilExit()
    let inCase = CaseSlot.read(slot)
    release()
    var fromOutside = false
    let kind = known ?? exit.faultKind
    if known == nil, case .signal(let signal) = exit {
      fromOutside = !killedHere && [SIGKILL, SIGTERM, SIGINT].contains(signal)
    }
    return Death(kind: kind, lastWords: stderrTail.text, inCase: inCase,
                 fromOutside: fromOutside)
  }

  /// `environment` with Swift's backtracer set to print the crashed thread's frames, when
  /// the caller did not set it: they are what a reader needs (`CrashReport`); other threads,
  /// registers and the image list would be most of the text, and time.
  static func backtracing(_ environment: [String: String]) -> [String: String] {
    var environment = environment
    if environment["SWIFT_BACKTRACE"] == nil {
      // The innermost 60 frames and the outermost 4: a hang stopped deep in ICU (Foundation's
      // calendar code) keeps the subject's frame that called it, which the backtracer's
      // default split (the top 16 of 32) dropped into its elided middle.
      environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,color=no,threads=crashed,"
        + "registers=none,images=none,limit=64,top=4"
    }
    return environment
  }
}
