import Foundation

/// The limits a worker's cases and requests run under. A case may spend `caseCPU` seconds of
/// CPU (10, or `CONFORMANCE_CASE_TIMEOUT`) and `wallFactor` times that in wall time (for a
/// case that blocks), whatever ran before it: a limit that grew with the slowest case seen
/// so far judged `same-day-closing` · chinese · Asia/Chita 2014-10-24 (1.2 s of Foundation's
/// own CPU) hung in a fresh worker and passed in one that had met a slow case, so a single
/// run and its shards disagreed. The full sweep's slowest case that finishes is a
/// `range-roles` one of 2.0 s (`run.isolation` of its 8 shards), a fifth of the limit.
/// A request may stay unanswered `jobFactor` times the longest request of its check, at
/// least `jobFloor` (the worker's own watchdog should answer long before: this only catches
/// a worker that cannot).
struct WorkerLimits: Sendable {
  var caseCPU: Double
  var wallFactor = 3.0
  var jobFloor: Double
  var jobFactor = 20.0
  static let defaultCaseCPU = 10.0
  /// Seconds a worker may take to load the corpus.
  var startup = 300.0
  private var slowestCase: [String: Double] = [:]
  private var longestJob: [String: Double] = [:]

  init(caseCPU: Double = WorkerLimits.defaultCaseCPU, jobFloor: Double = 60) {
    self.caseCPU = caseCPU
    self.jobFloor = jobFloor
  }

  /// From `CONFORMANCE_CASE_TIMEOUT` (the case floor, CPU seconds) and
  /// `CONFORMANCE_STEP_TIMEOUT` (the request floor, seconds), or defaults; a value that is
  /// not a positive number is bad input, not a silent default.
  static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(InputError) -> WorkerLimits {
    func seconds(_ name: String, default value: Double) throws(InputError) -> Double {
      guard let text = environment[name] else { return value }
      guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
        throw InputError("\(name)=\(text): expected a positive number of seconds")
      }
      return seconds
    }
    return WorkerLimits(caseCPU: try seconds("CONFORMANCE_CASE_TIMEOUT", default: defaultCaseCPU),
                        jobFloor: try seconds("CONFORMANCE_STEP_TIMEOUT", default: 60))
  }

  /// The same for every case of every check: a verdict must not depend on what its worker
  /// happened to evaluate before.
  var caseLimit: CaseLimit { CaseLimit(cpu: caseCPU, wall: wallFactor * caseCPU) }

  func jobLimit(_ check: String) -> Double {
    max(jobFloor, jobFactor * longestJob[check, default: 0], 2 * caseLimit.wall + 10)
  }

  mutating func observe(_ check: String, slowestCaseCPU: Double, jobSeconds: Double) {
    slowestCase[check] = max(slowestCase[check, default: 0], slowestCaseCPU)
    longestJob[check] = max(longestJob[check, default: 0], jobSeconds)
  }

  /// The limits each check ended the run with, for `results.json`.
  func summary(checks: [String], breaker: Breaker) -> IsolationSummary {
    IsolationSummary(
      rule: "a case may spend \(Self.number(caseCPU)) s of CPU and \(Self.number(wallFactor)) × "
        + "that in wall time, whatever ran before it; the breaker trips after \(breaker.threshold) faults in a row in "
        + "one zone of a check and calendar (the whole calendar in a storm)",
      checks: checks.map { check in
        let limit = caseLimit
        return IsolationSummary.CheckLimits(
          check: check, slowestCaseCPUSeconds: slowestCase[check, default: 0],
          caseCPULimitSeconds: limit.cpu, caseWallLimitSeconds: limit.wall,
          requestLimitSeconds: jobLimit(check))
      },
      breakerThreshold: breaker.threshold,
      trips: breaker.trips.values.sorted { $0.group < $1.group })
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%.2g", value)
  }
}

/// How an isolated run limited its workers, and what the breaker stopped: `run.isolation`
/// in `results.json`.
public struct IsolationSummary: Codable, Sendable, Equatable {
  public struct CheckLimits: Codable, Sendable, Equatable {
    public var check: String
    public var slowestCaseCPUSeconds: Double
    public var caseCPULimitSeconds: Double
    public var caseWallLimitSeconds: Double
    public var requestLimitSeconds: Double
  }

  public var rule: String
  public var checks: [CheckLimits]
  public var breakerThreshold: Int
  var trips: [Breaker.Trip]

  /// Cases the breaker did not run, in every group.
  var notRun: Int { trips.reduce(0) { $0 + $1.notRun } }

  /// Per check and signature, the cases not run and the groups that tripped: what a failure
  /// cluster of that check and pattern (the fault's signature) can say of its cases. A
  /// cluster's own cases are not told apart by the case lines a merge reads (pattern and
  /// verdict are the same whether a case faulted or was not run), so the page says it of
  /// the check's cases with that fault, which is exact.
  var notRunBySignature: [BreakerKey: (cases: Int, trips: Int)] {
    var counts: [BreakerKey: (cases: Int, trips: Int)] = [:]
    for trip in trips {
      let key = BreakerKey(check: trip.check, signature: trip.signature)
      counts[key, default: (0, 0)].cases += trip.notRun
      counts[key, default: (0, 0)].trips += 1
    }
    return counts
  }

  struct BreakerKey: Hashable {
    var check: String
    var signature: String
  }

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
