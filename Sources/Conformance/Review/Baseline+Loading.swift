import Foundation

extension Baseline {
  /// Reads a previous run's results (`results.json`, or the directory holding it).
  ///
  /// - Parameter plan: this run's plan, to list the baseline's failing cases it does not
  ///   sweep (`removed`); `nil` where nobody reports them (worker processes, shards).
  /// - Throws: `InputError` naming the file and line at fault (exit 2).
  public static func load(_ path: URL, sweptBy plan: Plan? = nil) throws(InputError) -> Baseline {
    try load(path, sweptBySteps: plan.map(PlanStepSet.index))
  }

  /// The same, for a plan known by its steps' records (`merge`).
  static func load(_ path: URL, sweptBySteps current: [String: PlanStepSet]?) throws(InputError)
    -> Baseline
  {
    let role = "--baseline"
    if var legacy = try LegacyResults.readIfLegacy(path, role: role) {
      if let current { legacy.removed = legacy.removed(fromSteps: current) }
      return legacy
    }
    let results = try ResultsDirectory(path, role: role, as: Head.self)
    var steps: [String: PlanStepSet] = [:]
    let stepReader = try results.steps()
    while let step = try stepReader.next(StepLine.self) {
      // StepRecord's decoder has checked the plan already.
      guard let (key, set) = PlanStepSet.decode(step.plan) else { continue }
      steps[key] = set
    }
    var failures: [String: UInt64] = [:]
    let caseReader = try results.cases()
    while let entry = try caseReader.next(FailureLine.self) {
      guard entry.verdict == .failed || entry.verdict == .errored else { continue }
      failures[entry.id] = try entry.digest(in: caseReader.path)
    }
    let run = results.record.run
    var baseline = Baseline(
      reference: BaselineReference(
        path: results.url.path, started: ISO8601DateFormatter().string(from: run.started),
        versions: "libicu \(run.versions?.oracle.icu ?? "?") / "
          + "Foundation ICU \(run.versions?.subjectICU?.icu ?? "?")"),
      failures: failures, steps: steps)
    if let current { baseline.removed = baseline.removed(fromSteps: current) }
    return baseline
  }

  /// The baseline's failing cases that steps (as a results' plan records them) do not sweep.
  func removed(fromSteps current: [String: PlanStepSet]) -> [String] {
    failures.keys.sorted().filter { text in
      guard let id = try? CaseID(parsing: text) else { return true }
      return !PlanStepSet.groupKeys(of: id).contains { current[$0]?.contains(id) == true }
    }
  }

  /// What a baseline reads of `results.json`: when the run started and its versions.
  private struct Head: Decodable, Sendable {
    struct Run: Decodable, Sendable {
      var started: Date
      var versions: RunVersions?
    }
    var run: Run
  }

  /// What a baseline reads of a step record: its plan.
  private struct StepLine: Decodable {
    var plan: String
  }

  /// What a baseline reads of a case record: its id, verdict and actual value (or digest).
  private struct FailureLine: Decodable {
    var id: String
    var verdict: Outcome.Verdict
    var actual: Value?
    var actualDigest: String?

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

  /// The baseline in `path` when it is an older results.json, else `nil`.
  static func readIfLegacy(_ path: URL, role: String) throws(InputError) -> Baseline? {
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
    var steps: [String: PlanStepSet] = [:]
    for (index, line) in plan.enumerated() {
      guard let (key, step) = PlanStepSet.decode(line) else {
        throw InputError("\(role) \(url.path): plan entry \(index + 1) is malformed")
      }
      steps[key] = step
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
    return Baseline(
      reference: BaselineReference(
        path: url.path, started: document.run?.started ?? "?",
        versions: "libicu \(document.versions?.oracle?.icu ?? "?") / "
          + "Foundation ICU \(document.versions?.subject?.icu ?? "?")"),
      failures: failures, steps: steps)
  }
}
