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
/// cost `threshold` timeouts per calendar. When one signature has tripped `threshold` whole
/// groups of a check and no case of the check has completed anywhere, the whole check trips:
/// every case it ran faulted alike, and a hang would otherwise cost a timeout in each of its
/// calendars.
///
/// An executor's questions go through the same breaker (`ExecutorClient`): a group is one
/// function in one calendar and zone, without zones of its own, so it trips after
/// `threshold` faults in a row, or at the first fault of a signature that tripped the
/// function elsewhere; `probe` then lets one question of each new group go first, alone.
struct Breaker: Sendable {
  /// Where faults are counted together: a check (or an executor's function) in one calendar,
  /// and for an executor's questions in one zone too.
  struct Group: Hashable, Sendable, CustomStringConvertible {
    var check: String
    var calendar: String?
    var zone: String?

    /// As reports name it: `check · calendar` (`· zone` for an executor's).
    var description: String { ([check] + [calendar, zone].compactMap { $0 }).joined(separator: " · ") }
  }

  /// A group, or one zone of it: where a streak of faults is counted and a trip holds.
  private struct Place: Hashable, Sendable, CustomStringConvertible {
    var group: Group
    var zone: String?

    var description: String { zone.map { "\(group) · \($0)" } ?? group.description }
  }

  /// A tripped group, as `results.json` lists it.
  struct Trip: Codable, Sendable, Equatable {
    /// The group, or the zone of it, that tripped, as reports name it.
    var group: String
    var signature: String
    /// The faults in a row that tripped it: `threshold`, or 1 when the signature had
    /// tripped another group of the check first.
    var faults: Int
    /// Cases of the group reported "not run".
    var notRun = 0
    /// For a trip of a whole check: the groups (calendars) the signature tripped first.
    var groups: Int? = nil

    /// The check of the group (its first part: check ids hold no " · "). A trip read back
    /// from `results.json` (a shard's) knows its group by name only.
    var check: String {
      group.firstRange(of: " · ").map { String(group[..<$0.lowerBound]) } ?? group
    }

    /// Why a case of the group was not run, for its detail.
    var reason: String {
      if let groups {
        return "not run: the subject faulted with \(signature) in \(groups) calendars of \(group), "
          + "and no case of the check completed (the breaker)"
      }
      return faults == 1
        ? "not run: the subject faulted in \(group) with \(signature), which had faulted "
          + "systematically elsewhere in this check (the breaker)"
        : "not run: the subject faulted on \(faults) cases of \(group) in a row with "
          + "\(signature) (the breaker)"
    }
  }

  let threshold: Int
  private var streaks: [Place: (signature: String, count: Int)] = [:]
  /// Per check, each tripping signature and whether it tripped a whole group (all zones).
  private var trippingSignatures: [String: [String: Bool]] = [:]
  /// Per group and signature, the zones it tripped.
  private var trippedZones: [Group: [String: Set<String>]] = [:]
  /// Per group, the zones where a case completed: proof that a fault is the zones' own.
  private var completedZones: [Group: Set<String>] = [:]
  /// Checks where a case completed, in any group: proof that a fault is not the whole check's.
  private var completedChecks: Set<String> = []
  /// Per check and signature, the groups it tripped whole.
  private var wholeGroups: [String: [String: Set<Group>]] = [:]
  private var tripped: [Place: Trip] = [:]
  /// Groups that have sent a question alone since a signature of their check tripped
  /// elsewhere (`probe`).
  private var probed: Set<Group> = []

  /// Every trip, as `results.json` lists them.
  var trips: [Trip] { Array(tripped.values) }

  init(threshold: Int = 3) {
    self.threshold = max(1, threshold)
  }

  /// A case of `group` (in `zone`) completed: the faults before it were not in a row.
  mutating func completed(_ group: Group, zone: String? = nil) {
    streaks[Place(group: group, zone: zone)] = nil
    completedChecks.insert(group.check)
    if let zone { completedZones[group, default: []].insert(zone) }
  }

  /// Counts a fault of a case of `group` in `zone`; returns the trip that covers it, now or
  /// before.
  @discardableResult
  mutating func faulted(_ group: Group, zone: String? = nil, signature: String) -> Trip? {
    if let trip = trip(group, zone: zone) { return trip }
    let place = Place(group: group, zone: zone)
    var streak = streaks[place].flatMap { $0.signature == signature ? $0 : nil } ?? (signature: signature, count: 0)
    streak.count += 1
    streaks[place] = streak
    let known = trippingSignatures[group.check]?[signature]
    guard streak.count >= threshold || known != nil else { return nil }
    var zones = trippedZones[group, default: [:]][signature, default: []]
    if let zone { zones.insert(zone) }
    trippedZones[group, default: [:]][signature] = zones
    // The whole group: no zones, or none that completed and the signature systematic (whole
    // groups before, or a second zone here).
    let whole = zone == nil
      || (completedZones[group, default: []].isEmpty && (known == true || zones.count >= 2))
    let at = whole ? Place(group: group, zone: nil) : place
    var trip = Trip(group: at.description, signature: signature, faults: streak.count)
    if whole {
      // The group's trip takes over its zones' (one trip per group in the reports).
      for zone in zones {
        guard let zoneTrip = tripped.removeValue(forKey: Place(group: group, zone: zone)) else { continue }
        trip.faults += zoneTrip.faults
        trip.notRun += zoneTrip.notRun
      }
    }
    tripped[at] = trip
    trippingSignatures[group.check, default: [:]][signature] = whole || known == true
    if whole { tripCheck(group, signature: signature) }
    return trip
  }

  /// The whole check of `group`, when `signature` has tripped `threshold` of its groups whole
  /// and none of its cases has completed.
  private mutating func tripCheck(_ group: Group, signature: String) {
    let check = Place(group: Group(check: group.check), zone: nil)
    guard check.group != group, tripped[check] == nil, !completedChecks.contains(group.check) else { return }
    wholeGroups[group.check, default: [:]][signature, default: []].insert(group)
    let groups = wholeGroups[group.check]?[signature] ?? []
    guard groups.count >= threshold else { return }
    let faults = groups.reduce(0) { $0 + (tripped[Place(group: $1, zone: nil)]?.faults ?? 0) }
    tripped[check] = Trip(group: group.check, signature: signature, faults: faults, groups: groups.count)
  }

  /// The trip that covers `group` in `zone`: the group's, or that zone's.
  func trip(_ group: Group, zone: String? = nil) -> Trip? {
    covering(group, zone: zone).flatMap { tripped[$0] }
  }

  /// Where the trip that covers `group` in `zone` holds: the group, or that zone.
  private func covering(_ group: Group, zone: String?) -> Place? {
    let whole = Place(group: group, zone: nil)
    if tripped[whole] != nil { return whole }
    let check = Place(group: Group(check: group.check), zone: nil)
    if tripped[check] != nil { return check }
    return zone.map { Place(group: group, zone: $0) }.flatMap { tripped[$0] == nil ? nil : $0 }
  }

  /// Counts cases of `group` in `zone` reported not run, in the trip that covers them now:
  /// a zone's trip that the whole group's took over since (its cases were queued first)
  /// counts in the group's, or they were lost from `run.isolation`.
  mutating func notRun(_ group: Group, zone: String? = nil, count: Int) {
    guard let place = covering(group, zone: zone) else { return }
    tripped[place]?.notRun += count
  }


  /// Whether the next question of `group` must go alone: a signature of its check tripped
  /// elsewhere, and none of its questions has faulted, been stopped or gone alone yet (if it
  /// meets the same fault, the group trips at once and the rest are not asked).
  func probe(_ group: Group) -> Bool {
    guard trippingSignatures[group.check]?.isEmpty == false else { return false }
    let place = Place(group: group, zone: nil)
    return tripped[place] == nil && streaks[place] == nil && !probed.contains(group)
  }

  /// A question of `group` went alone: whatever it met, the next go together.
  mutating func probed(_ group: Group) { probed.insert(group) }
}
