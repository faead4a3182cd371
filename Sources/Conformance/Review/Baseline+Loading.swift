import Foundation

extension Baseline {
  /// Reads a previous run's results (`results.json`, or the directory holding it).
  ///
  /// - Parameter plan: this run's plan, to list the baseline's failing cases it does not
  ///   sweep (`removed`); `nil` where nobody reports them (worker processes, shards).
  /// - Throws: `InputError` naming the file and line at fault (exit 2).
  package static func load(_ path: URL, sweptBy plan: Plan? = nil) throws(InputError) -> Baseline {
    try load(path, sweptBySteps: plan.map(PlanStepSet.index))
  }

  /// The same, for a plan known by its steps as results record them, by group id (`merge`).
  static func load(_ path: URL, sweptBySteps current: [String: String]?) throws(InputError)
    -> Baseline
  {
    let role = "--baseline"
    if let legacy = try LegacyResults.readIfLegacy(path, role: role) {
      var reading = Reading(steps: legacy.steps, current: current)
      // Schema 2 has no step records to group failures by: each id names its group.
      for (id, digest) in legacy.failures {
        let group = (try? CaseID(parsing: id)).flatMap { parsed in
          PlanStepSet.groupKeys(of: parsed).first { legacy.steps[$0] != nil }
        } ?? ""
        reading.add(id, key: CaseKey(id), digest: digest, group: group,
                    unchanged: reading.unchanged.contains(group))
      }
      return reading.baseline(reference: legacy.reference)
    }
    let results = try ResultsDirectory(path, role: role, as: Head.self)
    var steps: [String: String] = [:]
    var groupOfStep: [Int: String] = [:]
    let stepReader = try results.steps()
    try stepReader.forEachBatch(StepLine.self) { (batch) throws(InputError) in
      for step in batch {
        // StepRecord's decoder checks the same; this reader decodes less of the line.
        guard let group = PlanStepSet.group(ofEncoded: step.plan) else {
          throw InputError("\(role) \(stepReader.path): step \(step.index): malformed plan")
        }
        steps[group] = step.plan
        groupOfStep[step.index] = group
      }
    }
    var reading = Reading(steps: steps, current: current)
    reading.failures.reserveCapacity(results.record.summary?.failing ?? 0)
    let unchangedStep = groupOfStep.mapValues { reading.unchanged.contains($0) }
    let caseReader = try results.cases()
    try caseReader.forEachBatch(FailureLine.self) { (batch) throws(InputError) in
      // A case the breaker did not run is kept as a fault of unknown value (an errored one's):
      // which cases of a storm run depends on scheduling, so tonight's errored case must read
      // as still failing, not new, where last night's run stopped before it.
      for entry in batch where entry.verdict == .failed || entry.verdict == .errored || entry.verdict == .notRun {
        reading.add(entry.id, key: entry.key, digest: try entry.digest(in: caseReader.path),
                    group: groupOfStep[entry.step] ?? "",
                    unchanged: unchangedStep[entry.step] ?? false)
      }
    }
    let run = results.record.run
    return reading.baseline(reference: BaselineReference(
      path: results.url.path, started: ISO8601DateFormatter().string(from: run.started),
      versions: "libicu \(run.versions?.oracle.icu ?? "?") / "
        + "Foundation ICU \(run.versions?.subjectICU?.icu ?? "?")"))
  }

  /// A baseline being read: its failures by key and, for listing what the current plan no
  /// longer sweeps, the ids of those whose step the current plan does not sweep alike.
  private struct Reading {
    let steps: [String: String]
    let current: [String: String]?
    /// The groups the current plan sweeps with the very same step: swept whole (the
    /// nightly's case); compared once per group, not once per failure.
    let unchanged: Set<String>
    var failures: [CaseKey: UInt64] = [:]
    var changedGroups: [String: [String]] = [:]

    init(steps: [String: String], current: [String: String]?) {
      self.steps = steps
      self.current = current
      unchanged = Set(current.map { current in
        steps.compactMap { group, step in current[group] == step ? group : nil }
      } ?? [])
    }

    /// - Parameter unchanged: whether the current plan sweeps `group` with the same step.
    mutating func add(_ id: String, key: CaseKey, digest: UInt64, group: String, unchanged: Bool) {
      failures[key] = digest
      if current != nil, !unchanged {
        changedGroups[group, default: []].append(id)
      }
    }

    func baseline(reference: BaselineReference) -> Baseline {
      var baseline = Baseline(reference: reference, failures: failures, steps: steps)
      if let current { baseline.removed = Baseline.removed(changedGroups, from: current) }
      return baseline
    }
  }

  /// The failing cases among `ids` that the current steps do not sweep, sorted: each
  /// checked against the step of the current plan that would hold it.
  static func removed(_ byGroup: [String: [String]], from current: [String: String]) -> [String] {
    var removed: [String] = []
    var decoded: [String: PlanStepSet?] = [:]
    for ids in byGroup.values {
      removed += ids.filter { text in
        guard let id = try? CaseID(parsing: text) else { return true }
        return !PlanStepSet.groupKeys(of: id).contains { key in
          if decoded[key] == nil { decoded[key] = current[key].flatMap(PlanStepSet.decode)?.1 }
          return decoded[key]??.contains(id) == true
        }
      }
    }
    return removed.sorted()
  }

  /// What a baseline reads of `results.json`: when the run started and its versions.
  private struct Head: Decodable, Sendable {
    struct Run: Decodable, Sendable {
      var started: Date
      var versions: RunVersions?
    }
    /// How many cases failed: room made for them before reading (a hint; growing the
    /// table as it fills rehashes it ~20 times).
    struct Summary: Decodable, Sendable {
      var failed: Int?
      var errored: Int?
      var waived: Int?
      var failing: Int { max(0, min((failed ?? 0) + (errored ?? 0) + (waived ?? 0), 20_000_000)) }
    }
    var run: Run
    var summary: Summary?
  }

  /// What a baseline reads of a step record: its place in the plan and what it swept.
  private struct StepLine: MemberDecodable, Sendable {
    var index: Int
    var plan: String

    private typealias Key = StepRecord.CodingKeys
    static let slowReader = SlowReads.Reader.baselineStep

    init(from decoder: any Decoder) throws {
      let line = try decoder.container(keyedBy: Key.self)
      (index, plan) = (try line.decode(Int.self, forKey: .index), try line.decode(String.self, forKey: .plan))
    }
  }

  /// What a baseline reads of a case record: its id, verdict and actual value (or digest).
  private struct FailureLine: MemberDecodable, Sendable {
    var id: String
    var step: Int
    var verdict: Outcome.Verdict
    var actual: Value?
    var actualDigest: String?
    /// The id hashed where the line is decoded, on a decoding thread.
    var key: CaseKey

    private typealias Key = CaseRecord.CodingKeys

    static let slowReader = SlowReads.Reader.baselineCase

    /// A passing case's values are never needed; a failing one's digest, or else its
    /// `actual` (written whole when the case is: unwaived, a cluster's example, or
    /// `--record all`).
    init(from decoder: any Decoder) throws {
      let line = try decoder.container(keyedBy: Key.self)
      id = try line.decode(String.self, forKey: .id)
      step = try line.decode(Int.self, forKey: .step)
      verdict = try line.decode(Outcome.Verdict.self, forKey: .verdict)
      key = CaseKey(id)
      guard verdict == .failed || verdict == .errored || verdict == .notRun else { return }
      actualDigest = try line.decodeIfPresent(String.self, forKey: .actualDigest)
      if actualDigest == nil { actual = try line.decodeIfPresent(Value.self, forKey: .actual) }
    }

    func digest(in path: String) throws(InputError) -> UInt64 {
      guard let text = actualDigest else { return (actual ?? .null).digest }
      guard let digest = UInt64(text, radix: 16) else {
        throw InputError("--baseline \(path): case \(id): actualDigest '\(text)' is not hex")
      }
      return digest
    }
  }
}

/// A `results.json` of schema 1 or 2 (one document, failures inline), read once more so that
/// the first night after an upgrade still has its baseline. Decoded whole by `JSONDecoder`.
enum LegacyResults {
  static let schemas: Set<String> = ["conformance-results/1", "conformance-results/2"]

  private struct Document: Decodable {
    struct Run: Decodable { var started: String? }
    struct Versions: Decodable {
      struct Side: Decodable { var icu: String? }
      var oracle: Side?
      var subject: Side?
    }
    struct Failure: Decodable {
      var id: String
      var status: String
      var actual: Value?
      var actualDigest: String?
    }
    var schema: String
    var run: Run?
    var versions: Versions?
    var plan: [String]?
    var failures: [Failure]
  }

  /// What a schema-1/2 file holds for a baseline.
  struct Contents {
    var reference: BaselineReference
    var failures: [String: UInt64]
    var steps: [String: String]
  }

  /// The baseline in `path` when it is an older results.json, else `nil`.
  static func readIfLegacy(_ path: URL, role: String) throws(InputError) -> Contents? {
    var isDirectory: ObjCBool = false
    _ = FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory)
    let url = isDirectory.boolValue ? path.appendingPathComponent("results.json") : path
    // Only a schema-1/2 document is large (failures inline); its schema stands in its first
    // lines as this program wrote it, so a newer file is never read whole here.
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    let head = (try? handle.read(upToCount: 4096)) ?? nil
    try? handle.close()
    guard let head, let text = String(data: head, encoding: .utf8),
      schemas.contains(where: { text.contains("\"\($0)\"") }),
      let data = FileManager.default.contents(atPath: url.path)
    else { return nil }
    let document: Document
    do {
      document = try JSONDecoder().decode(Document.self, from: data)
    } catch {
      throw InputError("\(role) \(url.path): \(JSONValueReader.describe(error))")
    }
    guard schemas.contains(document.schema) else { return nil }
    guard let plan = document.plan else {
      throw InputError("\(role) \(url.path): no \"plan\" (written by an older conformance)")
    }
    var steps: [String: String] = [:]
    for (index, line) in plan.enumerated() {
      guard let key = PlanStepSet.group(ofEncoded: line), PlanStepSet.decode(line) != nil else {
        throw InputError("\(role) \(url.path): plan entry \(index + 1) is malformed")
      }
      steps[key] = line
    }
    var failures: [String: UInt64] = [:]
    for failure in document.failures where ["failed", "errored", "waived"].contains(failure.status) {
      if let text = failure.actualDigest {
        guard let digest = UInt64(text, radix: 16) else {
          throw InputError("\(role) \(url.path): case \(failure.id): actualDigest '\(text)' is not hex")
        }
        failures[failure.id] = digest
      } else {
        failures[failure.id] = (failure.actual ?? .null).digest
      }
    }
    return Contents(
      reference: BaselineReference(
        path: url.path, started: document.run?.started ?? "?",
        versions: "libicu \(document.versions?.oracle?.icu ?? "?") / "
          + "Foundation ICU \(document.versions?.subject?.icu ?? "?")"),
      failures: failures, steps: steps)
  }
}
