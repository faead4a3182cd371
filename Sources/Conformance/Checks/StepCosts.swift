import Foundation

/// What a step is expected to cost, in CPU microseconds per case: the step's own measured
/// rate when it costs enough to matter, else its check's, calendar's and zone class's. Steps
/// differ by orders of magnitude (`same-day-closing` ≈ 1 ms a case, `leading-blanks` ≈ 5 µs,
/// and `same-day-closing` · chinese · America/Havana 13 s where its class averages 0.4 s),
/// so shards cut by step count, or by class averages, are as long as their most expensive
/// slice. Fitted from a run's step records (`conformance costs DIR`, and `bench` after its
/// full sweep) and kept in `Corpora/step-costs.json`, so every shard of a night, on any
/// runner, cuts the same plan the same way.
package struct StepCosts: Sendable, Equatable, Codable {
  package static let schema = "conformance-step-costs/1"
  package static let fileName = "step-costs.json"

  /// Per case, with finer rates where the fit had them.
  package struct Rate: Sendable, Equatable, Codable {
    /// Microseconds of CPU per case, evaluating it.
    package var perCase: Double
    /// The share of cases that did not pass (each costs `perNonPassing` more).
    package var nonPassing: Double?
    /// CPU seconds of the slowest case the fit's run met in the check, or in one calendar of
    /// it, as its worker's watchdog saw it (to within a poll, 20 ms: 0 when no case lasted
    /// one); `nil` when none of these steps ran in a worker. Each case's limit is derived
    /// from it (`WorkerLimits`).
    package var slowestCase: Double?
    /// Finer rates by calendar (checks' calendars) or by zone class (inside a calendar).
    package var calendars: [String: Rate]?
    package var zoneClasses: [String: Rate]?

    package init(perCase: Double, nonPassing: Double? = nil, slowestCase: Double? = nil,
                calendars: [String: Rate]? = nil, zoneClasses: [String: Rate]? = nil) {
      (self.perCase, self.nonPassing, self.slowestCase) = (perCase, nonPassing, slowestCase)
      (self.calendars, self.zoneClasses) = (calendars, zoneClasses)
    }
  }

  package var schema = StepCosts.schema
  /// Where the rates were measured (the run's path and start), for a reader.
  package var measured: String
  /// Microseconds of CPU a case that did not pass costs beyond its evaluation: its record
  /// written by the worker, read, reviewed and written again by the run (measured by
  /// `bench --shards`: 8 shards of the full sweep, 97 µs).
  package var perNonPassing: Double = StepCosts.defaultPerNonPassing
  package var checks: [String: Rate]
  /// Per check, the steps that cost at least `stepThreshold` when measured, by their group's
  /// dimensions (`calendar=chinese|zone=America/Havana`): microseconds per case, their share
  /// of not passing included. One run's step CPU predicts the next's to within a few percent,
  /// where a class's average misses a step by 30 times, so shards cut on these come out
  /// even where class rates did not (`Scripts/shard-balance.py` replays a cut).
  package var steps: [String: [String: Double]]?

  package static let defaultPerNonPassing = 97.0
  /// Steps measured below this (in microseconds) keep their class's rate: a few thousand
  /// steps carry the imbalance, and the file stays small.
  package static let stepThreshold = 10_000.0

  package init(measured: String, perNonPassing: Double = StepCosts.defaultPerNonPassing, checks: [String: Rate],
              steps: [String: [String: Double]]? = nil) {
    (self.measured, self.perNonPassing, self.checks, self.steps) = (measured, perNonPassing, checks, steps)
  }

  /// A model with no rates: every case costs the same (shards then balance case counts).
  package static let uniform = StepCosts(measured: "none (every case costs the same)", checks: [:])

  /// The expected CPU microseconds of `step`.
  package func cost(of step: Plan.Step, check: String, zoneClass: String?) -> Double {
    if let measured = steps?[check], let rate = measured[Self.stepKey(step.group.description, check: check)] {
      return Double(step.caseCount) * rate
    }
    return Double(step.caseCount) * perCase(check: check, calendar: step.group.calendar, zoneClass: zoneClass)
  }

  /// A step's key among its check's measured steps: its group's text without the check.
  static func stepKey(_ group: String, check: String) -> String {
    group.hasPrefix(check + "|") ? String(group.dropFirst(check.count + 1)) : group
  }

  /// A case's expected microseconds: its evaluation, and its share of not passing.
  func perCase(check: String, calendar: String?, zoneClass: String?) -> Double {
    guard let rate = checks[check] else { return 1 }
    let byCalendar = calendar.flatMap { rate.calendars?[$0] } ?? rate
    let finest = zoneClass.flatMap { byCalendar.zoneClasses?[$0] } ?? byCalendar
    return finest.perCase + (finest.nonPassing ?? 0) * perNonPassing
  }

  /// CPU seconds of the slowest case the fit met in a case's check and calendar (its check's,
  /// when it has no calendar or the model has none of it); `nil` when the model did not
  /// measure it (no such check, or a fit without workers). Not by zone class: a zone's class
  /// depends on the years swept, and a case's limit must not.
  func slowestCase(check: String, calendar: String?) -> Double? {
    guard let rate = checks[check] else { return nil }
    return calendar.flatMap { rate.calendars?[$0]?.slowestCase } ?? rate.slowestCase
  }

  /// A short digest of the rates, stated in every shard's options: shards cut with
  /// different models do not cover the plan once, so `merge` refuses to combine them.
  package var digest: String {
    var hash: UInt64 = 0xcbf29ce484222325
    var data = (try? RecordCoding.lineEncoder().encode(checks)) ?? Data()
    if let steps { data += (try? RecordCoding.lineEncoder().encode(steps)) ?? Data() }
    for byte in data {
      hash = (hash ^ UInt64(byte)) &* 0x100000001b3
    }
    return checks.isEmpty ? "uniform" : String(hash, radix: 16).leftPadded(to: 16)
  }

  // MARK: Reading and fitting

  /// The model in `directory` (a corpus directory), or `uniform` when it has none.
  ///
  /// - Throws: `InputError` naming the file when it does not read as a model.
  package static func load(corpora directory: URL) throws(InputError) -> StepCosts {
    let url = directory.appendingPathComponent(fileName)
    guard FileManager.default.fileExists(atPath: url.path) else { return .uniform }
    do {
      let costs = try JSONDecoder().decode(StepCosts.self, from: Data(contentsOf: url))
      guard costs.schema == schema else {
        throw InputError("\(url.path): schema '\(costs.schema)', expected '\(schema)'")
      }
      return costs
    } catch let error as InputError {
      throw error
    } catch {
      throw InputError("\(url.path): not a step cost model: \(JSONValueReader.describe(error))")
    }
  }

  /// Rates from step records (with their CPU seconds): per check, per check and calendar,
  /// and per check, calendar and zone class, each the CPU of its steps over their cases; and
  /// each step's own rate when the step costs at least `stepThreshold`.
  /// A step of an `isolated` run (one in worker processes) without a slowest case had none
  /// that lasted a watchdog's poll: its slowest counts as 0.
  package static func fit(_ steps: [StepRecord], zoneClasses: [String: String], measured: String,
                         isolated: Bool = false) -> StepCosts {
    struct Sum { var cpu = 0.0; var cases = 0; var nonPassing = 0; var slowest: Double? }
    // Three significant digits: the file stays readable and its digest stable.
    func rounded(_ value: Double) -> Double {
      guard value > 0 else { return 0 }
      let scale = pow(10, 2 - floor(log10(value)))
      return (value * scale).rounded() / scale
    }
    var byCheck: [String: Sum] = [:]
    var byCalendar: [String: [String: Sum]] = [:]
    var byClass: [String: [String: [String: Sum]]] = [:]
    var byCheckClass: [String: [String: Sum]] = [:]
    var measuredSteps: [String: [String: Double]] = [:]
    for step in steps where step.counts.total > 0 {
      let groupText = PlanStepSet.group(ofEncoded: step.plan)
      let group = groupText.flatMap { try? CaseID(parsing: $0) }
      let counts = step.counts
      let sum = Sum(cpu: step.cpuSeconds * 1e6, cases: counts.total,
                    nonPassing: counts.total - counts.passed - counts.skipped,
                    slowest: step.slowestCaseCPUSeconds ?? (isolated ? 0 : nil))
      func add(_ into: inout Sum) {
        into.cpu += sum.cpu
        into.cases += sum.cases
        into.nonPassing += sum.nonPassing
        if let slowest = sum.slowest { into.slowest = max(into.slowest ?? 0, slowest) }
      }
      add(&byCheck[step.check, default: Sum()])
      let cost = sum.cpu + Double(sum.nonPassing) * defaultPerNonPassing
      if cost >= stepThreshold, let text = groupText {
        measuredSteps[step.check, default: [:]][stepKey(text, check: step.check)] = rounded(cost / Double(sum.cases))
      }
      let zoneClass = group?.zone.flatMap { zoneClasses[$0] }
      if let calendar = group?.calendar {
        add(&byCalendar[step.check, default: [:]][calendar, default: Sum()])
        if let zoneClass { add(&byClass[step.check, default: [:]][calendar, default: [:]][zoneClass, default: Sum()]) }
      } else if let zoneClass {
        add(&byCheckClass[step.check, default: [:]][zoneClass, default: Sum()])
      }
    }
    func rate(_ sum: Sum) -> Rate {
      let cases = Double(max(sum.cases, 1))
      return Rate(perCase: rounded(max(sum.cpu / cases, 0.001)),
                  nonPassing: sum.nonPassing > 0 ? rounded(Double(sum.nonPassing) / cases) : nil,
                  slowestCase: sum.slowest.map { $0.rounded(toPlaces: 3) })
    }
    // A zone's class depends on the years swept (its transitions in them), so a case's limit
    // reads its check's and calendar's slowest case only.
    func classRate(_ sum: Sum) -> Rate {
      var rate = rate(sum)
      rate.slowestCase = nil
      return rate
    }
    var checks: [String: Rate] = [:]
    for (check, sum) in byCheck {
      var entry = rate(sum)
      if let calendars = byCalendar[check] {
        entry.calendars = calendars.mapValues(rate)
        for (calendar, classes) in byClass[check] ?? [:] where classes.count > 1 {
          entry.calendars?[calendar]?.zoneClasses = classes.mapValues(classRate)
        }
      }
      if let classes = byCheckClass[check], classes.count > 1 { entry.zoneClasses = classes.mapValues(classRate) }
      checks[check] = entry
    }
    return StepCosts(measured: measured, checks: checks, steps: measuredSteps.isEmpty ? nil : measuredSteps)
  }

  /// Rates from a finished run's results directory (ideally a full sweep's: a step the run
  /// did not sweep falls back to its check's rate).
  package static func fit(results directory: URL) throws -> StepCosts {
    let results = try ResultsDirectory(directory, role: "costs", as: RunRecord.self)
    var steps: [StepRecord] = []
    let reader = try results.steps()
    while let step = try reader.next(StepRecord.self) { steps.append(step) }
    let run = results.record.run
    return fit(steps, zoneClasses: run.zoneClasses,
               measured: "the steps of conformance " + selection(run.arguments).joined(separator: " ")
                 + ", started \(ISO8601DateFormatter().string(from: run.started))",
               isolated: run.isolation != nil)
  }

  /// A run's arguments without where it read and wrote (machine-specific paths).
  static func selection(_ arguments: [String]) -> [String] {
    var kept: [String] = []
    var skipNext = false
    for argument in arguments {
      if skipNext { skipNext = false; continue }
      if ["--out", "--corpora", "--baseline", "--history", "--jobs"].contains(argument) { skipNext = true; continue }
      kept.append(argument)
    }
    return kept
  }

  /// The model as the file holds it: sorted keys, one check a line or so.
  package func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}

extension Plan {
  /// Each step's shard (0-based): most expensive first, each to the shard with the least
  /// expected cost so far (the lowest-numbered on a tie), so shards differ by at most about
  /// one step's cost. Scattered on purpose: cutting the plan into contiguous runs of equal
  /// cost kept each calendar's warm caches together but gathered what the model does not
  /// see (records of cases that do not pass, workers restarted after a crash) into a few
  /// runs, whose shards came out slowest. Deterministic: the same plan and model always give
  /// the same slices. Returns each shard's expected cost too.
  static func balance(_ steps: [Step], count: Int, cost: (Step) -> Double) -> (shardOf: [Int], costs: [Double]) {
    let costs = steps.map(cost)
    let order = steps.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
    var loads = Array(repeating: 0.0, count: count)
    var shardOf = Array(repeating: 0, count: steps.count)
    for position in order {
      var lightest = 0
      for shard in 1..<count where loads[shard] < loads[lightest] { lightest = shard }
      shardOf[position] = lightest
      loads[lightest] += costs[position]
    }
    return (shardOf, loads)
  }
}
