import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM during a run: workers stop taking steps (and are killed, hung or not),
/// the run throws `Interrupted`, its staging directory is removed, and the previous reports
/// stay as they were.
///
/// Whatever the run is doing (a thread spinning in the subject in-process, a long write),
/// the process ends within `deadline` of the signal: then the registered cleanups run (the
/// staging directory goes) and it exits 128 + the signal. A commit's renames are a critical
/// section the forced exit waits for.
package enum Interruption {
  private static let signal = Atomic<Int32>(0)
  private struct Registry {
    var cancellations: [Int: @Sendable () -> Void] = [:]
    var cleanups: [String: @Sendable () -> Void] = [:]
    var nextToken = 0
    /// Kept alive for the process: a released source stops delivering.
    var sources: [any DispatchSourceSignal] = []
  }

  private static let registry = Mutex(Registry())

  /// The signal that interrupted the run, or 0.
  package static var received: Int32 { signal.load(ordering: .relaxed) }

  /// Routes SIGINT and SIGTERM to `request` instead of ending the process at once (once per
  /// process: a test process sweeps many times).
  package static func install() {
    registry.withLock { registry in
      guard registry.sources.isEmpty else { return }
      for number in [SIGINT, SIGTERM] {
        Foundation.signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { request(number) }
        source.resume()
        registry.sources.append(source)
      }
    }
  }

  /// Seconds between the signal and the forced exit.
  static let deadline = 1.5

  /// Held by a commit's renames and by the forced exit.
  private static let exitLock = Mutex(())

  /// Marks the run interrupted, cancels what is running, and arms the forced exit.
  package static func request(_ number: Int32) {
    let first = signal.exchange(number, ordering: .relaxed) == 0
    let pending = registry.withLock { Array($0.cancellations.values) }
    for cancel in pending { cancel() }
    guard first else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { forceExit(number) }
  }

  /// The run did not unwind in time: removes what it staged and exits.
  private static func forceExit(_ number: Int32) -> Never {
    exitLock.withLock { _ in
      let cleanups = registry.withLock { Array($0.cleanups.values) }
      for cleanup in cleanups { cleanup() }
      let message = "Error: \(Interrupted(signal: number).description)\n"
      FileHandle.standardError.write(Data(message.utf8))
      _exit(128 + number)
    }
  }

  /// Runs `body` (a run), interrupting it as SIGTERM does if this process's parent goes: a
  /// test binary whose `swift test` was killed is not killed with it (SwiftPM does not pass
  /// the signal on), and would sweep on, unread, with its workers.
  package static func whileParentLives<T>(_ body: () throws -> T) rethrows -> T {
    let (parent, flag) = (getppid(), DoneFlag())
    let watch = Thread {
      while !flag.done.load(ordering: .relaxed) {
        usleep(200_000)
        if getppid() != parent {
          request(SIGTERM)
          return
        }
      }
    }
    watch.start()
    defer { flag.done.store(true, ordering: .relaxed) }
    return try body()
  }

  /// Registers what a forced exit must undo, under `key` (a staging directory's path).
  static func registerCleanup(_ key: String, _ cleanup: @escaping @Sendable () -> Void) {
    registry.withLock { $0.cleanups[key] = cleanup }
  }

  static func unregisterCleanup(_ key: String) {
    registry.withLock { _ = $0.cleanups.removeValue(forKey: key) }
  }

  /// Runs `body` (a commit's renames) so that a forced exit neither interrupts it nor runs
  /// while it does.
  static func critical<T>(_ body: () throws -> T) rethrows -> T {
    try exitLock.withLock { _ in try body() }
  }

  /// Registers work to cancel on interruption; returns a token for `unregister`.
  static func register(_ cancel: @escaping @Sendable () -> Void) -> Int {
    let token = registry.withLock { registry in
      registry.nextToken += 1
      registry.cancellations[registry.nextToken] = cancel
      return registry.nextToken
    }
    // A signal that came first: cancel at once (outside the lock: `cancel` may take others).
    if received != 0 { cancel() }
    return token
  }

  static func unregister(_ token: Int) {
    registry.withLock { _ = $0.cancellations.removeValue(forKey: token) }
  }

  /// Throws `Interrupted` when a signal arrived.
  static func check() throws(Interrupted) {
    let number = received
    if number != 0 { throw Interrupted(signal: number) }
  }
}

/// The run was interrupted by a signal; nothing was written under the final name, and what
/// it had, when it got that far, is a partial report (`partial`).
package struct Interrupted: Error, CustomStringConvertible, Sendable {
  package var signal: Int32
  /// The partial report, marked incomplete: the cases that ran before the signal.
  package var partial: URL?
  package var casesRun = 0

  package init(signal: Int32, partial: URL? = nil, casesRun: Int = 0) {
    (self.signal, self.partial, self.casesRun) = (signal, partial, casesRun)
  }

  package var name: String { signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)" }
  package var description: String {
    guard let partial else {
      return "interrupted by \(name): no report written, the previous reports are as they were"
    }
    return "interrupted by \(name): the \(CountText.number(casesRun)) cases that ran are in \(partial.path), "
      + "a partial report marked incomplete; the previous reports are as they were"
  }
}

/// Set once a watched run is over (`Interruption.whileParentLives`).
private final class DoneFlag: Sendable {
  let done = Atomic<Bool>(false)
}
