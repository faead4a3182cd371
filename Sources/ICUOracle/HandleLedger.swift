import Synchronization

/// Counts the ICU handles opened and closed while it is the current ledger, so a test can
/// prove that its own handles were closed exactly once even while other tests run.
public final class HandleLedger: Sendable {
  private let openedCount = Atomic<Int>(0)
  private let closedCount = Atomic<Int>(0)

  public init() {}

  /// Handles opened while this ledger was current.
  public var opened: Int { openedCount.load(ordering: .relaxed) }
  /// Of those, how many have been closed.
  public var closed: Int { closedCount.load(ordering: .relaxed) }

  /// The ledger new handles report to, if any (set with `$current.withValue`).
  @TaskLocal public static var current: HandleLedger?

  func didOpen() { openedCount.wrappingAdd(1, ordering: .relaxed) }
  func didClose() { closedCount.wrappingAdd(1, ordering: .relaxed) }
}
