/// Stops paying a worker process or a timeout per case when a fault is systematic.
///
/// A group is one check in one calendar (the whole check when it has none): narrow enough
/// that the real `week-of-year` hang of Hebrew leaves every other calendar's cases alone.
/// When `threshold` cases of a group fault in a row with the same signature (no case of the
/// group completing in between), the group trips: its cases not yet run are reported
/// errored, "not run", with the signature. A signature that tripped one group of a check
/// trips another group of that check at its first fault there: the function is known to
/// fault systematically, and a hang in every calendar would otherwise cost `threshold`
/// timeouts per calendar.
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

    /// Why a case of the group was not run, for its detail.
    var reason: String {
      faults == 1
        ? "not run: the subject faulted here with \(signature), which had faulted "
          + "systematically in another calendar of this check (the breaker)"
        : "not run: the subject faulted on \(faults) cases of \(group) in a row with "
          + "\(signature) (the breaker)"
    }
  }

  let threshold: Int
  private var streaks: [String: (signature: String, count: Int)] = [:]
  private var trippingSignatures: [String: Set<String>] = [:]
  private(set) var trips: [String: Trip] = [:]

  init(threshold: Int = 3) {
    self.threshold = max(1, threshold)
  }

  /// The group of a case or a step.
  static func group(_ id: CaseID) -> String {
    id.calendar.map { "\(id.check) · \($0)" } ?? id.check
  }

  /// A case of `group` completed: the faults before it were not in a row.
  mutating func completed(_ group: String) {
    streaks[group] = nil
  }

  /// Counts a fault; returns the group's trip when it is tripped, now or before.
  mutating func faulted(_ group: String, check: String, signature: String) -> Trip? {
    if let trip = trips[group] { return trip }
    var streak = streaks[group].flatMap { $0.signature == signature ? $0 : nil } ?? (signature: signature, count: 0)
    streak.count += 1
    streaks[group] = streak
    let known = trippingSignatures[check, default: []].contains(signature)
    guard streak.count >= threshold || known else { return nil }
    let trip = Trip(group: group, signature: signature, faults: streak.count)
    trips[group] = trip
    trippingSignatures[check, default: []].insert(signature)
    return trip
  }

  func trip(_ group: String) -> Trip? { trips[group] }

  mutating func notRun(_ group: String, count: Int) {
    trips[group]?.notRun += count
  }
}
