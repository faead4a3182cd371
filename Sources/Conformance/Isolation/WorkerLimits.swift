import Foundation

/// The limits a worker's cases and requests run under.
///
/// A case's CPU limit is a property of the case, never of what its worker met before: a
/// limit that grew with the slowest case seen so far judged `same-day-closing` · chinese ·
/// Asia/Chita 2014-10-24 (1.2 s of Foundation's own CPU) hung in a fresh worker and passed
/// in one that had met a slow case, so a single run and its shards disagreed. It is
/// `slowestFactor` times the slowest case the committed cost model met in the case's check
/// and calendar (`StepCosts.Rate.slowestCase`), at least `floorCPU`, at most
/// `caseCPU` (10 s: the limit every case had before, and what a case of a check the model
/// never timed gets). A systematic hang in a cheap check then costs 2 s a case instead of
/// 10, which is what keeps a hang storm within 3 × a clean run. A subject the model never
/// timed (a team's own, an executor) is limited by its own cases instead (`measured`):
/// `slowestFactor` times the slowest case of the check its workers have answered so far, in
/// the same bounds, so its first hang costs 2 s, not 10. `--case-timeout` (or
/// `CONFORMANCE_CASE_TIMEOUT`) sets every case's limit instead. A case may spend `wallFactor` times its CPU limit in
/// wall time (for a case that blocks).
///
/// A request may stay unanswered `jobFactor` times the longest request of its check, at
/// least `jobFloor` (the worker's own watchdog should answer long before: this only catches
/// a worker that cannot).
struct WorkerLimits: Sendable {
  /// The most CPU any case may spend; every case's, when `fixed`.
  var caseCPU: Double
  var fixed = false
  /// Where each case's limit comes from, when not `fixed`; `nil`: from the cases run so far
  /// (`measured`).
  var costs: StepCosts? = StepCosts.uniform
  /// Whether limits come from this run's own cases (a subject the model never timed).
  var measured: Bool { costs == nil }
  var wallFactor = 3.0
  var jobFloor: Double
  var jobFactor = 20.0
  static let defaultCaseCPU = 10.0
  /// The least CPU limit of a case: a calendar whose cases all take milliseconds keeps a margin
  /// for a fresh worker's first case, which loads Foundation's data (0.74 s for a `month-days`
  /// case whose step took 0.035 s in a warm worker), and for a slower machine. A debug build
  /// needs none of its own: the slow cases are Foundation's and ICU's time, prebuilt (the
  /// core corpus's ten steps with a case of 0.1 s or more: each as slow or slower in release).
  static let floorCPU = 2.0
  static let slowestFactor = 5.0
  /// Seconds a worker may take to load the corpus.
  var startup = 300.0
  private var slowestCase: [String: Double] = [:]
  private var longestJob: [String: Double] = [:]
  /// Per check, the least and most CPU limit its cases were given.
  private var given: [String: (least: Double, most: Double)] = [:]

  init(caseCPU: Double = WorkerLimits.defaultCaseCPU, fixed: Bool = false, costs: StepCosts? = .uniform,
       jobFloor: Double = 60) {
    self.caseCPU = caseCPU
    self.fixed = fixed
    self.costs = costs
    self.jobFloor = jobFloor
  }

  /// From `caseTimeout` (`--case-timeout`) or `CONFORMANCE_CASE_TIMEOUT` (every case's limit,
  /// CPU seconds) and `CONFORMANCE_STEP_TIMEOUT` (the request floor, seconds), or the
  /// model's limits (`costs`; `nil`: measured); a value that is not a positive number is bad
  /// input, not a silent default.
  static func fromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment, costs: StepCosts? = .uniform,
    caseTimeout: Double? = nil
  ) throws(InputError) -> WorkerLimits {
    func seconds(_ name: String) throws(InputError) -> Double? {
      guard let text = environment[name] else { return nil }
      guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
        throw InputError("\(name)=\(text): expected a positive number of seconds")
      }
      return seconds
    }
    if let caseTimeout, !(caseTimeout > 0 && caseTimeout.isFinite) {
      throw InputError("--case-timeout \(caseTimeout): expected a positive number of seconds")
    }
    var fixed = caseTimeout
    if fixed == nil { fixed = try seconds("CONFORMANCE_CASE_TIMEOUT") }
    return WorkerLimits(caseCPU: fixed ?? defaultCaseCPU, fixed: fixed != nil, costs: costs,
                        jobFloor: try seconds("CONFORMANCE_STEP_TIMEOUT") ?? 60)
  }

  /// The limit of every case of `check` in `calendar`: the same in every run and every shard,
  /// whatever its worker evaluated before or the run selected.
  func caseLimit(check: String, calendar: String?) -> CaseLimit {
    var cpu = caseCPU
    let slowest: Double? = if let costs { costs.slowestCase(check: check, calendar: calendar) }
      else { slowestCase[check, default: 0] }
    if !fixed, let slowest {
      cpu = min(caseCPU, max(Self.floorCPU, Self.slowestFactor * slowest))
    }
    return CaseLimit(cpu: cpu, wall: wallFactor * cpu)
  }

  /// The least CPU limit of a case after a worker's first, for a subject the model never timed
  /// (`measured`): its first case loads Foundation's data, which the 2 s floor is for; a
  /// warm worker's case of a date picker's function takes milliseconds, so a loop costs
  /// half a second, not two.
  static let warmFloorCPU = 0.5

  /// The limit of a case of `check` after a worker's first, when it is not `caseLimit`'s:
  /// measured limits only (`warmFloorCPU`), never a fixed or modelled one.
  func warmLimit(check: String) -> CaseLimit? {
    guard measured, !fixed else { return nil }
    let cpu = min(caseCPU, max(Self.warmFloorCPU, Self.slowestFactor * slowestCase[check, default: 0]))
    return CaseLimit(cpu: cpu, wall: wallFactor * cpu)
  }

  /// The most any case may have: what a request's limit leaves room for.
  var ceiling: CaseLimit { CaseLimit(cpu: caseCPU, wall: wallFactor * caseCPU) }

  func jobLimit(_ check: String) -> Double {
    max(jobFloor, jobFactor * longestJob[check, default: 0], 2 * ceiling.wall + 10)
  }

  /// Notes the limit a case of `check` was given, for `run.isolation`.
  mutating func gave(_ limit: CaseLimit, check: String) {
    let known = given[check] ?? (limit.cpu, limit.cpu)
    given[check] = (min(known.least, limit.cpu), max(known.most, limit.cpu))
  }

  mutating func observe(_ check: String, slowestCaseCPU: Double, jobSeconds: Double) {
    slowestCase[check] = max(slowestCase[check, default: 0], slowestCaseCPU)
    longestJob[check] = max(longestJob[check, default: 0], jobSeconds)
  }

  /// How far a storm's trip reaches, as the rule says it.
  private static func storm(_ breaker: Breaker) -> String {
    "the whole calendar in a storm, and the whole check once \(breaker.threshold) of its calendars "
      + "trip so and none of its cases completed"
  }

  /// The limits each check's cases were given, for `results.json`.
  func summary(checks: [String], breaker: Breaker) -> IsolationSummary {
    IsolationSummary(
      rule: fixed
        ? "a case may spend \(Self.number(caseCPU)) s of CPU (--case-timeout) and "
          + "\(Self.number(wallFactor)) × that in wall time; the breaker trips after \(breaker.threshold) faults in a row in "
          + "one zone of a check and calendar (\(Self.storm(breaker)))"
        : "a case may spend \(Self.number(Self.slowestFactor)) × the CPU of the slowest case of its check "
          + (measured ? "this run's workers answered before it (\(Self.number(Self.floorCPU)) to \(Self.number(caseCPU)) s; "
            + "at least \(Self.number(Self.warmFloorCPU)) s after a worker's first case), "
            : "and calendar in the cost model (\(Self.number(Self.floorCPU)) to \(Self.number(caseCPU)) s), "
              + "whatever ran before it, ")
          + "and \(Self.number(wallFactor)) × that in wall time; the breaker trips after "
          + "\(breaker.threshold) faults in a row in one zone of a check and calendar (\(Self.storm(breaker)))",
      checks: checks.map { check in
        let limits = given[check] ?? (ceiling.cpu, ceiling.cpu)
        var entry = IsolationSummary.CheckLimits(
          check: check, slowestCaseCPUSeconds: slowestCase[check, default: 0],
          caseCPULimitSeconds: limits.most, caseWallLimitSeconds: wallFactor * limits.most,
          requestLimitSeconds: jobLimit(check))
        entry.leastCaseCPULimitSeconds = limits.least
        return entry
      },
      breakerThreshold: breaker.threshold,
      trips: breaker.trips.sorted { $0.group < $1.group })
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%.2g", value)
  }
}
