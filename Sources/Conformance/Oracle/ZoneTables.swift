import ICUOracle
import Synchronization

/// The corpus's zone tables (tables mode), each read from libicu the first time a session
/// asks for its zone.
///
/// Reading all of them took ~30 % of a process's start (~0.13 CPU-s of a full sweep's 0.42),
/// paid by the parent, which evaluates nothing, and by every worker, including each one that
/// replaces a crashed worker (a full sweep's shard replaces ~15) and asks about a few zones
/// before the breaker stops its group. A table is the same whenever it is read.
package final class ZoneTables: Sendable {
  /// The zones the corpus holds; a table is read only for one of them.
  package let zones: Set<String>
  /// The local days each table spans.
  package let days: ClosedRange<LocalDay>
  private let read = Mutex<[String: ZoneTable]>([:])

  package init(zones: some Sequence<String>, days: ClosedRange<LocalDay>) {
    self.zones = Set(zones)
    self.days = days
  }

  /// The zone's table, read now if no session asked for it before; `nil` for a zone the
  /// corpus does not hold (a session then asks libicu directly, as in direct mode).
  ///
  /// - Throws: `ICUError` when libicu cannot read the zone (the case that asked errors).
  package func table(_ zone: String) throws(ICUError) -> ZoneTable? {
    guard zones.contains(zone) else { return nil }
    if let table = read.withLock({ $0[zone] }) { return table }
    // Read outside the lock: another zone's session need not wait. Two sessions asking for
    // the same zone at once both read it, and keep the first.
    let table = try ZoneTable(zone: zone, days: days)
    return read.withLock { tables in
      if let first = tables[zone] { return first }
      tables[zone] = table
      return table
    }
  }

  /// How many tables have been read so far.
  package var readCount: Int { read.withLock { $0.count } }
}
