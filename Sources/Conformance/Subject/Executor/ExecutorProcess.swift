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

  private let process: ChildProcess
  /// What the executor wrote to stderr (the head and the last 4 KB).
  let stderr: Tail
  private var closed = false

  /// Called at least once a second while an exchange waits on an executor (a worker tells
  /// its parent it is alive: a batch of questions may outlast the parent's request limit
  /// while the executor answers within its own).
  static let whileWaiting = Mutex<(@Sendable () -> Void)?>(nil)

  /// Starts the command.
  ///
  /// - Throws: `InputError` when it cannot be started at all.
  init(command: String) throws(InputError) {
    do {
      process = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", command],
                                 input: true, output: .lines, errors: true)
    } catch {
      throw InputError("--subject exec: '\(command)' could not be started: \(error)")
    }
    stderr = process.stderr ?? Tail()
    process.writeWithoutBlocking()
    // An interrupted run ends its executors too: one spinning in a loop never reads the
    // end of its stdin.
    let group = process.pid
    interruption = Interruption.register { if group > 0 { kill(-group, SIGKILL) } }
  }

  private var interruption: Int?

  deinit { close() }

  /// Writes `text` (lines, each ending in a newline) and hands every line read back to
  /// `line` until it returns `true`. `idle` is how long the executor may go without writing
  /// a line while something is still unanswered.
  func exchange(_ text: [UInt8], idle: Double, line: ([UInt8]) -> Bool) -> End {
    var sent = 0
    let waiting = Self.whileWaiting.withLock { $0 }
    process.dropTaken()
    while true {
      switch process.nextLine(by: ContinuousClock.now + .seconds(idle), sending: text, sent: &sent,
                              waiting: waiting) {
      case .line(let range):
        if line(Array(process.buffer[range])) { return .answered }
      case .closed:
        // Any whole line it wrote before its stdout ended has been handed over.
        return .ended(exitKind())
      case .timedOut:
        killGroup()
        return .silent(seconds: idle)
      }
    }
  }

  /// Closes its stdin (the protocol's end), gives it a moment, then kills it.
  func close() {
    guard !closed else { return }
    closed = true
    if let interruption { Interruption.unregister(interruption) }
    process.closeInput()
    if !process.awaitExit(within: 2, every: 0.002) { killGroup() }
    process.waitUntilExit()
    process.release()
  }

  /// Kills the executor and whatever its shell started, as a group.
  func killGroup() { process.killGroup() }

  /// How the executor ended, once its stdout closed.
  private func exitKind() -> ExecutorFault.Kind {
    // stdout can close before the process is reaped; a process that closed it and lives on
    // is told to end.
    if !process.awaitExit(within: 2, every: 0.001) { killGroup() }
    let exit = process.waitUntilExit()
    // Give the stderr reader a moment to deliver the last words.
    usleep(5_000)
    switch exit {
    case .signal(let signal): return .signal(ChildProcess.signalName(signal))
    case .exited(let status): return .exited(status)
    }
  }
}
