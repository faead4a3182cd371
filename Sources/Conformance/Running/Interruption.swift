import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM during a run: workers stop taking steps, the run throws `Interrupted`,
/// its staging directory is removed, and the previous reports stay as they were.
public enum Interruption {
  private static let signal = Atomic<Int32>(0)
  private struct Registry {
    var cancellations: [Int: @Sendable () -> Void] = [:]
    var nextToken = 0
    /// Kept alive for the process: a released source stops delivering.
    var sources: [any DispatchSourceSignal] = []
  }

  private static let registry = Mutex(Registry())

  /// The signal that interrupted the run, or 0.
  public static var received: Int32 { signal.load(ordering: .relaxed) }

  /// Routes SIGINT and SIGTERM to `request` instead of ending the process at once.
  public static func install() {
    registry.withLock { registry in
      for number in [SIGINT, SIGTERM] {
        Foundation.signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { request(number) }
        source.resume()
        registry.sources.append(source)
      }
    }
  }

  /// Marks the run interrupted and cancels what is running.
  public static func request(_ number: Int32) {
    signal.store(number, ordering: .relaxed)
    let pending = registry.withLock { Array($0.cancellations.values) }
    for cancel in pending { cancel() }
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

/// The run was interrupted by a signal; nothing was written under the final name.
public struct Interrupted: Error, CustomStringConvertible, Sendable {
  public var signal: Int32
  public var name: String { signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)" }
  public var description: String {
    "interrupted by \(name): no report written, the previous reports are as they were"
  }
}
