import Foundation

/// How an isolated run limited its workers, and what the breaker stopped: `run.isolation`
/// in `results.json`.
package struct IsolationSummary: Codable, Sendable, Equatable {
  package struct CheckLimits: Codable, Sendable, Equatable {
    package var check: String
    package var slowestCaseCPUSeconds: Double
    /// The most CPU (and wall time) a case of the check was given.
    package var caseCPULimitSeconds: Double
    package var caseWallLimitSeconds: Double
    /// The least CPU a case of the check was given (absent before limits differed by calendar).
    package var leastCaseCPULimitSeconds: Double?
    package var requestLimitSeconds: Double
  }

  package var rule: String
  package var checks: [CheckLimits]
  package var breakerThreshold: Int
  var trips: [Breaker.Trip]

  /// Cases the breaker did not run, in every group.
  var notRun: Int { trips.reduce(0) { $0 + $1.notRun } }

  /// A merged night's, from its shards': each check's slowest case and request limit the
  /// largest of any shard (the limit grows with the longest request, as in one run), and
  /// every shard's trips, a group that tripped in several shards once, its faults and cases
  /// not run added up (each shard learns a systematic fault alone). The first shard's alone
  /// was what a merge wrote before: another shard's slowest case and trips were lost.
  static func merged(_ shards: [IsolationSummary]) -> IsolationSummary? {
    guard var night = shards.first else { return nil }
    for shard in shards.dropFirst() {
      for limits in shard.checks {
        guard let at = night.checks.firstIndex(where: { $0.check == limits.check }) else {
          night.checks.append(limits)
          continue
        }
        var check = night.checks[at]
        check.slowestCaseCPUSeconds = max(check.slowestCaseCPUSeconds, limits.slowestCaseCPUSeconds)
        check.requestLimitSeconds = max(check.requestLimitSeconds, limits.requestLimitSeconds)
        check.caseCPULimitSeconds = max(check.caseCPULimitSeconds, limits.caseCPULimitSeconds)
        check.caseWallLimitSeconds = max(check.caseWallLimitSeconds, limits.caseWallLimitSeconds)
        if let least = limits.leastCaseCPULimitSeconds {
          check.leastCaseCPULimitSeconds = min(check.leastCaseCPULimitSeconds ?? least, least)
        }
        night.checks[at] = check
      }
      for trip in shard.trips {
        guard let at = night.trips.firstIndex(where: { $0.group == trip.group && $0.signature == trip.signature }) else {
          night.trips.append(trip)
          continue
        }
        night.trips[at].faults += trip.faults
        night.trips[at].notRun += trip.notRun
      }
    }
    night.trips.sort { ($0.group, $0.signature) < ($1.group, $1.signature) }
    return night
  }
}
