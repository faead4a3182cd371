import Foundation
import Synchronization

/// A process this harness starts: a worker, an executor, explain's own child, a benchmarked
/// run. It owns what each of them needs alike: the start (under the spawn lock), the pipes,
/// what the child writes to stderr, lines read from its stdout by a deadline (while writing
/// its stdin, so two full pipes never deadlock), kills of it, its group and its children's
/// groups, and how it ended.
///
/// Foundation's `Process` makes the child the leader of a process group of its own, so a
/// shell's pipeline (`tee q | python3 x.py`) is killed as a whole, and a Ctrl-C reaches this
/// process alone until it passes it on.
final class ChildProcess {
  /// Where the child's stdout goes.
  enum Output {
    /// A pipe read a line at a time (`nextLine`).
    case lines
    /// A pipe read as it comes and kept whole (`collectedOutput`), so a full pipe never
    /// holds the child.
    case collected
    /// Nowhere.
    case discarded
  }

  /// How the child ended.
  enum Exit: Equatable {
    case exited(Int32)
    case signal(Int32)
  }

  /// What `nextLine` found.
  enum LineRead: Equatable {
    /// A line: its range in `buffer`, without the newline.
    case line(Range<Int>)
    /// The child closed its stdout, and no whole line is left.
    case closed
    case timedOut
  }

  private let process = Process()
  /// The pipes' handles own the descriptors and close them; raw reads and writes use their
  /// numbers while the handles live.
  private let input: FileHandle?
  private let output: FileHandle?
  private let errors: FileHandle?
  /// What the child wrote to stderr (the head and the last 4 KB), `nil` when discarded.
  let stderr: Tail?
  private let collected = Collected()
  private var released = false

  /// What was read of stdout and not taken yet, from `start`; a newline was looked for up to
  /// `scanned` (a reply of thousands of lines is many reads: each looks only at what is new).
  /// Ranges `nextLine` gives stay valid until `dropTaken()`.
  private(set) var buffer: [UInt8] = []
  private var start = 0
  private var scanned = 0

  var pid: Int32 { process.processIdentifier }
  var isRunning: Bool { process.isRunning }

  /// Starts `executable`.
  ///
  /// - Parameters:
  ///   - input: a pipe for the child's stdin (`send`, `nextLine(sending:)`); else it reads
  ///     this process's stdin.
  ///   - errors: keep what the child writes to stderr (`stderr`); else it goes nowhere.
  /// - Throws: `Process.run`'s error when the child cannot be started.
  init(_ executable: URL, arguments: [String], environment: [String: String]? = nil,
       input: Bool, output: Output, errors: Bool) throws {
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    // Made under the spawn lock: a child started meanwhile would keep them open.
    let pipes = Spawn.serially {
      (input ? Pipe() : nil, output == .discarded ? nil : Pipe(), errors ? Pipe() : nil)
    }
    if let stdin = pipes.0 { process.standardInput = stdin }
    process.standardOutput = pipes.1 ?? FileHandle.nullDevice
    process.standardError = pipes.2 ?? FileHandle.nullDevice
    self.input = pipes.0?.fileHandleForWriting
    self.output = pipes.1?.fileHandleForReading
    self.errors = pipes.2?.fileHandleForReading
    let tail = errors ? Tail() : nil
    stderr = tail
    if let tail {
      self.errors?.readabilityHandler = { handle in
        let data = handle.availableData
        if !data.isEmpty { tail.append(data) }
      }
    }
    if output == .collected {
      let collected = collected
      self.output?.readabilityHandler = { handle in
        let data = handle.availableData
        if !data.isEmpty { collected.data.withLock { $0.append(data) } }
      }
    }
    // A write to a child that died must fail with EPIPE, which its owner reports as the
    // child's end, rather than end this process.
    if input { signal(SIGPIPE, SIG_IGN) }
    let process = process
    try Spawn.serially { try process.run() }
  }

  deinit { release() }

  // MARK: Its stdin

  /// Writes `data` to the child's stdin; `false` when the child stopped reading (EPIPE).
  @discardableResult
  func send(_ data: Data) -> Bool {
    guard let input else { return false }
    do {
      try input.write(contentsOf: data)
      return true
    } catch {
      return false
    }
  }

  /// Closes the child's stdin: the end of what it is told.
  func closeInput() { try? input?.close() }

  // MARK: Its stdout

  /// The next line of stdout, reading until `deadline` (or the end of stdout), and writing
  /// `sending[sent...]` as the pipe takes it meanwhile (`sent` moves on; at EPIPE it is all
  /// taken as sent, and what the child wrote before it ended is still read). `waiting` is
  /// called at least once a second while nothing comes.
  func nextLine(by deadline: ContinuousClock.Instant, sending: [UInt8] = [], sent: inout Int,
                waiting: (() -> Void)? = nil) -> LineRead {
    guard let output else { return .closed }
    let descriptor = output.fileDescriptor
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
        defer { (start, scanned) = (newline + 1, newline + 1) }
        return .line(start..<newline)
      }
      scanned = buffer.count
      waiting?()
      let remaining = (deadline - ContinuousClock.now).seconds
      guard remaining > 0 else { return .timedOut }
      var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
      if sent < sending.count, let input {
        fds.append(pollfd(fd: input.fileDescriptor, events: Int16(POLLOUT), revents: 0))
      }
      let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1) * 1000) + 1)
      if ready < 0 && errno != EINTR { return .closed }
      if fds.count > 1 && fds[1].revents != 0 {
        let count = sending.withUnsafeBytes { bytes in
          Glibc.write(fds[1].fd, bytes.baseAddress! + sent, sending.count - sent)
        }
        if count > 0 {
          sent += count
        } else if count < 0 && errno != EAGAIN && errno != EINTR {
          sent = sending.count
        }
      }
      if fds[0].revents != 0 {
        let count = Glibc.read(descriptor, &chunk, chunk.count)
        if count > 0 {
          buffer.append(contentsOf: chunk[..<count])
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
          return .closed
        }
      }
    }
  }

  /// The same, writing nothing.
  func nextLine(by deadline: ContinuousClock.Instant) -> LineRead {
    var sent = 0
    return nextLine(by: deadline, sent: &sent)
  }

  /// Forgets the lines taken so far: ranges given before are no longer valid.
  func dropTaken() {
    buffer.removeSubrange(..<start)
    (scanned, start) = (scanned - start, 0)
  }

  /// Writes to the child's stdin from now on return at once when the pipe is full
  /// (`nextLine(sending:)` then waits for it to take more).
  func writeWithoutBlocking() {
    guard let descriptor = input?.fileDescriptor else { return }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
  }

  /// Everything the child wrote to stdout (`Output.collected`), once it has ended.
  func collectedOutput() -> Data {
    output?.readabilityHandler = nil
    let rest = output?.readDataToEndOfFile() ?? Data()
    return collected.data.withLock { $0 } + rest
  }

  // MARK: Its end

  /// Waits up to `seconds` for the child to end, looking every `interval` seconds, and
  /// `stop` says when to stop waiting sooner; whether it ended.
  @discardableResult
  func awaitExit(within seconds: Double, every interval: Double,
                 stop: (() -> Bool)? = nil) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline {
      usleep(useconds_t(interval * 1_000_000))
      if stop?() == true { break }
    }
    return !process.isRunning
  }

  /// Waits for the child to end, and says how.
  @discardableResult
  func waitUntilExit() -> Exit {
    process.waitUntilExit()
    return process.terminationReason == .uncaughtSignal
      ? .signal(process.terminationStatus) : .exited(process.terminationStatus)
  }

  /// Sends `signal` to the child.
  func kill(_ signal: Int32 = SIGKILL) {
    if pid > 0 { Glibc.kill(pid, signal) }
  }

  /// Sends `signal` to the child's process group: the child and whatever it started that
  /// did not leave it (a shell's pipeline).
  func killGroup(_ signal: Int32 = SIGKILL) {
    if pid > 0 { Glibc.kill(-pid, signal) }
  }

  /// Kills the child's children's groups, then the child: a child killed with SIGKILL cannot
  /// end them, and one that spins would outlive the run.
  func killWithChildren() { Self.kill(pid) }

  /// The same for a child known by its pid (an interruption's handler holds pids only).
  static func kill(_ pid: Int32) {
    guard pid > 0 else { return }
    killChildGroups(of: pid)
    Glibc.kill(pid, SIGKILL)
  }

  /// Kills the process groups `parent`'s children lead (an executor and its pipeline, each a
  /// group of its own) and the children themselves (a child forked to serve, in its parent's
  /// group). Done before the parent dies, while they are its children.
  static func killChildGroups(of parent: Int32) {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
    for entry in entries {
      guard let pid = Int32(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // pid (comm) state ppid …: the command may hold spaces and parentheses.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 1, Int32(fields[1]) == parent {
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
      }
    }
  }

  /// The child's CPU seconds so far (`/proc/<pid>/stat`'s user and system ticks).
  var cpuSeconds: Double { Self.cpuSeconds(of: pid) }

  /// A process's CPU seconds so far.
  static func cpuSeconds(of pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    // After "(comm)": state is field 3; utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// Once the child has ended: drops the readers (a handler keeps its handle, and so the
  /// pipes, alive), keeps what stderr still holds, and closes this side of the pipes, so a
  /// night of replaced children leaks neither memory nor descriptors.
  func release() {
    guard !released else { return }
    released = true
    if let errors {
      errors.readabilityHandler = nil
      var poll = pollfd(fd: errors.fileDescriptor, events: Int16(POLLIN), revents: 0)
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while Glibc.poll(&poll, 1, 0) > 0 {
        let count = Glibc.read(errors.fileDescriptor, &chunk, chunk.count)
        if count <= 0 { break }
        stderr?.append(Data(chunk[..<count]))
      }
      try? errors.close()
    }
    output?.readabilityHandler = nil
    try? output?.close()
    try? input?.close()
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

  /// What a child wrote to stdout so far, appended from the pipe's reading thread.
  private final class Collected: Sendable {
    let data = Mutex(Data())
  }
}
