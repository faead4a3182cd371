import Foundation
import Synchronization

/// One running executor (`/bin/sh -c <command>`) and its pipes: questions are written as
/// the pipe takes them while answers are read, in one `poll` loop, so a large batch never
/// deadlocks on two full pipes.
final class ExecutorProcess {
  /// How an exchange ended.
  enum End: Equatable {
    /// Every line the caller waited for arrived.
    case answered
    /// The executor ended (or closed its stdout) first.
    case ended(ExecutorFault.Kind)
    /// No line arrived for the idle limit; the executor was killed.
    case silent(seconds: Double)
  }

  private let process = Process()
  private let input: Int32
  private let output: Int32
  private let errors: FileHandle
  /// What the executor wrote to stderr (the head and the last 4 KB).
  let stderr = Tail()
  private var buffer: [UInt8] = []
  private var closed = false

  /// Called at least once a second while an exchange waits on an executor (a worker tells
  /// its parent it is alive: a batch of questions may outlast the parent's request limit
  /// while the executor answers within its own).
  static let whileWaiting = Mutex<(@Sendable () -> Void)?>(nil)

  /// Starts the command.
  ///
  /// - Throws: `InputError` when it cannot be started at all.
  init(command: String) throws(InputError) {
    // Made under the spawn lock: a child started meanwhile would keep them open.
    let (stdin, stdout, stderrPipe) = Spawn.serially { (Pipe(), Pipe(), Pipe()) }
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderrPipe
    input = stdin.fileHandleForWriting.fileDescriptor
    output = stdout.fileHandleForReading.fileDescriptor
    errors = stderrPipe.fileHandleForReading
    let tail = stderr
    errors.readabilityHandler = { handle in
      let data = handle.availableData
      if !data.isEmpty { tail.append(data) }
    }
    // A write to an executor that died must fail with EPIPE, not end this process.
    signal(SIGPIPE, SIG_IGN)
    do {
      let process = self.process
      try Spawn.serially { try process.run() }
    } catch {
      throw InputError("--subject exec: '\(command)' could not be started: \(error)")
    }
    // The descriptors are read and written raw (poll) but owned, and closed, by the pipes'
    // handles, which live as long as this.
    _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
    self.pipes = (stdin, stdout, stderrPipe)
    // An interrupted run ends its executors too: one spinning in a loop never reads the
    // end of its stdin.
    let group = process.processIdentifier
    interruption = Interruption.register { if group > 0 { kill(-group, SIGKILL) } }
  }

  private var interruption: Int?

  private var pipes: (Pipe, Pipe, Pipe)

  deinit { close() }

  /// Writes `text` (lines, each ending in a newline) and hands every line read back to
  /// `line` until it returns `true`. `idle` is how long the executor may go without writing
  /// a line while something is still unanswered.
  func exchange(_ text: [UInt8], idle: Double, line: ([UInt8]) -> Bool) -> End {
    var written = 0
    var deadline = ContinuousClock.now + .seconds(idle)
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let waiting = Self.whileWaiting.withLock { $0 }
    while true {
      while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let received = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        deadline = ContinuousClock.now + .seconds(idle)
        if line(received) { return .answered }
      }
      waiting?()
      let remaining = (deadline - ContinuousClock.now).seconds
      guard remaining > 0 else {
        killGroup()
        return .silent(seconds: idle)
      }
      var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
      if written < text.count { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
      let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1) * 1000) + 1)
      if ready < 0 && errno != EINTR { return .ended(exitKind()) }
      if fds.count > 1 && fds[1].revents != 0 {
        let count = text.withUnsafeBytes { bytes in
          Glibc.write(input, bytes.baseAddress! + written, text.count - written)
        }
        if count > 0 {
          written += count
        } else if count < 0 && errno != EAGAIN && errno != EINTR {
          // EPIPE: it stopped reading; what it wrote before ending is still read below.
          written = text.count
        }
      }
      if fds[0].revents != 0 {
        let count = Glibc.read(output, &chunk, chunk.count)
        if count > 0 {
          buffer.append(contentsOf: chunk[..<count])
        } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
          // End of its stdout: any complete line still buffered is an answer.
          while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let received = Array(buffer[..<newline])
            buffer.removeSubrange(...newline)
            if line(received) { return .answered }
          }
          return .ended(exitKind())
        }
      }
    }
  }

  /// Closes its stdin (the protocol's end), gives it a moment, then kills it.
  func close() {
    guard !closed else { return }
    closed = true
    if let interruption { Interruption.unregister(interruption) }
    // Through the handles that own them: a raw close left each handle to close its number
    // again when released, by then perhaps another thread's new pipe, whose Process.run then
    // died on EBADF (`try!` in FileHandle.closeFile()).
    try? pipes.0.fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(2)
    while process.isRunning && Date() < deadline { usleep(2_000) }
    if process.isRunning { killGroup() }
    process.waitUntilExit()
    errors.readabilityHandler = nil
    try? pipes.1.fileHandleForReading.close()
    try? errors.close()
  }

  /// Kills the executor and whatever its shell started: `Process` makes the child the leader
  /// of a process group of its own, so a pipeline (`tee q | python3 x.py`) goes as a whole.
  func killGroup() {
    let pid = process.processIdentifier
    if pid > 0 { kill(-pid, SIGKILL) }
  }

  /// How the executor ended, once its stdout closed.
  private func exitKind() -> ExecutorFault.Kind {
    // stdout can close before the process is reaped; a process that closed it and lives on
    // is told to end.
    let deadline = Date().addingTimeInterval(2)
    while process.isRunning && Date() < deadline { usleep(1_000) }
    if process.isRunning { killGroup() }
    process.waitUntilExit()
    // Give the stderr reader a moment to deliver the last words.
    usleep(5_000)
    if process.terminationReason == .uncaughtSignal {
      return .signal(WorkerProcess.signalName(process.terminationStatus))
    }
    return .exited(process.terminationStatus)
  }
}
