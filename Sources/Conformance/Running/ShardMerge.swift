import Foundation
import ICUOracle

/// `conformance merge DIR...`: one run's reports from the reports of its shards
/// (`--shard K/N`), identical to a single machine's run but for timestamps and the output
/// path.
///
/// Steps are interleaved by their index in the whole plan; each step's failing cases are
/// read from its shard's results.json in order, so nothing is held but one step at a time.
public enum ShardMerge {
  public static func run(_ directories: [URL], out: URL) throws -> ConformanceRun.Result {
    guard !directories.isEmpty else { throw InputError("merge needs the shards' report directories") }
    let shards = try directories.map(ShardReport.init)
    try validate(shards)
    let directory = try ReportDirectory(validating: out)
    let staging = try directory.makeStaging()
    do {
      let first = shards[0]
      let failures = try JSONLinesWriter(url: staging.appendingPathComponent(ConformanceRun.failureLog),
                                         separator: ResultsJSON.failureSeparator)
      let tally = RunTally(keepProblems: false, failureSink: ResultsJSON.failureSink(into: failures))
      var info = try first.runInfo(shards: shards, out: directory.url)
      let order = shards.flatMap { shard in shard.steps.map { ($0.index, shard) } }.sorted { $0.0 < $1.0 }
      info.planLines = order.compactMap { index, shard in shard.planLine(forStep: index) }
      tally.start(info, elapsed: shards.map(\.elapsed).max() ?? 0)
      for (index, shard) in order {
        guard let step = shard.step(index) else { continue }
        tally.recordMerged(step: step, failures: try shard.failures(ofStep: index))
      }
      for shard in shards {
        tally.absorb(matrices: shard.matrices, skipReasons: shard.skipReasons,
                     baselineCounts: shard.baselineClasses)
      }
      var review = info.review
      review.waiverMatches = first.waiverMatches.map { waiver in
        (waiver.id, shards.reduce(0) { $0 + ($1.waiverMatches.first { $0.id == waiver.id }?.count ?? 0) })
      }
      review.stale = review.waiverMatches.filter { $0.count == 0 }.map { ($0.id, "matched no case of this run") }
        + first.inactiveWaivers
      if let baseline = info.review.baseline, let loaded = try? Baseline.load(URL(fileURLWithPath: baseline.path)) {
        review.removed = loaded.removed(fromSteps: Dictionary(
          info.planLines.compactMap(PlanStepSet.decode), uniquingKeysWith: { a, _ in a }))
      }
      tally.completeReview(review)
      failures.close()
      try ConformanceRun.write(tally, into: staging, recordedCases: nil)
      try FileManager.default.removeItem(at: staging.appendingPathComponent(ConformanceRun.failureLog))
      try directory.commit(staging)
      var result = ConformanceRun.summarize(
        tally, directory: directory, failOn: FailOn(rawValue: review.failOn) ?? .unexpected)
      result.cases = tally.totals.total
      return result
    } catch {
      directory.discard(staging)
      throw error
    }
  }

  /// Shards belong together when they ran the same selection and are K/N for one N, each K
  /// once.
  static func validate(_ shards: [ShardReport]) throws(InputError) {
    let counts = Set(shards.map(\.shard.count))
    guard counts.count == 1, let total = counts.first else {
      throw InputError("merge: the directories are shards of different splits ("
        + shards.map { "\($0.path): \($0.shard.index)/\($0.shard.count)" }.joined(separator: ", ") + ")")
    }
    let indices = shards.map(\.shard.index).sorted()
    guard indices == Array(1...total) else {
      throw InputError("merge: expected shards 1…\(total) once each, got "
        + indices.map(String.init).joined(separator: ", "))
    }
    let selection = shards[0].selection
    for shard in shards.dropFirst() where shard.selection != selection {
      throw InputError("merge: \(shard.path) ran another selection than \(shards[0].path)")
    }
  }
}

/// One shard's results.json, read for merging: its head parsed, its failures streamed.
final class ShardReport {
  let path: String
  let head: [String: Any]
  let shard: (index: Int, count: Int)
  /// The options that must agree between shards (all but shard, out and jobs).
  let selection: [String]
  let steps: [RunTally.Step]
  private let planLines: [Int: String]
  private let lines: LineReader
  private var pending: (step: Int, result: CaseResult, line: String)?
  private var lineNumber = 0
  private var inFailures = false

  init(_ directory: URL) throws {
    let url = directory.appendingPathComponent("results.json")
    path = url.path
    guard let reader = LineReader(url: url) else {
      throw InputError("merge: cannot read \(url.path)")
    }
    // The head runs up to the failures, which come one per line; the rest follows them.
    var head = ""
    var tail = ""
    var afterFailures = false
    let headReader = LineReader(url: url)
    while let line = headReader?.next() {
      if afterFailures { tail += line + "\n"; continue }
      if line.hasPrefix("  \"failures\": [") {
        head += "  \"failures\": []"
        if line.hasSuffix("],") || line.hasSuffix("]") { tail += line.hasSuffix(",") ? ",\n" : "\n"; afterFailures = true; continue }
        while let inner = headReader?.next() {
          if inner.hasPrefix("  ]") { tail += String(inner.dropFirst(3)) + "\n"; break }
        }
        afterFailures = true
        continue
      }
      head += line + "\n"
    }
    guard let root = try? JSONSerialization.jsonObject(with: Data((head + tail).utf8)) as? [String: Any],
      root["schema"] as? String == ResultsJSON.schema
    else { throw InputError("merge: \(url.path) is not a results.json of this version") }
    self.head = root
    let options = Dictionary(((root["run"] as? [String: Any])?["options"] as? [String: String] ?? [:])
      .map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    let parts = (options["shard"] ?? "none").split(separator: "/").compactMap { Int($0) }
    guard parts.count == 2 else { throw InputError("merge: \(url.path) is not a shard (--shard K/N)") }
    shard = (parts[0], parts[1])
    selection = options.filter { !["shard", "out", "jobs"].contains($0.key) }.map { "\($0.key)=\($0.value)" }.sorted()
    let stepLines = root["steps"] as? [String] ?? []
    var steps: [RunTally.Step] = []
    for line in stepLines {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      let numbers = fields.count > 3 ? fields[3].split(separator: ",").compactMap { Int($0) } : []
      guard fields.count == 6, let index = Int(fields[0]), numbers.count == 6 else {
        throw InputError("merge: \(url.path): step line '\(line)' is malformed")
      }
      var counts = StatusCounts()
      (counts.passed, counts.failed, counts.errored, counts.skipped, counts.waived, counts.unexpectedPass) =
        (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
      steps.append(RunTally.Step(index: index, check: fields[1], name: fields[2], counts: counts,
                                 duration: Double(fields[4]) ?? 0, examples: [],
                                 skipReason: fields[5].isEmpty ? nil : fields[5]))
    }
    self.steps = steps
    let plan = root["plan"] as? [String] ?? []
    guard plan.count == steps.count else {
      throw InputError("merge: \(url.path): \(plan.count) plan lines for \(steps.count) steps")
    }
    planLines = Dictionary(zip(steps.map(\.index), plan), uniquingKeysWith: { a, _ in a })
    lines = reader
  }

  var elapsed: Double { (head["run"] as? [String: Any])?["elapsedSeconds"] as? Double ?? 0 }

  func step(_ index: Int) -> RunTally.Step? { steps.first { $0.index == index } }
  func planLine(forStep index: Int) -> String? { planLines[index] }

  /// The failing cases of step `index`, read in order from the shard's failures.
  func failures(ofStep index: Int) throws -> [CaseResult] {
    var result: [CaseResult] = []
    while true {
      if let pending {
        guard pending.step == index else {
          if pending.step < index {
            throw InputError("merge: \(path): failures out of plan order near step \(pending.step)")
          }
          return result
        }
        var next = pending.result
        next.json = pending.line
        result.append(next)
        self.pending = nil
      }
      guard let next = try readFailure() else { return result }
      pending = next
    }
  }

  private func readFailure() throws -> (step: Int, result: CaseResult, line: String)? {
    while let line = lines.next() {
      lineNumber += 1
      if !inFailures {
        if line.hasPrefix("  \"failures\": [") { inFailures = !line.hasSuffix("]") && !line.hasSuffix("],") }
        continue
      }
      if line.hasPrefix("  ]") { inFailures = false; return nil }
      var text = Substring(line).drop { $0 == " " }
      if text.hasSuffix(",") { text = text.dropLast() }
      guard let result = try? Self.caseResult(fromJSON: String(text)), let step = result.step else {
        throw InputError("merge: \(path):\(lineNumber): not a failing case of results.json")
      }
      return (step, result, String(text))
    }
    return nil
  }

  /// A case as results.json and workers write it, read back.
  static func caseResult(fromJSON text: String) throws -> CaseResult {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
      let idText = object["id"] as? String,
      let id = try? CaseID(parsing: idText),
      let status = Outcome.Status(rawValue: object["status"] as? String ?? "")
    else { throw HarnessError("not a case of results.json: \(text.prefix(120))") }
    var outcome = Outcome(status: status, expected: Value(json: object["expected"]),
                          actual: Value(json: object["actual"]),
                          pattern: object["pattern"] as? String ?? "",
                          detail: object["detail"] as? [String] ?? [])
    if let months = object["months"] as? [String: String], let oracle = months["oracle"],
      let subject = months["subject"]
    {
      outcome.months = MonthReadings(oracle: oracle, subject: subject)
    }
    outcome.triage = (object["triage"] as? String).flatMap(Triage.init)
    if object["expectedFoundationICU"] != nil, !(object["expectedFoundationICU"] is NSNull) {
      outcome.triageExpected = Value(json: object["expectedFoundationICU"])
    }
    outcome.waiver = object["waiver"] as? String
    outcome.baseline = (object["baseline"] as? String).flatMap(Baseline.Class.init)
    var result = CaseResult(id: id, outcome: outcome, json: text, step: object["step"] as? Int)
    result.isAbridged = object["actualDigest"] != nil
    return result
  }

  // MARK: What the shard's head says

  var matrices: [String: [String: [String: RunTally.PassCount]]] {
    let object = head["matrices"] as? [String: [String: [String: [Int]]]] ?? [:]
    return object.mapValues { dimensions in
      dimensions.mapValues { values in
        values.mapValues { RunTally.PassCount(passed: $0.first ?? 0, total: $0.last ?? 0) }
      }
    }
  }

  var skipReasons: [String: Int] { head["skipReasons"] as? [String: Int] ?? [:] }

  private var review: [String: Any] { head["review"] as? [String: Any] ?? [:] }

  var baselineClasses: [Baseline.Class: Int] {
    let classes = (review["baseline"] as? [String: Any])?["classes"] as? [String: Int] ?? [:]
    return Dictionary(classes.compactMap { key, value in Baseline.Class(rawValue: key).map { ($0, value) } },
                      uniquingKeysWith: +)
  }

  var waiverMatches: [(id: String, count: Int)] {
    let waivers = review["waivers"] as? [String: Any]
    let matched = waivers?["matched"] as? [[Any]] ?? []
    return matched.compactMap { pair in
      guard pair.count == 2, let id = pair[0] as? String, let count = pair[1] as? Int else { return nil }
      return (id, count)
    }
  }

  var inactiveWaivers: [(id: String, why: String)] {
    let waivers = review["waivers"] as? [String: Any]
    let stale = waivers?["stale"] as? [[String: String]] ?? []
    return stale.compactMap { entry in
      guard let id = entry["id"], let why = entry["why"], why != "matched no case of this run" else { return nil }
      return (id, why)
    }
  }

  /// The run's description, as a single machine would have written it.
  func runInfo(shards: [ShardReport], out: URL) throws -> RunInfo {
    let run = head["run"] as? [String: Any] ?? [:]
    let versionsObject = head["versions"] as? [String: Any] ?? [:]
    let oracle = versionsObject["oracle"] as? [String: String] ?? [:]
    let subject = versionsObject["subject"] as? [String: Any] ?? [:]
    let versions = RunVersions(
      swift: versionsObject["swift"] as? String ?? "?",
      oracle: ICUVersions(icu: oracle["icu"] ?? "?", cldr: oracle["cldr"] ?? "?", tz: oracle["tz"] ?? "?"),
      subjectICU: (subject["icu"] as? String).map {
        ICUVersions(icu: $0, cldr: subject["cldr"] as? String ?? "?", tz: subject["tzICU"] as? String ?? "?")
      },
      subjectICUProblem: subject["icuProblem"] as? String,
      subjectTimeZoneData: subject["tz"] as? String ?? "?")
    // The options and arguments of a single run: no --shard, this output.
    var arguments = run["arguments"] as? [String] ?? []
    if let position = arguments.firstIndex(where: { $0 == "--shard" || $0.hasPrefix("--shard=") }) {
      arguments.remove(at: position)
      if position < arguments.count, !arguments[position].hasPrefix("--") { arguments.remove(at: position) }
    }
    let recorded = run["options"] as? [String: String] ?? [:]
    let options = RunOptions.reportedKeys.compactMap { key -> (String, String)? in
      switch key {
      case "shard": return ("shard", "none")
      case "out": return ("out", out.path)
      default: return recorded[key].map { (key, $0) }
      }
    }
    let coverageObject = head["coverage"] as? [String: Any] ?? [:]
    let coverage = (coverageObject["checks"] as? [[String: Any]] ?? []).map { entry in
      PlanCoverage(
        check: entry["check"] as? String ?? "?", cases: entry["cases"] as? Int ?? 0,
        steps: entry["steps"] as? Int ?? 0, locales: entry["locales"] as? Int ?? 0,
        calendars: entry["calendars"] as? Int ?? 0, firstWeekdays: entry["firstWeekdays"] as? Int ?? 0,
        zones: entry["zones"] as? Int ?? 0, zoneMonths: entry["zoneMonths"] as? Int ?? 0,
        months: entry["months"] as? Int ?? 0,
        transitionsByKind: entry["transitionsByKind"] as? [String: Int] ?? [:],
        crossProduct: entry["crossProduct"] as? Int ?? 0,
        equivalentZoneMonths: entry["equivalentZoneMonths"] as? Int ?? 0)
    }
    let checks = (head["checks"] as? [[String: Any]] ?? []).map {
      (id: $0["id"] as? String ?? "?", summary: $0["summary"] as? String ?? "")
    }
    let started = shards.compactMap {
      ($0.head["run"] as? [String: Any])?["started"] as? String
    }.min().flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date()
    var info = RunInfo(arguments: arguments, options: options, versions: versions, coverage: coverage,
                       transitionsByKind: coverageObject["transitionsByKind"] as? [String: Int] ?? [:],
                       checks: checks, started: started, subject: run["subject"] as? String ?? "?")
    info.aliases = ((coverageObject["aliases"] as? [String: String]) ?? [:]).map { ($0.key, $0.value) }
      .sorted { $0.0 < $1.0 }
    info.invariantOnlyCalendars = coverageObject["invariantOnlyCalendars"] as? [String] ?? []
    info.triageProblem = (head["triage"] as? [String: String])?["off"]
    var review = RunInfo.ReviewSummary()
    review.failOn = self.review["failOn"] as? String ?? FailOn.unexpected.rawValue
    review.waiverFile = (self.review["waivers"] as? [String: Any])?["file"] as? String
    if let baseline = self.review["baseline"] as? [String: Any], let path = baseline["path"] as? String {
      review.baseline = Baseline(path: path, started: baseline["started"] as? String ?? "?",
                                 versions: baseline["versions"] as? String ?? "?")
    }
    info.review = review
    return info
  }
}
