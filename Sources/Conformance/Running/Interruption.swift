import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM during a run: workers stop taking steps, the run throws `Interrupted`,
/// its staging directory is removed, and the previous reports stay as they were.
public enum Interruption {
  private static let signal = Atomic<Int32>(0)
  private static let lock = NSLock()
  nonisolated(unsafe) private static var cancellations: [Int: @Sendable () -> Void] = [:]
  nonisolated(unsafe) private static var nextToken = 0
  nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

  /// The signal that interrupted the run, or 0.
  public static var received: Int32 { signal.load(ordering: .relaxed) }

  /// Routes SIGINT and SIGTERM to `request` instead of ending the process at once.
  public static func install() {
    for number in [SIGINT, SIGTERM] {
      Foundation.signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { request(number) }
      source.resume()
      sources.append(source)
    }
  }

  /// Marks the run interrupted and cancels what is running.
  public static func request(_ number: Int32) {
    signal.store(number, ordering: .relaxed)
    lock.lock()
    let pending = Array(cancellations.values)
    lock.unlock()
    for cancel in pending { cancel() }
  }

  /// Registers work to cancel on interruption; returns a token for `unregister`.
  static func register(_ cancel: @escaping @Sendable () -> Void) -> Int {
    lock.lock()
    defer { lock.unlock() }
    nextToken += 1
    cancellations[nextToken] = cancel
    if received != 0 { cancel() }
    return nextToken
  }

  static func unregister(_ token: Int) {
    lock.lock()
    cancellations[token] = nil
    lock.unlock()
  }

  /// Throws `Interrupted` when a signal arrived.
  static func check() throws(Interrupted) {
    let number = received
    if number != 0 { throw Interrupted(signal: number) }
  }
}

/// The run was interrupted by a signal; nothing was written under the final name.
public struct Interrupted: Error, CustomStringConvertible, Sendable {
  public var signal: Int32
  public var name: String { signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)" }
  public var description: String {
    "interrupted by \(name): no report written, the previous reports are as they were"
  }
}
