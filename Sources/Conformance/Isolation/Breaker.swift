/// Stops paying a worker process or a timeout per case when a fault is systematic.
///
/// A group is one check in one calendar (the whole check when it has none): narrow enough
/// that the real `week-of-year` hang of Hebrew leaves every other calendar's cases alone.
/// Faults are counted per zone of the group: when `threshold` cases of one zone fault in a
/// row with the same signature (no case there completing in between), that zone of the
/// group trips, and its cases not yet run are reported errored with the signature as their
/// pattern and "not run" in their detail. The whole group trips only while none of its
/// zones has completed a case and the signature trips a second zone: a fault of some zones
/// (Foundation's `DateFormatter` traps in the legacy `SystemV/AST4ADT` and
/// `SystemV/CST6CDT`) must not cost the hundreds of zones where the function works. A
/// signature that tripped before, in this group or another of the check, trips at its
/// first fault there (the zone, or the whole group when it has no completed zone): the
/// function is known to fault systematically, and a hang in every calendar would otherwise
/// cost `threshold` timeouts per calendar.
struct Breaker: Sendable {
  /// A tripped group, as `results.json` lists it.
  struct Trip: Codable, Sendable, Equatable {
    var group: String
    var signature: String
    /// The faults in a row that tripped it: `threshold`, or 1 when the signature had
    /// tripped another group of the check first.
    var faults: Int
    /// Cases of the group reported "not run".
    var notRun = 0

    /// The check of the group (its first part: check ids hold no " · ").
    var check: String {
      group.firstRange(of: " · ").map { String(group[..<$0.lowerBound]) } ?? group
    }

    /// Why a case of the group was not run, for its detail.
    var reason: String {
      faults == 1
        ? "not run: the subject faulted in \(group) with \(signature), which had faulted "
          + "systematically elsewhere in this check (the breaker)"
        : "not run: the subject faulted on \(faults) cases of \(group) in a row with "
          + "\(signature) (the breaker)"
    }
  }

  let threshold: Int
  private var streaks: [String: (signature: String, count: Int)] = [:]
  /// Per check, each tripping signature and whether it tripped a whole group (all zones).
  private var trippingSignatures: [String: [String: Bool]] = [:]
  /// Per group and signature, the zones it tripped.
  private var trippedZones: [String: [String: Set<String>]] = [:]
  /// Per group, the zones where a case completed: proof that a fault is the zones' own.
  private var completedZones: [String: Set<String>] = [:]
  private(set) var trips: [String: Trip] = [:]

  init(threshold: Int = 3) {
    self.threshold = max(1, threshold)
  }

  /// The group of a case or a step.
  static func group(_ id: CaseID) -> String {
    id.calendar.map { "\(id.check) · \($0)" } ?? id.check
  }

  /// The key of one zone of a group.
  static func zoneGroup(_ group: String, _ zone: String?) -> String {
    zone.map { "\(group) · \($0)" } ?? group
  }

  /// A case of `group` (in `zone`) completed: the faults before it were not in a row.
  mutating func completed(_ group: String, zone: String? = nil) {
    streaks[Self.zoneGroup(group, zone)] = nil
    if let zone { completedZones[group, default: []].insert(zone) }
  }

  /// Counts a fault of a case of `group` in `zone`; returns the trip that covers it, now or
  /// before.
  mutating func faulted(_ group: String, zone: String? = nil, check: String, signature: String) -> Trip? {
    if let trip = trip(group, zone: zone) { return trip }
    let key = Self.zoneGroup(group, zone)
    var streak = streaks[key].flatMap { $0.signature == signature ? $0 : nil } ?? (signature: signature, count: 0)
    streak.count += 1
    streaks[key] = streak
    let known = trippingSignatures[check]?[signature]
    guard streak.count >= threshold || known != nil else { return nil }
    var zones = trippedZones[group, default: [:]][signature, default: []]
    if let zone { zones.insert(zone) }
    trippedZones[group, default: [:]][signature] = zones
    // The whole group: no zones, or none that completed and the signature systematic (whole
    // groups before, or a second zone here).
    let whole = zone == nil
      || (completedZones[group, default: []].isEmpty && (known == true || zones.count >= 2))
    var trip = Trip(group: whole ? group : key, signature: signature, faults: streak.count)
    if whole {
      // The group's trip takes over its zones' (one trip per group in the reports).
      for zone in zones {
        guard let zoneTrip = trips.removeValue(forKey: Self.zoneGroup(group, zone)) else { continue }
        trip.faults += zoneTrip.faults
        trip.notRun += zoneTrip.notRun
      }
    }
    trips[trip.group] = trip
    trippingSignatures[check, default: [:]][signature] = whole || known == true
    return trip
  }

  /// The trip that covers `group` in `zone`: the group's, or that zone's.
  func trip(_ group: String, zone: String? = nil) -> Trip? {
    trips[group] ?? zone.flatMap { trips[Self.zoneGroup(group, $0)] }
  }

  /// Counts cases of `group` in `zone` reported not run, in the trip that covers them now:
  /// a zone's trip that the whole group's took over since (its cases were queued first)
  /// counts in the group's, or they were lost from `run.isolation`.
  mutating func notRun(_ group: String, zone: String? = nil, count: Int) {
    guard let covering = trip(group, zone: zone) else { return }
    trips[covering.group]?.notRun += count
  }
}
