import Synchronization

/// What the code a case runs tells the case's watchdog of work that is not the case's own: a
/// diagnosis, which has a limit of its own, and work for the whole process, which is off the
/// case's clock. The watchdog (a worker's `CaseWatch`) is installed when it starts; with
/// none (in process, in explain) both only run their body.
enum CaseClock {
  /// A case's watchdog, as the code under it sees it.
  protocol Watch: Sendable {
    func diagnosing<T>(_ body: () -> T) -> T
    func offTheClock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T
  }

  private static let installed = Mutex<(any Watch)?>(nil)

  /// Makes `watch` the one the process's cases are timed by.
  static func install(_ watch: any Watch) { installed.withLock { $0 = watch } }

  /// Runs `body`, the subject asked only to explain a difference already found, under the
  /// diagnosis's own limit.
  static func diagnosing<T>(_ body: () -> T) -> T {
    guard let watch = installed.withLock({ $0 }) else { return body() }
    return watch.diagnosing(body)
  }

  /// Runs `body`, work a case does for the whole process (reading a reference release on
  /// first use), off the case's clock.
  static func offTheClock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    guard let watch = installed.withLock({ $0 }) else { return try body() }
    return try watch.offTheClock(body)
  }
}
