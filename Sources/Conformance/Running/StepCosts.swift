import Foundation

/// What a step is expected to cost, in CPU microseconds per case, by check, calendar and zone
/// class: steps differ by orders of magnitude (`same-day-closing` ≈ 1 ms a case,
/// `leading-blanks` ≈ 5 µs), so shards cut by step count are as long as their most expensive
/// slice. Fitted from a run's step records (`conformance costs DIR`, and `bench` after its
/// full sweep) and kept in `Corpora/step-costs.json`, so every shard of a night, on any
/// runner, cuts the same plan the same way.
public struct StepCosts: Sendable, Equatable, Codable {
  public static let schema = "conformance-step-costs/1"
  public static let fileName = "step-costs.json"

  /// Per case, with finer rates where the fit had them.
  public struct Rate: Sendable, Equatable, Codable {
    /// Microseconds of CPU per case.
    public var perCase: Double
    /// Finer rates by calendar (checks' calendars) or by zone class (inside a calendar).
    public var calendars: [String: Rate]?
    public var zoneClasses: [String: Double]?
  }

  public var schema = StepCosts.schema
  /// Where the rates were measured (the run's path and start), for a reader.
  public var measured: String
  public var checks: [String: Rate]

  /// A model with no rates: every case costs the same (shards then balance case counts).
  public static let uniform = StepCosts(measured: "none (every case costs the same)", checks: [:])

  /// The expected CPU microseconds of `step`.
  public func cost(of step: Plan.Step, check: String, zoneClass: String?) -> Double {
    Double(step.caseCount) * perCase(check: check, calendar: step.group.calendar, zoneClass: zoneClass)
  }

  func perCase(check: String, calendar: String?, zoneClass: String?) -> Double {
    guard let rate = checks[check] else { return 1 }
    guard let calendar, let byCalendar = rate.calendars?[calendar] else {
      return zoneClass.flatMap { rate.zoneClasses?[$0] } ?? rate.perCase
    }
    return zoneClass.flatMap { byCalendar.zoneClasses?[$0] } ?? byCalendar.perCase
  }

  /// A short digest of the rates, stated in every shard's options: shards cut with
  /// different models do not cover the plan once, so `merge` refuses to combine them.
  public var digest: String {
    var hash: UInt64 = 0xcbf29ce484222325
    let data = (try? RecordCoding.lineEncoder().encode(checks)) ?? Data()
    for byte in data {
      hash = (hash ^ UInt64(byte)) &* 0x100000001b3
    }
    return checks.isEmpty ? "uniform" : String(hash, radix: 16).leftPadded(to: 16)
  }

  // MARK: Reading and fitting

  /// The model in `directory` (a corpus directory), or `uniform` when it has none.
  ///
  /// - Throws: `InputError` naming the file when it does not read as a model.
  public static func load(corpora directory: URL) throws(InputError) -> StepCosts {
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
  /// and per check, calendar and zone class, each the CPU of its steps over their cases.
  public static func fit(_ steps: [StepRecord], zoneClasses: [String: String], measured: String) -> StepCosts {
    struct Sum { var cpu = 0.0; var cases = 0 }
    var byCheck: [String: Sum] = [:]
    var byCalendar: [String: [String: Sum]] = [:]
    var byClass: [String: [String: [String: Sum]]] = [:]
    var byCheckClass: [String: [String: Sum]] = [:]
    for step in steps where step.counts.total > 0 {
      let group = PlanStepSet.group(ofEncoded: step.plan).flatMap { try? CaseID(parsing: $0) }
      let (cpu, cases) = (step.cpuSeconds * 1e6, step.counts.total)
      byCheck[step.check, default: Sum()].cpu += cpu
      byCheck[step.check, default: Sum()].cases += cases
      let zoneClass = group?.zone.flatMap { zoneClasses[$0] }
      if let calendar = group?.calendar {
        byCalendar[step.check, default: [:]][calendar, default: Sum()].cpu += cpu
        byCalendar[step.check, default: [:]][calendar, default: Sum()].cases += cases
        if let zoneClass {
          byClass[step.check, default: [:]][calendar, default: [:]][zoneClass, default: Sum()].cpu += cpu
          byClass[step.check, default: [:]][calendar, default: [:]][zoneClass, default: Sum()].cases += cases
        }
      } else if let zoneClass {
        byCheckClass[step.check, default: [:]][zoneClass, default: Sum()].cpu += cpu
        byCheckClass[step.check, default: [:]][zoneClass, default: Sum()].cases += cases
      }
    }
    func rate(_ sum: Sum) -> Double {
      // Three significant digits: the file stays readable and its digest stable.
      let value = max(sum.cpu / Double(max(sum.cases, 1)), 0.001)
      let scale = pow(10, 2 - floor(log10(value)))
      return (value * scale).rounded() / scale
    }
    var checks: [String: Rate] = [:]
    for (check, sum) in byCheck {
      var entry = Rate(perCase: rate(sum))
      if let calendars = byCalendar[check] {
        entry.calendars = calendars.mapValues { Rate(perCase: rate($0)) }
        for (calendar, classes) in byClass[check] ?? [:] where classes.count > 1 {
          entry.calendars?[calendar]?.zoneClasses = classes.mapValues(rate)
        }
      }
      if let classes = byCheckClass[check], classes.count > 1 { entry.zoneClasses = classes.mapValues(rate) }
      checks[check] = entry
    }
    return StepCosts(measured: measured, checks: checks)
  }

  /// Rates from a finished run's results directory (ideally a full sweep's: a step the run
  /// did not sweep falls back to its check's rate).
  public static func fit(results directory: URL) throws -> StepCosts {
    let results = try ResultsDirectory(directory, role: "costs", as: RunRecord.self)
    var steps: [StepRecord] = []
    let reader = try results.steps()
    while let step = try reader.next(StepRecord.self) { steps.append(step) }
    let run = results.record.run
    return fit(steps, zoneClasses: run.zoneClasses,
               measured: "conformance " + run.arguments.filter { !$0.hasPrefix("/") }.joined(separator: " ")
                 + ", started \(ISO8601DateFormatter().string(from: run.started))")
  }

  /// The model as the file holds it: sorted keys, one check a line or so.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}

extension Plan {
  /// The steps of shard `index` of `count` (1-based): each step goes, most expensive first,
  /// to the shard with the least expected cost so far (the lowest-numbered on a tie), so the
  /// slices differ by at most about one step's cost. Deterministic: the same plan and model
  /// always give the same slices. Returns each shard's expected cost too.
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
