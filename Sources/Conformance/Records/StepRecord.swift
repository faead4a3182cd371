import Foundation

/// One step of a run (one JUnit testcase, one unit of work): its counts, what its passing
/// cases contributed to the run's totals, and its cases that did not pass.
///
/// Every runner ends a step with one: the in-process threads, a worker process (a JSON line
/// per step on its stdout, then one per case) and `merge` (read back from a shard's `steps.jsonl.gz` and
/// `cases.jsonl.gz`). The tally aggregates steps only, so all three are counted alike.
package struct StepRecord: Sendable, Codable, Equatable {
  /// The step's place in the whole plan, the same in every shard.
  package var index: Int
  package var check: String
  /// The testcase name: the step's fixed dimension values.
  package var name: String
  /// The cases the step sweeps (`PlanStepSet.encode`): what a later run's baseline reads to
  /// tell a fixed case from one it no longer sweeps.
  package var plan: String
  package var counts: StatusCounts
  /// Seconds spent evaluating the step.
  package var seconds: Double
  /// CPU seconds of the thread that evaluated it (the benchmark's split).
  package var cpuSeconds = 0.0
  /// CPU seconds of its slowest case, as a worker's watchdog saw it (to within a poll, 20 ms;
  /// `nil` in process, or when no case lasted a poll): what `StepCosts` fits each check's and
  /// calendar's slowest case from, which case limits follow.
  package var slowestCaseCPUSeconds: Double?
  /// Where `cpuSeconds` went, when the run measures it (`CPUParts.measured`); else `nil`.
  package var cpuParts: CPUParts?
  /// Why the step's first skipped case was skipped.
  package var skipReason: String?
  /// Skipped cases by reason.
  package var skipReasons: [String: Int] = [:]
  /// Pass counts of the report's matrices: dimension (`calendar`, `fw`, `zone class`) →
  /// value → passed and counted cases (skipped cases are not counted).
  package var cells: [String: [String: PassCount]] = [:]
  /// Cases per baseline class, passing ones (`fixed`) included.
  package var baselineClasses: [String: Int] = [:]
  /// Cases per waiver that matched them.
  package var waiverMatches: [String: Int] = [:]
  /// Cases per waiver whose claim (its triage) they contradict: matched by check, dimensions
  /// and pattern, not waived.
  package var waiverContradictions: [String: Int] = [:]
  /// Cases per waiver that would have waived them but whose scope does not list them: new
  /// failures against the baseline, not waived.
  package var waiverOutOfScope: [String: Int] = [:]
  /// The cases that did not pass, in plan order (every case with `--record all`). Not
  /// written to `steps.jsonl.gz`: the cases have their own file.
  package var cases: [CaseRecord] = []
  /// The same cases as lines, when a worker process evaluated the step: its parent reads
  /// what the tally counts of each from a few members and copies the line into the cases
  /// file (`CaseLine`). A step holds its cases one way or the other, never both.
  var caseLines: [CaseLine] = []

  package init(index: Int, check: String, name: String, plan: String, counts: StatusCounts,
              seconds: Double) {
    self.index = index
    self.check = check
    self.name = name
    self.plan = plan
    self.counts = counts
    self.seconds = seconds
  }

  /// A step's record from its evaluated cases.
  ///
  /// - Parameters:
  ///   - zoneClasses: each zone's class, for the matrices' `zone class` cells.
  ///   - keepPassing: keep passing and skipped cases too (`--record all`).
  init(step: Plan.Step, check: String, cases: [CaseRecord], zoneClasses: [String: String],
       keepPassing: Bool, seconds: Double, cpuSeconds: Double = 0) {
    self.init(index: step.index, check: check, name: step.name, plan: PlanStepSet.encode(step),
              counts: StatusCounts(), seconds: seconds)
    self.cpuSeconds = cpuSeconds
    for record in cases { add(record, zoneClasses: zoneClasses, keepPassing: keepPassing) }
  }

  /// Counts one case of this step into the record.
  mutating func add(_ record: CaseRecord, zoneClasses: [String: String], keepPassing: Bool) {
    let status = record.status
    counts.add(status)
    if let kind = record.review.baseline { baselineClasses[kind.rawValue, default: 0] += 1 }
    if let waiver = record.review.waiver { waiverMatches[waiver, default: 0] += 1 }
    if let waiver = record.review.contradicts { waiverContradictions[waiver, default: 0] += 1 }
    if let waiver = record.review.outOfScope { waiverOutOfScope[waiver, default: 0] += 1 }
    if status == .skipped {
      let reason = record.outcome.detail.first ?? "skipped"
      skipReasons[reason, default: 0] += 1
      if skipReason == nil { skipReason = reason }
    } else {
      let passed = status == .passed ? 1 : 0
      let id = record.id
      if let calendar = id.calendar { cells["calendar", default: [:]][calendar, default: PassCount()].add(passed) }
      if let weekday = id.firstWeekday {
        cells["fw", default: [:]][weekday.description, default: PassCount()].add(passed)
      }
      if let zone = id.zone {
        cells["zone class", default: [:]][zoneClasses[zone] ?? "?", default: PassCount()].add(passed)
      }
    }
    if keepPassing || (status != .passed && status != .skipped) { cases.append(record) }
  }

  /// Adds another part of the same step (a case a worker process evaluated alone).
  mutating func absorb(_ other: StepRecord) {
    counts.add(other.counts)
    seconds += other.seconds
    cpuSeconds += other.cpuSeconds
    if let parts = other.cpuParts {
      var sum = cpuParts ?? CPUParts()
      sum.add(parts)
      cpuParts = sum
    }
    if let slowest = other.slowestCaseCPUSeconds {
      slowestCaseCPUSeconds = max(slowestCaseCPUSeconds ?? 0, slowest)
    }
    if skipReason == nil { skipReason = other.skipReason }
    skipReasons.merge(other.skipReasons, uniquingKeysWith: +)
    cells.mergeCounts(other.cells)
    baselineClasses.merge(other.baselineClasses, uniquingKeysWith: +)
    waiverMatches.merge(other.waiverMatches, uniquingKeysWith: +)
    waiverContradictions.merge(other.waiverContradictions, uniquingKeysWith: +)
    waiverOutOfScope.merge(other.waiverOutOfScope, uniquingKeysWith: +)
    cases += other.cases
    caseLines += other.caseLines
  }

  /// The record as `steps.jsonl.gz` keeps it: without its cases.
  var withoutCases: StepRecord {
    var copy = self
    (copy.cases, copy.caseLines) = ([], [])
    return copy
  }

  /// The record's keys, for its one reader and its writer.
  enum CodingKeys: String, CodingKey {
    case index, check, name, plan, counts, seconds, cpuSeconds, skipReason, skipReasons, cells
    case baselineClasses, waiverMatches, cases, waiverContradictions, waiverOutOfScope
    case slowestCaseCPUSeconds, cpuParts
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    index = try container.decode(Int.self, forKey: .index)
    check = try container.decode(String.self, forKey: .check)
    name = try container.decode(String.self, forKey: .name)
    plan = try container.decode(String.self, forKey: .plan)
    counts = try container.decode(StatusCounts.self, forKey: .counts)
    seconds = try container.decodeIfPresent(Double.self, forKey: .seconds) ?? 0
    cpuSeconds = try container.decodeIfPresent(Double.self, forKey: .cpuSeconds) ?? 0
    slowestCaseCPUSeconds = try container.decodeIfPresent(Double.self, forKey: .slowestCaseCPUSeconds)
    cpuParts = try container.decodeIfPresent(CPUParts.self, forKey: .cpuParts)
    skipReason = try container.decodeIfPresent(String.self, forKey: .skipReason)
    skipReasons = try container.decodeIfPresent([String: Int].self, forKey: .skipReasons) ?? [:]
    cells = try container.decodeIfPresent([String: [String: PassCount]].self, forKey: .cells) ?? [:]
    baselineClasses = try container.decodeIfPresent([String: Int].self, forKey: .baselineClasses) ?? [:]
    waiverMatches = try container.decodeIfPresent([String: Int].self, forKey: .waiverMatches) ?? [:]
    cases = try container.decodeIfPresent([CaseRecord].self, forKey: .cases) ?? []
    waiverContradictions = try container.decodeIfPresent([String: Int].self, forKey: .waiverContradictions) ?? [:]
    waiverOutOfScope = try container.decodeIfPresent([String: Int].self, forKey: .waiverOutOfScope) ?? [:]
    guard PlanStepSet.group(ofEncoded: plan) != nil else {
      throw DecodingError.dataCorruptedError(forKey: .plan, in: container,
                                             debugDescription: "malformed plan '\(plan)'")
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(index, forKey: .index)
    try container.encode(check, forKey: .check)
    try container.encode(name, forKey: .name)
    try container.encode(plan, forKey: .plan)
    try container.encode(counts, forKey: .counts)
    try container.encode(seconds.rounded(toPlaces: 3), forKey: .seconds)
    try container.encode(cpuSeconds.rounded(toPlaces: 3), forKey: .cpuSeconds)
    try container.encodeIfPresent(slowestCaseCPUSeconds?.rounded(toPlaces: 3), forKey: .slowestCaseCPUSeconds)
    try container.encodeIfPresent(cpuParts, forKey: .cpuParts)
    try container.encodeIfPresent(skipReason, forKey: .skipReason)
    if !skipReasons.isEmpty { try container.encode(skipReasons, forKey: .skipReasons) }
    if !cells.isEmpty { try container.encode(cells, forKey: .cells) }
    if !baselineClasses.isEmpty { try container.encode(baselineClasses, forKey: .baselineClasses) }
    if !waiverMatches.isEmpty { try container.encode(waiverMatches, forKey: .waiverMatches) }
    if !cases.isEmpty { try container.encode(cases, forKey: .cases) }
    if !waiverContradictions.isEmpty {
      try container.encode(waiverContradictions, forKey: .waiverContradictions)
    }
    if !waiverOutOfScope.isEmpty { try container.encode(waiverOutOfScope, forKey: .waiverOutOfScope) }
  }
}

/// Passing and counted cases of one cell of a matrix; written as `[passed, total]`.
package struct PassCount: Sendable, Equatable, Codable {
  package var passed = 0
  package var total = 0

  package init(passed: Int = 0, total: Int = 0) {
    self.passed = passed
    self.total = total
  }

  mutating func add(_ passed: Int) {
    self.passed += passed
    total += 1
  }

  package init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    passed = try container.decode(Int.self)
    total = try container.decode(Int.self)
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(passed)
    try container.encode(total)
  }
}

extension Dictionary where Key == String, Value == [String: PassCount] {
  /// Adds another set of matrix cells to these.
  mutating func mergeCounts(_ other: Self) {
    for (dimension, values) in other {
      for (value, count) in values {
        self[dimension, default: [:]][value, default: PassCount()].passed += count.passed
        self[dimension, default: [:]][value, default: PassCount()].total += count.total
      }
    }
  }
}

extension Double {
  /// Rounded to `places` decimals, so that files do not carry clock noise.
  func rounded(toPlaces places: Int) -> Double {
    let scale = pow(10, Double(places))
    return (self * scale).rounded() / scale
  }
}

extension StepRecord: MemberDecodable {
  static let slowReader = SlowReads.Reader.stepRecord
}
