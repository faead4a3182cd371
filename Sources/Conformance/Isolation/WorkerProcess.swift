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

  private let process = Process()
  private let input: FileHandle
  private let output: FileHandle
  private let errors: FileHandle
  private let stderrTail = Tail()
  private let slot: URL
  private var released = false
  private var killedHere = false
  /// What was read of stdout and not taken yet, from `start`; a newline was looked for up to
  /// `scanned` (a reply of thousands of case lines is many reads: each looks only at what is new).
  private var buffer: [UInt8] = []
  private var start = 0
  private var scanned = 0
  private let encoder = RecordCoding.lineEncoder()
  private let decoder = RecordCoding.decoder()

  var pid: Int32 { process.processIdentifier }
  /// Whether the worker serves from forked children (`WorkerChildren`): a case that ends one
  /// leaves the worker serving.
  private(set) var forks = false

  /// Whether the worker still serves: after a case ended a child of one that forks, or never
  /// once it died.
  var isServing: Bool { forks && !released && process.isRunning }

  /// Starts a worker and tells it `setup` (its first line: `WorkerSetup`).
  init(executable: URL, launch: WorkerLaunch = WorkerLaunch(), setup: Data, startup: Double) throws {
    // The pipes are made under the spawn lock too: a child started meanwhile would keep them.
    let (stdin, stdout, stderr) = Spawn.serially { (Pipe(), Pipe(), Pipe()) }
    slot = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-slot-\(getpid())-\(UUID().uuidString)")
    try CaseSlot.create(at: slot)
    process.executableURL = executable
    // Nothing but the mode: the run comes on stdin (`WorkerSetup.Run`).
    process.arguments = launch.arguments
    var environment = ProcessInfo.processInfo.environment.merging(launch.environment) { _, launched in launched }
    environment["CONFORMANCE_WORKER_SLOT"] = slot.path
    process.environment = Self.backtracing(environment)
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
    try Spawn.serially { try process.run() }
    // A worker that died at once leaves the pipe closed (EPIPE): its stderr says why, below.
    try? input.write(contentsOf: setup + [UInt8(ascii: "\n")])
    guard awaitReady(within: startup) else {
      quit()
      throw HarnessError("a worker did not start: \(CrashReport(stderrTail.text).tail)")
    }
  }

  /// Reads up to the worker's `ready`. What a test binary re-run as a worker writes before it
  /// (the test library's own lines, the test's) is no reply and is passed over; from `ready`
  /// on, stdout belongs to the protocol.
  private func awaitReady(within seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      buffer.removeSubrange(..<start)
      (scanned, start) = (scanned - start, 0)
      guard case .line(let range) = nextLine(by: deadline) else { return false }
      let line = Data(buffer[range])
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
    do {
      try input.write(contentsOf: line)
    } catch {
      // It died before reading this request (EPIPE): how, its exit status says.
      return .died(died(nil))
    }
    return read(timeout: timeout)
  }

  /// Closes the worker's stdin, which ends it, and waits for it.
  func quit() {
    try? input.close()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
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
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(5_000) }
    if process.isRunning {
      Self.killChildGroups(of: process.processIdentifier)
      Glibc.kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    release()
    return stderrTail.text
  }

  /// Kills the worker and its children now and waits for it: its pipes may hold a request
  /// nobody will answer alone.
  func end() {
    guard !released else { return }
    killedHere = true
    Self.kill(process.processIdentifier)
    process.waitUntilExit()
    release()
  }

  /// Kills the worker now (the run is interrupted); whoever is reading sees it die.
  static func kill(_ pid: Int32) {
    guard pid > 0 else { return }
    killChildGroups(of: pid)
    Glibc.kill(pid, SIGKILL)
  }

  /// Kills the process groups the worker's children lead (an executor and its pipeline,
  /// each a group of its own): a worker killed with SIGKILL cannot end them, and one that
  /// spins would outlive the run. Done before the worker dies, while they are its children.
  static func killChildGroups(of parent: Int32) {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
    for entry in entries {
      guard let pid = Int32(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // pid (comm) state ppid …: the command may hold spaces and parentheses.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      // A group an executor leads, or a child forked to serve (in its parent's group).
      if fields.count > 1, Int32(fields[1]) == parent {
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
      }
    }
  }

  /// Once the process has exited: drops the stderr handler (it keeps the handle, and so this
  /// worker's pipes, alive), keeps what stderr still holds, closes our ends of the pipes and
  /// removes the slot file, so replacing workers all night leaks neither memory, descriptors
  /// nor files.
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
    try? FileManager.default.removeItem(at: slot)
  }

  /// Reads the worker's next reply: a line of JSON, then as many case lines as it says
  /// (`WorkerReply.caseLines`), which become the step's `CaseLine`s. Text that is not a
  /// reply is the worker's fault, like a death: its stdout belongs to the protocol.
  private func read(timeout: Double) -> Answer {
    var deadline = Date().addingTimeInterval(timeout)
    var reply: WorkerReply
    repeat {
      // Nothing of the last line read is held any more: what is left starts the next one.
      buffer.removeSubrange(..<start)
      (scanned, start) = (scanned - start, 0)
      switch nextLine(by: deadline) {
      case .line(let range):
        do {
          reply = try buffer.withUnsafeBufferPointer { try WorkerReply.read(UnsafeBufferPointer(rebasing: $0[range]), decoder: decoder) }
          if let counts = reply.slowReads { SlowReads.add(counts) }
        } catch {
          return .died(killed(.garbled(JSONValueReader.describe(error))))
        }
      case .closed: return .died(died(nil))
      case .timedOut: return .died(killed(.unanswered(seconds: timeout)))
      }
      if let end = reply.childEnded { return .died(childEnded(end)) }
      // Waiting on its executor, which answers within its own limit: the request's starts again.
      if reply.alive == true { deadline = Date().addingTimeInterval(timeout) }
    } while reply.alive == true
    guard let count = reply.caseLines, count > 0, var step = reply.step else { return .answered(reply) }
    var lines: [Range<Int>] = []
    lines.reserveCapacity(count)
    while lines.count < count {
      switch nextLine(by: deadline) {
      case .line(let range): lines.append(range)
      case .closed: return .died(died(nil))
      case .timedOut: return .died(killed(.unanswered(seconds: timeout)))
      }
    }
    do throws(InputError) {
      let source = "worker \(pid)'s reply for step \(step.index)"
      let digests = reply.actualDigests
      step.caseLines = try buffer.withUnsafeBufferPointer { bytes throws(InputError) in
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

  private enum LineRead {
    case line(Range<Int>)
    case closed
    case timedOut
  }

  /// The next line of stdout (its range in `buffer`, without the newline), reading until
  /// `deadline`. Ranges stay valid until the next reply is read: the buffer only grows.
  private func nextLine(by deadline: Date) -> LineRead {
    let descriptor = output.fileDescriptor
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
        defer { (start, scanned) = (newline + 1, newline + 1) }
        return .line(start..<newline)
      }
      scanned = buffer.count
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return .timedOut }
      var poll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = Glibc.poll(&poll, 1, Int32(min(remaining, 1) * 1000))
      if ready <= 0 { continue }
      let count = Glibc.read(descriptor, &chunk, chunk.count)
      if count <= 0 { return .closed }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  /// Kills a worker that answered with something else or not in time, and says so.
  private func killed(_ kind: CaseFault.Kind) -> Death {
    killedHere = true
    Self.killChildGroups(of: process.processIdentifier)
    Glibc.kill(process.processIdentifier, SIGKILL)
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
      kind = .signal(Self.signalName(signal))
    } else {
      kind = .exited(end.exit ?? 0)
    }
    // A child killed from outside takes its worker with it (`WorkerChildren.serve`).
    return Death(kind: kind, lastWords: lastWords, inCase: CaseSlot.read(slot), fromOutside: false)
  }

  /// Waits for the process and says how it ended; `known` when this side already knows why.
  private func died(_ known: CaseFault.Kind?) -> Death {
    process.waitUntilExit()
    let inCase = CaseSlot.read(slot)
    release()
    let kind: CaseFault.Kind
    var fromOutside = false
    if let known {
      kind = known
    } else if process.terminationReason == .uncaughtSignal {
      let signal = process.terminationStatus
      kind = .signal(Self.signalName(signal))
      fromOutside = !killedHere && [SIGKILL, SIGTERM, SIGINT].contains(signal)
    } else {
      kind = .exited(process.terminationStatus)
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

  static func signalName(_ number: Int32) -> String {
    switch number {
    case SIGILL: "SIGILL"
    case SIGTRAP: "SIGTRAP"
    case SIGABRT: "SIGABRT"
    case SIGSEGV: "SIGSEGV"
    case SIGBUS: "SIGBUS"
    case SIGFPE: "SIGFPE"
    case SIGKILL: "SIGKILL"
    case SIGTERM: "SIGTERM"
    case SIGINT: "SIGINT"
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

  /// Everything kept, which is then forgotten: what comes next starts a new head.
  func take() -> String {
    kept.withLock { kept in
      defer { kept = Kept() }
      return String(decoding: kept.head + kept.tail, as: UTF8.self)
    }
  }
}
