import Foundation
import ICUOracle

/// `conformance merge DIR...`: one run's reports from the reports of its shards
/// (`--shard K/N`), identical to a single machine's run but for timestamps and the output
/// path.
///
/// Each shard's step records are read whole (they are small); its cases are streamed. Steps
/// are replayed in plan order, each with its shard's cases, through the same recorder a run
/// uses, so every count is made as a single run makes it.
package enum ShardMerge {
  package static func run(_ directories: [URL], out: URL) throws -> ConformanceRun.Result {
    guard !directories.isEmpty else { throw InputError("merge needs the shards' report directories") }
    let shards = try directories.map(ShardReport.init)
    try validate(shards)
    let directory = try ReportDirectory(validating: out)
    let first = shards[0].results.record
    let order = shards.indices.flatMap { shard in shards[shard].steps.map { ($0.index, shard) } }
      .sorted { $0.0 < $1.0 }
    // Shards cut from other plans or costs would hold a step twice (their options differ too).
    for (one, other) in zip(order, order.dropFirst()) where one.0 == other.0 {
      throw InputError("merge: step \(one.0) is in both \(shards[one.1].path) and \(shards[other.1].path)")
    }
    // What each step swept, by its group: the baseline's removed cases are judged by it, so
    // it is read only when there is a baseline.
    let baseline = try first.run.review.baseline.map { reference throws(InputError) in
      let planned = Dictionary(
        shards.flatMap(\.steps).compactMap { step in PlanStepSet.group(ofEncoded: step.plan).map { ($0, step.plan) } },
        uniquingKeysWith: { a, _ in a })
      return try Baseline.load(URL(fileURLWithPath: reference.path), sweptBySteps: planned)
    }
    let staging = try directory.makeStaging()
    do {
      let files = first.files
      let recorder = RunRecorder(
        keepProblems: false,
        cases: try JSONLinesWriter(url: staging.appendingPathComponent(files.cases),
                                   explain: first.run.explainCommand.explainer),
        steps: try JSONLinesWriter(url: staging.appendingPathComponent(files.steps)))
      let info = runInfo(shards: shards, out: directory.url)
      recorder.record(Event(.runStarted(info)))
      for (index, shard) in order {
        let (step, line, cases) = try shards[shard].step(index)
        try recorder.record(merged: step, line: line, cases: cases)
      }
      for shard in shards { try shard.checkEnd() }
      recorder.record(Event(.runEnded(elapsed: shards.map(\.results.record.elapsedSeconds).max() ?? 0)))
      try recorder.close()
      // The shards ran the same waivers: the first names them, every shard's steps count them.
      let shardReview = first.run.review
      let review = info.review.completed(
        activeWaivers: shardReview.waiverMatches, matches: recorder.tally.waiverMatches,
        inactive: shardReview.stale.filter { $0.why != RunInfo.ReviewSummary.matchedNothing },
        removed: baseline?.removed ?? [], contradictions: recorder.tally.waiverContradictions,
        outOfScope: recorder.tally.waiverOutOfScope)
      recorder.completeReview(review)
      let tally = recorder.tally
      try ConformanceRun.write(tally, into: staging, files: files)
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

  /// The run's description, as a single machine would have written it.
  static func runInfo(shards: [ShardReport], out: URL) -> RunInfo {
    var info = shards[0].results.record.run
    // The options and arguments of a single run: no --shard, this output.
    var arguments = info.arguments
    if let position = arguments.firstIndex(where: { $0 == "--shard" || $0.hasPrefix("--shard=") }) {
      arguments.remove(at: position)
      if position < arguments.count, !arguments[position].hasPrefix("--") { arguments.remove(at: position) }
    }
    // The page's header and results.json state this output, not the first shard's.
    if let position = arguments.firstIndex(of: "--out"), position + 1 < arguments.count {
      arguments[position + 1] = out.path
    } else if let position = arguments.firstIndex(where: { $0.hasPrefix("--out=") }) {
      arguments[position] = "--out=" + out.path
    }
    info.arguments = arguments
    info.options = info.options.map { option in
      switch option.name {
      case "shard": RunInfo.RunOption("shard", "none")
      case "shard-costs": RunInfo.RunOption("shard-costs", "none")
      case "out": RunInfo.RunOption("out", out.path)
      default: option
      }
    }
    info.started = shards.map(\.results.record.run.started).min() ?? info.started
    info.isolation = IsolationSummary.merged(shards.compactMap(\.results.record.run.isolation))
    info.review.waiverMatches = []
    info.review.stale = []
    info.review.contradicted = nil
    info.review.outOfScope = nil
    info.review.removed = []
    return info
  }
}

/// One shard's results read for merging: its run record and step records whole (with the
/// lines they were read from), its cases streamed in plan order a batch ahead.
final class ShardReport {
  let results: ResultsDirectory<RunRecord>
  let path: String
  let shard: (index: Int, count: Int)
  /// The options that must agree between shards (all but shard, out and jobs).
  let selection: [String]
  let steps: [StepRecord]
  /// Each step record and its line as the shard wrote it (`nil` when it spans lines).
  private let stepsByIndex: [Int: (record: StepRecord, line: Data?)]
  private let cases: ShardCaseFeed
  private let casesPath: String
  /// The batch of case lines being taken, and where the next one is.
  private var readAhead: [CaseLine] = []
  private var next = 0

  init(_ directory: URL) throws {
    results = try ResultsDirectory(directory, role: "merge", as: RunRecord.self)
    path = results.url.path
    let run = results.record.run
    let parts = (run.option("shard") ?? "none").split(separator: "/").compactMap { Int($0) }
    guard parts.count == 2 else { throw InputError("merge: \(path) is not a shard (--shard K/N)") }
    shard = (parts[0], parts[1])
    selection = run.options.filter { !["shard", "out", "jobs"].contains($0.name) }
      .map { "\($0.name)=\($0.value)" }.sorted()
    var steps: [(record: StepRecord, line: Data?)] = []
    try results.steps().forEachBatch(decode: { batch throws(InputError) in
      let records = try batch.decodeMembers(StepRecord.self)
      let lines = try batch.map { bytes, _ in bytes.contains(0x0A) ? nil : Data(bytes) }
      return Array(zip(records, lines))
    }) { batch in steps += batch }
    self.steps = steps.map(\.record)
    stepsByIndex = Dictionary(steps.map { ($0.record.index, $0) }, uniquingKeysWith: { a, _ in a })
    let reader = try results.cases()
    casesPath = reader.path
    cases = ShardCaseFeed(reader)
  }

  /// Step `index`, its line, and its cases, read in order from the shard's cases.
  func step(_ index: Int) throws(InputError) -> (StepRecord, Data?, [CaseLine]) {
    guard let (step, line) = stepsByIndex[index] else {
      throw InputError("merge: \(path): no step \(index)")
    }
    var taken: [CaseLine] = []
    while true {
      try fill()
      guard next < readAhead.count, readAhead[next].summary.step == index else { break }
      taken.append(readAhead[next])
      next += 1
    }
    if next < readAhead.count, readAhead[next].summary.step < index {
      let early = readAhead[next].summary
      throw InputError("merge: \(casesPath): case \(early.id) of step \(early.step) is out of plan order")
    }
    return (step, line, taken)
  }

  /// Takes the next batch once the last is used up.
  private func fill() throws(InputError) {
    if next == readAhead.count {
      (readAhead, next) = (try cases.next(), 0)
    }
  }

  /// Checks that every case was read with its step.
  func checkEnd() throws {
    try fill()
    if next < readAhead.count {
      let extra = readAhead[next].summary
      throw InputError("merge: \(casesPath): case \(extra.id) names step \(extra.step), which is not in this shard")
    }
  }
}
